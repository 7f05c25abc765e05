# V8 sampling heap profiles, sourced by test/run.sh (uses test/lib.sh, PROF,
# TMP): the files node wrote here (testdata/heapprofile/), judged by the
# speedscope app's importer: its rule in node (test/node/heapprofile-folded.cjs)
# for the folded stacks of both types, exactly, and the real app's own
# import of the file against its load of prof's speedscope JSON of it.

. test/heapprofile-lib.sh
# How many samples name a node the tree lacks, as node counts them.
lost_samples() {
	node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), ids = new Set();
		const walk = (n) => { ids.add(n.id); n.children.forEach(walk); }; walk(p.head);
		console.log(`${p.samples.filter((s) => !ids.has(s.nodeId)).length} of ${p.samples.length}`)' "$1"
}
install_browser_tools
for f in testdata/heapprofile/*.heapprofile; do
	check "heapprofile: bytes of $f as speedscope's importer weighs them" reads_as_importer "$f" space
	check "heapprofile: $f sniffed from stdin" prints 0 '(heapprofile)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
done
for f in testdata/heapprofile/default.heapprofile testdata/heapprofile/devtools-all.heapprofile; do
	check "heapprofile: samples of $f counted on their nodes" reads_as_importer "$f" samples
	lost=$(lost_samples "$f")
	case $lost in
	"0 of "*) check "heapprofile: $f's samples all name nodes: no warning" says_nothing "$PROF" -t folded "$f" ;;
	*) check "heapprofile: $f's samples of no node, said as node counts them" \
		says 0 "warning: $lost samples name a node the tree does not hold" "$PROF" -t folded "$f" ;;
	esac
done
sample_types() { # FILE: the types prof reads, as "TYPE/UNIT" on one line
	prof_q -t tables "$1" > "$TMP/h.tables" &&
		awk -F'\t' '/^# sample_types/ { t = 1; getline; next } t && !NF { exit } t { printf "%s/%s ", $1, $2 }' "$TMP/h.tables"
}
check "heapprofile: with samples, a count and the bytes" \
	sh -c '[ "$1" = "samples/count space/bytes " ]' - "$(sample_types testdata/heapprofile/default.heapprofile)"
check "heapprofile: without samples (node 10, Chrome 69), the bytes alone" \
	sh -c '[ "$1" = "space/bytes " ]' - "$(sample_types testdata/heapprofile/old.heapprofile)"
needs_browser heavy "heapprofile: speedscope shows its own import of default.heapprofile as prof's JSON of it" \
	app_shows_the_same testdata/heapprofile/default.heapprofile

# A tree 100000 deep: read with a stack of its own, not the C stack.
awk 'BEGIN { n = 100000; printf "{\"head\":";
	for (i = 0; i < n; i++) printf "{\"callFrame\":{\"functionName\":\"f\"},\"selfSize\":%d,\"children\":[", i == n - 1 ? 8 : 0;
	for (i = 0; i < n; i++) printf "]}"; print "}" }' > "$TMP/deep.heapprofile"
check "heapprofile: a tree 100000 deep" prints 0 '^1 99999 8$' \
	sh -c '"$0" -q -t folded "$1" | awk "{ print NR, gsub(/;/, \";\"), \$NF }"' "$PROF" "$TMP/deep.heapprofile"
