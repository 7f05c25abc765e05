# Chrome's trace events, sourced by test/run.sh (uses test/lib.sh, PROF,
# TMP): traces clang and headless Chromium wrote (testdata/trace/) read as
# the speedscope app's own import reads them, their V8 profiles as DevTools
# reads each profile; -t trace of a JFR recording of two threads, a perf
# recording and an R profile shown by the app as their folded stacks, a
# thread each, and read back the same. speedscope's own samples of every
# repair are the cross-check's (test/cross-check.sh).

install_browser_tools
clang=testdata/trace/clang-ftime-trace.json
clang_default=testdata/trace/clang-ftime-trace-default.json
chromium=testdata/trace/chromium-startup.json
for f in "$clang" "$clang_default" "$chromium"; do
	check "trace: sniffed from stdin: $f" prints 0 '(trace)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
done
# clang writes sections that overlap without nesting: repaired as the app repairs them, and said.
for f in "$clang" "$clang_default"; do
	needs_browser heavy "trace: the speedscope app's import of $f is prof's reading" trace_is_apps "$f"
done
check "trace: $clang_default, whose sections nest, reads without a word" says_nothing "$PROF" -t folded "$clang_default"
check "trace: $clang's repairs are warned" says 0 'E events name another slice than the innermost open one: left out' \
	"$PROF" -t folded "$clang"
check "trace: $clang's children before their parents are warned" says 0 'X events come before slices that hold them' \
	"$PROF" -t folded "$clang"
check "trace: clang's Total events are threads of their own" \
	sh -c '[ "$("$0" -q -t trace "$1" | grep -c "\"thread_name\"")" -eq 20 ]' "$PROF" "$clang"

# Cut where Chrome's writer may stop: the array's ']' missing (the
# format allows it: nothing said), or the object's too (warned); a cut
# inside an event is refused.
prof_q -t folded -s wall "$clang" > "$TMP/whole.folded"
python3 -c 'import json, sys; print("[" + ",\n".join(json.dumps(e) for e in json.load(open(sys.argv[1]))["traceEvents"]) + ",")' \
	"$clang" > "$TMP/open.json"
check "trace: an array without its ']' is read whole, nothing said" writes "$TMP/whole.folded" \
	"$PROF" -t folded -s wall "$TMP/open.json"
sed 's/\],"beginningOfTime".*//' "$clang" > "$TMP/cut.json"
check "trace: an object cut after its last event is read, with a warning" says 0 'ends inside traceEvents' \
	"$PROF" -t folded -s wall -o "$TMP/cut.folded" "$TMP/cut.json"
check "trace: ... and reads as the whole" cmp -s "$TMP/cut.folded" "$TMP/whole.folded"
head -c 3000 "$clang" > "$TMP/mid.json"
check "trace: a trace cut inside an event is refused" refuses 1 'the input ends inside' "$PROF" -t folded "$TMP/mid.json"

