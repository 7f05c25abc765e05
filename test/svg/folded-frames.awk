# The frames a flame graph of folded stacks must show, worked out from the
# stacks alone (run with LC_ALL=C; -v width=PX -v minwidth=PX or N%):
# every path prefix is a frame with the summed count of the lines through
# it; siblings in byte order of their names, each frame's own count left of
# its callees; frames narrower than minwidth left out, and frames of no
# samples (lines with count 0: prof draws no box of width 0, where
# flamegraph.pl at --minwidth 0 does); x and width rounded
# as flamegraph.pl rounds them. Prints "depth<TAB>name<TAB>count<TAB>x<TAB>
# width" in preorder, as prof writes them. Paths are sorted by sort(1) with
# the frames joined by \001, which sorts below any byte of a name, so that
# a frame's subtree comes before a sibling whose name continues its own.
# Usage: awk -f escape.awk -f folded-frames.awk -v phase=paths FOLDED | sort -t "$(printf '\002')" -k1,1 |
#        awk -f escape.awk -f folded-frames.awk -v phase=layout -v width=1200 -v minwidth=0.1
phase == "paths" {
	sub(/\r$/, "")
	n = $NF
	sub(/ [0-9]+$/, "")
	all += n
	k = split($0, frame, ";")
	path = ""
	for (i = 1; i <= k; i++) {
		path = i == 1 ? frame[1] : path "\001" frame[i]
		total[path] += n
	}
	self[path] += n
}
phase == "layout" {
	split($0, field, "\002")
	path = field[1]; count = field[2]; own = field[3]
	if (NR == 1) {
		per = (width - 20) / count
		min = minwidth ~ /%$/ ? count * substr(minwidth, 1, length(minwidth) - 1) / 100 : minwidth / per
	}
	depth = path == "" ? 0 : split(path, frame, "\001")
	name = depth ? frame[depth] : "all"
	sub(/_\[[kwij]\]$/, "", name)
	start = depth ? next_child[depth - 1] : 0
	next_child[depth - 1] = start + count
	next_child[depth] = start + own
	if (count + 0 < min || count + 0 == 0)
		next
	x1 = sprintf("%.1f", 10 + start * per)
	x2 = sprintf("%.1f", 10 + (start + count) * per)
	printf "%d\t%s\t%s\t%s\t%.1f\n", depth, escaped(name), count, x1, x2 - x1
}
END {
	if (phase == "paths") {
		printf "\002%.0f\0020\n", all
		for (p in total)
			printf "%s\002%.0f\002%.0f\n", p, total[p], self[p]
	}
}
