# pprof cases, sourced by test/run.sh (uses test/lib.sh, PROF, TMP, DUMP),
# judged by Go's own readers.

for f in testdata/pprof/go/*; do
	case $f in *.txt | *.txt.gz | */LICENSE) continue ;; esac
	check "pprof -> pprof $f" converts_to_pprof "$f" "$TMP/out.pb.gz"
	check "Go's profile package reads $f back as it was" go_dump_is "$TMP/out.pb.gz" "$(golden_for "$f.parsed.txt")"
	check "go tool pprof -raw of $f as it was" go_raw_is "$TMP/out.pb.gz" "$(golden_for "$f.raw.txt")"
	check "pprof -> pprof sniffed from stdin $f" writes "$TMP/out.pb.gz" sh -c "\"$PROF\" -q -t pprof < \"$f\""
done

# Inlined frames: a location's callers come before its own line, outermost
# first (model_location_frame), as go tool pprof -traces lists them.
go_trace_stacks() { # PPROF: go tool pprof -traces' stacks, root first as folded stacks write them, sorted once each
	go tool pprof -traces -symbolize=none "$1" 2> /dev/null | awk '
		function flush(  s, i) { if (n) { s = f[n]; for (i = n - 1; i > 0; i--) s = s ";" f[i]; print s }; n = 0 }
		/^-+\+-+$/ { started = 1; flush(); next }
		!started { next }
		{ line = $0; sub(/^ +/, "", line) }
		line ~ /^[^ ]+:  / { next }
		n == 0 { sub(/^[^ ]+ +/, "", line) }
		{ sub(/ \(inline\)$/, "", line); f[++n] = line }
		END { flush() }' | LC_ALL=C sort -u
}
folded_stacks_are_gos() { # PPROF: inlined frames outermost first, as Go lists them
	go_trace_stacks "$1" > "$TMP/go.stacks" && [ -s "$TMP/go.stacks" ] &&
		"$PROF" -q -t folded "$1" > "$TMP/traces.folded" &&
		sed 's/ [0-9.]*$//' "$TMP/traces.folded" | LC_ALL=C sort -u | cmp -s - "$TMP/go.stacks"
}
for f in testdata/pprof/go/inline_labels.pb testdata/pprof/go/go_cpu.pb.gz; do
	check "folded stacks of $f are go tool pprof -traces' stacks" folded_stacks_are_gos "$f"
done

