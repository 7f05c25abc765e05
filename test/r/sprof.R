# sprof's summaries of an Rprof file, the golden that `prof -t sprof` must
# equal. Written here from the definitions of Sawitzki's sprof 0.1.1 as
# docs/formats/sprof.md states them (sprof is not on CRAN and not
# installed): readRprof's simple reading (quotes deleted, records split at
# spaces, the header dropped, memory prefixes cut), its stacks (distinct
# record texts in order of first appearance), summary_profiles,
# summary_stacks, summary_nodes, and nodesrunlength's runs (rrle). Then
# sprof's milliseconds become samples (ms / interval) and seconds
# (ms / 1000), and percentages are over records, not sprof's ms / records.
# The short names are R's own abbreviate(names, minlength = 4).
#
# Usage: Rscript sprof.R FILE GOLDEN [FILE GOLDEN]...
# A file that sprof's simple reading gets wrong (docs/formats/sprof.md:
# line profiling, a name with a space or a quote, appended runs, dropped
# empty records, every stack of one length) gets no golden: a message on
# stderr, and the exit status 1.

readable <- function(lines) {
  headers <- grep("sample\\.interval=", lines)
  why <- character(0)
  if (length(headers) != 1 || headers[1] != 1) why <- c(why, "not one header, first")
  if (grepl("line profiling", lines[1]) || any(grepl("^#File ", lines)))
    why <- c(why, "line profiling: sprof takes #File lines and line references as records and nodes")
  records <- lines[-1]
  if (grepl("^memory", lines[1])) records <- sub("^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:", "", records)
  quoted <- grepl('^"[^" ]+"( "[^" ]+")* ?$', records)
  bare <- grepl('^[^" ]+( [^" ]+)* ?$', records)
  if (!all(quoted | bare)) why <- c(why, "a name sprof splits or joins (a space, a quote, a line break, none)")
  why
}

# sprof's readRprof, as far as the summaries need it.
read_sprof <- function(file) {
  lines <- readLines(file, warn = FALSE, encoding = "UTF-8")
  why <- readable(lines)
  if (length(why)) stop(paste(why, collapse = "; "))
  interval_us <- as.numeric(sub(".*sample\\.interval=", "", lines[1]))
  records <- gsub('"', "", lines[-1])
  if (grepl("^memory", lines[1]))
    records <- substring(records, attr(regexpr(":[0-9]+:[0-9]+:[0-9]+:[0-9]+:", records), "match.length") + 1)
  records <- sub(" $", "", records)
  texts <- unique(records)
  nodes <- lapply(strsplit(texts, " "), rev) # root first
  if (length(unique(lengths(nodes))) == 1) stop("every stack has one length: readRprof stops")
  list(file = file, interval_ms = interval_us / 1e3, interval_us = interval_us,
       data = match(records, texts), stacks = nodes,
       refcount_ms = tabulate(match(records, texts), length(texts)) * interval_us / 1e3)
}

# summary_profiles
profiles <- function(x) {
  list(len = length(x$data), uniquestacks = length(unique(x$data)), nr_runs = length(rle(x$data)$lengths))
}

# summary_stacks
stacks_summary <- function(x) {
  depth <- max(lengths(x$stacks))
  per_level <- sapply(seq_len(depth), function(l) {
    at <- sapply(x$stacks, function(s) if (length(s) >= l) s[l] else NA)
    length(unique(at[!is.na(at)]))
  })
  list(nrstacks = length(x$stacks), stacklength = range(lengths(x$stacks)), nrnodesperlevel = per_level)
}

# summary_nodes: ms per node, self from the leaf, total once per stack.
nodes_summary <- function(x) {
  names <- unique(unlist(x$stacks))
  self <- total <- setNames(numeric(length(names)), names)
  root <- leaf <- setNames(rep("-", length(names)), names)
  for (i in seq_along(x$stacks)) {
    s <- x$stacks[[i]]
    self[s[length(s)]] <- self[s[length(s)]] + x$refcount_ms[i]
    total[unique(s)] <- total[unique(s)] + x$refcount_ms[i]
    root[s[1]] <- "ROOT"
    leaf[s[length(s)]] <- "LEAF"
  }
  data.frame(name = names, root = root, leaf = leaf, self.time = self, total.time = total,
             stringsAsFactors = FALSE)
}

