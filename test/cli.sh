# Command-line cases, sourced by test/run.sh (uses test/lib.sh, PROF, TMP).
sample=testdata/rprof/kmeans-default.out

# Each check runs its own command: what it reads was written by that command.
check "--help says usage" prints 0 "usage: prof" "$PROF" --help
"$PROF" --help > "$TMP/help.txt"
check "-h is --help" writes "$TMP/help.txt" "$PROF" -h
# The exit statuses: the man page lists them in order, and --help the same.
man_statuses() {
	awk '/^\.Sh / { on = $2 == "EXIT" } on && /^\.It / { print $2 }' man/prof.1
}
help_statuses() {
	status_is 0 "$PROF" --help &&
		sed -n '/^Exit status:/,/^$/p' "$TMP/cli.out" | tr ';' '\n' | sed 's/^Exit status://' |
		awk '$1 ~ /^[0-9]/ { print $1 }'
}
statuses_listed_alike() {
	man_statuses > "$TMP/man.statuses" && help_statuses > "$TMP/help.statuses" &&
		[ "$(wc -l < "$TMP/man.statuses")" -ge 3 ] && sort -n "$TMP/man.statuses" | cmp -s - "$TMP/man.statuses" &&
		cmp -s "$TMP/man.statuses" "$TMP/help.statuses"
}
check "--help lists the man page's exit statuses, which it lists in order" statuses_listed_alike
check "--version prints it" prints 0 "^prof [0-9]" "$PROF" --version
check "--list-formats has rprof" prints 0 "^rprof  *rwt  *\.out" "$PROF" --list-formats
check "--list-formats with a FILE is a usage error, listing nothing" \
	refuses 2 "takes no FILE, not 'extra'" "$PROF" --list-formats extra
check "unknown option hints --help" says 2 "Try 'prof --help'" "$PROF" --frobnicate
check "unknown -t" status_is 2 "$PROF" -t nosuch "$sample"
check "unknown -f" status_is 2 "$PROF" -f nosuch -t rprof "$sample"
# No fixed buffer cuts a usage message: a bad value is quoted whole.
long_value="$(awk 'BEGIN { while (i++ < 2000) printf "9" }')x"
check "a writer option's bad value, 2001 bytes long, is quoted whole" \
	refuses 2 "^prof: --width takes .*, not '$long_value'$" "$PROF" -t flamegraph --width "$long_value" "$sample"
check "a writer option for other formats names them" \
	refuses 2 "^prof: --width is for flamechart, flamegraph, not for -t rprof$" "$PROF" -t rprof --width 300 "$sample"
check "two inputs merge" status_is 0 "$PROF" -t rprof "$sample" "$sample"
check "-f auto" status_is 0 "$PROF" -f auto -t rprof "$sample"
check "stdin as -" status_is 0 "$PROF" -t rprof - < "$sample"
check "-o - is stdout" writes "$sample" "$PROF" -t rprof -o - "$sample"
# A picture of no samples: the input is at fault, and named.
check "nothing to draw names stdin" says 1 "^prof: <stdin>: no samples: nothing to draw$" \
	sh -c '"$1" -f folded -t flamegraph < /dev/null' - "$PROF"
check "... or the file the filters emptied" says 1 "^prof: $sample: no samples: nothing to draw$" \
	"$PROF" -q --focus nosuch -t flamechart "$sample"
check "... or, for several, the merged profile" says 1 "^prof: merged profile: no samples: nothing to draw$" \
	"$PROF" -q --focus nosuch -t sprofplot "$sample" "$sample"

mkdir "$TMP/o"
check "-o picks format from .out" file_is "$TMP/o/copy.out" "$sample" "$PROF" -o "$TMP/o/copy.out" "$sample"
check "-o unknown extension" status_is 2 "$PROF" -o "$TMP/o/copy.xyz" "$sample"
rm -f "$TMP/o/copy.out"
failure_leaves_no_file() {
	status_is 1 "$PROF" -t rprof -o "$TMP/o/bad.out" testdata/invalid/rprof/undefined-file.out &&
		[ -z "$(ls -A "$TMP/o")" ]
}
check "failed conversion leaves no file" failure_leaves_no_file
check "-o into missing dir says so" says 1 "x.out: cannot create" "$PROF" -o "$TMP/missing/x.out" "$sample"
check "missing input says so" says 1 "nosuch.out: cannot open" "$PROF" -t rprof "$TMP/nosuch.out"
check "unknown format asks for -f" says 1 "<stdin>: unknown format; use -f" sh -c "printf 'hello\n' | \"$PROF\" -t rprof"
check "empty stdin says so" says 1 "<stdin>: empty input" "$PROF" -t rprof < /dev/null
# Sniffing on weak evidence warns: folded lines without a ';' could be
# other text; a clear Rprof file or folded stacks read silently.
printf 'a 1\nb 2\n' > "$TMP/flat.folded"
check "weak evidence: misdetection is possible" says 0 "<stdin>: warning: read as folded, but misdetection is possible" \
	"$PROF" -t folded < "$TMP/flat.folded"
