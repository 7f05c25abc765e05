# The JSON readers and the .cpuprofile writer, sourced by test/run.sh (uses test/lib.sh, PROF, TMP):
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
# anonymous function "(anonymous FILE:LINE)" where DevTools says
# "(anonymous)" and prof, where names are shared, "NAME URL:LINE" (both
# compared by name alone), and drops "(idle)"; its totals differ by design, since it
# stacks "(program)" and "(garbage collector)" on the sample before
# (docs/formats/cpuprofile.md), so only self weights are compared.
speedscope_self_agrees() { # CPUPROFILE [OLD_KIND: made DevTools' older format first]
	node test/node/end-at-last-sample.cjs "$1" "$TMP/cut.cpuprofile" || return 1
	[ -z "${2:-}" ] || node test/node/to-old-format.cjs "$TMP/cut.cpuprofile" "$2" "$TMP/cut.cpuprofile" || return 1
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$TMP/cut.cpuprofile" > "$TMP/imported" &&
		"$PROF" -q -t speedscope -s wall -o "$TMP/cut.speedscope.json" "$TMP/cut.cpuprofile" &&
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$TMP/cut.speedscope.json" > "$TMP/loaded" || return 1
	sed 's/^(anonymous [^\t]*)\t/(anonymous)\t/' "$TMP/imported" | cut -f1,2 | LC_ALL=C sort > "$TMP/a"
	grep -v '^(idle)	' "$TMP/loaded" | sed 's/^\([^\t]*\) [^ \t]*:[0-9][0-9]*\t/\1\t/' | cut -f1,2 | LC_ALL=C sort > "$TMP/b"
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

# DevTools' older format (testdata/cpuprofile/old/: default.cpuprofile
# written by DevTools' reading rules reversed, test/node/to-old-format.cjs):
# the tree nested under `head`, lines 1-based, seconds, timestamps. It holds
# what node's file holds, so it reads as that file does; each file's folded
# stacks are DevTools' reading of it (its compatibilityConversionHeadToNodes,
# and hitCount where there are no samples), and the speedscope app's own
# import of it shows prof's self weights.
old_reads_as() { # TYPE OLD ORIGINAL
	"$PROF" -q -t folded -s "$1" -o "$TMP/want.folded" "$3" &&
		"$PROF" -q -t folded -s "$1" "$2" > "$TMP/got.folded" && cmp -s "$TMP/got.folded" "$TMP/want.folded"
}
node_file=$f
for f in testdata/cpuprofile/old/*.cpuprofile; do
	check "old format: folded stacks of $f are DevTools' reading" devtools_folded_is "$f"
	check "old format: sniffed from stdin: $f" prints 0 '(cpuprofile)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
	check "old format: file and 1-based line kept: $f" prints 0 'fib	file:///prof/test/node/workload.js	5' \
		sh -c '"$0" -q -t tables "$1" | awk -F"\t" "/^# functions/ { f = 1; next } f && NF > 3 { print \$2 \"\t\" \$4 \"\t\" \$5 }"' "$PROF" "$f"
done
for kind in stamps stamps-end samples; do
	check "old format ($kind): the samples of node's file, in its order" old_reads_as samples testdata/cpuprofile/old/$kind.cpuprofile "$node_file"
done
for kind in stamps stamps-end; do
	check "old format ($kind): the wall times of node's file" old_reads_as wall testdata/cpuprofile/old/$kind.cpuprofile "$node_file"
	check "old format ($kind): the times of node's file in meta" sh -c '"$0" -q -t tables "$1" | grep _us > "$3/a" &&
		"$0" -q -t tables "$2" | grep _us | cmp -s - "$3/a"' "$PROF" testdata/cpuprofile/old/$kind.cpuprofile "$node_file" "$TMP"
	needs_browser heavy "speedscope's import of the old format ($kind) shows prof's self weights" speedscope_self_agrees "$node_file" "$kind"
done
for kind in samples hits; do
	check "old format ($kind): no times, no wall type" says 2 "no sample type 'wall'" "$PROF" -t folded -s wall testdata/cpuprofile/old/$kind.cpuprofile
done
same_sums() { # A B: the same folded stacks, summed
	"$PROF" -q -t folded -s samples "$1" | folded_sums > "$TMP/a" &&
		"$PROF" -q -t folded -s samples "$2" | folded_sums | cmp -s - "$TMP/a"
}
check "old format (hits): each node's hitCount, summed as node's samples" same_sums testdata/cpuprofile/old/hits.cpuprofile "$node_file"
# The rule's corners, made by hand: startTime in seconds with a fraction;
# as many timestamps as samples, the last sample until endTime; a timestamp
# more, ending the last; 1-based lines and columns, 0 unknown; a last
# sample at the root, no frame, ends the one before and is no sample.
printf '{"startTime":1.5,"endTime":1.500030,"head":{"functionName":"(root)","id":1,"lineNumber":0,"children":[{"functionName":"f","url":"u.js","lineNumber":3,"columnNumber":7,"id":2,"children":[{"functionName":"g","lineNumber":0,"id":3,"children":[]}]}]},"samples":[2,3,2],"timestamps":[1500001,1500004,1500010]}' > "$TMP/old.cpuprofile"
printf 'f 23\nf;g 6\n' > "$TMP/want.folded"
check "old format: seconds, timestamps, the last sample until endTime" file_is "$TMP/o.folded" "$TMP/want.folded" \
	"$PROF" -q -t folded -s wall -o "$TMP/o.folded" "$TMP/old.cpuprofile"
sed 's/"timestamps":\[1500001,1500004,1500010\]/"timestamps":[1500001,1500004,1500010,1500012]/' "$TMP/old.cpuprofile" > "$TMP/old-end.cpuprofile"
printf 'f 5\nf;g 6\n' > "$TMP/want.folded"
check "old format: a timestamp more ends the last sample" file_is "$TMP/o.folded" "$TMP/want.folded" \
	"$PROF" -q -t folded -s wall -o "$TMP/o.folded" "$TMP/old-end.cpuprofile"
check "old format: 1-based lines" prints 0 '^[0-9]*	f		u.js	3$' "$PROF" -q -t tables "$TMP/old.cpuprofile"
check "old format: line 0 unknown" prints 0 '^[0-9]*	g			0$' "$PROF" -q -t tables "$TMP/old.cpuprofile"
sed 's/"samples":\[2,3,2\]/"samples":[2,3,1]/; s/1500010/1500030/' "$TMP/old.cpuprofile" > "$TMP/root.cpuprofile"
printf 'f 3\nf;g 26\n' > "$TMP/want.folded"
check "a last sample at the root ends the one before, no sample of its own" file_is "$TMP/o.folded" "$TMP/want.folded" \
	"$PROF" -q -t folded -s wall -o "$TMP/o.folded" "$TMP/root.cpuprofile"
check "a last sample at the root is counted nowhere" prints 0 '^samples: *2$' "$PROF" -q -t summary -s samples "$TMP/root.cpuprofile"

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
# Nesting is bounded by memory, not by a depth: a call tree 50000 frames
# deep as the old format nests it (100000 levels of JSON), and a million
# levels in a field prof skips; cut short, the file is refused as such.
deep_tree() { # FRAMES
	awk -v n="$1" 'BEGIN { printf "{\"head\":{\"functionName\":\"(root)\",\"id\":0,\"children\":[";
		for (i = 1; i <= n; i++) printf "{\"functionName\":\"f%d\",\"id\":%d,\"children\":[", i, i;
		for (i = 1; i <= n; i++) printf "]}"; printf "]},\"samples\":[%d,1],\"timestamps\":[1,2]}", n }'
}
deep_tree 50000 > "$TMP/deep.cpuprofile"
check "a call tree 50000 frames deep, nested" prints 0 '^50000 f50000 1$' \
	sh -c '"$0" -q -t folded -s samples "$1" | awk -F";" "{ print NF, \$NF }" | sort -rn | head -n 1' "$PROF" "$TMP/deep.cpuprofile"
awk 'BEGIN { printf "{\"x\":"; for (i = 0; i < 1000000; i++) printf "["; for (i = 0; i < 1000000; i++) printf "]";
	printf ",\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"f\"}}],\"samples\":[1],\"timeDeltas\":[0]}" }' > "$TMP/deep.json"
check "a million levels of nesting in a field skipped" prints 0 '^f 1$' "$PROF" -q -f cpuprofile -t folded -s samples "$TMP/deep.json"
head -c 1500000 "$TMP/deep.json" > "$TMP/cut.json"
check "a million levels cut short: refused" says 1 'the input ends inside the JSON value' "$PROF" -f cpuprofile -t folded "$TMP/cut.json"

# speedscope files the real app exported (testdata/speedscope/, made by
# test/make-speedscope-samples.sh): every profile, as folded stacks, is a
# reference reading's in node (test/node/speedscope-folded.cjs); the app
# shows a one-profile file and prof's speedscope JSON of it the same, frame
# for frame (a name prof shows with its " (FILE:LINE)", where frames of
# other places share it, by the name alone); the app's export of prof's
# output reads as prof's output does.
app_shows_the_same() { # SPEEDSCOPE_JSON
	"$PROF" -q -t speedscope -o "$TMP/again.speedscope.json" "$1" || return 1
	for x in "$1" "$TMP/again.speedscope.json"; do
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$x" |
			sed "$([ "$x" = "$1" ] || echo 's/ ([^()\t]*:[0-9][0-9]*)\t/\t/')" | LC_ALL=C sort > "$TMP/view.${x##*/}" || return 1
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

