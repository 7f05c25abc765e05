# perf script (-f perf), sourced by test/run.sh (uses test/lib.sh, PROF, UNIT,
# TMP). The inputs are recordings made here by perf (test/make-perf-samples.sh);
# each check holds prof's reading against what awk reads off the text itself.
PERF=testdata/perf
go_reads_as_pprof() { converts_to_pprof "$1" "$TMP/perf.pb.gz" && go_raw "$TMP/perf.pb.gz" > /dev/null; }
prints_exactly() { # LINE COMMAND...: exit 0, and LINE alone on stdout
	expected=$1; shift
	status_is 0 "$@" && printf '%s\n' "$expected" | cmp -s - "$TMP/cli.out"
}

# awk's reading: per sample (a header line: one that does not start with
# a tab or '#'), its event, its period (the number before the event, else
# 1) and its leaf (the first frame; on the header line without call graphs).
perf_samples() { # FILE: "EVENT PERIOD LEAF" per sample
	awk 'function leaf_of(text,   dso) { # "ADDR SYM (DSO)": SYM named as stackcollapse-perf.pl names it
			dso = text; sub(/.*\(/, "", dso); sub(/\)$/, "", dso)
			sub(/^[ \t]*[0-9a-f]+ /, "", text); sub(/ \([^()]*\)$/, "", text); sub(/\+0x[0-9a-f]+$/, "", text)
			if (text == "[unknown]" && dso != "[unknown]") { sub(/.*\//, "", dso); return "[" dso "]" }
			sub(/\(.*/, "", text); return text }
		/^#/ || /^$/ { next }
		/^\t/ { if (want_leaf) { print event, period, leaf_of($0); want_leaf = 0 }; next }
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
			period = ($(i + 1) ~ /^[0-9]+$/) ? $(i + 1) : 1; e = ($(i + 1) ~ /^[0-9]+$/) ? i + 2 : i + 1
			event = $e; sub(/:$/, "", event)
			if (NF > e) { rest = $0; sub(/.*[0-9]+\.[0-9]+: +([0-9]+ +)?[^ ]+: +/, "", rest)
				print event, period, leaf_of(rest); want_leaf = 0 }
			else want_leaf = 1 }' "$1"
}
first_event() { perf_samples "$1" | awk 'NR == 1 { print $1 }'; }
# The default type sums the first event's periods, as stackcollapse-perf.pl does.
total_is_first_events_periods() { # FILE
	want=$(perf_samples "$1" | awk -v e="$(first_event "$1")" '$1 == e { s += $2 } END { print s }')
	"$PROF" -q -t folded "$1" > "$TMP/perf.folded" &&
		[ "$want" = "$(awk '{ s += $NF } END { print s }' "$TMP/perf.folded")" ]
}
# Every sample is one count of its event's samples type.
samples_are_headers() { # FILE
	perf_samples "$1" | awk '{ n[$1]++ } END { for (e in n) print e ":samples", n[e] }' | LC_ALL=C sort > "$TMP/perf.want"
	: > "$TMP/perf.got"
	for e in $(cut -d' ' -f1 "$TMP/perf.want"); do
		"$PROF" -q -s "$e" -t folded "$1" > "$TMP/perf.folded" || return 1
		printf '%s %s\n' "$e" "$(awk '{ s += $NF } END { print s }' "$TMP/perf.folded")" >> "$TMP/perf.got"
	done
	LC_ALL=C sort "$TMP/perf.got" | cmp -s - "$TMP/perf.want"
}
# Leaves: the innermost frame of each sample of the first event, counted.
leaves_are_first_frames() { # FILE
	perf_samples "$1" | awk -v e="$(first_event "$1")" '$1 == e { $1 = ""; $2 = ""; sub(/^  /, ""); n[$0]++ }
		END { for (l in n) print l "\t" n[l] }' | LC_ALL=C sort > "$TMP/leaves.want"
	"$PROF" -q -s "$(first_event "$1"):samples" -t folded "$1" > "$TMP/perf.folded" &&
		awk '{ c = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); if (c) n[f[k]] += c }
		END { for (l in n) print l "\t" n[l] }' "$TMP/perf.folded" | LC_ALL=C sort | cmp -s - "$TMP/leaves.want"
}
for f in "$PERF"/*.perf; do
	check "$f sniffed as perf" prints 0 'valid perf profile' "$PROF" --check "$f"
	check "$f: the default type sums the first event's periods" total_is_first_events_periods "$f"
	check "$f: a count per sample of each event" samples_are_headers "$f"
	check "$f: leaves are the first frames" leaves_are_first_frames "$f"
	heavy "$f: go tool pprof reads it as pprof" go_reads_as_pprof "$f"
done

root_is() { # FILE ROOT: every folded stack starts at ROOT
	"$PROF" -q -t folded "$1" > "$TMP/perf.folded" &&
		awk -v r="$2" 'index($0, r ";") != 1 { bad = 1 } END { exit bad || NR == 0 }' "$TMP/perf.folded"
}
check "R's one-letter command is its stacks' root" root_is "$PERF/r-loop.perf" R
check "a recording without call graphs: command and leaf" sh -c \
	'"$1" -q -t folded "$2" | awk "{ sub(/ [0-9]+\$/, \"\"); if (split(\$0, f, \";\") != 2) bad = 1 } END { exit bad }"' \
	sh "$PROF" "$PERF/c-no-callgraph.perf"
check "two events: a period and a count type each" prints 0 'page-faults:samples.*count' "$PROF" -t tables "$PERF/c-two-events.perf"
check "cpu-clock's period is in nanoseconds" prints 0 'cpu-clock.*nanoseconds' "$PROF" -t tables "$PERF/c-cpu-clock.perf"
check "JIT frames from a perf map keep their names" prints 0 '^node;.*JS:.fib /prof/test/perf/fib.js' "$PROF" -t folded "$PERF/node-fib.perf"
check "inlined frames of a DWARF recording stay frames" prints 0 '__libc_start_main_impl' "$PROF" -t folded "$PERF/c-dwarf.perf"

# What folded stacks drop stays: pid/tid/cpu labels, addresses and DSOs as
# Go reads them from prof's pprof.
labels_and_mappings_in_go() {
	"$PROF" -q -t pprof "$PERF/c-pid-cpu.perf" > "$TMP/perf.pb.gz" &&
		go tool pprof -symbolize=none -raw "$TMP/perf.pb.gz" > "$TMP/perf.raw" 2> /dev/null &&
		grep -q 'cpu:\[[0-9]*\] pid:\[[0-9]*\] tid:\[[0-9]*\]' "$TMP/perf.raw" &&
		grep -q '^ *[0-9]*: 0x[0-9a-f]* M=1 ' "$TMP/perf.raw" && grep -q ' /prof/work ' "$TMP/perf.raw"
}
heavy "pid, tid, cpu, addresses and DSOs reach go tool pprof" labels_and_mappings_in_go
# Time order: the samples' order is the file's, so a chart draws them in it.
check "a perf recording draws as a flame chart" status_is 0 "$PROF" -t flamechart "$PERF/c-cpu-clock.perf"

# The last sample is kept whether or not a blank line ends it (stackcollapse-perf.pl loses it).
last_sample_kept() {
	sed '$d' "$PERF/c-cpu-clock.perf" > "$TMP/no-end.perf"
	tail -n 1 "$TMP/no-end.perf" | grep -q . &&
		"$PROF" -q -t folded "$TMP/no-end.perf" > "$TMP/no-end.folded" && cmp -s "$TMP/no-end.folded" "$TMP/full.folded"
}
"$PROF" -q -t folded "$PERF/c-cpu-clock.perf" > "$TMP/full.folded"
check "the last sample counts without a blank line after it" last_sample_kept
# Each sample's root, labels and event are its own header's, however few
# of them change from the sample before (the reader reuses what a header
# like the last one made): one thing changes at a time, then back; the
# two events have names of one length.
labels_follow_headers() {
	for h in 'prog 7/7 [000] 1.000001: 5 cycles:' 'prog 7/7 [001] 1.000002: 5 cycles:' \
		'prog 7/8 [001] 1.000003: 5 cycles:' 'prog 6/8 [001] 1.000004: 5 cycles:' \
		'prog 6/8 [001] 1.000005: 3 faults:' 'prog 6/8 [001] 1.000006: 3 faults:' \
		'java 6/8 [001] 1.000007: 3 faults:' 'prog 7/7 [000] 1.000008: 5 cycles:'; do
		printf '%s \n\t 10 f+0x1 (/bin/prog)\n\t 20 main+0x2 (/bin/prog)\n\n' "$h"
	done > "$TMP/headers.perf"
	awk '/^[a-z]/ { split($2, t, "/"); gsub(/[][]/, "", $3); sub(/:$/, "", $6)
		print $1, "pid=" t[1], "tid=" t[2], "cpu=" ($3 + 0), $6 }' "$TMP/headers.perf" > "$TMP/headers.want"
	$UNIT labels perf "$TMP/headers.perf" > "$TMP/headers.got" && [ -s "$TMP/headers.want" ] &&
		cmp -s "$TMP/headers.want" "$TMP/headers.got"
}
check "each sample's command, pid, tid, cpu and event are its header's" labels_follow_headers
# The frame names stackcollapse-perf.pl gives, on lines made here.
printf 'prog 1 1.000001: 5 cpu-clock: \n\t 10 ns::f(int, char)+0x1f (/bin/prog)\n\t 20 (anonymous namespace)::g(double)+0x2 (/bin/prog)\n\t 30 main.(*T).Run+0x3 (/bin/prog)\n\t 40 [unknown] (/usr/lib/libR.so)\n\t 50 [unknown] ([unknown])\n\t 60 a;"b" (/bin/prog)\n\n' > "$TMP/names.perf"
check "frames named as stackcollapse-perf.pl names them (but (anonymous namespace) kept)" prints_exactly \
	'prog;a:b;[unknown];[libR.so];main.(*T).Run;(anonymous namespace)::g;ns::f 5' "$PROF" -t folded "$TMP/names.perf"

# stackcollapse-perf.pl's options (the cross-check holds each against the
# script's own results): --tid's root is each header's COMM-PID/TID, as
# awk reads it; --all marks kernel and JIT frames, --addrs names unknown
# frames' addresses; the options are the perf reader's alone.
roots_are_headers() { # FILE
	awk '/^[^\t#]/ && NF { split($2, t, "/"); n[$1 "-" t[1] "/" t[2]]++ } END { for (r in n) print r, n[r] }' "$1" |
		LC_ALL=C sort > "$TMP/roots.want"
	"$PROF" -q -f perf --tid -s 1 -t folded "$1" > "$TMP/perf.folded" &&
		awk '{ split($0, f, ";"); n[f[1]] += $NF } END { for (r in n) print r, n[r] }' "$TMP/perf.folded" |
		LC_ALL=C sort | cmp -s - "$TMP/roots.want"
}
check "--tid: each sample's root is its header's COMM-PID/TID" roots_are_headers "$PERF/c-pid-cpu.perf"
printf 'prog 1 1.000001: 5 cpu-clock: \n\t 10 f+0x1f (/tmp/perf-12.map)\n\t 20 g+0x2 ([kernel.kallsyms])\n\t 30 h+0x3 (/boot/vmlinux)\n\t 40 [unknown] (/usr/lib/libR.so)\n\t 5a [unknown] ([unknown])\n\n' > "$TMP/marks.perf"
check "--all --addrs: kernel and JIT frames marked, unknown ones with their address" prints_exactly \
	'prog;[unknown <5a>];[libR.so <40>];h_[k];g_[k];f_[j] 5' "$PROF" -f perf --all --addrs -t folded "$TMP/marks.perf"
check "--kernel alone marks no JIT frame" prints_exactly \
	'prog;[unknown];[libR.so];h_[k];g_[k];f 5' "$PROF" -f perf --kernel -t folded "$TMP/marks.perf"
check "a perf option needs -f perf" refuses 2 "^prof: --pid is for -f perf\$" "$PROF" --pid -t folded "$TMP/marks.perf"
check "... not another reader" refuses 2 "^prof: --jit is for -f perf, not for -f folded\$" \
	"$PROF" -f folded --jit -t folded "$TMP/marks.perf"

# Two copies of a recording whose last sample is 8587000135 s after its
# first: the second's times would follow the first's past 2^63 ns (a signed
# overflow before, issue 22). The merge keeps every sample, drops the times
# and says so; --time then has none to cut by.
near_2_63=$(ls test/fuzz/crashers/perf-crash-* | head -n 1)
merged_counts_twice() { # FILE: its folded total, doubled, with the warning on stderr
	doubled=$("$PROF" -q -t folded "$1" | awk '{ s += 2 * $NF } END { print s }')
	says 0 "$1: warning: sample times dropped: .* pass 2^63 ns" "$PROF" -t folded "$1" "$1" &&
		[ "$(awk '{ s += $NF } END { print s }' "$TMP/cli.out")" = "$doubled" ]
}
check "times past 2^63 ns in a merge are dropped, with a warning, and the samples kept" merged_counts_twice "$near_2_63"
check "... so that --time has no times to cut by" says 1 "time needs samples with times" \
	"$PROF" --time 8587000135:8587000136 -t folded "$near_2_63" "$near_2_63"

# Issue 19, made from the rule. perf script's text saved with its stderr
# (2>&1) begins with perf's own messages: sniffed as perf all the same, its
# samples those of the text alone, one warning naming the first message.
printf '%s\n' 'build id event received for [kernel.kallsyms]: 0123456789abcdef0123456789abcdef01234567 [20]' \
	'build id event received for /prof/work: 89abcdef0123456789abcdef0123456789abcdef [20]' \
	'Warning:' 'Kernel address maps (/proc/{kallsyms,modules}) were restricted,' \
	"check /proc/sys/kernel/kptr_restrict before running 'perf record'." \
	'Samples for '"'"'cpu-clock'"'"' event do not have CPU attribute set. Skipping '"'"'cpu'"'"' field.' > "$TMP/messages"
for f in "$PERF/c-cpu-clock.perf" "$PERF/c-no-callgraph.perf"; do
	cat "$TMP/messages" "$f" > "$TMP/with-messages.perf"
	"$PROF" -q -t folded "$f" > "$TMP/alone.folded"
	check "$f after perf's messages: sniffed as perf, one warning naming line 1" says 0 \
		"^prof: $TMP/with-messages.perf:1: warning: 6 lines before the first sample, not perf script" \
		"$PROF" -t folded "$TMP/with-messages.perf"
	check "... the samples of the text alone" cmp -s "$TMP/cli.out" "$TMP/alone.folded"
	check "... --check finds it valid" prints 0 'valid perf profile' "$PROF" --check "$TMP/with-messages.perf"
done
# Text that turns to binary (a perf.data cat'ed after it): refused naming
# the first binary line, whether sniffed or named, with call graphs or
# without (where the probe had too few lines to go by), and when the
# binary follows the first header, the one line the probe has (issue 27).
for f in "$PERF/c-cpu-clock.perf" "$PERF/c-no-callgraph.perf"; do
	for text in 12 1; do
		for bytes in control NUL unended; do
			{ head -n $text "$f"; case $bytes in
				NUL) printf 'PERFILE2h\000\000\000\220\000\n' ;;
				control) printf 'PERFILE2h\001\002\003\n' ;;
				unended) printf 'PERFILE2h\001\002\003' ;;
			esac; } > "$TMP/binary.perf"
			for named in '' '-f perf'; do
				check "${f##*/}'s first $text lines then binary ($bytes bytes)${named:+, $named}: refused at line $((text + 1))" \
					says 1 "^prof: $TMP/binary.perf:$((text + 1)): \(binary data\|NUL byte\)" \
					"$PROF" $named -t folded "$TMP/binary.perf"
			done
		done
	done
done
