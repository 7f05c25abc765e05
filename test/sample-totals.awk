# The inclusive counts of a macOS sample report's call graph, as the
# report prints them: "PATH<TAB>COUNT" per path of names from the thread
# down, the counts of lines of one path (same-name siblings) summed. Names
# as docs/formats/sample.md gives them: the thread's first word, then
# "module`symbol" (".dylib" out of the module), or the symbol alone.
# A line's depth is its count's column: 4, then 2 more a level.
# Usage: awk -f test/sample-totals.awk REPORT
/^Call graph:/ { graph = 1; next }
!graph { next }
!/^    / { exit }
{
	match($0, /^    [ +!:|]*/)
	depth = (RLENGTH - 4) / 2
	rest = substr($0, RLENGTH + 1)
	count = rest
	sub(/[^0-9].*/, "", count)
	text = substr(rest, length(count) + 1)
	sub(/^[ \t]+/, "", text)
	sub(/[ \t]+$/, "", text)
	if (depth == 0) {
		name = text
		sub(/[ \t].*/, "", name)
	} else if ((at = index(text, "  (in ")) > 0) {
		module = substr(text, at + 6)
		sub(/\).*/, "", module)
		gsub(/\.dylib/, "", module)
		name = substr(text, 1, at - 1)
		sub(/[ \t]+$/, "", name)
		name = module "`" name
	} else {
		name = text
		if ((at = index(text, "  [")) > 0) name = substr(text, 1, at - 1)
		sub(/[ \t]+$/, "", name)
	}
	path[depth] = depth ? path[depth - 1] ";" name : name
	total[path[depth]] += count
}
END { for (p in total) if (total[p]) print p "\t" total[p] }
