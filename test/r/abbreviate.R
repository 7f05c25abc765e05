# R's abbreviate(names, minlength = 4), the short names of sprof's
# summary_nodes, for the names on stdin (one per line, tab, newline and
# backslash escaped as prof's tables write them). Prints "name<TAB>short"
# per name, escaped the same way: the golden `prof -t sprof` must equal.
unescape <- function(s) {
  s <- gsub("\\\\\\\\", "\001", s)
  s <- gsub("\\\\t", "\t", s)
  s <- gsub("\\\\n", "\n", s)
  gsub("\001", "\\\\", s)
}
escape <- function(s) gsub("\n", "\\\\n", gsub("\t", "\\\\t", gsub("\\\\", "\\\\\\\\", s)))
con <- file("stdin", encoding = "UTF-8")
names <- unescape(readLines(con))
close(con)
short <- suppressWarnings(abbreviate(names, minlength = 4))
writeLines(paste(escape(names), escape(short), sep = "\t"), useBytes = TRUE)