check "... and still read" writes "$TMP/flat.folded" "$PROF" -q -t folded < "$TMP/flat.folded"
check "a clear Rprof file sniffs silently" says_nothing "$PROF" -t rprof < "$sample"
check "clear folded stacks sniff silently" says_nothing "$PROF" -t folded < testdata/lispworks/kmeans-default.folded
# Two probes equally sure pick neither: a header line that is Rprof's and names a LispWorks tree.
printf 'sample.interval=20000 LispWorks Profiler Tree\n' > "$TMP/tie.txt"
check "a tie between probes asks for -f" says 1 "<stdin>: could be rprof or lispworks; use -f FORMAT" \
	"$PROF" -t folded < "$TMP/tie.txt"
check "... which -f settles" says 1 "bad sample.interval in header" "$PROF" -f rprof -t folded < "$TMP/tie.txt"

if [ -w /dev/full ]; then
	check "/dev/full says write error" says 1 "<stdout>: write error" sh -c "\"$PROF\" -t rprof \"$sample\" > /dev/full"
fi
# Appended copies are a valid multi-run file, larger than a pipe's buffer.
for i in 1 2 3 4 5 6; do cat testdata/rprof/deep-truncated.out; done > "$TMP/big.out"
check "appended copies round-trip" roundtrip "$TMP/big.out"
# A closed pipe ends prof as it ends cat: SIGPIPE, and not a word.
closed_pipe() {
	{ "$PROF" -t rprof "$TMP/big.out" 2> "$TMP/pipe.err"; echo $? > "$TMP/pipe.status"; } | head -c 10 > /dev/null
	[ "$(kill -l "$(cat "$TMP/pipe.status")")" = PIPE ] && [ ! -s "$TMP/pipe.err" ]
}
check "a closed pipe: killed by SIGPIPE, quietly" closed_pipe

# README's examples that read a bundled file run as printed (in a scratch
# directory with testdata/), exit 0 and say nothing.
absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
mkdir "$TMP/readme" "$TMP/readme/docs"
ln -s "$PWD/testdata" "$TMP/readme/testdata"
example_runs() { # COMMAND_LINE
	says_nothing env PROF="$(absolute "$PROF")" ${VALGRIND_PROF:+VALGRIND_PROF="$(absolute "$VALGRIND_PROF")"} \
		sh -c 'cd "$1" && prof() { "$PROF" "$@"; } && eval "$2"' - "$TMP/readme" "$1"
}
sed -n 's/^    \(prof .*testdata\/.*\)$/\1/p' README.md > "$TMP/readme.examples"
check "README has examples that read bundled files" [ "$(wc -l < "$TMP/readme.examples")" -ge 2 ]
while IFS= read -r example; do
	check "README's example runs cleanly: $example" example_runs "$example"
done < "$TMP/readme.examples"

# CRLF and a missing final newline are written back as they were read
# (testdata/rprof/patterns/ has the files); other formats read them as LF.
"$PROF" -q -t folded testdata/rprof/boot-memory-gc-line.out > "$TMP/lf.folded"
check "CRLF Rprof to folded, as from LF" writes "$TMP/lf.folded" "$PROF" -t folded testdata/rprof/patterns/crlf.out
"$PROF" -q -t folded "$sample" > "$TMP/nl.folded"
check "no final newline to folded, as with one" writes "$TMP/nl.folded" "$PROF" -t folded testdata/rprof/patterns/no-final-newline.out

