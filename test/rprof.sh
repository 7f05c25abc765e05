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

# Issue 19: a line cut right after a reference ('... "optim" 1#36 "' or
# '... 1#36', as cut-lines.out cuts R's own line) invents no frame: the
# frame the reference began is gone but for it, and the reference is the
# call site of the outermost frame left (its file and line when whole,
# with its blank). Every line of cut-lines.out cut after '"optim" ' has
# optim's stack (a reference cut short: R's tokens before it), one warning
# says the file was cut, and the bytes come back (roundtrip above).
ref_cut_stacks_are_optims() {
	"$PROF" -q -t folded testdata/rprof/cut-lines.out > "$TMP/cut.folded" || return 1
	want=$(awk '/ [0-9]+#?[0-9]* ?"?$/ && !/" $/ || /"optim" $/' testdata/rprof/cut-lines.out | wc -l)
	! grep -q '[0-9]#' "$TMP/cut.folded" &&
		[ "$(awk '/^optim;\.External2;/ { print $NF }' "$TMP/cut.folded")" = "$want" ] && [ "$want" -eq 6 ]
}
check "a line cut after or inside a reference: no frame of it, the stack before it" ref_cut_stacks_are_optims
check "... the whole reference is the call site of the frame before it" prints 0 '	workloads-shared.R	36$' \
	"$PROF" -t tables testdata/rprof/cut-lines.out
check "... one warning that the sample was cut" says 0 "warning: sample cut short by R's line buffer" \
	"$PROF" -t folded testdata/rprof/cut-lines.out
# Made here from the rule on R's own line: each cut at the end of a file
# copied mid-write, through pprof and back to the same bytes.
line=$(grep '"optim" 1#36 ' testdata/rprof/cut-lines.out | head -n 1)
for tail in '1#36 "' '1#36' '1#'; do
	{ head -n 2 testdata/rprof/cut-lines.out; printf '%s' "${line%%1#36 \"*}$tail"; } > "$TMP/ref-cut.out"
	check "cut after '$tail' at the end of a copy: no frame of it, bytes kept through pprof" sh -c \
		'! "$0" -q -t folded "$1" | grep -q "[0-9]#" && "$0" -q -t pprof "$1" | "$0" -q -t rprof | cmp -s - "$1"' \
		"$PROF" "$TMP/ref-cut.out"
done
# Merged, two files are the file appending them makes: call sites (R 3.x's,
# and those of references cut short) kept, with their files and bytes.
for f in "$p/call-site.out" testdata/rprof/cut-lines.out; do
	cat "$f" "$f" > "$TMP/twice.out"
	check "$f merged with itself is the file twice, call sites kept" sh -c \
		'"$0" -q -t rprof "$1" "$1" | cmp -s - "$2"' "$PROF" "$f" "$TMP/twice.out"
done
