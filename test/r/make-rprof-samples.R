# Makes the R-written Rprof files in testdata/rprof/ (run by
# test/make-rprof-samples.sh). Samples are timer driven: a rerun differs.
args <- commandArgs(TRUE)
out <- args[1]
setwd(args[2])  # holds workloads.R, so #File paths are relative
set.seed(1)
work <- function(reps) names_work(reps)

prof <- function(file, expr, ...) { Rprof(file, ...); force(expr); Rprof(NULL) }

source("workloads.R", keep.source = TRUE)
prof(file.path(out, "names-memory-line.out"), work(6),
     interval = 0.002, memory.profiling = TRUE, line.profiling = TRUE)
prof(file.path(out, "names-gc.out"), work(5), interval = 0.005, gc.profiling = TRUE)
prof(file.path(out, "deep-truncated.out"),
     for (i in 1:3) a_rather_long_function_name_to_fill_the_line_buffer_quickly(160),
     interval = 0.002)

# Code typed at the console has an empty srcfile name: "#File 1: ".
code <- "console_burn <- function() burn(4e5)\nfor (i in 1:8) console_burn()\n"
exprs <- parse(text = code, keep.source = TRUE, srcfile = srcfilecopy("", code))
prof(file.path(out, "console-memory-line.out"), for (e in exprs) eval(e),
     interval = 0.002, memory.profiling = TRUE, line.profiling = TRUE)

# Appended runs: a second header mid-file, #File numbering restarted.
appended <- file.path(out, "append-mixed.out")
prof(appended, work(1), interval = 0.005, line.profiling = TRUE)
writeLines("other_burn <- function() burn(6e5)\nother_work <- function() for (i in 1:3) other_burn()",
           "other.R")
source("other.R", keep.source = TRUE)
prof(appended, { other_work(); work(1) }, interval = 0.002, append = TRUE,
     memory.profiling = TRUE, gc.profiling = TRUE, line.profiling = TRUE)
unlink("other.R")