# A profile per thread (the app's export of perf's four threads,
# testdata/chart/threads.speedscope.json): one type, each sample
# labelled with its thread. In Chromium, the app's import of the file
# and prof's stacks agree thread by thread, and the app loads prof's
# speedscope JSON of it as a profile per thread again, each with prof's
# stacks; prof reads that JSON back to the same stacks.
threads=testdata/chart/threads.speedscope.json
check "speedscope: the threads of $threads are one type" prints 0 '^wall  *seconds .* yes ' "$PROF" --list-types "$threads"
app_import_is_profs() { # FILE
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/export.cjs" \
		"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$1" "$TMP/import.json" 2> "$TMP/app.err" &&
		speedscope_threads_are "$TMP/import.json" "$1"
}
app_loads_threads() { # FILE
	prof_q -t speedscope -o "$TMP/profs.speedscope.json" "$1" &&
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/export.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$TMP/profs.speedscope.json" "$TMP/loaded.json" 2> "$TMP/app.err" &&
		node -e 'const fs = require("fs"), names = (f) => JSON.parse(fs.readFileSync(f)).profiles.map((p) => p.name).join("\n");
			const a = JSON.parse(fs.readFileSync(process.argv[3])).profiles.length;
			process.exit(a > 1 && names(process.argv[1]) === names(process.argv[2]) ? 0 : 1)' \
			"$TMP/profs.speedscope.json" "$TMP/loaded.json" "$1" || return 1
	k=0
	while [ "$k" -lt "$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).profiles.length)' "$1")" ]; do
		node test/node/speedscope-folded.cjs "$TMP/profs.speedscope.json" "$k" > "$TMP/thread.want" &&
			node test/node/speedscope-folded.cjs "$TMP/loaded.json" "$k" > "$TMP/thread.got" &&
			[ -s "$TMP/thread.want" ] && node test/node/folded-close.cjs "$TMP/thread.want" "$TMP/thread.got" || return 1
		k=$((k + 1))
	done
}
needs_browser heavy "speedscope: the app's import of $threads is prof's reading, thread by thread" app_import_is_profs "$threads"
needs_browser heavy "speedscope: the app loads prof's JSON of $threads as a profile per thread" app_loads_threads "$threads"
"$PROF" -q -t speedscope -o "$TMP/threads.again.json" "$threads"
"$PROF" -q -t folded -o "$TMP/threads.folded" "$threads"
check "speedscope: prof's JSON of $threads reads back to the same stacks" writes "$TMP/threads.folded" \
	"$PROF" -q -t folded "$TMP/threads.again.json"

