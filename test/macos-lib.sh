# The checks of macOS text profiles, for test/macos.sh (files made here)
# and test/cross-check.sh (real ones in ../shared); uses test/lib.sh.
# Instruments' deep copy: prof's stacks and weights are the speedscope
# app's import of the same file, summed per stack.
instruments_is_apps() { # FILE
	app_import_folded "$1" "$TMP/app.folded" && scaled_sums 1 < "$TMP/app.folded" > "$TMP/app.sums" &&
		prof_q -f instruments -t folded "$1" > "$TMP/prof.folded" &&
		scaled_sums 1 < "$TMP/prof.folded" > "$TMP/prof.sums" && cmp -s "$TMP/app.sums" "$TMP/prof.sums"
}
# macOS sample: every call graph line's inclusive count, as the report
# prints it (test/sample-totals.awk), is what prof's stacks add up to under
# that path of names (awk over prof's folded samples).
sample_totals_are_reports() { # FILE
	awk -f test/sample-totals.awk "$1" | LC_ALL=C sort > "$TMP/report.totals" &&
		prof_q -f sample -t folded -s samples "$1" > "$TMP/prof.folded" &&
		awk '{ w = $NF; sub(/ [^ ]+$/, ""); n = split($0, f, ";"); p = ""
			for (i = 1; i <= n; i++) { p = i > 1 ? p ";" f[i] : f[i]; inc[p] += w } }
			END { for (p in inc) if (inc[p]) print p "\t" inc[p] }' "$TMP/prof.folded" |
		LC_ALL=C sort | cmp -s - "$TMP/report.totals"
}
# Each thread a label, counted as its line counts (go tool pprof -tags of
# prof's pprof).
sample_threads_are_reports() { # FILE
	awk '/^Call graph:/ { g = 1; next } g && !/^    / { exit }
		g && /^    [0-9]/ { c = $1; sub(/^ *[0-9]+ /, ""); sub(/^[ \t]+/, ""); sub(/[ \t]+$/, ""); t[$0] += c }
		END { for (k in t) print k "\t" t[k] }' "$1" | LC_ALL=C sort > "$TMP/report.threads" &&
		prof_q -f sample -t pprof -o "$TMP/sample.pb.gz" "$1" &&
		go tool pprof -tags -sample_index=samples "$TMP/sample.pb.gz" 2> /dev/null |
		awk '/^ thread:/ { s = 1; next } s && NF == 0 { exit }
			s { c = $1; sub(/^ *[0-9.]+ \([^)]*\): /, ""); print $0 "\t" int(c) }' |
		LC_ALL=C sort | cmp -s - "$TMP/report.threads"
}
# The wall type: each stack's samples times the interval the header
# gives ("every N millisecond(s)"), the default type; none without one.
sample_wall_is_interval() { # FILE
	ms=$(sed -n 's/.* every \([0-9]*\) millisecond.*/\1/p; s/.* with \([0-9]*\) millisecond.*/\1/p' "$1" | head -n 1)
	prof_q -f sample -t folded -s samples "$1" > "$TMP/samples.folded" || return 1
	if [ -z "$ms" ]; then
		! prof_q -f sample --list-types "$1" | grep -q '^wall ' && return 0
		return 1
	fi
	prof_q -f sample -t folded "$1" > "$TMP/wall.folded" &&
		awk -v ms="$ms" '{ $NF = $NF * ms; print }' "$TMP/samples.folded" | cmp -s - "$TMP/wall.folded"
}
