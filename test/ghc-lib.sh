# GHC cost-centre profiles: the judges of prof's reading, for test/ghc.sh
# and test/cross-check.sh (uses PROF, TMP, SPEEDSCOPE, test/lib.sh's
# prof_q and scaled_sums).

# The file's own columns (test/ghc/judge.py): each cost-centre stack's
# individual and inherited figures, and entries, against prof's folded
# stacks of time, alloc and entries. What differs is in $TMP/g.judged.
judged_by_own_columns() { # FILE
	for type in time alloc entries; do
		prof_q -t folded -s "$type" "$1" > "$TMP/g.$type" || return 1
	done
	python3 test/ghc/judge.py "$1" "$TMP/g.time" "$TMP/g.alloc" "$TMP/g.entries" > "$TMP/g.judged"
}
# A -pj file in the speedscope app (its export, test/speedscope/export.cjs):
# its time profile, in ticks, is prof's time over the file's tick, and its
# allocation profile prof's alloc, stack by stack.
app_imports_as_prof() { # FILE
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/export.cjs" \
		"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$1" "$TMP/g.app.json" 2> "$TMP/g.app.err" || return 1
	tick_us=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).tick_interval)' "$1") &&
		per_tick=$(awk -v us="$tick_us" 'BEGIN { printf "%.17g", 1 / (us * 1000) }') || return 1
	set -- "$1" "time $per_tick" "alloc 1"
	k=0
	for type_scale in "$2" "$3"; do
		node test/node/speedscope-folded.cjs "$TMP/g.app.json" "$k" | scaled_sums 1 > "$TMP/g.app.$k" &&
			prof_q -t folded -s "${type_scale% *}" "$1" | scaled_sums "${type_scale#* }" > "$TMP/g.prof.$k" &&
			[ -s "$TMP/g.app.$k" ] && cmp -s "$TMP/g.app.$k" "$TMP/g.prof.$k" || return 1
		k=$((k + 1))
	done
}
