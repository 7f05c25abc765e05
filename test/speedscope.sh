# speedscope, sourced by test/run.sh (uses test/lib.sh, PROF, TMP): the
# real speedscope app loads prof's speedscope JSON and folded output, and
# shows the self and total counts that R's summaryRprof and go tool pprof
# report for the input.
install_browser_tools

# Offline, npm ci fails: that is one failure with npm's own reason (no stack
# trace), and a check in a browser is then skipped. A copy of the package
# lists, an empty npm cache and a registry that refuses connections stand
# for an offline machine; any program stands for Chromium (never started).
offline_install_is_one_failure() {
	mkdir -p "$TMP/offline" && cp "$SPEEDSCOPE"/package*.json "$TMP/offline/" || return 1
	(
		SPEEDSCOPE=$TMP/offline CHROMIUM=$(command -v sh) browser_tools= NO_BROWSER= passed=0 failed=0 skipped=0
		export npm_config_registry=http://127.0.0.1:9/ npm_config_cache="$TMP/offline/cache" \
			npm_config_fetch_retries=0 npm_config_proxy= npm_config_https_proxy=
		install_browser_tools
		needs_browser check "in a browser" false
		echo "$passed passed, $failed failed, $skipped skipped"
	) > "$TMP/offline.out" 2>&1
	grep -q '^FAIL npm ci in .*: the checks in a browser are skipped$' "$TMP/offline.out" &&
		grep -Eq '^  \| npm (error|ERR!) code ECONNREFUSED$' "$TMP/offline.out" &&
		! grep -q ' at ' "$TMP/offline.out" && [ "$(grep -c '^FAIL' "$TMP/offline.out")" -eq 1 ] &&
		[ "$(tail -n 1 "$TMP/offline.out")" = "0 passed, 1 failed, 1 skipped" ]
}
check "offline, npm ci is one failure with npm's reason, and the browser's checks are skipped" \
	offline_install_is_one_failure
for f in testdata/rprof/kmeans-default.out testdata/rprof/boot-memory-gc-line.out testdata/rprof/files-line.out; do
	LC_ALL=C sort "$f.summaryRprof.tsv" > "$TMP/want"
	"$PROF" -q -t speedscope --sample-type samples -o "$TMP/s.speedscope.json" "$f"
	needs_browser check "speedscope shows summaryRprof's counts for prof's JSON of $f" speedscope_shows "$TMP/s.speedscope.json" "$TMP/want"
	"$PROF" -q -t folded -o "$TMP/s.folded" "$f"
	needs_browser check "speedscope shows summaryRprof's counts for prof's folded $f" speedscope_shows "$TMP/s.folded" "$TMP/want"
done
go_top_rows testdata/pprof/go/go_cpu.pb.gz samples count > "$TMP/want"
"$PROF" -q -t speedscope --sample-type samples -o "$TMP/g.speedscope.json" testdata/pprof/go/go_cpu.pb.gz
needs_browser check "speedscope shows go tool pprof's counts for prof's JSON of go_cpu.pb.gz" speedscope_shows "$TMP/g.speedscope.json" "$TMP/want"

# The profile speedscope opens on (activeProfileIndex): an R profile's CPU
# time; for pprof, its default type as Go reads it; with --sample-type, the
# one profile written. Judged by the name of the profile at that index.
opens_on() { # TYPE COMMAND...: the command writes speedscope JSON that opens on TYPE's profile
	type=$1; shift
	status_is 0 "$@" && node -e '
		const json = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const active = json.profiles[json.activeProfileIndex];
		console.log(Number.isInteger(json.activeProfileIndex) && active ? active.name : "none")' \
		"$TMP/cli.out" > "$TMP/active" && grep -q ": $type\$" "$TMP/active"
}
for f in testdata/rprof/kmeans-default.out testdata/rprof/strings-memory.out; do
	check "speedscope JSON of $f opens on cpu" opens_on cpu "$PROF" -t speedscope "$f"
	check "speedscope JSON of $f with -s 0 opens on it" opens_on samples "$PROF" -t speedscope -s 0 "$f"
