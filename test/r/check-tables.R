# Checks prof's tables (TSV, `prof -t tables`) of an Rprof file against R:
# per function name, the self and total sample counts computed from the
# tables alone must equal what summaryRprof() reports for the Rprof file.
# Usage: Rscript check-tables.R TABLES.tsv FILE.out
args <- commandArgs(TRUE)
lines <- readLines(args[1], encoding = "UTF-8")
starts <- grep("^# ", lines)
tables <- list()
for (i in seq_along(starts)) {
  end <- if (i < length(starts)) starts[i + 1] - 2 else length(lines)
  body <- lines[(starts[i] + 1):end]
  tables[[sub("^# ", "", lines[starts[i]])]] <- read.delim(text = body, quote = "", comment.char = "",
                                                          stringsAsFactors = FALSE, na.strings = "NA")
}
s <- tables$samples; sl <- tables$sample_locations; l <- tables$locations; f <- tables$functions
sl$name <- f$name[match(l$function_id[match(sl$location_id, l$location_id)], f$function_id)]
sl$value <- s$samples[match(sl$sample_id, s$sample_id)]
self <- tapply(sl$value[sl$position == 1], sl$name[sl$position == 1], sum)
once <- unique(sl[, c("sample_id", "name", "value")])
total <- tapply(once$value, once$name, sum)
r <- summaryRprof(args[2])$by.total
rn <- gsub('^"|"$', "", rownames(r))
ticks <- function(x) as.integer(round(x / summaryRprof(args[2])$sample.interval))
want_self <- setNames(ticks(r$self.time), rn); want_total <- setNames(ticks(r$total.time), rn)
got_self <- setNames(rep(0L, length(total)), names(total)); got_self[names(self)] <- self
stopifnot(setequal(names(total), rn),
          all(total[rn] == want_total[rn]), all(got_self[rn] == want_self[rn]))
cat("tables agree with summaryRprof:", args[2], "\n")
