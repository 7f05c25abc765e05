# Command-line cases, sourced by test/run.sh (uses check, PROF, TMP).
sample=testdata/rprof/kmeans-default.out

status_is() { # EXPECTED COMMAND...: exit status only
	want=$1; shift
	"$@" > "$TMP/cli.out" 2> "$TMP/cli.err"
	[ $? -eq "$want" ]
}
stderr_has() { grep -q -- "$1" "$TMP/cli.err"; }
stdout_has() { grep -q -- "$1" "$TMP/cli.out"; }

check "--help" status_is 0 "$PROF" --help
check "--help says usage" stdout_has "usage: prof"
check "--version" status_is 0 "$PROF" --version
check "--version prints it" stdout_has "^prof [0-9]"
check "--list-formats" status_is 0 "$PROF" --list-formats
check "--list-formats has rprof" stdout_has "^rprof  *rw  *\.out"
check "unknown option" status_is 2 "$PROF" --frobnicate
check "unknown option hints --help" stderr_has "Try 'prof --help'"
check "no output format" status_is 2 "$PROF" "$sample"
check "unknown -t" status_is 2 "$PROF" -t nosuch "$sample"
check "unknown -f" status_is 2 "$PROF" -f nosuch -t rprof "$sample"
check "two inputs merge" status_is 0 "$PROF" -t rprof "$sample" "$sample"
check "-f auto" status_is 0 "$PROF" -f auto -t rprof "$sample"
check "stdin as -" status_is 0 "$PROF" -t rprof - < "$sample"
check "-o - is stdout" status_is 0 "$PROF" -t rprof -o - "$sample"
check "-o - output" cmp -s "$TMP/cli.out" "$sample"

mkdir "$TMP/o"
check "-o picks format from .out" status_is 0 "$PROF" -o "$TMP/o/copy.out" "$sample"
check "-o writes the file" cmp -s "$TMP/o/copy.out" "$sample"
check "-o unknown extension" status_is 2 "$PROF" -o "$TMP/o/copy.xyz" "$sample"
rm -f "$TMP/o/copy.out"
check "failed conversion" status_is 1 "$PROF" -t rprof -o "$TMP/o/bad.out" testdata/invalid/rprof/undefined-file.out
check "failed conversion leaves no file" [ -z "$(ls -A "$TMP/o")" ]
check "-o into missing dir" status_is 1 "$PROF" -o "$TMP/missing/x.out" "$sample"
check "-o into missing dir says so" stderr_has "x.out: cannot create"
check "missing input" status_is 1 "$PROF" -t rprof "$TMP/nosuch.out"
check "missing input says so" stderr_has "nosuch.out: cannot open"
check "unknown format" status_is 1 sh -c "printf 'hello\n' | \"$PROF\" -t rprof"
check "unknown format asks for -f" stderr_has "<stdin>: unknown format; use -f"
check "empty stdin" status_is 1 "$PROF" -t rprof < /dev/null
check "empty stdin says so" stderr_has "<stdin>: empty input"

if [ -w /dev/full ]; then
	check "/dev/full" status_is 1 sh -c "\"$PROF\" -t rprof \"$sample\" > /dev/full"
	check "/dev/full says write error" stderr_has "<stdout>: write error"
fi
# Appended copies are a valid multi-run file, larger than a pipe's buffer.
for i in 1 2 3 4 5 6; do cat testdata/rprof/deep-truncated.out; done > "$TMP/big.out"
check "appended copies round-trip" roundtrip "$TMP/big.out"
closed_pipe() {
	{ "$PROF" -t rprof "$TMP/big.out" 2> "$TMP/cli.err"; echo $? > "$TMP/pipe.status"; } | head -c 10 > /dev/null
	[ "$(cat "$TMP/pipe.status")" = 1 ] && stderr_has "write error"
}
check "closed pipe" closed_pipe

# CRLF and a missing final newline are read; R's own LF form is written.
sed 's/$/\r/' "$sample" > "$TMP/crlf.out"
check "CRLF input" status_is 0 "$PROF" -t rprof "$TMP/crlf.out"
check "CRLF input reads as LF" cmp -s "$TMP/cli.out" "$sample"
head -c -1 "$sample" > "$TMP/nonl.out"
check "no final newline" status_is 0 "$PROF" -t rprof "$TMP/nonl.out"
check "no final newline read" cmp -s "$TMP/cli.out" "$sample"