done
# A profile whose default_sample_type is its first type (of two), not its last.
printf '\012\004\010\001\020\002\012\004\010\004\020\005\022\007\012\001\001\022\002\005\007' > "$TMP/default.pb"
printf '\042\010\010\001\042\004\010\001\020\012\052\004\010\001\020\003\062\000\062\007samples' >> "$TMP/default.pb"
printf '\062\005count\062\004main\062\003cpu\062\013nanoseconds\160\001' >> "$TMP/default.pb"
check "Go reads default_sample_type samples" sh -c '[ "$("$0" "$1" | sed -n "s/^DefaultSampleType: //p")" = samples ]' \
	"$DUMP" "$TMP/default.pb"
for f in "$TMP/default.pb" testdata/pprof/go/go_cpu.pb.gz testdata/pprof/go/mixed_mappings.pb.gz; do
	check "speedscope JSON of $f opens on Go's default type" opens_on "$(pprof_default_type "$f")" "$PROF" -t speedscope "$f"
	go_types_into "$f" "$TMP/types"
	check "speedscope JSON of $f with -s 0 opens on it" opens_on "$(awk '{ print $1; exit }' "$TMP/types")" \
		"$PROF" -t speedscope -s 0 "$f"
done

# Values with decimals turned into seconds (issue 22: 2.5 s printed as 25,
# 3.75 ms as 0.375 s): the summary's total time and sprof's seconds against
# node's sum of each file's own times.
frames='"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"main"},{"name":"work"}]}'
printf '{%s,"profiles":[{"type":"evented","name":"p","unit":"seconds","startValue":0.1,"endValue":2.6,"events":[%s]}]}\n' \
	"$frames" '{"type":"O","frame":0,"at":0.1},{"type":"O","frame":1,"at":0.35},{"type":"C","frame":1,"at":2.2},{"type":"C","frame":0,"at":2.6}' \
	> "$TMP/evented-s.json"
printf '{%s,"profiles":[{"type":"sampled","name":"s","unit":"milliseconds","startValue":0,"endValue":%s,"samples":[[0],[0,1],[1]],"weights":[%s]}]}\n' \
	"$frames" 3.76 1.25,2.5,0.01 > "$TMP/sampled-ms.json"
printf '{%s,"profiles":[{"type":"sampled","name":"s","unit":"milliseconds","startValue":0,"endValue":%s,"samples":[[0],[0,1],[1]],"weights":[%s]}]}\n' \
	"$frames" 3750.8 1000.25,2750.5,0.05 > "$TMP/sampled-long-ms.json"
total_time_is_nodes() { # JSON: the summary's exact total, in seconds, = node's
	[ "$("$PROF" -q -t summary --exact "$1" | awk '/^sample type:/ { u = $NF }
		/^total:/ { per = u == "(milliseconds)" ? 1e3 : u == "(microseconds)" ? 1e6 : u == "(nanoseconds)" ? 1e9 : 1
			printf "%.6f\n", $2 / per }')" = "$(node test/node/speedscope-seconds.cjs "$1" 6)" ]
}
sprof_seconds_are_nodes() { # JSON: sprof's sampling.time = node's
	[ "$("$PROF" -t sprof "$1" | awk -F '\t' 'p { print $5; exit } /^id\tlen/ { p = 1 }')" = \
		"$(node test/node/speedscope-seconds.cjs "$1" 6)" ]
}
for f in "$TMP/evented-s.json" "$TMP/sampled-ms.json" "$TMP/sampled-long-ms.json"; do
	check "summary: the total time of ${f##*/} in seconds, decimals scaled" total_time_is_nodes "$f"
	check "sprof: the seconds of ${f##*/}, decimals scaled" sprof_seconds_are_nodes "$f"
done