# pprof options and output.
pprof_in=testdata/pprof/go/go_cpu.pb.gz
gzip_made() { # FILE COMMAND...: exit 0, and the command wrote FILE as gzip that prof reads
	rm -f "$1"
	made=$1; shift
	status_is 0 "$@" && [ "$(head -c 2 "$made" | od -An -tx1)" = " 1f 8b" ] &&
		"$PROF" -t pprof "$made" > /dev/null
}
check "-o .pb.gz picks pprof, gzip'd" gzip_made "$TMP/o/cpu.pb.gz" "$PROF" -o "$TMP/o/cpu.pb.gz" "$sample"
check "--level 1" gzip_made "$TMP/o/fast.pb.gz" "$PROF" --level 1 -t pprof -o "$TMP/o/fast.pb.gz" "$pprof_in"
check "--level 0 is a usage error" status_is 2 "$PROF" --level 0 -t pprof "$pprof_in"
check "--sample-type by name" status_is 0 "$PROF" -t rprof --sample-type cpu "$pprof_in"
check "--sample-type by index" status_is 0 "$PROF" -t rprof -s 0 "$pprof_in"
check "--sample-type unknown is a usage error naming the input" \
	refuses 2 "^prof: $pprof_in: no sample type 'nosuch'; its types, for --sample-type: samples/count, cpu/nanoseconds" \
	"$PROF" -t rprof --sample-type nosuch "$pprof_in"
# A writer of ticks takes the first count or time when the default is
# neither, and says so: a tick per allocation sample, as Go counts them.
rprof_ticks_are_go_count() { # PPROF TYPE: as many lines of ticks as go tool pprof's total of TYPE
	status_is 0 "$PROF" -t rprof "$1" && total=$(go tool pprof -sample_index="$2" -top "$1" 2> /dev/null | sed -n 's/.* of \(.*\) total$/\1/p') &&
		[ "$(awk 'NR > 1 && !/^#File/' "$TMP/cli.out" | wc -l)" -eq "$total" ] &&
		grep -q "warning: writing sample type $2: the profile's default, inuse_space, is neither a count nor a time" "$TMP/cli.err"
}
check "heap profile to ticks: the first count, said" rprof_ticks_are_go_count testdata/pprof/go/go_heap.pb.gz alloc_objects
if command -v script > /dev/null; then
	check "binary to a terminal says so" prints 1 "refusing to write binary pprof to a terminal" \
		script -qec "\"$PROF\" -t pprof \"$sample\"" /dev/null
fi

# test/lib.sh's rule for every check: an error said at exit 0 fails it,
# a warning or the progress line does not, and an error at exit 1 is what
# a refusal expects.
say_then() { # STATUS TEXT: TEXT on stderr, then exit STATUS
	printf '%s\n' "$2" >&2
	return "$1"
}
progress_line=$(printf '\rprof: 1.0 MB read (1 MB/s), 0.0 MB written\033[K\r\033[K')
printf '#!/bin/sh\necho "prof: f:3: a fault" >&2\n' > "$TMP/faulty-prof"
chmod +x "$TMP/faulty-prof"
errors_at_exit_0_fail() {
	! status_is 0 say_then 0 'prof: f:3: a fault' > /dev/null &&
		! status_is 0 say_then 0 "$progress_line"'prof: f: a fault' > /dev/null &&
		! (PROF=$TMP/faulty-prof; prof_q -t folded x) &&
		status_is 0 say_then 0 'prof: f:3: warning: a doubt' &&
		status_is 0 say_then 0 "$progress_line" &&
		status_is 1 say_then 1 'prof: f: a fault'
}
check "an error said at exit 0 fails a check (test/lib.sh)" errors_at_exit_0_fail

# Progress: on stderr for a conversion past a second (here an input that
# stalls), never on stdout; nothing without a terminal unless asked.
slow_input() { head -c 100000 "$sample_big"; sleep 1.5; tail -c +100001 "$sample_big"; }
sample_big="$TMP/progress.out"
awk 'BEGIN { print "sample.interval=20000"
	for (i = 0; i < 20000; i++) print "\"f" i % 7 "\" \"g\" \"main\" " }' > "$sample_big"