# pprof options and output.
pprof_in=testdata/pprof/go/go_cpu.pb.gz
check "-o .pb.gz picks pprof" status_is 0 "$PROF" -o "$TMP/o/cpu.pb.gz" "$sample"
check "-o .pb.gz is gzip" sh -c "head -c 2 \"$TMP/o/cpu.pb.gz\" | od -An -tx1 | grep -q '1f 8b'"
check "--level 1" status_is 0 "$PROF" --level 1 -t pprof -o "$TMP/o/fast.pb.gz" "$pprof_in"
check "--level 1 output reads back" status_is 0 "$PROF" -t pprof "$TMP/o/fast.pb.gz"
check "--level 0 is a usage error" status_is 2 "$PROF" --level 0 -t pprof "$pprof_in"
check "--sample-type by name" status_is 0 "$PROF" -t rprof --sample-type cpu "$pprof_in"
check "--sample-type by index" status_is 0 "$PROF" -t rprof -s 0 "$pprof_in"
check "--sample-type unknown" status_is 1 "$PROF" -t rprof --sample-type nosuch "$pprof_in"
check "--sample-type unknown says so" stderr_has "no sample type 'nosuch'.*--sample-type"
check "heap profile has no ticks" status_is 1 "$PROF" -t rprof testdata/pprof/go/go_heap.pb.gz
check "heap profile names --sample-type" stderr_has "choose one with --sample-type"
if command -v script > /dev/null; then
	check "binary to a terminal" status_is 1 script -qec "\"$PROF\" -t pprof \"$sample\"" /dev/null
	check "binary to a terminal says so" stdout_has "refusing to write binary pprof to a terminal"
fi

# Progress: on stderr for a conversion past a second (here an input that
# stalls), never on stdout; nothing without a terminal unless asked.
slow_input() { head -c 100000 "$sample_big"; sleep 1.5; tail -c +100001 "$sample_big"; }
sample_big="$TMP/progress.out"
awk 'BEGIN { print "sample.interval=20000"
	for (i = 0; i < 20000; i++) print "\"f" i % 7 "\" \"g\" \"main\" " }' > "$sample_big"
"$PROF" -t folded "$sample_big" > "$TMP/quiet.folded"
slow_input | "$PROF" --progress -t folded > "$TMP/cli.out" 2> "$TMP/cli.err"
check "--progress reports bytes read on stderr" stderr_has "MB read (.* MB/s)"
check "--progress leaves stdout alone" cmp -s "$TMP/cli.out" "$TMP/quiet.folded"
slow_input | "$PROF" -t folded > "$TMP/cli.out" 2> "$TMP/cli.err"
check "no progress when stderr is not a terminal" test ! -s "$TMP/cli.err"
slow_input | "$PROF" --progress --quiet -t folded > "$TMP/cli.out" 2> "$TMP/cli.err"
check "--quiet silences --progress" test ! -s "$TMP/cli.err"

# gzip is read and written by second threads: a profile split over two gzip
# members reads as one, and a write error in the compressing thread is
# reported like any other.
gzip -dc "$pprof_in" > "$TMP/whole.pb"
size=$(wc -c < "$TMP/whole.pb")
head -c $((size / 2)) "$TMP/whole.pb" | gzip > "$TMP/members.pb.gz"
tail -c +$((size / 2 + 1)) "$TMP/whole.pb" | gzip >> "$TMP/members.pb.gz"
"$PROF" -t folded "$pprof_in" > "$TMP/one.folded"
check "two gzip members read as one profile" status_is 0 "$PROF" -t folded "$TMP/members.pb.gz"
check "... the same profile" cmp -s "$TMP/cli.out" "$TMP/one.folded"
awk 'BEGIN { for (i = 0; i < 200000; i++) print "main;f" i ";g" i % 97 " " i % 13 + 1 }' > "$TMP/many.folded"
if [ -w /dev/full ]; then
	check "/dev/full, several MB of gzip" status_is 1 sh -c "\"$PROF\" -t pprof \"$TMP/many.folded\" > /dev/full"
	check "... says write error, once" sh -c "[ \$(grep -c '<stdout>: write error' \"$TMP/cli.err\") -eq 1 ]"
fi
