# The JSON readers, sourced by test/run.sh (uses test/lib.sh, PROF, TMP):
# V8 .cpuprofile files that node wrote, judged by DevTools' rule (a
# reference reading in node), by go tool pprof and by the real speedscope
# app's own import; speedscope files that prof wrote and that the app
# exported, read back to the same samples and judged by a reference
# reading and the app's view; the JSON grammar's traps.

# folded stacks as DevTools counts them: test/node/devtools-folded.cjs.
devtools_folded_is() { # CPUPROFILE
	node test/node/devtools-folded.cjs "$1" | folded_sums > "$TMP/want" &&
		"$PROF" -q -t folded -s samples "$1" > "$TMP/got.folded" &&
		folded_sums < "$TMP/got.folded" > "$TMP/got" && cmp -s "$TMP/want" "$TMP/got"
}
# speedscope's import of the .cpuprofile and its load of prof's speedscope
# JSON show every frame with the same self weight. speedscope names an
# anonymous function "(anonymous FILE:LINE)" where DevTools and prof say
# "(anonymous)", and drops "(idle)"; its totals differ by design, since it
# stacks "(program)" and "(garbage collector)" on the sample before
# (docs/formats/cpuprofile.md), so only self weights are compared.
speedscope_self_agrees() { # CPUPROFILE
	node test/node/end-at-last-sample.cjs "$1" "$TMP/cut.cpuprofile" &&
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$TMP/cut.cpuprofile" > "$TMP/imported" &&
		"$PROF" -q -t speedscope -s wall -o "$TMP/cut.speedscope.json" "$TMP/cut.cpuprofile" &&
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$TMP/cut.speedscope.json" > "$TMP/loaded" || return 1
	sed 's/^(anonymous [^\t]*)\t/(anonymous)\t/' "$TMP/imported" | cut -f1,2 | LC_ALL=C sort > "$TMP/a"
	grep -v '^(idle)	' "$TMP/loaded" | cut -f1,2 | LC_ALL=C sort > "$TMP/b"
	[ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b"
}
samples_in() { node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).samples.length)' "$1"; }
install_browser_tools
for f in testdata/cpuprofile/*.cpuprofile; do
	check "folded stacks of $f are DevTools' reading" devtools_folded_is "$f"
	check "sniffed from stdin: $f" prints 0 '(cpuprofile)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
	converts_to_pprof "$f" "$TMP/c.pb.gz"
	check "go tool pprof reads the pprof of $f" go_accepts "$TMP/c.pb.gz"
	check "go tool pprof counts every sample of $f" sh -c '[ "$1" = "$2" ]' - "$(go_total "$TMP/c.pb.gz" samples)" "$(samples_in "$f")"
	needs_browser heavy "speedscope shows the self weights of its own import of $f" speedscope_self_agrees "$f"
done
f=testdata/cpuprofile/default.cpuprofile
check "cpuprofile: file and 1-based line kept" prints 0 'fib	file:///prof/test/node/workload.js	5' \
	sh -c '"$0" -q -t tables "$1" | awk -F"\t" "/^# functions/ { f = 1; next } f && NF > 3 { print \$2 \"\t\" \$4 \"\t\" \$5 }"' "$PROF" "$f"
check "cpuprofile: start and end time kept in meta" prints 0 '^end_time_us	[0-9]' "$PROF" -q -t tables "$f"

# Arrays in any order: samples and timeDeltas before nodes, a parent id in
# place of children (Chrome's trace events), and negative deltas.
printf '{"samples":[3,2,3],"timeDeltas":[5,-2,4],"endTime":20,"startTime":0,"nodes":[{"id":3,"parent":2,"callFrame":{"functionName":"leaf","url":"u.js","lineNumber":9,"columnNumber":0}},{"id":2,"callFrame":{"functionName":"","url":"u.js","lineNumber":0,"columnNumber":0},"parent":1},{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1}}]}' > "$TMP/order.cpuprofile"
printf '(anonymous);leaf 2\n(anonymous) 1\n' > "$TMP/want.folded"
check "cpuprofile: nodes last, parent ids, negative deltas" file_is "$TMP/o.folded" "$TMP/want.folded" \
	"$PROF" -q -t folded -s samples -o "$TMP/o.folded" "$TMP/order.cpuprofile"
# Wall time: the clock never goes back (5, then 3 stays 5, then 7), the last until endTime (20).
printf '(anonymous);leaf 13\n(anonymous) 2\n' > "$TMP/want.folded"
check "cpuprofile: wall time to the next sample, the last to endTime" file_is "$TMP/o.folded" "$TMP/want.folded" \
	"$PROF" -q -t folded -s wall -o "$TMP/o.folded" "$TMP/order.cpuprofile"

# speedscope: prof's own output reads back to the same samples, type by
# type; a profile of real types (not R's cpu, made from its interval) to
# the same rows.
readback_is() { # SPEEDSCOPE_JSON ORIGINAL TYPE
	"$PROF" -q -t folded -s "$3" -o "$TMP/want.folded" "$2" &&
		"$PROF" -q -t folded -s "$3" "$1" > "$TMP/got.folded" && cmp -s "$TMP/got.folded" "$TMP/want.folded"
}
same_rows() { # SPEEDSCOPE_JSON ORIGINAL
	"$PROF" -q -t tables "$2" | sed -n '/^# samples/,/^$/p' > "$TMP/want.rows" &&
		"$PROF" -q -t tables "$1" > "$TMP/got.tables" &&
		sed -n '/^# samples/,/^$/p' "$TMP/got.tables" | cmp -s - "$TMP/want.rows"
}
for f in testdata/rprof/kmeans-default.out testdata/rprof/boot-memory-gc-line.out testdata/pprof/go/go_cpu.pb.gz \
	 testdata/cpuprofile/default.cpuprofile; do
	"$PROF" -q -t speedscope -o "$TMP/r.speedscope.json" "$f"
	for type in 0 1; do
		check "speedscope of $f reads back to the same samples of type $type" readback_is "$TMP/r.speedscope.json" "$f" "$type"
	done
	case $f in *.out) ;; *) check "speedscope of $f reads back to the same rows" same_rows "$TMP/r.speedscope.json" "$f" ;; esac
	check "speedscope of $f is sniffed" prints 0 '(speedscope)' sh -c '"$0" -t summary < "$1"' "$PROF" "$TMP/r.speedscope.json"
done
# An evented profile, profiles before frames (as speedscope writes), and weights with a fraction.
printf '{"profiles":[{"events":[{"at":0,"frame":0,"type":"O"},{"at":1.25,"frame":1,"type":"O"},{"at":3,"frame":1,"type":"C"},{"at":4.5,"frame":0,"type":"C"}],"name":"e","type":"evented","unit":"milliseconds"}],"shared":{"frames":[{"name":"main"},{"name":"f"}]}}' > "$TMP/e.json"
printf 'main 2.75\nmain;f 1.75\n' > "$TMP/want.folded"
check "speedscope: evented, frames after profiles, fractions" file_is "$TMP/o.folded" "$TMP/want.folded" \
	"$PROF" -q -f speedscope -t folded -o "$TMP/o.folded" "$TMP/e.json"
printf '{"shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":[{"type":"evented","name":"e","unit":"none","events":[{"type":"O","frame":0,"at":0},{"type":"C","frame":1,"at":1}]}]}' > "$TMP/bad.json"
check "speedscope: closing a frame that is not open is refused" says 1 'closes frame 1, which is not the innermost open' \
	"$PROF" -f speedscope -t folded "$TMP/bad.json"

# The tokenizer: what JSON forbids is refused with the line and byte.
for doc in '{"nodes":[1,]}' '{"nodes" []}' '{"a":"\x01"}' '[1] 2' '{"a":01}' '{"a":"\ud800"' '{"a":tru}'; do
	printf '%s' "$doc" > "$TMP/bad.cpuprofile"
	check "refused: $doc" says 1 "^prof: $TMP/bad.cpuprofile:1: .*(byte [0-9]*)\$" "$PROF" -f cpuprofile -t folded "$TMP/bad.cpuprofile"
done
awk 'BEGIN { printf "{\"x\":"; for (i = 0; i < 100; i++) printf "["; }' > "$TMP/deep.json"
check "refused: nesting deeper than 64" says 1 'nested deeper than 64 levels' "$PROF" -f speedscope -t folded "$TMP/deep.json"

# speedscope files the real app exported (testdata/speedscope/, made by
# test/make-speedscope-samples.sh): every profile, as folded stacks, is a
# reference reading's in node (test/node/speedscope-folded.cjs); the app
# shows a one-profile file and prof's speedscope JSON of it the same, frame
# for frame; the app's export of prof's output reads as prof's output does.
app_shows_the_same() { # SPEEDSCOPE_JSON
	"$PROF" -q -t speedscope -o "$TMP/again.speedscope.json" "$1" || return 1
	for x in "$1" "$TMP/again.speedscope.json"; do
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$x" | LC_ALL=C sort > "$TMP/view.${x##*/}" || return 1
	done
	[ -s "$TMP/view.${1##*/}" ] && cmp -s "$TMP/view.${1##*/}" "$TMP/view.again.speedscope.json"
}
for f in testdata/speedscope/*.speedscope.json; do
	check "each profile of $f is the reference reading's" speedscope_profiles_are_reference "$f"
	check "$f is sniffed" prints 0 '(speedscope)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
done
for f in testdata/speedscope/node-default.speedscope.json testdata/speedscope/go_cpu.speedscope.json; do
	needs_browser heavy "speedscope shows $f and prof's JSON of it the same" app_shows_the_same "$f"
done
for type in samples cpu; do
	check "the app's export of prof's speedscope JSON reads as it does ($type)" readback_is \
		testdata/speedscope/kmeans-prof-app.speedscope.json testdata/speedscope/kmeans-prof.speedscope.json "$type"
done

# Forms of other writers the app reads (issue 19), made here from the rule
# and judged by the real app: null for a frame's file, line or col is an
# absent field (py-spy 0.4 writes "col":null, pyinstrument "file":null,
# "line":null for its [self] frames); a frame index the app reads as
# JavaScript indexes an array: a list of one element ([1], [[1]]) or a
# string ("1") is that index, read with one warning. A list of other than
# one element gives the app no frame (it shows no profile): refused.
frames='{"name":"main","file":"m.py","line":1,"col":null},{"name":"work","file":"m.py","line":null,"col":null},{"name":"[self]","file":null,"line":null}'
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[%s]},"profiles":[{"type":"sampled","name":"s","unit":"seconds","startValue":0,"endValue":10,"samples":[[0,1],[0,[1]],[[0],[[1]],2],[0,"1",2],[0]],"weights":[1,2,3,0.5,4]}]}\n' \
	"$frames" > "$TMP/forms.speedscope.json"
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[%s]},"profiles":[{"type":"evented","name":"e","unit":"none","startValue":0,"endValue":4,"events":[{"type":"O","frame":[0],"at":0},{"type":"O","frame":1,"at":1},{"type":"C","frame":[[1]],"at":3},{"type":"C","frame":0,"at":4}]}]}\n' \
	"$frames" > "$TMP/forms-evented.speedscope.json"
for f in "$TMP/forms.speedscope.json" "$TMP/forms-evented.speedscope.json"; do
	check "speedscope: null fields and indexes in lists: ${f##*/} is the reference reading's" speedscope_profiles_are_reference "$f"
	needs_browser heavy "speedscope: the app shows ${f##*/} and prof's JSON of it the same" app_shows_the_same "$f"
	check "speedscope: ${f##*/}: one warning for the index forms" sh -c \
		'"$0" -t folded "$1" 2>&1 >/dev/null | grep -c "warning: frame index [0-9] written as a list: read as the index, as speedscope reads it" |
		grep -qx 1' "$PROF" "$f"
done
check "speedscope: null is no file and no line" prints 0 '^3	\[self\]			0$' "$PROF" -t tables "$TMP/forms.speedscope.json"
for sample in '[0,[0,1]]' '[0,[]]' '[0,[null]]'; do
	sed "s/\"samples\":\[\[0,1\]/\"samples\":[$sample/" "$TMP/forms.speedscope.json" > "$TMP/list.speedscope.json"
	check "speedscope: a sample $sample is refused" says 1 'a frame index given as a list of other than one number' \
		"$PROF" -t folded "$TMP/list.speedscope.json"
done