"$PROF" -t folded "$sample_big" > "$TMP/quiet.folded"
slowly() { slow_input | "$PROF" "$@" -t folded; }
progress_on_stderr_only() {
	says 0 "MB read (.* MB/s)" slowly --progress && cmp -s "$TMP/cli.out" "$TMP/quiet.folded"
}
check "--progress reports bytes read on stderr, and leaves stdout alone" progress_on_stderr_only
check "no progress when stderr is not a terminal" says_nothing slowly
check "--quiet silences --progress" says_nothing slowly --progress --quiet

# The line is redrawn at most every 250 ms after its first second (EVERY_MS
# in io/progress.c), however often prof reads or writes: here a FIFO fed
# 0.85 MB at a time, 0.3 s apart (1.5 s, set by the feeder), and the 5 MB
# written back in 64 KB writes once it ends, a redraw each were there no
# limit (some 80). The bound is the run's own length, measured around it,
# so a slow machine only loosens it.
awk 'BEGIN { for (i = 0; i < 50000; i++) print "\"f" i % 7 "\" \"g\" \"main\" " }' > "$TMP/piece.out"
feed_slowly() {
	echo "sample.interval=20000"
	for i in 1 2 3 4 5 6; do cat "$TMP/piece.out"; sleep 0.3; done
}
feed_slowly > "$TMP/fed.out"
redraws_throttled() {
	rm -f "$TMP/slow.fifo" && mkfifo "$TMP/slow.fifo" || return 1
	feed_slowly > "$TMP/slow.fifo" &
	feeder=$!
	started=$(date +%s%N)
	status_is 0 sh -c '"$1" --progress -t rprof < "$2"' sh "$PROF" "$TMP/slow.fifo"
	ran=$? ms=$((($(date +%s%N) - started) / 1000000))
	wait "$feeder"
	redraws=$(tr '\r' '\n' < "$TMP/cli.err" | grep -c '^prof: .* MB read')
	# A failure's stderr would be the redraws themselves: the count says it.
	[ "$ran" -ne 0 ] || ran_status=
	[ "$ran" -eq 0 ] && cmp -s "$TMP/cli.out" "$TMP/fed.out" &&
		[ "$redraws" -ge 1 ] && [ "$redraws" -le $(((ms - 1000) / 250 + 2)) ] ||
		{ echo "  $redraws redraws in $ms ms"; return 1; }
}
heavy "--progress redraws at most every 250 ms" redraws_throttled

# gzip is read and written by second threads: a profile split over two gzip
# members reads as one, and a write error in the compressing thread is
# reported like any other.
gzip -dc "$pprof_in" > "$TMP/whole.pb"
size=$(wc -c < "$TMP/whole.pb")
head -c $((size / 2)) "$TMP/whole.pb" | gzip > "$TMP/members.pb.gz"
tail -c +$((size / 2 + 1)) "$TMP/whole.pb" | gzip >> "$TMP/members.pb.gz"
"$PROF" -t folded "$pprof_in" > "$TMP/one.folded"
check "two gzip members read as one profile" writes "$TMP/one.folded" "$PROF" -t folded "$TMP/members.pb.gz"
awk 'BEGIN { for (i = 0; i < 200000; i++) print "main;f" i ";g" i % 97 " " i % 13 + 1 }' > "$TMP/many.folded"
if [ -w /dev/full ]; then
	check "/dev/full, several MB of gzip: says write error, once" says_times 1 1 "<stdout>: write error" \
		sh -c "\"$PROF\" -t pprof \"$TMP/many.folded\" > /dev/full"
fi

