# Java thread dumps folded as stackcollapse-jstack.pl folds them, by the
# rules docs/formats/jstack.md writes down (rules, not the script's code):
# a reference reading for test/jstack.sh. Prints "root;...;leaf COUNT"
# lines, unsorted; sort them to compare.
#   awk -f test/jstack-collapse.awk [-v all=1] [-v prof=1] FILE
# all=1: every thread counts (prof's `threads` type), not only those the
# script keeps. prof=1: prof's additions to the script's rules too: a CR
# before the line end dropped, the last thread counted without a blank
# line after it, dump_to_file's `#N "NAME" [STATE]` headers with their
# frames, with or without `at`, and an empty thread name no root frame.
function end_thread() {
	if (all || state == "RUNNABLE") {
		if (named && (root != "" || !prof)) path = path == "" ? root : root ";" path
		if (path != "") count[path]++
	}
	path = ""; named = 0; state = "?"; numbered = 0
}
function frame(text) {
	sub(/\(.*/, "", text)
	path = path == "" ? text : text ";" path
	if (text ~ /epollWait/) state = "WAITING"
	if (text ~ /socketAccept$/ || text ~ /Socket.*accept0$/ || text ~ /socketRead0$/) state = "NETWORK"
}
function header(name) {
	named = 1
	root = name
	sub(/-[0-9]+$/, "", root)
	if (name ~ /C. CompilerThread/ || name ~ /Signal Dispatcher/ || name ~ /Service Thread/ || name ~ /Attach Listener/)
		state = "BACKGROUND"
}
BEGIN { state = "?" }
prof { sub(/\r$/, "") }
prof && /^#[0-9]+ "/ {
	rest = substr($0, index($0, "\"") + 1)
	header(substr(rest, 1, index(rest, "\"") - 1))
	numbered = 1
	rest = substr(rest, index(rest, "\"") + 1)
	sub(/^ virtual/, "", rest)
	if (match(rest, /^ [A-Z_]+( |$)/) && state == "?") {
		state = substr(rest, 2, RLENGTH - 1)
		sub(/ $/, "", state)
	}
	next
}
/^#/ { next }
/^$/ { end_thread(); next }
/^"/ { rest = substr($0, 2); q = index(rest, "\""); header(q ? substr(rest, 1, q - 1) : rest); next }
/java.lang.Thread.State: / {
	if (state == "?") { s = substr($0, index($0, "java.lang.Thread.State: ") + 24); sub(/[ \t].*/, "", s); if (s != "") state = s }
	next
}
/^[ \t]*at / { s = $0; sub(/^[ \t]*at /, "", s); frame(s); next }
prof && numbered && /^[ \t]+[^ \t-]/ { s = $0; sub(/^[ \t]+/, "", s); frame(s); next }
END {
	if (prof) end_thread()
	for (p in count) print p " " count[p]
}
