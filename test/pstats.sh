# pstats in and out, sourced by test/run.sh (uses test/lib.sh, PROF, TMP).
# Judged by Python's own pstats (Debian's python3; test/python/pstats_judge.py):
#  - reading: testdata/pstats/ (cProfile and the profile module of CPython
#    2.7 and 3.6 to 3.13, and a Stats.add merge, by
#    test/make-pstats-samples.sh): pstats loads prof's pstats output of
#    each file as the Python that wrote it loaded the file (its .raw.txt):
#    the same functions, tt, ct, nc, cc and callers, but where
#    docs/formats/pstats.md says the graph cannot be stacks; so does prof's
#    pstats of that output (read and written back twice);
#  - prof's summary of each file shows the self and total times pstats
#    loads from prof's pstats of it;
#  - the stacks of each file keep the profiler's numbers (docs/callgraph.md;
#    test/python/callgraph_judge.py on the golden): self is tt, a total off
#    cycles is ct, every arc with time is a callee under its caller, the
#    entry point stands at its ct; the import cycle, pluggy's cycle and
#    untraced calls are in cprofile-imports-* and cprofile-pytest;
#  - writing: pstats loads prof's pstats of R, Go, callgrind, folded,
#    cpuprofile and perf inputs with each function's tt and ct as
#    `prof -t summary` shows its self and total.
d=testdata/pstats
judge=test/python/pstats_judge.py

pstats_is_golden() { # FILE: Python's pstats of prof's pstats of FILE, twice written, is FILE's golden
	"$PROF" -q -t pstats "$1" > "$TMP/ps1.prof" && python3 "$judge" compare "$1.raw.txt" "$TMP/ps1.prof" &&
		"$PROF" -q -t pstats "$TMP/ps1.prof" > "$TMP/ps2.prof" && python3 "$judge" compare "$1.raw.txt" "$TMP/ps2.prof"
}
pstats_keeps_numbers() { # FILE: prof's stacks of FILE keep its golden's numbers
	"$PROF" -q -t folded "$1" > "$TMP/cg.folded" &&
		python3 test/python/callgraph_judge.py judge "$1.raw.txt" "$TMP/cg.folded"
}
pstats_is_summary() { # FILE [OPTION...]: Python's pstats of prof's pstats of FILE shows prof's summary
	"$PROF" -q -t pstats "$@" > "$TMP/ps.prof" && "$PROF" -q -t summary --exact "$@" > "$TMP/ps.summary" &&
		python3 "$judge" summary "$TMP/ps.summary" "$TMP/ps.prof"
}

if ! command -v python3 > /dev/null; then
	fail "pstats: python3 is not installed (README's install command)"
else
	for f in $d/*.prof; do
		check "pstats: Python's pstats reads prof's pstats of $f as the file" pstats_is_golden "$f"
		check "... filtered, prof's summary of it is what pstats shows" pstats_is_summary "$f" --max-depth 100000
		check "... its stacks keep pstats' self, total and arcs" pstats_keeps_numbers "$f"
		check "... sniffed from stdin" prints 0 "(pstats)$" sh -c '"$1" -t summary < "$2"' - "$PROF" "$f"
	done
	for f in $(light_every 3 testdata/rprof/boot-memory-gc-line.out testdata/rprof/kmeans-default.out testdata/pprof/go/*.pb.gz \
		 testdata/callgrind/*.callgrind testdata/folded/differential.folded testdata/cpuprofile/*.cpuprofile \
		 testdata/perf/*.perf); do
		[ -f "$f" ] || { fail "pstats: no $f"; continue; }
		check "pstats: Python's pstats of prof's pstats of $f shows prof's summary" pstats_is_summary "$f"
	done
fi
# Without call counts, each caller the stacks show called once: fib under main and under itself.
printf 'main;fib;fib 3\nmain;fib 2\n' > "$TMP/fib.folded"
check "pstats: a folded file's calls are one per caller, primitive where not recursive" \
	sh -c '"$1" -q -t pstats "$2" > "$3" && python3 -c "
import pstats, sys
s = pstats.Stats(sys.argv[1]).stats
fib = [v for k, v in s.items() if k[2] == \"fib\"][0]
sys.exit(0 if fib[:2] == (1, 2) and sorted(c[:2] for c in fib[4].values()) == [(1, 0), (1, 1)] else 1)" "$3"' \
	- "$PROF" "$TMP/fib.folded" "$TMP/fib.prof"
check "pstats: a code object of an unknown layout is refused, naming it" \
	refuses 1 "code object of a layout prof does not know" "$PROF" -t summary testdata/invalid/pstats/code-layout.prof

# Issue 28, the round trip: a pstats file's own graph is kept beside its
# samples (docs/model.md), so Python's pstats loads prof's pstats of it,
# and of that, as the Python that wrote it loaded it, with no exception:
# every function and caller, cc, nc, tt and ct to 1e-9. A filter or a
# merge leaves the stacks the truth: pstats then shows the summary.
pstats_round_trip() { # FILE
	"$PROF" -q -t pstats "$1" > "$TMP/rt1.prof" && python3 "$judge" exact "$1.raw.txt" "$TMP/rt1.prof" &&
		"$PROF" -q -t pstats "$TMP/rt1.prof" > "$TMP/rt2.prof" && python3 "$judge" exact "$1.raw.txt" "$TMP/rt2.prof"
}
pstats_as_filtered() { # FILE OPTION...: prof's pstats of FILE with OPTIONs is the one a filter that keeps all gives
	"$PROF" -q -t pstats "$@" > "$TMP/as.prof" && "$PROF" -q -t pstats --ignore '^no such function$' "$1" | cmp -s - "$TMP/as.prof"
}
printf '{0' > "$TMP/empty.prof"
if command -v python3 > /dev/null; then
	# Its runs of prof are pstats_is_golden's, the same inputs and options:
	# valgrind (LIGHT) has seen each, so there only Python's judging would run.
	for f in $d/*.prof; do
		heavy "pstats: prof's pstats of $f gives Python's pstats the file's own numbers" pstats_round_trip "$f"
	done
	for f in $d/cprofile-3.12.prof $d/profile-3.12.prof; do
		check "pstats: filtered (--ignore), prof's pstats of $f shows its summary" pstats_is_summary "$f" --ignore '^no such function$'
		check "... merged with itself, likewise" pstats_is_summary "$f" "$f"
		check "... less an empty base (--diff-base), as filtered" pstats_as_filtered "$f" --diff-base "$TMP/empty.prof"
	done
fi
