# Writes R's own memory view of a memory-profiled Rprof file, the golden
# for prof's alloc/bytes: per function, the mem.total that
# summaryRprof(memory = "both") reports (MB, one decimal), sorted by name
# in byte order. Functions R rounds to 0.0 MB are left out, as prof's
# summary leaves out functions without bytes.
args <- commandArgs(TRUE)
t <- summaryRprof(args[1], memory = "both")$by.total
names <- gsub('^"|"$', "", rownames(t))
out <- data.frame(name = names, mb = sprintf("%.1f", t$mem.total))
out <- out[t$mem.total > 0, ]
out <- out[order(out$name, method = "radix"), ]
write.table(out, args[2], sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