# Defaults and discovery: what a profile holds, and what prof shows first.
prof_alike() { # ARGS... -- ARGS...: prof prints the same, and something, both times at exit 0
	: > "$TMP/a.args"
	while [ "$1" != -- ]; do printf '%s\n' "$1" >> "$TMP/a.args"; shift; done
	shift
	"$PROF" "$@" > "$TMP/b.out" 2> /dev/null || return 1
	set --
	while IFS= read -r arg; do set -- "$@" "$arg"; done < "$TMP/a.args"
	"$PROF" "$@" > "$TMP/a.out" 2> /dev/null && [ -s "$TMP/a.out" ] && cmp -s "$TMP/a.out" "$TMP/b.out"
}
check "FILE alone writes the summary" prof_alike "$sample" -- -t summary "$sample"
by_self() { tr -d '\r' < "$1" | awk '/^by self:/ { on = 1; next } /^by total:/ { on = 0 } on && /^ *-?[0-9]/'; }
terminal_top() { # N FILE [OPTION...]: a terminal gets the first N rows of the whole by-self table
	n=$1 file=$2
	shift 2
	command -v script > /dev/null || return 0
	script -qec "\"$PROF\" $* \"$file\"" /dev/null > "$TMP/tty.txt" &&
		status_is 0 "$PROF" --top 0 "$file" && by_self "$TMP/cli.out" > "$TMP/all.rows" &&
		[ "$(wc -l < "$TMP/all.rows")" -gt "$n" ] && by_self "$TMP/tty.txt" > "$TMP/tty.rows" &&
		head -n "$n" "$TMP/all.rows" | cmp -s - "$TMP/tty.rows" && grep -q "more; --top 0 shows all" "$TMP/tty.txt"
}
check "a terminal gets the top 20 by self" terminal_top 20 "$sample"
check "--top N on a terminal" terminal_top 5 "$sample" --top 5
check "--top 0 lists every function" prof_alike --top 0 "$sample" -- -t summary "$sample"
check "--top is the summary's" refuses 2 "^prof: --top is for summary, not for -t folded$" \
	"$PROF" -t folded --top 3 "$sample"

# --list-types: each type's total as go tool pprof prints it (its -top
# header), each JFR type's events as the JDK's `jfr summary` counts them.
types_total_as_go() { # PPROF: each type's line has go tool pprof's total
	status_is 0 "$PROF" --list-types "$1" && cp "$TMP/cli.out" "$TMP/types.txt" &&
		"$PROF" -q -t tables "$1" | awk '/^# sample_types/ { on = 1; getline; next } on && NF == 2 { print $1 } on && !NF { exit }' > "$TMP/names" &&
		[ -s "$TMP/names" ] && while read -r type; do
			total=$(go tool pprof -sample_index="$type" -top "$1" 2> /dev/null | sed -n 's/.* of \(.*\) total$/\1/p')
			[ -n "$total" ] && awk -v t="$type" -v total="$total" '$1 == t && $3 == total { found = 1 } END { exit !found }' "$TMP/types.txt" || return 1
		done < "$TMP/names"
}
check "--list-types: totals as go tool pprof's (heap, four types)" types_total_as_go testdata/pprof/go/go_heap.pb.gz
check "--list-types: totals as go tool pprof's (cpu)" types_total_as_go "$pprof_in"
jfr_counts_as_jdk() { # JFR: each count type's samples are the events jfr summary counts
	status_is 0 "$PROF" --list-types "$1" && awk '$2 == "count" && $5 == "yes"' "$TMP/cli.out" > "$TMP/types.txt" &&
		[ -s "$TMP/types.txt" ] && while read -r type unit total samples times rest; do
			grep -q "^ $type  *$samples  *[0-9]* *$" "$1.summary" || return 1
		done < "$TMP/types.txt"
}
check "--list-types: a JFR's event counts as jfr summary's" jfr_counts_as_jdk testdata/jfr/locks.jfr
check "--list-types: the default and the aliases" \
	prints 0 "^jdk.ExecutionSample  *count .*  yes  *(default) cpu$" "$PROF" --list-types testdata/jfr/locks.jfr
check "--list-types names each of several FILEs" prints 0 "^testdata/jfr/busy.jfr:$" \
	"$PROF" --list-types testdata/jfr/locks.jfr testdata/jfr/busy.jfr
check "--list-types: a profile with no times says so" prints 0 "^inuse_space  *bytes  *19.64MB  *8  no  *(default) heap$" \
	"$PROF" --list-types testdata/pprof/go/go_heap.pb.gz
for pair in cpu:jdk.ExecutionSample lock:jdk.JavaMonitorEnter:duration alloc:jdk.ObjectAllocationSample \
	alloc-bytes:jdk.ObjectAllocationSample:weight; do
	check "-s ${pair%%:*} is ${pair#*:} (JFR)" prof_alike -t folded -s "${pair%%:*}" testdata/jfr/locks.jfr -- \
		-t folded -s "${pair#*:}" testdata/jfr/locks.jfr
done
check "-s heap is inuse_space (Go)" prof_alike -t folded -s heap testdata/pprof/go/go_heap.pb.gz -- \
	-t folded -s inuse_space testdata/pprof/go/go_heap.pb.gz
