# Rprof as older R versions, Windows and interrupted copies wrote it, sourced
# by test/run.sh (uses check, says, prints, says_nothing, PROF, UNIT, TMP).
# The files are made from R's own by test/make-rprof-patterns.sh; run.sh and
# pprof.sh also round-trip them byte for byte, directly and through pprof.
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
check "call sites make no frames" sh -c "\"$PROF\" -t folded \"$p/call-site.out\" | grep -q '[0-9]#[0-9]'; [ \$? -eq 1 ]"
check "a reference alone is <no location>" prints 0 "^<no location> 1$" "$PROF" -t folded "$p/call-site.out"
