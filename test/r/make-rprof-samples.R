# Makes the R-written Rprof files in testdata/rprof/ (run by
# test/make-rprof-samples.sh): all of them, or those named after the two
# directories. Samples are timer driven: a rerun differs.
args <- commandArgs(TRUE)
out <- args[1]
setwd(args[2])  # holds workloads.R, so #File paths are relative
only <- args[-(1:2)]
set.seed(1)
work <- function(reps) names_work(reps)

# Profiles expr into out/file, unless other files were asked for.
prof <- function(file, expr, ...) {
  if (length(only) && !(file %in% only)) return(invisible())
  Rprof(file.path(out, file), ...); force(expr); Rprof(NULL)
}

source("workloads.R", keep.source = TRUE)
prof("names-memory-line.out", work(6),
     interval = 0.002, memory.profiling = TRUE, line.profiling = TRUE)
prof("names-gc.out", work(5), interval = 0.005, gc.profiling = TRUE)
prof("deep-truncated.out",
     for (i in 1:3) a_rather_long_function_name_to_fill_the_line_buffer_quickly(160),
     interval = 0.002)

# Code typed at the console has an empty srcfile name: "#File 1: ".
code <- "console_burn <- function() burn(4e5)\nfor (i in 1:8) console_burn()\n"
exprs <- parse(text = code, keep.source = TRUE, srcfile = srcfilecopy("", code))
prof("console-memory-line.out", for (e in exprs) eval(e),
     interval = 0.002, memory.profiling = TRUE, line.profiling = TRUE)

# Appended runs: a second header mid-file, #File numbering restarted.
prof("append-mixed.out", work(1), interval = 0.005, line.profiling = TRUE)
writeLines("other_burn <- function() burn(6e5)\nother_work <- function() for (i in 1:3) other_burn()",
           "other.R")
source("other.R", keep.source = TRUE)
prof("append-mixed.out", { other_work(); work(1) }, interval = 0.002, append = TRUE,
     memory.profiling = TRUE, gc.profiling = TRUE, line.profiling = TRUE)
unlink("other.R")

# Code from several files, each first used after the one before: R writes
# each "#File N:" line between samples, where a sample first meets it.
stages <- sprintf("stage%d.R", 1:6)
for (k in 1:6)
  writeLines(sprintf("stage%d <- function() {\n  for (i in 1:3) burn(3e5)\n}", k), stages[k])
for (s in stages) source(s, keep.source = TRUE)
prof("files-line.out", { stage1(); stage2(); stage3(); stage4(); stage5(); stage6() },
     interval = 0.002, line.profiling = TRUE)
unlink(stages)

# Code from more source files than a first table of file numbers holds
# (16): R numbers them past 16, and every one is met by a sample.
many <- sprintf("file%02d.R", 1:18)
for (k in seq_along(many))
  writeLines(sprintf("file%02d <- function() {\n  burn(2e5)\n}", k), many[k])
for (s in many) source(s, keep.source = TRUE)
prof("many-files-line.out", for (k in seq_along(many)) get(sprintf("file%02d", k))(),
     interval = 0.002, line.profiling = TRUE)
unlink(many)
