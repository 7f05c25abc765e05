# LispWorks tree cases, sourced by test/run.sh (uses test/lib.sh, PROF, UNIT,
# TMP, DUMP). Goldens: the shared corpus's .folded files (its reference
# reader) and kmeans-default.tree (made from kmeans-default.out by the same
# conventions).
line_as_expected() { # the error names the line that the .why file names
	want=$(sed -n 's/^line \([0-9]*\):.*/\1/p' "${1%.tree}.why")
	grep -q "^prof: $1:$want: " "$1.err"
}

for f in testdata/lispworks/*.tree; do
	check "tree -> tree $f" tree_roundtrip "$f"
	check "sniffed tree -> tree $f" sniffed_tree_roundtrip "$f"
	check "stacks of $f are its .folded" stacks_are_folded "$f"
done
for f in testdata/invalid/lispworks/*.tree; do
	check "refusal of $f names the line in its .why" line_as_expected "$f"
done
check "rprof -> tree is the kmeans golden" writes testdata/lispworks/kmeans-default.tree "$PROF" -t tree testdata/rprof/kmeans-default.out
for f in testdata/rprof/*.out; do
	# names-* and append-mixed hold a name with a newline: no tree line can (tested below)
	case $f in *names-* | *append-mixed*) continue ;; esac
	check "rprof -> tree -> rprof keeps the stacks of $f" rprof_tree_rprof_keeps_stacks "$f"
done
# What a tree line cannot hold is replaced, and the tree reads back.
tree_reads_back() { # INPUT: written with the replacement warning, read back by prof
	says 0 "written with a space or U+FFFD" "$PROF" -t tree "$1" &&
		"$PROF" -q -f tree -t folded "$TMP/cli.out" > /dev/null
}
check "a name with a newline: a tree that reads back" tree_reads_back testdata/rprof/names-gc.out
printf 'main;f\355\240\200g 3\nmain;\377 1\n' > "$TMP/surrogate.folded"
check "a UTF-16 surrogate and a stray byte: a tree that reads back" tree_reads_back "$TMP/surrogate.folded"
for f in testdata/pprof/*/*; do
	case $f in *.txt | *.txt.gz | */LICENSE) continue ;; esac
	check "go tool pprof lists the sample types of $f" go_types_into "$f" "$TMP/types"
	while read -r type unit; do
		check "pprof -> tree of $f: roots add up to Go's $type" tree_total_is_go_total "$f" "$type"
	done < "$TMP/types"
	check "pprof -> tree of $f: default type as pprof's" default_type_is_pprofs "$f"
done

# A chain a million deep: read and written without recursion.
awk 'BEGIN { print "LispWorks Profiler Tree: deep"; for (d = 0; d < 1000000; d++) print d "|1|0|1|0|F" d % 7 }' > "$TMP/deep.tree"
heavy "a tree a million deep" tree_roundtrip "$TMP/deep.tree"

sed 's/$/\r/' testdata/lispworks/comments.tree > "$TMP/crlf.tree"
without_comments testdata/lispworks/comments.tree > "$TMP/lf.tree"
check "CRLF tree reads as LF" writes "$TMP/lf.tree" "$PROF" -t tree "$TMP/crlf.tree"
printf 'LispWorks Profiler Tree: x\n0|1|0|1|1|A\rB\n' > "$TMP/cr.tree"
check "a lone CR is refused with its line" says 1 "cr.tree:2: carriage return" "$PROF" -t tree "$TMP/cr.tree"
check "tree from stdin is named after it" prints 0 "^LispWorks Profiler Tree: <stdin>$" \
	sh -c '"$1" -t tree < "$2"' - "$PROF" testdata/rprof/kmeans-default.out