for f in testdata/rprof/*.out testdata/rprof/patterns/*.out; do
	check "rprof -> pprof $f" converts_to_pprof "$f" "$TMP/r.pb.gz"
	check "Go's profile package and go tool pprof read the pprof of $f" go_accepts "$TMP/r.pb.gz"
	check "rprof -> pprof -> rprof $f" back_to_rprof_is "$TMP/r.pb.gz" "$f"
	[ -f "$f.summaryRprof.tsv" ] &&
		check "go tool pprof -top = summaryRprof for $f" top_is_summaryrprof "$TMP/r.pb.gz" "$f.summaryRprof.tsv"
done

for f in testdata/invalid/pprof/*; do
	case $f in *.err) continue ;; esac
	check "Go refuses $f too" go_refuses "$f"
done

check "profile.proto agrees with pprof's schema" sh test/proto-schema.sh

# A pprof of prof's whose Rprof run comment no longer parses (edited since)
# falls back to plain pprof, with a warning: the Rprof it gives has the
# interval of the period Go reads (nanoseconds, in microseconds), never one
# of a run half read from the comment. What such a run would hold is
# whatever the heap held, so every R file is tried.
spoil_run_comment() { # PPROF OUT: the comment "prof:rprof:run 0 ..." made "prof:rprof:run x ...", same length
	python3 - "$1" "$2" <<-'PY'
	import gzip, sys
	data = gzip.open(sys.argv[1]).read()
	run = b"prof:rprof:run 0 "
	assert data.count(run) == 1
	open(sys.argv[2], "wb").write(gzip.compress(data.replace(run, b"prof:rprof:run x ")))
	PY
}
interval_is_gos_period() { # RPROF
	prof_q -t pprof "$1" > "$TMP/run.pb.gz" && spoil_run_comment "$TMP/run.pb.gz" "$TMP/spoilt.pb.gz" &&
		period=$("$DUMP" "$TMP/spoilt.pb.gz" | sed -n 's/^Period: //p') && [ -n "$period" ] &&
		"$DUMP" "$TMP/spoilt.pb.gz" | grep -q '^Comment: prof:rprof:run x ' &&
		says 0 "warning: its Rprof annotations do not fit the profile" "$PROF" -t rprof "$TMP/spoilt.pb.gz" &&
		[ "$(head -n 1 "$TMP/cli.out" | sed 's/.*sample\.interval=//')" = "$((period / 1000))" ]
}
for f in testdata/rprof/*.out; do
	check "a malformed Rprof run comment in the pprof of $f: plain pprof, the interval Go's period" \
		interval_is_gos_period "$f"
done

# go tool pprof -top of prof's pprof of each input format shows its times
# in time units (a time type with decimals is written as whole
# nanoseconds, not "seconds/1000000000") and every name as the input gave
# it: none is `<unknown>`, which pprof prints for a name like `<module>`
# whose system name is the name (its demangler cuts `<...>` from it).
top_shows_times() { # FILE TYPE: a time unit in the total, no <unknown>
	converts_to_pprof "$1" "$TMP/top.pb.gz" &&
		go tool pprof -top -nodecount 100000 -sample_index="$2" "$TMP/top.pb.gz" > "$TMP/top.txt" 2>/dev/null &&
		grep -Eq '^Showing nodes accounting for -?[0-9.]+(ns|us|ms|s|mins|hrs), ' "$TMP/top.txt" &&
		! grep -q '<unknown>' "$TMP/top.txt"
}
top_names_none_unknown() { # FILE
	converts_to_pprof "$1" "$TMP/top.pb.gz" &&
		go tool pprof -top -nodecount 100000 "$TMP/top.pb.gz" > "$TMP/top.txt" 2>/dev/null &&
		grep -q '^Showing nodes' "$TMP/top.txt" && ! grep -q '<unknown>' "$TMP/top.txt"
}
top_shows() { # FILE NAME: NAME among go tool pprof -top's functions
	converts_to_pprof "$1" "$TMP/top.pb.gz" &&
		go tool pprof -top -nodecount 100000 "$TMP/top.pb.gz" 2>/dev/null | grep -qF -- " $2"
}
for f in testdata/pstats/same-names-3.11.prof testdata/pstats/cprofile-2.7.prof testdata/pstats/profile-3.13.prof; do
	check "go tool pprof -top of prof's pprof of $f: times in time units, no <unknown>" top_shows_times "$f" time
done
for name in '<module>' '<genexpr>' '<built-in method builtins.sum>'; do
	check "go tool pprof -top of prof's pprof of a pstats file names $name" top_shows testdata/pstats/same-names-3.11.prof "$name"
done
check "go tool pprof -top of prof's pprof of a .cpuprofile: wall time in time units, no <unknown>" \
	top_shows_times testdata/cpuprofile/same-names.cpuprofile wall
check "go tool pprof -top of prof's pprof of a .cpuprofile names (anonymous)" top_shows testdata/cpuprofile/same-names.cpuprofile '(anonymous)'
check "go tool pprof -top of prof's pprof of a speedscope file of R's: times in time units, no <unknown>" \
	top_shows_times testdata/speedscope/kmeans-prof.speedscope.json cpu
check "go tool pprof -top of prof's pprof of a speedscope file of node's: times in time units, no <unknown>" \
	top_shows_times testdata/speedscope/node-default.speedscope.json default.cpuprofile
for f in testdata/jfr/busy.jfr testdata/jfr/async.jfr testdata/callgrind/cpp-names.callgrind testdata/folded/comments.folded; do
	check "go tool pprof -top of prof's pprof of $f: no <unknown>" top_names_none_unknown "$f"
done
