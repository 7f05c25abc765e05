# Limits and faults, sourced by test/run.sh (uses check, heavy, status_is,
# stderr_has, PROF, TMP).
no_files_left() { [ -z "$(ls -A "$1")" ]; }

# Faults: bad inputs and outputs give a message, exit 1, and leave nothing.
check "a directory as input" status_is 1 "$PROF" -t rprof testdata
check "... says so" stderr_has "testdata: read error: Is a directory"
check "-o where nothing can be created" status_is 1 "$PROF" -o /proc/prof-test.out testdata/rprof/kmeans-default.out
check "... says so" stderr_has "prof-test.out: cannot create"
mkdir "$TMP/sig"
interrupted() { # SIGNAL STATUS: killed while reading a FIFO, with -o's temporary open
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	"$PROF" -f rprof -o "$TMP/sig/out.out" "$TMP/fifo" 2> /dev/null &
	pid=$!
	i=0
	while [ -z "$(ls -A "$TMP/sig")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -n "$(ls -A "$TMP/sig")" ] || { kill "$pid"; return 1; }
	kill -"$1" "$pid"
	wait "$pid"
	[ $? -eq "$2" ] && no_files_left "$TMP/sig"
}
check "SIGTERM during -o removes the temporary" interrupted TERM 143
check "SIGINT during -o removes the temporary" interrupted INT 130

# Limits: bounded memory, or a clear message.
# (octal escapes: dash's printf has no \x)
printf '\022\200\200\200\200\200\200\200\200\100\012\001' > "$TMP/huge-length.pb"
check "a length near 2^62" status_is 1 "$PROF" -f pprof -t pprof "$TMP/huge-length.pb"
check "... is cut short, not allocated" stderr_has "bad pprof: .* at byte 0"
printf '\062\200\200\200\200\004' > "$TMP/huge-string.pb"
head -c 300000000 /dev/zero >> "$TMP/huge-string.pb"
gzip -1 < "$TMP/huge-string.pb" > "$TMP/huge-string.pb.gz"
rm "$TMP/huge-string.pb"
heavy "a gzip bomb holding a 1 GiB string, under --max-memory" status_is 1 "$PROF" -m 200M -t pprof "$TMP/huge-string.pb.gz"
heavy "... stops with a message" stderr_has "out of memory\|cut short"
head -c 300000000 /dev/zero | tr '\0' 'a' > "$TMP/long-line.folded"
heavy "a line of 300 MB" status_is 1 "$PROF" -f folded -t folded "$TMP/long-line.folded"
heavy "... is refused" stderr_has "line longer than"
rm -f "$TMP/long-line.folded"
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "f%d;", i % 1000; print "leaf 1" }' > "$TMP/deep.folded"
for to in rprof pprof lispworks folded speedscope summary; do
	heavy "a stack of a million frames to $to" status_is 0 "$PROF" -t "$to" "$TMP/deep.folded"
done
awk 'BEGIN { for (i = 0; i < 1000000; i++) print "main;function_" i " 1" }' > "$TMP/wide.folded"
for to in pprof lispworks summary; do
	heavy "a million distinct functions to $to" status_is 0 "$PROF" -t "$to" "$TMP/wide.folded"
done
# A million rows outgrow memory and go to a temporary file in $TMPDIR.
heavy "rows past memory, through \$TMPDIR" status_is 0 env TMPDIR="$TMP" "$PROF" -t folded -o "$TMP/wide-copy.folded" "$TMP/wide.folded"
heavy "... give back the same stacks" cmp -s "$TMP/wide-copy.folded" "$TMP/wide.folded"
heavy "... and leave no file behind" sh -c "! ls \"$TMP\" | grep -q prof-rows"
heavy "no room for the rows file" status_is 1 env TMPDIR="$TMP/nonexistent" "$PROF" -t folded -o "$TMP/never.folded" "$TMP/wide.folded"
heavy "... says so" stderr_has "cannot make a temporary file for sample rows"
heavy "... and writes no output" test ! -e "$TMP/never.folded"
rm -f "$TMP/deep.folded" "$TMP/wide.folded" "$TMP/wide-copy.folded" "$TMP/huge-string.pb.gz"