check "a wrong -s lists every type, past 273 bytes, naming the input" \
	refuses 2 "^prof: testdata/jfr/locks.jfr: no sample type 'nope'; .*, jdk.ObjectAllocationSample:weight/bytes (alloc-bytes)$" \
	"$PROF" -t summary -s nope testdata/jfr/locks.jfr

# Each reader's default type, the one its own tools show first.
check "a .cpuprofile shows wall time, as DevTools" prof_alike -t folded testdata/cpuprofile/default.cpuprofile -- \
	-t folded -s wall testdata/cpuprofile/default.cpuprofile
check "a JFR shows jdk.ExecutionSample" prof_alike -t folded testdata/jfr/locks.jfr -- \
	-t folded -s jdk.ExecutionSample testdata/jfr/locks.jfr
rprof_ticks_are_executionsamples() { # JFR: -t rprof writes a tick per jdk.ExecutionSample event
	status_is 0 "$PROF" -t rprof "$1" && events=$(awk '$1 == "jdk.ExecutionSample" { print $2 }' "$1.summary") &&
		[ "$(awk 'NR > 1 && !/^#File/' "$TMP/cli.out" | wc -l)" -eq "$events" ]
}
check "-t rprof of a JFR takes jdk.ExecutionSample (locks)" rprof_ticks_are_executionsamples testdata/jfr/locks.jfr
check "-t rprof of a JFR takes jdk.ExecutionSample (busy)" rprof_ticks_are_executionsamples testdata/jfr/busy.jfr

# README's first commands: each ecosystem's block, its `prof` lines run as
# printed in a directory of its own, on a recording that ecosystem's
# profiler made here (testdata/README.md says how): each exits 0, says
# nothing and writes its -o file; `prof FILE` prints the top functions.
first_input() { # FILE NAME IN README: the recording it stands for
	case $1 in
	app.prof) echo testdata/pstats/cprofile-3.11.prof ;;
	app.jfr) echo testdata/jfr/alloc.jfr ;;
	app.cpuprofile) echo testdata/cpuprofile/default.cpuprofile ;;
	cpu.pb.gz) echo testdata/pprof/go/go_cpu.pb.gz ;;
	perf.txt) echo testdata/perf/c-cpu-clock.perf ;;
	Rprof.out) echo testdata/rprof/boot-memory-gc-line.out ;;
	esac
}
awk '/^## First commands/ { on = 1; next } /^## / { on = 0 } on && /^[^ ]/ { block++ }
	on && /^    prof / { sub(/^    /, ""); sub(/ +#.*/, ""); print block "\t" $0 }' README.md > "$TMP/first.lines"
check "README's first commands: a block for each of six ecosystems" \
	[ "$(cut -f1 "$TMP/first.lines" | sort -u | wc -l)" -eq 6 ]
first_block_runs() { # N: README's block N, in a directory of its own
	dir="$TMP/first-$1"
	mkdir -p "$dir"
	grep "^$1	" "$TMP/first.lines" | cut -f2- > "$dir/lines"
	input=$(awk '{ print $NF; exit }' "$dir/lines")
	recording=$(first_input "$input")
	[ -n "$recording" ] && cp "$recording" "$dir/$input" || return 1
	while IFS= read -r line; do
		example_runs_in "$dir" "$line" || { echo "  $line"; return 1; }
		out=$(printf '%s\n' "$line" | sed -n 's/.* -o \([^ ]*\) .*/\1/p')
		[ -z "$out" ] || [ -s "$dir/$out" ] || return 1
		case $line in "prof $input") grep -q '^by self:' "$TMP/cli.out" || return 1 ;; esac
	done < "$dir/lines"
}
example_runs_in() { # DIR COMMAND_LINE: exit 0 and not a word on stderr
	says_nothing env PROF="$(absolute "$PROF")" ${VALGRIND_PROF:+VALGRIND_PROF="$(absolute "$VALGRIND_PROF")"} \
		sh -c 'cd "$1" && prof() { "$PROF" "$@"; } && eval "$2"' - "$1" "$2"
}
# Under valgrind (LIGHT) every third block: its report is the slow run.
for n in $(light_every 3 $(cut -f1 "$TMP/first.lines" | sort -u)); do
	check "README's first commands, block $n ($(grep -m1 "^$n	" "$TMP/first.lines" | awk '{ print $NF }'))" first_block_runs "$n"
done
