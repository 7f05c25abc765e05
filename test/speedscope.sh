# speedscope, sourced by test/run.sh (uses check, fail, PROF, TMP and the
# helpers of pprof.sh and views.sh): the real speedscope app (npm package
# `speedscope`, pinned in test/speedscope/package-lock.json) loads prof's
# speedscope JSON and folded output in headless Chromium (Debian's), and
# its Sandwich view must show the self and total counts that R's
# summaryRprof and go tool pprof report for the input. speedscope keeps
# apart two functions of one name (R's with and without a srcref, from
# other files): their selfs add up to the name's; a total is compared
# where a name is one frame.
SPEEDSCOPE=test/speedscope
if [ ! -d "$SPEEDSCOPE/node_modules/speedscope" ]; then
	npm ci --prefix "$SPEEDSCOPE" --silent > "$TMP/npm.log" 2>&1 ||
		fail "installing speedscope and playwright-core with npm: $(tail -n 3 "$TMP/npm.log")"
fi
by_name() { # name, summed self, total (or "-" when the name is several frames)
	awk -F'\t' -v OFS='\t' '{ self[$1] += $2; total[$1] = $3; n[$1]++ }
		END { for (k in self) print k, self[k], n[k] == 1 ? total[k] : "-" }' | LC_ALL=C sort
}
speedscope_shows() { # PROFILE EXPECTED_TSV
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
		"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$1" > "$TMP/shown" 2> "$TMP/shown.err" || return 1
	by_name < "$TMP/shown" > "$TMP/shown.by_name"
	awk -F'\t' -v OFS='\t' 'NR == FNR { several[$1] = $3 == "-"; next }
		{ print $1, $2, several[$1] ? "-" : $3 }' "$TMP/shown.by_name" "$2" | LC_ALL=C sort |
		cmp -s - "$TMP/shown.by_name"
}
for f in testdata/rprof/kmeans-default.out testdata/rprof/boot-memory-gc-line.out testdata/rprof/profile-pkg/1.out; do
	LC_ALL=C sort "$f.summaryRprof.tsv" > "$TMP/want"
	"$PROF" -q -t speedscope --sample-type samples -o "$TMP/s.speedscope.json" "$f"
	check "speedscope shows summaryRprof's counts for prof's JSON of $f" speedscope_shows "$TMP/s.speedscope.json" "$TMP/want"
	"$PROF" -q -t folded -o "$TMP/s.folded" "$f"
	check "speedscope shows summaryRprof's counts for prof's folded $f" speedscope_shows "$TMP/s.folded" "$TMP/want"
done
go_top_rows testdata/pprof/go/go_cpu.pb.gz samples count > "$TMP/want"
"$PROF" -q -t speedscope --sample-type samples -o "$TMP/g.speedscope.json" testdata/pprof/go/go_cpu.pb.gz
check "speedscope shows go tool pprof's counts for prof's JSON of go_cpu.pb.gz" speedscope_shows "$TMP/g.speedscope.json" "$TMP/want"