# Threads in py-spy's shape (sampled, in seconds, each from its
# startValue), by hand: one timeline, so --time takes the samples that
# start in the window, each at its profile's startValue (from the
# earliest) plus the weights before it, as node reads them off the file.
# Profiles in another unit, and counts of other writers, are types of
# their own.
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"main"},{"name":"work"},{"name":"idle"}]},"profiles":[%s,%s,%s]}\n' \
	'{"type":"sampled","name":"MainThread","unit":"seconds","startValue":2,"endValue":6,"samples":[[0,1],[0],[0,1],[0,2]],"weights":[1,0.5,1.5,1]}' \
	'{"type":"sampled","name":"Worker","unit":"seconds","startValue":4.25,"endValue":7.25,"samples":[[0,2],[0,1],[0,1]],"weights":[1,1,1]}' \
	'{"type":"sampled","name":"Thread-3","unit":"seconds","startValue":3,"endValue":5,"samples":[[1],[2]],"weights":[1.25,0.75]}' > "$TMP/py.speedscope.json"
threads_window_weight() { # FILE FROM TO
	node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1])), from = +process.argv[2], to = +process.argv[3];
		const earliest = Math.min(...d.profiles.map((p) => p.startValue));
		let sum = 0;
		for (const p of d.profiles) {
			let t = p.startValue - earliest;
			p.weights.forEach((w) => { if (t >= from - 1e-12 && t < to - 1e-12) sum += w; t += w; });
		}
		console.log(sum);' "$@"
}
threads_time_is_node() { # FILE FROM TO
	want=$(threads_window_weight "$@") &&
		"$PROF" -q --time "$2:$3" -t folded "$1" > "$TMP/window.folded" &&
		[ "$(awk '{ s += $NF } END { print s + 0 }' "$TMP/window.folded")" = "$want" ] && [ "$want" != 0 ]
}
for window in 0:1.5 1.5:2.5 2.25:5; do
	check "speedscope threads: --time ${window%:*}:${window#*:} takes the samples node finds at their profiles' starts" \
		threads_time_is_node "$TMP/py.speedscope.json" "${window%:*}" "${window#*:}"