# Chromium's V8 profiles: each read as DevTools reads it alone
# (test/node/devtools-folded.cjs on the profile as test/node/trace-profiles.cjs
# joins its chunks), the names compared without their URLs (DevTools names
# a function by its URL where its name is shared in one profile; prof
# where it is shared in the trace).
without_urls() { sed 's/ [a-z-]*:\/\/[^; ]*//g' | folded_sums 2> /dev/null; }
devtools_reads_chromium() {
	mkdir -p "$TMP/v8" && rm -f "$TMP"/v8/*.cpuprofile &&
		[ "$(node test/node/trace-profiles.cjs "$1" "$TMP/v8")" -gt 1 ] || return 1
	for p in "$TMP"/v8/*.cpuprofile; do node test/node/devtools-folded.cjs "$p" || return 1; done | without_urls > "$TMP/want" &&
		prof_q -t folded -s samples "$1" > "$TMP/got.folded" && without_urls < "$TMP/got.folded" > "$TMP/got" &&
		cmp -s "$TMP/want" "$TMP/got"
}
check "trace: $chromium's V8 profiles are DevTools' reading of each" devtools_reads_chromium "$chromium"
check "trace: $chromium's chunks from the sampler thread are warned" says 0 'ProfileChunk events come from another thread' \
	"$PROF" -t folded "$chromium"
check "trace: $chromium's samples are the profiled thread's (CrRendererMain), not the sampler's" \
	sh -c '"$0" -q -t trace "$1" | grep -q "\"args\":{\"name\":\"CrRendererMain\"}"' "$PROF" "$chromium"

# The writer. The app's weights are microseconds: a count is one a unit,
# a time converted (SCALE: from the folded stacks' unit).
events_as_documented() { # TRACE: every event as the format's document says (ph, ts and dur in µs, pid, tid, M's args.name)
	python3 -c '
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
ok = len(events) > 0
for e in events:
    ok &= isinstance(e["pid"], int) and isinstance(e["tid"], int) and isinstance(e["name"], str)
    if e["ph"] == "M":
        ok &= e["name"] in ("process_name", "thread_name") and isinstance(e["args"]["name"], str)
    else:
        ok &= e["ph"] == "X" and e["ts"] >= 0 and e["dur"] > 0
sys.exit(0 if ok else 1)' "$1"
}
written_trace_is_folded() { # FILE SCALE THREADS [-s TYPE]: the app shows prof's trace as the folded stacks, THREADS profiles
	f=$1 scale=$2 threads=$3
	shift 3
	prof_q -t trace "$@" -o "$TMP/w.trace.json" "$f" && events_as_documented "$TMP/w.trace.json" &&
		app_import_folded "$TMP/w.trace.json" "$TMP/w.app" && scaled_sums 1 < "$TMP/w.app" > "$TMP/w.app.sums" &&
		[ "$(wc -l < "$TMP/w.app.names")" -eq "$threads" ] &&
		prof_q -t folded "$@" "$f" > "$TMP/w.folded" && scaled_sums "$scale" < "$TMP/w.folded" > "$TMP/w.sums" &&
		cmp -s "$TMP/w.app.sums" "$TMP/w.sums"
}
reads_back() { # FILE SCALE [-s TYPE]: prof's trace read back has the same stacks and weights
	f=$1 scale=$2
	shift 2
	prof_q -t trace "$@" -o "$TMP/b.trace.json" "$f" && prof_q -f trace -t folded "$TMP/b.trace.json" > "$TMP/b.folded" &&
		scaled_sums 1 < "$TMP/b.folded" > "$TMP/b.got" && prof_q -t folded "$@" "$f" > "$TMP/b.want.folded" &&
		scaled_sums "$scale" < "$TMP/b.want.folded" > "$TMP/b.want" && cmp -s "$TMP/b.got" "$TMP/b.want"
}
jfr=testdata/jfr/locks.jfr
jfr_threads=$(grep -c '^jdk.ExecutionSample	' "$jfr.threads")
needs_browser heavy "trace: -t trace of $jfr shows its $jfr_threads threads' stacks in the app" \
	written_trace_is_folded "$jfr" 1 "$jfr_threads"
check "trace: -t trace of $jfr reads back" reads_back "$jfr" 1
check "trace: -t trace of $jfr names its threads" \
	sh -c '"$0" -q -t trace "$1" | grep -q "\"thread_name\",\"args\":{\"name\":\"worker-0\"}"' "$PROF" "$jfr"
perf=testdata/perf/node-fib.perf
needs_browser heavy "trace: -t trace of $perf shows its stacks in the app" written_trace_is_folded "$perf" 0.001 1
check "trace: -t trace of $perf reads back" reads_back "$perf" 0.001
r=testdata/rprof/kmeans-default.out
needs_browser heavy "trace: -t trace of $r shows its CPU time in the app" written_trace_is_folded "$r" 0.001 1 -s cpu
check "trace: -t trace of $r reads back" reads_back "$r" 0.001 -s cpu
check "trace: -t trace of $r by ticks reads back, a microsecond a tick" reads_back "$r" 1 -s samples
printf 'x 1.1\nx;y 6.6\nz 2.9\nz;y 4.8\n' > "$TMP/fractions.folded"
needs_browser heavy "trace: -t trace of fractional weights shows them in the app" \
	written_trace_is_folded "$TMP/fractions.folded" 1 1
check "trace: -t trace of fractional weights reads back" reads_back "$TMP/fractions.folded" 1
# PyTorch's GPU streams are string tids: threads of their own, read and written.
printf '{"traceEvents":[{"ph":"X","name":"k","ts":0,"dur":5,"pid":"gpu","tid":"stream 7"},%s\n%s]}\n' \
	'{"ph":"X","name":"k2","ts":1,"dur":5,"pid":"gpu","tid":"stream 8"},' '{"ph":"X","name":"op","ts":0,"dur":9,"pid":42,"tid":1}' \
	> "$TMP/streams.json"
check "trace: string tids are threads of their own, named by them" \
	sh -c '"$0" -q -t trace "$1" > "$2" && [ "$(grep -c "\"thread_name\"" "$2")" -eq 3 ] && grep -q "\"name\":\"stream 8\"" "$2"' \
	"$PROF" "$TMP/streams.json" "$TMP/streams.trace.json"
check "trace: ... and read back the same" reads_back "$TMP/streams.json" 1 -s wall
