# Ruby stackprof dumps, sourced by test/run.sh (uses test/lib.sh, PROF,
# TMP): the dumps stackprof 0.2.21 wrote here (testdata/stackprof/), in
# cpu, wall and object modes, with raw and without, as Marshal and as the
# JSON stackprof made of each. The JSON with raw is judged by the
# speedscope app's own import (test/stackprof-lib.sh); each Marshal dump
# must read exactly as its JSON; a dump without raw by its frames' own
# samples (test/node/stackprof-self.cjs), with a warning. speedscope's
# own samples are the cross-check's (test/cross-check.sh).

. test/stackprof-lib.sh
install_browser_tools
dir=testdata/stackprof
for mode in cpu wall object; do
	needs_browser heavy "stackprof: the speedscope app's import of $dir/$mode-raw.json is prof's reading" \
		stackprof_is_apps "$dir/$mode-raw.json"
done

# The model, less the input's name: its rows, stacks, functions and times
# (prof's output judged from the file it wrote, so that its exit counts).
model_of() { # FILE FORMAT
	prof_q -t "$2" -o "$TMP/s.model" "$1" && grep -v '^source	\|"process_name"' "$TMP/s.model"
}
# The sum of the weights of prof's folded stacks, ARGS its options.
folded_total() { # ARGS...
	prof_q -t folded -o "$TMP/s.folded" "$@" && awk '{ s += $NF } END { print s }' "$TMP/s.folded"
}
same_model() { # DUMP JSON
	for to in tables trace; do
		model_of "$1" "$to" > "$TMP/s.dump.$to" && model_of "$2" "$to" > "$TMP/s.json.$to" &&
			[ -s "$TMP/s.dump.$to" ] && cmp -s "$TMP/s.dump.$to" "$TMP/s.json.$to" || return 1
	done
}
for f in $(light_every 3 "$dir"/*.dump); do
	check "stackprof: $f sniffed from stdin" prints 0 '(stackprof)' sh -c '"$0" -q -t summary < "$1"' "$PROF" "$f"
done
for f in $(light_every 2 "$dir"/*.json); do
	check "stackprof: $f sniffed from stdin" prints 0 '(stackprof)' sh -c '"$0" -q -t summary < "$1"' "$PROF" "$f"
	check "stackprof: ${f%.json}.dump, Marshal, reads as its JSON $f" same_model "${f%.json}.dump" "$f"
done
check "stackprof: stackprof --dump's dump (a newline after it) reads as the dump it came from" \
	same_model "$dir/cpu-redump.dump" "$dir/cpu-raw.dump"

# The samples type counts raw's samples (stackprof's own `samples` may
# differ by one from them: wall-raw.json's does).
samples_are_raws() { # JSON
	want=$(node -e 'const r = require(process.argv[1]).raw; let n = 0;
		for (let i = 0; i < r.length; i += r[i] + 2) n += r[i + r[i] + 1]; console.log(n)' "$PWD/$1") &&
		got=$(folded_total -s samples "$1") && [ "$got" = "$want" ]
}
for mode in cpu wall object; do
	check "stackprof: $dir/$mode-raw.json's samples are raw's" samples_are_raws "$dir/$mode-raw.json"
	check "stackprof: $dir/$mode-raw.dump reads without a word" says_nothing "$PROF" -t folded "$dir/$mode-raw.dump"
done

# Each record is its own stack, whatever the records before it held
# (the reader takes a record's stacks from the one before while their ids
# agree from the root): x;y;z, then w alone, then w;y;z, whose y;z were
# the first record's, then x;y, a record cut short of the first.
printf '%s' '{"mode":"cpu","interval":1000,"frames":{"1":{"name":"x"},"2":{"name":"y"},"3":{"name":"z"},"4":{"name":"w"}},
"raw":[3,1,2,3,1, 1,4,1, 3,4,2,3,1, 2,1,2,1, 3,4,2,3,2]}' > "$TMP/records.json"
printf 'w 1000\nw;y;z 3000\nx;y 1000\nx;y;z 1000\n' > "$TMP/records.want"
records_are_stacks() { # JSON
	prof_q -t folded -o "$TMP/records.folded" "$1" && LC_ALL=C sort "$TMP/records.folded" | cmp -s - "$TMP/records.want"
}
check "stackprof: each record of raw is its own stack, whatever the record before held" records_are_stacks "$TMP/records.json"

# Without raw (and merged by stackprof, frames keyed by their SHA-256):
# each frame's own samples, a stack of one frame, said.
self_counts_are_frames() { # FILE JSON
	node test/node/stackprof-self.cjs "$2" > "$TMP/self.want" &&
		prof_q -t folded -o "$TMP/self.folded" "$1" && sed 's/ ([^();]*:[0-9][0-9]*) / /' "$TMP/self.folded" |
		awk '{ at = match($0, / [0-9]+$/); sums[substr($0, 1, at - 1)] += substr($0, at + 1) }
			END { for (s in sums) print s " " sums[s] }' | LC_ALL=C sort > "$TMP/self.got" &&
		[ -s "$TMP/self.want" ] && cmp -s "$TMP/self.want" "$TMP/self.got"
}
for f in $(light_every 3 "$dir"/*-agg.dump "$dir"/*-agg.json "$dir"/*-merged.*); do
	check "stackprof: $f, without raw, is its frames' own samples" self_counts_are_frames "$f" "${f%.*}.json"
	check "stackprof: $f says it has no stacks" says 0 \
		"$f: warning: no raw samples (taken without raw: true, or merged by stackprof): read as one-frame stacks" \
		"$PROF" -t folded "$f"
done
# A wall sample's time and weight are its span: the last one ends at the deltas' sum.
trace_ends_at_deltas_sum() { # DUMP JSON
	want=$(node -e 'console.log(require(process.argv[1]).raw_timestamp_deltas.reduce((a, b) => a + b, 0))' "$PWD/$2") &&
		prof_q -t trace -o "$TMP/s.trace" "$1" &&
		got=$(grep -o '"ts":[0-9]*,"dur":[0-9]*' "$TMP/s.trace" |
			awk -F'[:,]' '{ e = $2 + $4; if (e > m) m = e } END { print m }') && [ "$got" = "$want" ]
}
check "stackprof: wall mode's samples have times: the trace ends at the deltas' sum" \
	trace_ends_at_deltas_sum "$dir/wall-raw.dump" "$dir/wall-raw.json"
# --time keeps the wall samples whose span starts in the window: node sums their deltas.
wall_window_is_deltas() { # JSON SECONDS
	want=$(node -e 'let t = 0, w = 0; for (const d of require(process.argv[1]).raw_timestamp_deltas) {
		if (t < process.argv[2] * 1e6) w += d; t += d } console.log(w)' "$PWD/$1" "$2") &&
		got=$(folded_total --time "0:$2" "$1") && [ "$got" = "$want" ]
}
check "stackprof: --time 0:0.1 keeps the wall samples starting in it" wall_window_is_deltas "$dir/wall-raw.json" 0.1
check "stackprof: --time is refused for a dump without raw" \
	says 1 "this input has none" "$PROF" -t folded --time 0:0.1 "$dir/wall-agg.dump"