done
sed 's/"name":"Worker","unit":"seconds"/"name":"Worker","unit":"bytes"/' "$TMP/py.speedscope.json" > "$TMP/units.speedscope.json"
check "speedscope: a thread in another unit is a type of its own" sh -c \
	'"$0" --list-types "$1" | awk "NR > 1 { print \$1, \$2 }" | tr "\n" , | grep -qx "wall seconds,Worker bytes,"' "$PROF" "$TMP/units.speedscope.json"
sed 's/"unit":"seconds"/"unit":"none"/g' "$TMP/py.speedscope.json" > "$TMP/counts.speedscope.json"
check "speedscope: counts of another writer are a type each" sh -c \
	'[ "$("$0" --list-types "$1" | tail -n +2 | wc -l)" -eq 3 ]' "$PROF" "$TMP/counts.speedscope.json"

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
# dotnet-trace's speedscope (TraceEvent's writer), in its shape, by hand:
# evented threads in milliseconds written as doubles print, up to 16
# decimals and as large as 25561.436023437498 (12 decimals), which no
# int64 holds with 16. The app reads doubles; prof reads the threads as
# one type of the most decimals that fit every value of them (14 here)
# and rounds the rest, with one warning. Judged thread by thread by the
# reference reading in node within 1e-9 (its doubles' differences are that
# coarse) and by the app; an error names the line and byte of its value.
dotnet_event() { printf '{"type":"%s","frame":%s,"at":%s},\n' "$@"; }
dotnet_trace() { # THREADS: 1, or 2 (the app's Sandwich view is checked on one)
	printf '{"exporter":"dotnet-trace","name":"trace.nettrace","activeProfileIndex":0,"$schema":"https://www.speedscope.app/file-format-schema.json",\n'
	printf '"shared":{"frames":[{"name":"Process64 Process(4242) (4242) Args: "},{"name":"Thread (4242)"},{"name":"System.Private.CoreLib!System.Threading.Thread.StartCallback()"},{"name":"app!Program.Main(class System.String[])"},{"name":"app!Program.Work()"}]},\n'
	printf '"profiles":[{"type":"evented","name":"Thread (4242)","unit":"milliseconds","startValue":0,"endValue":25561.436023437498,"events":[\n'
	dotnet_event O 0 0; dotnet_event O 1 0; dotnet_event O 3 1.0123456789012345; dotnet_event O 4 2.5000000000000004
	dotnet_event C 4 12.781234567890125; dotnet_event O 4 50.01234567890123; dotnet_event O 2 50.123456789012375
	dotnet_event C 2 50.523456789012766; dotnet_event C 4 25561.436023437498
	dotnet_event C 3 25561.436023437498; dotnet_event C 1 25561.436023437498
	printf '{"type":"C","frame":0,"at":25561.436023437498}]}'
	[ "$1" -eq 1 ] || {
		printf ',\n{"type":"evented","name":"Thread (4243)","unit":"milliseconds","startValue":0,"endValue":9.999999999999998,"events":[\n'
		dotnet_event O 0 0.5; dotnet_event O 2 3.3333333333333335; dotnet_event C 2 7.1234567890123454
		printf '{"type":"C","frame":0,"at":9.999999999999998}]}'
	}
	printf ']}\n'
}
dotnet_trace 2 > "$TMP/dotnet.speedscope.json"
dotnet_trace 1 > "$TMP/dotnet-thread.speedscope.json"
check "speedscope: dotnet-trace's 16 decimals read as the reference reading's, thread by thread" \
	speedscope_threads_are "$TMP/dotnet.speedscope.json" "$TMP/dotnet.speedscope.json"
