# escaped(s): a name as the tests' TSV rows hold it, so that any bytes fit
# a tab-separated line: \\, \t, \n, \r. Loaded before frames.awk and
# folded-frames.awk (awk -f test/svg/escape.awk -f ...).
function escaped(s,   out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\") c = "\\\\"
		else if (c == "\t") c = "\\t"
		else if (c == "\n") c = "\\n"
		else if (c == "\r") c = "\\r"
		out = out c
	}
	return out
}
