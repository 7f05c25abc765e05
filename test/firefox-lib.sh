# Checks of Firefox Profiler files, shared by test/firefox.sh and the
# cross-check (sourced after test/lib.sh; uses PROF, TMP, SPEEDSCOPE).

# prof's stacks and counts (weights) are a reference reading's: Python's,
# from the formats' documentation (test/firefox/folded.py).
firefox_is_reference() { # FILE
	prof_q -s 0 -t folded "$1" > "$TMP/ff.folded" &&
		python3 test/firefox/folded.py "$1" "$TMP/ff.folded" 2> "$TMP/ff.reference.err"
}

# The speedscope app (test/speedscope/frames.cjs) shows a DevTools panel's
# file as it shows prof's speedscope JSON of it: every frame's self and
# total time. prof names two functions of one name by their places
# ("f (a.js:3)") where the app shows the name twice: such a name is
# compared as the name the app shows.
firefox_app_frames() { # FILE OUT
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
		"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$1" > "$2" 2> "$TMP/ff.app.err"
}
firefox_app_shows_as_prof() { # FILE
	case $1 in *.gz) zcat "$1" > "$TMP/ff.input.json" ;; *) cp "$1" "$TMP/ff.input.json" ;; esac
	prof_q -s wall -t speedscope -o "$TMP/ff.speedscope.json" "$1" &&
		firefox_app_frames "$TMP/ff.input.json" "$TMP/ff.app" &&
		firefox_app_frames "$TMP/ff.speedscope.json" "$TMP/ff.prof" || return 1
	awk -F'\t' -v OFS='\t' 'NR == FNR { shown[$1] = 1; next }
		!($1 in shown) {
			for (name = $1; (at = last_paren(name)) > 0; ) {
				name = substr(name, 1, at - 1)
				if (name in shown) { $1 = name; break }
			}
		}
		{ print }
		function last_paren(s,   i, at) { at = 0; while ((i = index(substr(s, at + 1), " (")) > 0) at += i; return at }' \
		"$TMP/ff.app" "$TMP/ff.prof" | LC_ALL=C sort > "$TMP/ff.prof.sorted"
	LC_ALL=C sort "$TMP/ff.app" | cmp -s - "$TMP/ff.prof.sorted" && [ -s "$TMP/ff.app" ]
}