check "speedscope: dotnet-trace's 16 decimals rounded to 14, ties to even, then summed, exactly" sh -c \
	'"$0" -q -t folded -o "$2" "$1" && python3 test/python/speedscope_decimals.py "$1" 0,1 14 "$2"' \
	"$PROF" "$TMP/dotnet.speedscope.json" "$TMP/o.folded"
check "speedscope: dotnet-trace's 16 decimals: one line on stderr" says_times 0 1 '' \
	"$PROF" -t folded -o "$TMP/o.folded" "$TMP/dotnet.speedscope.json"
check "speedscope: dotnet-trace's 16 decimals: a warning, rounded to 14" says 0 \
	"warning: profile 'Thread (4242)' has values of 16 decimals, too many for 64 bits with its largest value: rounded to 14 decimals" \
	"$PROF" -t folded -o "$TMP/o.folded" "$TMP/dotnet.speedscope.json"
needs_browser heavy "speedscope: the app shows dotnet-trace's 16 decimals and prof's JSON of them the same" \
	app_shows_the_same "$TMP/dotnet-thread.speedscope.json"
# The value 50.01234567890123 set back to 1.5: refused at its line and byte.
sed 's/"at":50.01234567890123}/"at":1.5}/' "$TMP/dotnet.speedscope.json" > "$TMP/back.speedscope.json"
line=$(grep -n '"at":1.5}' "$TMP/back.speedscope.json" | cut -d: -f1)
byte=$(($(grep -bo '"at":1.5}' "$TMP/back.speedscope.json" | cut -d: -f1) + 5))
check "speedscope: an event back in time is refused at its value's line and byte" says 1 \
	"^prof: $TMP/back.speedscope.json:$line: event 5 goes back in time (byte $byte)\$" "$PROF" -t folded "$TMP/back.speedscope.json"

