# Writes R's own per-function tick counts for an Rprof file, the golden
# that prof's model must agree with: name, self ticks, total ticks, sorted
# by name in byte order. Ticks = time / interval, as summaryRprof counts.
# Usage: Rscript summaryrprof.R FILE GOLDEN [FILE GOLDEN]...: a file R
# cannot read gets no golden, a message on stderr, and the exit status 1.
args <- commandArgs(TRUE)
unread <- FALSE
for (i in seq(1, length(args), by = 2)) tryCatch({
  s <- summaryRprof(args[i])
  t <- s$by.total
  ticks <- function(x) as.integer(round(x / s$sample.interval))
  names <- rownames(t)
  names <- gsub('^"|"$', "", names)
  o <- order(names, method = "radix")
  out <- data.frame(name = names, self = ticks(t$self.time), total = ticks(t$total.time))[o, ]
  write.table(out, args[i + 1], sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
}, error = function(e) {
  message(args[i], ": ", conditionMessage(e))
  unread <<- TRUE
})
if (unread) quit(status = 1)