# rrle and nodesrunlength: a run at level k is a longest stretch of
# records whose stacks agree on levels 1..k; records shorter than k (NA)
# make no run. Per node: its runs at every level, and the records in them.
runs_by_node <- function(x) {
  paths <- x$stacks[x$data]
  n <- length(paths)
  starts <- cells <- character(0)
  for (k in seq_len(max(lengths(paths)))) {
    at_k <- function(f) vapply(paths, function(p) if (length(p) >= k) f(p) else NA_character_, "")
    key <- at_k(function(p) paste(p[1:k], collapse = "\r"))
    node <- at_k(function(p) p[k])
    continues <- c(FALSE, !is.na(key[-1]) & !is.na(key[-n]) & key[-1] == key[-n])
    starts <- c(starts, node[!is.na(key) & !continues])
    cells <- c(cells, node[!is.na(key)])
  }
  list(nr_runs = table(starts), records = table(cells))
}

esc <- function(s) gsub("\n", "\\\\n", gsub("\t", "\\\\t", gsub("\\\\", "\\\\\\\\", s)))
seconds <- function(ms) sprintf("%.6f", ms / 1000)
line <- function(...) paste(c(...), collapse = "\t")

write_golden <- function(x, golden) {
  p <- profiles(x)
  st <- stacks_summary(x)
  nd <- nodes_summary(x)
  runs <- runs_by_node(x)
  samples <- function(ms) round(ms / x$interval_ms)
  out <- c("# profiles", line("id", "len", "uniquestacks", "nr_runs", "sampling.time"),
           line(esc(basename(x$file)), p$len, p$uniquestacks, p$nr_runs, seconds(p$len * x$interval_ms)),
           "", "# stacks", line("nrstacks", "stacklength.min", "stacklength.max", "nrnodesperlevel"),
           line(st$nrstacks, st$stacklength, paste(st$nrnodesperlevel, collapse = " ")),
           "", "# stack_list", line("stack", "stacklength", "refcount", "refcount.time", "root", "leaf"))
  for (i in seq_along(x$stacks)) {
    s <- x$stacks[[i]]
    out <- c(out, line(i, length(s), samples(x$refcount_ms[i]), seconds(x$refcount_ms[i]),
                       esc(s[1]), esc(s[length(s)])))
  }
  out <- c(out, "", "# nodes", line("name", "shortname", "root", "leaf", "self", "self.time", "self.pct",
                                    "total", "total.time", "total.pct", "nr_runs", "avg_len", "avg_time"))
  short <- abbreviate(nd$name, minlength = 4)
  for (i in order(nd$name, method = "radix")) {
    n <- nd$name[i]
    r <- runs$nr_runs[[n]]
    run_ns <- runs$records[[n]] * x$interval_us * 1000
    out <- c(out, line(esc(n), esc(short[[i]]), nd$root[i], nd$leaf[i],
                       samples(nd$self.time[i]), seconds(nd$self.time[i]),
                       sprintf("%.2f", 100 * samples(nd$self.time[i]) / p$len),
                       samples(nd$total.time[i]), seconds(nd$total.time[i]),
                       sprintf("%.2f", 100 * samples(nd$total.time[i]) / p$len),
                       r, sprintf("%.3f", runs$records[[n]] / r), sprintf("%.6f", run_ns / r / 1e9)))
  }
  con <- file(golden, "wb")
  writeLines(out, con, useBytes = TRUE)
  close(con)
}

args <- commandArgs(TRUE)
unread <- FALSE
for (i in seq(1, length(args), by = 2)) tryCatch(write_golden(read_sprof(args[i]), args[i + 1]),
  error = function(e) {
    message(args[i], ": ", conditionMessage(e))
    unread <<- TRUE
  })
if (unread) quit(status = 1)