# The .cpuprofile writer (docs/formats/cpuprofile.md, "Writing"). Any
# profile's samples in its order, each weighing its value of the type
# written: the timeline test/node/timeline.cjs reads off the .cpuprofile by
# V8's rule is the one it reads off prof's speedscope JSON of the same type
# (samples and weights in order, the speedscope app's own reading of which
# test/speedscope.sh judges); prof's reader takes the file back to the same
# timeline; the speedscope app's import of it shows each frame's self and
# total time as prof's folded stacks of the input say (test/node/folded-times.cjs,
# speedscope's time format).
timeline_is_inputs() { # FILE TYPE
	"$PROF" -q -t speedscope -s "$2" -o "$TMP/in.speedscope.json" "$1" &&
		"$PROF" -q -t cpuprofile -s "$2" -o "$TMP/out.cpuprofile" "$1" &&
		node test/node/timeline.cjs "$TMP/in.speedscope.json" > "$TMP/want.timeline" &&
		node test/node/timeline.cjs "$TMP/out.cpuprofile" > "$TMP/got.timeline" &&
		[ -s "$TMP/want.timeline" ] && cmp -s "$TMP/want.timeline" "$TMP/got.timeline"
}
reads_back() { # FILE TYPE: prof's .cpuprofile of it, read and written again, is the same timeline
	"$PROF" -q -t cpuprofile -s "$2" -o "$TMP/out.cpuprofile" "$1" &&
		"$PROF" -q -t cpuprofile -o "$TMP/again.cpuprofile" "$TMP/out.cpuprofile" &&
		node test/node/timeline.cjs "$TMP/out.cpuprofile" > "$TMP/want.timeline" &&
		node test/node/timeline.cjs "$TMP/again.cpuprofile" > "$TMP/got.timeline" &&
		[ -s "$TMP/want.timeline" ] && cmp -s "$TMP/want.timeline" "$TMP/got.timeline"
}
app_shows_folded() { # FILE TYPE UNIT
	"$PROF" -q -t cpuprofile -s "$2" -o "$TMP/out.cpuprofile" "$1" &&
		"$PROF" -q -t folded -s "$2" -o "$TMP/out.folded" "$1" &&
		node test/node/folded-times.cjs "$3" < "$TMP/out.folded" | LC_ALL=C sort > "$TMP/want.shown" &&
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$TMP/out.cpuprofile" | LC_ALL=C sort > "$TMP/got.shown" &&
		[ -s "$TMP/want.shown" ] && cmp -s "$TMP/want.shown" "$TMP/got.shown"
}
while read -r f type unit; do
	check "cpuprofile of $f ($type): its samples in order, each its weight" timeline_is_inputs "$f" "$type"
	check "cpuprofile of $f ($type) reads back to the same timeline" reads_back "$f" "$type"
	case $unit in -) ;; *) needs_browser heavy "speedscope shows the cpuprofile of $f ($type) as its folded stacks" \
		app_shows_folded "$f" "$type" "$unit" ;; esac
done <<EOF
testdata/rprof/kmeans-default.out cpu nanoseconds
testdata/pprof/go/go_cpu.pb.gz cpu nanoseconds
testdata/perf/c-cpu-clock.perf cpu-clock -
testdata/folded/fractional.folded samples -
testdata/folded/comments.folded samples count
testdata/speedscope/node-default.speedscope.json 0 -
testdata/lispworks/kmeans-default.tree samples -
testdata/cpuprofile/default.cpuprofile wall -
testdata/cpuprofile/interval100.cpuprofile samples -
EOF
# The type written by default: a timeline (the .cpuprofile's wall time, R's
# CPU time), else the first time type; a count is a sample of the
# profile's period (pprof's), else of 1 ms; R's ticks as their CPU time.
default_is() { # FILE TYPE
	"$PROF" -q -t cpuprofile -o "$TMP/default.cpuprofile" "$1" && "$PROF" -q -t cpuprofile -s "$2" -o "$TMP/typed.cpuprofile" "$1" &&
		cmp -s "$TMP/default.cpuprofile" "$TMP/typed.cpuprofile"
}
check "cpuprofile: a .cpuprofile's wall time by default" default_is testdata/cpuprofile/default.cpuprofile wall
check "cpuprofile: R's CPU time by default" default_is testdata/rprof/kmeans-default.out cpu
check "cpuprofile: R's ticks weigh their CPU time" default_is testdata/rprof/kmeans-default.out samples
check "cpuprofile: pprof's CPU time by default" default_is testdata/pprof/go/go_cpu.pb.gz cpu
check "cpuprofile: pprof's counts weigh its period" sh -c '"$0" -q -t cpuprofile -s cpu -o "$2/a" "$1" &&
	"$0" -q -t cpuprofile -s samples "$1" | cmp -s - "$2/a"' "$PROF" testdata/pprof/go/go_cpu.pb.gz "$TMP"
