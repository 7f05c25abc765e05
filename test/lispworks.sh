# LispWorks tree cases, sourced by test/run.sh (uses check, PROF, UNIT, TMP).
# Goldens: the shared corpus's .folded files (its reference reader) and
# kmeans-default.tree (made from kmeans-default.out by the same conventions).
without_comments() { grep -v '^;' "$1"; }
tree_roundtrip() { "$PROF" -q -t lispworks "$1" > "$TMP/t" && without_comments "$1" | cmp -s - "$TMP/t"; }
sniffed_tree_roundtrip() { "$PROF" -q -t tree < "$1" > "$TMP/t" && without_comments "$1" | cmp -s - "$TMP/t"; }
stacks_are_folded() { $UNIT stacks lispworks "$1" | cmp -s - "${1%.tree}.folded"; }
# Equal stacks summed, sorted: stacks compared whatever their order.
summed_stacks() {
	$UNIT stacks "$1" "$2" 2> /dev/null | awk '{ n = $NF; sub(/ [0-9]+$/, ""); sum[$0] += n }
		END { for (s in sum) print s " " sum[s] }' | LC_ALL=C sort
}
rprof_tree_rprof_keeps_stacks() {
	"$PROF" -q -t tree "$1" > "$TMP/r.tree" && "$PROF" -q -t rprof "$TMP/r.tree" > "$TMP/r.out" &&
		summed_stacks rprof "$1" > "$TMP/a" && summed_stacks rprof "$TMP/r.out" > "$TMP/b" &&
		cmp -s "$TMP/a" "$TMP/b"
}
line_as_expected() { # the error names the line that the .why file names
	want=$(sed -n 's/^line \([0-9]*\):.*/\1/p' "${1%.tree}.why")
	grep -q "^prof: $1:$want: " "$1.err"
}
# pprof -> tree: the roots add up to Go's total of the chosen sample type.
roots_total() { awk -F'|' '$1 == 0 { s += $2 } END { printf "%.0f\n", s }' "$1"; }
go_total() { # FILE TYPE: sum of TYPE's column in go tool pprof -raw
	go tool pprof -symbolize=none -raw "$1" 2> /dev/null | awk -v type="$2" '
		/^Samples:/ { header = 1; next }
		header == 1 { for (i = 1; i <= NF; i++) { split($i, t, "/"); if (t[1] == type) col = i }
			      header = 2; next }
		header == 2 && /^ *-?[0-9]+( +-?[0-9]+)*:/ { sub(/:.*/, ""); split($0, v, " "); s += v[col] }
		/^Locations/ { header = 0 }
		END { printf "%.0f\n", s }'
}
tree_total_is_go_total() { # FILE TYPE
	"$PROF" -q -t tree --sample-type "$2" "$1" > "$TMP/p.tree" 2> "$TMP/p.err" ||
		{ grep -q "negative value" "$TMP/p.err" && go tool pprof -symbolize=none -raw "$1" 2> /dev/null |
			grep -q -- ' -[0-9]'; return; }
	[ "$(roots_total "$TMP/p.tree")" = "$(go_total "$1" "$2")" ]
}
default_type_is_pprofs() { # the default: default_sample_type, else the last type
	want=$("$DUMP" "$1" | sed -n 's/^DefaultSampleType: //p')
	[ -n "$want" ] || want=$(go tool pprof -symbolize=none -raw "$1" 2> /dev/null |
		awk '/^Samples:/ { getline; split($NF, t, "/"); print t[1]; exit }')
	"$PROF" -q -t tree "$1" > "$TMP/d1" 2>&1
	echo "exit $?" >> "$TMP/d1"
	"$PROF" -q -t tree --sample-type "$want" "$1" > "$TMP/d2" 2>&1
	echo "exit $?" >> "$TMP/d2"
	cmp -s "$TMP/d1" "$TMP/d2"
}

for f in testdata/lispworks/*.tree; do
	check "tree -> tree $f" tree_roundtrip "$f"
	check "sniffed tree -> tree $f" sniffed_tree_roundtrip "$f"
	check "stacks of $f are its .folded" stacks_are_folded "$f"
done
for f in testdata/invalid/lispworks/*.tree; do
	check "refusal of $f names the line in its .why" line_as_expected "$f"
done
check "rprof -> tree is the kmeans golden" sh -c "\"$PROF\" -t tree testdata/rprof/kmeans-default.out | cmp -s - testdata/lispworks/kmeans-default.tree"
for f in testdata/rprof/*.out testdata/rprof/*/*.out; do
	# names-* and append-mixed hold a name with a newline: no tree line can (tested below)
	case $f in *names-* | *append-mixed*) continue ;; esac
	check "rprof -> tree -> rprof keeps the stacks of $f" rprof_tree_rprof_keeps_stacks "$f"
done
check "a name with a newline is refused for a tree" status_is 1 "$PROF" -t tree testdata/rprof/names-gc.out
check "... before anything is written" [ ! -s "$TMP/cli.out" ]
for f in testdata/pprof/*/*; do
	case $f in *.txt | *.txt.gz | */LICENSE) continue ;; esac
	for type in $(go tool pprof -symbolize=none -raw "$f" 2> /dev/null |
		awk '/^Samples:/ { getline; for (i = 1; i <= NF; i++) { split($i, t, "/"); print t[1] }; exit }'); do
		check "pprof -> tree of $f: roots add up to Go's $type" tree_total_is_go_total "$f" "$type"
	done
	check "pprof -> tree of $f: default type as pprof's" default_type_is_pprofs "$f"
done

# A chain a million deep: read and written without recursion.
awk 'BEGIN { print "LispWorks Profiler Tree: deep"; for (d = 0; d < 1000000; d++) print d "|1|0|1|0|F" d % 7 }' > "$TMP/deep.tree"
heavy "a tree a million deep" tree_roundtrip "$TMP/deep.tree"

sed 's/$/\r/' testdata/lispworks/comments.tree > "$TMP/crlf.tree"
check "CRLF tree" status_is 0 "$PROF" -t tree "$TMP/crlf.tree"
check "CRLF tree reads as LF" sh -c "grep -v '^;' testdata/lispworks/comments.tree | cmp -s - \"$TMP/cli.out\""
printf 'LispWorks Profiler Tree: x\n0|1|0|1|1|A\rB\n' > "$TMP/cr.tree"
check "a lone CR is refused" status_is 1 "$PROF" -t tree "$TMP/cr.tree"
check "a lone CR is refused with its line" stderr_has "cr.tree:2: carriage return"
check "tree from stdin is named after it" sh -c "\"$PROF\" -t tree < testdata/rprof/kmeans-default.out | head -n 1 | grep -qx 'LispWorks Profiler Tree: <stdin>'"
