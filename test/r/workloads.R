# R workloads profiled by make-rprof-samples.R. Odd names on purpose:
# R writes call names raw into Rprof files, and prof must keep them.
burn <- function(n) { s <- 0; for (i in seq_len(n)) s <- s + sqrt(i); s }
alloc_work <- function(k) { x <- list(); for (i in seq_len(k)) x[[i]] <- rnorm(200); length(x) }
`my fun` <- function() burn(2e5)
`a"b` <- function() burn(2e5)
`q" sp` <- function() burn(2e5)
`back\\slash` <- function() burn(2e5)
`ta\tb` <- function() burn(2e5)
`größe` <- function() burn(2e5)
`bu
rn` <- function() burn(2e5)
fl <- list(f = function() burn(2e5), `a b` = function() burn(2e5))
names_work <- function(reps) {
  for (r in seq_len(reps)) {
    `my fun`(); `a"b`(); `q" sp`(); `back\\slash`(); `ta\tb`(); `größe`(); `bu\nrn`()
    fl[["f"]](); fl[["a b"]](); fl[[1]]()
    alloc_work(3000)
  }
}
deep <- function(d) if (d > 0) deep(d - 1) else burn(3e5)
a_rather_long_function_name_to_fill_the_line_buffer_quickly <- function(d)
  if (d > 0) a_rather_long_function_name_to_fill_the_line_buffer_quickly(d - 1) else deep(5)