# node's file out and back in: the same rows, meta times, and callFrames
# (lines and columns 0-based as V8 wrote them; "" named "(anonymous)").
f=testdata/cpuprofile/default.cpuprofile
"$PROF" -q -t cpuprofile -o "$TMP/rt.cpuprofile" "$f"
check "cpuprofile of node's file reads back to the same rows" same_rows "$TMP/rt.cpuprofile" "$f"
check "cpuprofile of node's file keeps its clock" sh -c '"$0" -q -t tables "$1" | grep _us > "$3/a" &&
	"$0" -q -t tables "$2" | grep _us | cmp -s - "$3/a"' "$PROF" "$TMP/rt.cpuprofile" "$f" "$TMP"
call_frames() { node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
	const seen = new Set(p.nodes.map((n) => { const c = n.callFrame;
		return [c.functionName || "(anonymous)", c.url, c.lineNumber, c.columnNumber].join("\t"); }));
	console.log([...seen].sort().join("\n"))' "$1"; }
same_call_frames() { call_frames "$1" > "$TMP/a" && call_frames "$2" | cmp -s - "$TMP/a"; }
check "cpuprofile of node's file: every callFrame, 0-based" same_call_frames "$TMP/rt.cpuprofile" "$f"
# Counts: a folded line of 3 is one sample of 3 ms; R's 47 ticks are 47
# samples, and the root's last one ending the last.
samples_and_deltas() { node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
	console.log(p.samples.length, p.timeDeltas.join(","), p.endTime - p.startTime)' "$1"; }
samples_are() { # CPUPROFILE AWK_FIELDS WANT
	samples_and_deltas "$1" > "$TMP/sd" && [ "$(cut -d' ' -f"$2" "$TMP/sd")" = "$3" ]
}
printf 'a;b 3\na 1\n' > "$TMP/three.folded"
"$PROF" -q -t cpuprofile -o "$TMP/three.cpuprofile" "$TMP/three.folded"
check "cpuprofile: a count of 3 is one sample of 3 ms" samples_are "$TMP/three.cpuprofile" 1-3 "3 0,3000,1000 4000"
"$PROF" -q -t cpuprofile -o "$TMP/r.cpuprofile" testdata/rprof/kmeans-default.out
check "cpuprofile: R's ticks a sample each" samples_are "$TMP/r.cpuprofile" 1,3 "48 940000"
check "cpuprofile: negative weights refused" says 1 'negative' \
	"$PROF" -t cpuprofile --diff-base testdata/rprof/kmeans-default.out testdata/rprof/boot-memory-gc-line.out
check "cpuprofile: bytes written a microsecond a unit, with a warning" says 0 "'inuse_space' in bytes written a microsecond a unit" \
	"$PROF" -t cpuprofile -o "$TMP/heap.cpuprofile" testdata/pprof/go/go_heap.pb.gz
# Memory stays flat in samples: two million R ticks under --max-memory 64M.
many_samples() {
	awk 'BEGIN { print "sample.interval=1000"; for (i = 0; i < 2000000; i++) print (i % 3 ? "\"f\" \"main\"" : "\"g\" \"main\"") }' \
		> "$TMP/many.out" && "$PROF" -q -m 64M -t cpuprofile -o "$TMP/many.cpuprofile" "$TMP/many.out" &&
		samples_are "$TMP/many.cpuprofile" 1,3 "2000001 2000000000"
}
heavy "cpuprofile: two million samples under --max-memory 64M" many_samples
