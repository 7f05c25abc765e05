# What the speedscope app makes of a Ruby stackprof JSON dump, for
# test/stackprof.sh and test/cross-check.sh (uses PROF, TMP, test/lib.sh's
# app_import_folded, scaled_sums and prof_q).

# prof's folded stacks of the default type (microseconds, or allocations)
# are the app's import's, exported by the app and folded
# (test/node/speedscope-folded.cjs names frames as prof does).
stackprof_is_apps() { # FILE
	app_import_folded "$1" "$TMP/app.folded" && scaled_sums 1 < "$TMP/app.folded" > "$TMP/app.sums" &&
		prof_q -t folded "$1" > "$TMP/prof.folded" && scaled_sums 1 < "$TMP/prof.folded" > "$TMP/prof.sums" &&
		[ -s "$TMP/app.sums" ] && cmp -s "$TMP/app.sums" "$TMP/prof.sums"
}
