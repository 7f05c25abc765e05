# Rprof, sourced by test/run.sh (uses test/lib.sh, PROF, UNIT, TMP): the
# files R wrote here and the forms older R versions, Windows and
# interrupted copies wrote (testdata/rprof/patterns/, made from R's own by
# test/make-rprof-patterns.sh), every one:
#   - converts -t rprof back to itself byte for byte, named and sniffed
#     (pprof.sh also round-trips them through pprof);
#   - counts per function what R's summaryRprof counts, where R reads the
#     file right (*.summaryRprof.tsv beside it).
for f in testdata/rprof/*.out testdata/rprof/patterns/*.out; do
	check "roundtrip $f" roundtrip "$f" rprof
	check "sniffed roundtrip $f" sniffed_roundtrip "$f"
	[ -f "$f.summaryRprof.tsv" ] && check "summaryRprof $f" agrees_with_summaryrprof "$f" "$f.summaryRprof.tsv"
done

p=testdata/rprof/patterns

# Unquoted names (R before 2.9): the same profile as the quoted file they came from.
for f in "$p/unquoted.out" "$p/unquoted-crlf.out"; do
	check "$f counts as R counts its quoted original" \
		agrees_with_summaryrprof "$f" testdata/rprof/kmeans-default.out.summaryRprof.tsv
done
# Nothing but a cut file is warned about.
for f in "$p/call-site.out" "$p/unquoted-crlf.out" "$p/crlf.out" "$p/no-final-newline.out" "$p/bare-interval.out"; do
	check "no warning for $f" says_nothing "$PROF" -t summary "$f"
done
check "a file copied mid-name: a warning that says how it ends" \
	says 0 "the file ends inside a sample" "$PROF" -t folded "$p/copied-mid-name.out"
check "... and its cut frame named as R shows it" prints 0 "^summ;" "$PROF" -q -t folded "$p/copied-mid-name.out"
# A reference after the outermost frame is its call site, no frame; alone, it is R's <no location>.
check "call sites make no frames" prints_no "[0-9]#[0-9]" "$PROF" -t folded "$p/call-site.out"
check "a reference alone is <no location>" prints 0 "^<no location> 1$" "$PROF" -t folded "$p/call-site.out"
