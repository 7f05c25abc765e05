# What speedscope's importer makes of a V8 sampling heap profile, for
# test/heapprofile.sh and test/cross-check.sh (uses PROF, TMP, SPEEDSCOPE,
# test/lib.sh's prof_q and by_name).

# prof's folded stacks of TYPE, names without the " (FILE:LINE)" prof adds
# where functions share a name (the importer's rule names them alone),
# summed and sorted as the reference prints them.
folded_by_name() { # FILE TYPE
	prof_q -t folded -s "$2" "$1" > "$TMP/h.folded" || return 1
	sed 's/ ([^();]*:[0-9][0-9]*)\(;\| [0-9][0-9]*$\)/\1/g' "$TMP/h.folded" |
		awk '{ at = match($0, / [0-9]+$/); sums[substr($0, 1, at - 1)] += substr($0, at + 1) }
			END { for (s in sums) print s " " sums[s] }' | LC_ALL=C sort
}
reads_as_importer() { # FILE TYPE
	node test/node/heapprofile-folded.cjs "$1" "$2" > "$TMP/h.want" &&
		folded_by_name "$1" "$2" > "$TMP/h.got" && [ -s "$TMP/h.want" ] && cmp -s "$TMP/h.want" "$TMP/h.got"
}
# The app's Sandwich view of its import of the file and of prof's JSON of
# it, frame by frame: name, self and total. The app shows the root, which
# prof makes no frame, names an anonymous function "(anonymous FILE:LINE)"
# where prof says "(anonymous)", and prof adds " (FILE:LINE)" to names
# functions share (compared by name alone, summed, totals of names that
# several frames share left out: test/lib.sh's by_name).
app_shows_the_same() { # FILE
	"$PROF" -q -t speedscope -s space -o "$TMP/h.speedscope.json" "$1" || return 1
	for x in "$1" "$TMP/h.speedscope.json"; do
		NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
			"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$x" > "$TMP/h.view" || return 1
		grep -v '^(root)	' "$TMP/h.view" | sed -e 's/^(anonymous [^\t]*)\t/(anonymous)\t/' \
			-e 's/^\([^\t]*\) ([^()\t]*:[0-9][0-9]*)\t/\1\t/' | by_name > "$TMP/h.view.${x##*/}"
	done
	[ -s "$TMP/h.view.${1##*/}" ] && cmp -s "$TMP/h.view.${1##*/}" "$TMP/h.view.h.speedscope.json"
}
