# Writes R's own per-function tick counts for an Rprof file, the golden
# that prof's model must agree with: name, self ticks, total ticks, sorted
# by name in byte order. Ticks = time / interval, as summaryRprof counts.
args <- commandArgs(TRUE)
s <- summaryRprof(args[1])
t <- s$by.total
ticks <- function(x) as.integer(round(x / s$sample.interval))
names <- rownames(t)
names <- gsub('^"|"$', "", names)
o <- order(names, method = "radix")
out <- data.frame(name = names, self = ticks(t$self.time), total = ticks(t$total.time))[o, ]
write.table(out, args[2], sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
