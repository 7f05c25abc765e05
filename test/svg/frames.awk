# Reads the boxes of one of prof's flame graph or chart SVGs, as the
# files of shared/peers/flamegraph/ list flamegraph.pl's: one line per box,
# "depth<TAB>name<TAB>count<TAB>x<TAB>width<TAB>first<TAB>length" (first
# sample and length for a chart's boxes, else 0), in file order. The name
# is the <title>'s, entities resolved, with backslash, tab, LF and CR as
# \\, \t, \n, \r; the count its data-count, exact (the title's is in
# units for people); depth counts 16 px rows from the root, the first box.
# Run it with LC_ALL=C (bytes, whatever the names).
function attr(tag, name,   v) {
	v = tag
	if (!sub(".* " name "=\"", "", v)) return "0"
	sub("\".*", "", v)
	return v
}
/^<g[ >].*<title>/ {
	title = $0
	sub(/.*<title>/, "", title)
	sub(/<\/title>.*/, "", title)
	gsub(/&lt;/, "<", title); gsub(/&gt;/, ">", title); gsub(/&quot;/, "\"", title)
	gsub(/&#9;/, "\t", title); gsub(/&#10;/, "\n", title); gsub(/&#13;/, "\r", title)
	gsub(/&amp;/, "\\&", title)
	# NAME (AMOUNT, PERCENT%): the name ends at the last " (".
	cut = 0
	for (i = length(title) - 1; i > 0 && !cut; i--)
		if (substr(title, i, 2) == " (") cut = i
	g = $0
	sub(/>.*/, "", g)
	count = attr(g, "data-count")
	rect = $0
	sub(/.*<rect/, "", rect)
	sub(/\/>.*/, "", rect)
	y = attr(rect, "y") + 0
	if (!boxes++) root_y = y
	print (y > root_y ? y - root_y : root_y - y) / 16 "\t" escaped(substr(title, 1, cut - 1)) "\t" count "\t" \
		attr(rect, "x") "\t" attr(rect, "width") "\t" attr(g, "data-first") "\t" attr(g, "data-len")
}
