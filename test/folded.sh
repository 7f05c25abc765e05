# Folded stacks as the tools in the wild write them, sourced by test/run.sh
# (uses test/lib.sh, PROF, TMP). The inputs, testdata/folded/, are made here
# by hand in the shapes the tools in the wild write (testdata/README.md);
# what prof must make of them is judged by the reference reading of
# test/lib.sh (folded_sums), by sed, grep and awk on the inputs, and by Go
# (go tool pprof) for what goes through pprof.
d=testdata/folded
p=testdata/pprof/patterns

sums_are() { # WANT COMMAND...: the reference reading of the command's folded output is WANT's
	want=$1; shift
	"$@" > "$TMP/sums.folded" 2> /dev/null && folded_sums < "$TMP/sums.folded" > "$TMP/sums" 2> /dev/null &&
		cmp -s "$TMP/sums" "$want"
}
go_types_are() { # PPROF "TYPE UNIT"...: the sample types go tool pprof -raw lists
	file=$1; shift
	go_types_into "$file" "$TMP/types" && printf '%s\n' "$@" | cmp -s - "$TMP/types"
}
go_raw_has() { # PPROF PATTERN...: each a line of go tool pprof -raw
	go_raw "$1" > "$TMP/raw" || return 1
	shift
	for pattern in "$@"; do grep -q -- "$pattern" "$TMP/raw" || return 1; done
}

# Differential files (difffolded.pl, inferno's diff-folded): two counts a line.
check "differential: folded -> folded gives the file back" writes "$d/differential.folded" "$PROF" -t folded "$d/differential.folded"
check "... read silently" says_nothing "$PROF" -t folded "$d/differential.folded"
check "... its two types: before and after" prints 0 "^before	count	1$" "$PROF" -t tables "$d/differential.folded"
check "... after second" prints 0 "^after	count	2$" "$PROF" -t tables "$d/differential.folded"
sed 's/ \([0-9.]*\) [0-9.]*$/ \1/' "$d/differential.folded" > "$TMP/before.folded"
sed 's/ [0-9.]* \([0-9.]*\)$/ \1/' "$d/differential.folded" > "$TMP/after.folded"
check "... -s before: the first counts alone" writes "$TMP/before.folded" "$PROF" -t folded -s before "$d/differential.folded"
check "... -s after: the second" writes "$TMP/after.folded" "$PROF" -t folded -s after "$d/differential.folded"
check "... a one-count writer takes after, as flamegraph.pl's widths do" \
	prints 0 "^sample type: *after (count)$" "$PROF" -t summary "$d/differential.folded"
"$PROF" -q -t pprof -o "$TMP/diff.pb.gz" "$d/differential.folded"
check "... through pprof and back: the file" writes "$d/differential.folded" "$PROF" -t folded "$TMP/diff.pb.gz"
check "... Go reads both types, with their decimals" go_types_are "$TMP/diff.pb.gz" "before count/10" "after count/100"
printf 'main;f 10 5\nmain;g 2\n' > "$TMP/leaf-number.folded"
check "one count on some line: the others' first count ends the leaf's name" \
	writes "$TMP/leaf-number.folded" "$PROF" -t folded "$TMP/leaf-number.folded"
check "... one type, samples" prints 0 "^samples	count$" "$PROF" -t tables "$TMP/leaf-number.folded"

# Fractional counts (inferno's fractional-samples tests): kept exactly.
folded_sums < "$d/fractional.folded" > "$TMP/want" 2> /dev/null
check "fractional: the reference reading's sums" sums_are "$TMP/want" "$PROF" -t folded "$d/fractional.folded"
check "... written as short as exact: 19.0 + 31.23" prints 0 '^cksum;_start;main;cksum 50.23$' "$PROF" -t folded "$d/fractional.folded"
check "... 6. as 6" prints 0 '^noploop;idle 6$' "$PROF" -t folded "$d/fractional.folded"
"$PROF" -q -t folded "$d/fractional.folded" > "$TMP/fractional.out"
"$PROF" -q -t pprof -o "$TMP/fractional.pb.gz" "$d/fractional.folded"
check "... through pprof and back: the same bytes" writes "$TMP/fractional.out" "$PROF" -t folded "$TMP/fractional.pb.gz"
check "... Go sees thousandths of a count" go_raw_has "$TMP/fractional.pb.gz" '^samples/count/1000$' '^ *50230: ' '^ *125: '

total=$(awk '{ s += $NF } END { printf "%.3f", s }' "$d/fractional.folded")
check "... the summary's total, every decimal: $total" prints 0 "^total: *$total count$" "$PROF" -t summary "$d/fractional.folded"
check "... Rprof refuses fractional ticks" \
	says 1 "sample type samples has fractional values (3 decimals): Rprof holds whole numbers only" \
	"$PROF" -t rprof "$d/fractional.folded"
check "... a tree refuses fractional Counts" says 1 "a LispWorks tree holds whole numbers only" \
	"$PROF" -t tree "$d/fractional.folded"
cat "$d/fractional.folded" testdata/lispworks/kmeans-default.folded | folded_sums > "$TMP/want" 2> /dev/null
check "... merged with whole counts: the sums of both" \
	sums_are "$TMP/want" "$PROF" -t folded "$d/fractional.folded" testdata/lispworks/kmeans-default.folded

# Comment lines (austin's '#', others' '//'), byte-order marks, UTF-16.
grep -v '^#\|^//\|^$' "$d/comments.folded" > "$TMP/stacks.folded"
check "comments and blank lines: skipped" writes "$TMP/stacks.folded" "$PROF" -t folded "$d/comments.folded"
check "... sniffed silently" says_nothing "$PROF" -t folded < "$d/comments.folded"
check "... kept as meta comments" prints 0 "^comment	# austin: 3.3.0$" "$PROF" -t tables "$d/comments.folded"
"$PROF" -q -t pprof -o "$TMP/comments.pb.gz" "$d/comments.folded"
check "... which Go reads as the pprof's comments" go_raw_has "$TMP/comments.pb.gz" '^Comment: # austin: 3.3.0$' \
	'^Comment: // a comment as some tools write them$'
check "... and pprof gives back" writes "$TMP/stacks.folded" "$PROF" -t folded "$TMP/comments.pb.gz"
printf '\357\273\277main;a 1\nmain;b 2\n' > "$TMP/bom.folded"
printf 'main;a 1\nmain;b 2\n' > "$TMP/no-bom.folded"
check "a UTF-8 byte-order mark is skipped, sniffed" writes "$TMP/no-bom.folded" sh -c "\"$PROF\" -t folded < \"$TMP/bom.folded\""
printf '\377\376m\000;\000a\000 \0001\000\n\000' > "$TMP/le.folded"
printf '\376\377\000m\000;\000a\000 \0001\000\n' > "$TMP/be.folded"
for f in le be; do
	check "UTF-16 ($f) sniffed: refused, saying UTF-16" says 1 "<stdin>: UTF-16 text; convert it to UTF-8 first" \
		sh -c "\"$PROF\" -t folded < \"$TMP/$f.folded\""
	check "... and with -f folded" says 1 "$f.folded: UTF-16 text" "$PROF" -f folded -t folded "$TMP/$f.folded"
done

# Malformed lines, skipped as flamegraph.pl and inferno skip them.
check "bad lines among many stacks: sniffed, each skipped naming its line" \
	says_times 0 2 "bad-lines.folded:[35]: warning: not 'frame;frame;... COUNT': .*; skipped$" "$PROF" -t folded "$d/bad-lines.folded"
folded_sums < "$d/bad-lines.folded" > "$TMP/want" 2> /dev/null
check "... the others read: the reference reading's sums" sums_are "$TMP/want" "$PROF" -t folded "$d/bad-lines.folded"
check "... --check lists them and exits 1" says_times 1 2 "bad-lines.folded:[35]: not 'frame" "$PROF" --check "$d/bad-lines.folded"
# A line of a stack: frames not empty, a count after the last space.
good='^[^;]+(;[^;]+)* [0-9]+(\.[0-9]*)?$'
grep -nvE "$good|^$" "$d/malformed.folded" | cut -d: -f1 > "$TMP/bad-lines"
grep -E "$good" "$d/malformed.folded" > "$TMP/good.folded"
warned_lines_are() { # WANT: the numbers of the lines warned of, one a line
	"$PROF" -f folded -t folded "$d/malformed.folded" > /dev/null 2> "$TMP/warned.err" || return 1
	sed -n 's/^prof: [^:]*:\([0-9]*\): warning: .*; skipped$/\1/p' "$TMP/warned.err" | cmp -s - "$1"
}
check "every kind of malformed line warned, naming its line" warned_lines_are "$TMP/bad-lines"
check "... the good lines read" writes "$TMP/good.folded" "$PROF" -q -f folded -t folded "$d/malformed.folded"
check "... --check: each a problem, exit 1" says_times 1 "$(wc -l < "$TMP/bad-lines")" "malformed.folded:[0-9]*: [ne]" \
	"$PROF" --check -f folded "$d/malformed.folded"
check "mostly malformed text is not sniffed as folded" says 1 "unknown format" "$PROF" -t folded "$d/malformed.folded"
awk 'BEGIN { for (i = 1; i <= 40; i++) print i % 3 ? "main;f" i " " i : "bad line " i "x" }' > "$TMP/many-bad.folded"
check "more than ten malformed lines: ten named" says_times 0 10 ":[0-9]*: warning: .*; skipped$" "$PROF" -t folded "$TMP/many-bad.folded"
check "... then how many in all" says 0 "warning: 13 lines skipped in all, the first 10 named above$" "$PROF" -t folded "$TMP/many-bad.folded"

# One line without a final newline is sniffed.
check "one folded line without a final newline is sniffed" prints 0 "^total: *1 count$" sh -c "printf 'a;b 1' | \"$PROF\" -t summary"
printf 'a;b 1\n' > "$TMP/one.folded"
check "... and written with one" writes "$TMP/one.folded" sh -c "printf 'a;b 1' | \"$PROF\" -t folded"

# Folded output reads back: a NUL in a name (pyroscope's invalid_utf8) becomes a space.
check "a NUL byte in a name: a space, with the warning" says 0 "a NUL byte: written with ':' or a space" \
	"$PROF" -t folded "$p/nul-name.pb.gz"
check "... as the line 'main;read buf 5'" prints 0 '^main;read buf 5$' "$PROF" -t folded "$p/nul-name.pb.gz"
"$PROF" -q -t folded -o "$TMP/nul.folded" "$p/nul-name.pb.gz"
check "... which prof reads back as it is" writes "$TMP/nul.folded" "$PROF" -t folded "$TMP/nul.folded"

# One line per stack of names, in order of first appearance; zeros kept.
# go tool pprof -traces: each sample's names, leaf first, under its value.
go_traces_folded() { # FILE TYPE: Go's samples summed by stack of names, in order of first appearance
	go tool pprof -traces -sample_index="$2" "$1" 2> /dev/null | awk '
		/^-+\+-+$/ { if (n) { s = f[n]; for (i = n - 1; i > 0; i--) s = s ";" f[i]
				     if (!(s in sum)) order[++k] = s; sum[s] += v }
			     n = 0; next }
		n == 0 && /^ +[0-9]+ +[^ ]/ { v = $1; f[++n] = $2; next }
		n > 0 && /^ +[^ ]/ { f[++n] = $1 }
		END { for (i = 1; i <= k; i++) print order[i], sum[order[i]] }'
}
traces_are_folded() { # TYPE: prof's folded lines are Go's traces summed by stack of names
	go_traces_folded "$p/same-names.pb.gz" "$1" > "$TMP/traces.folded" && [ -s "$TMP/traces.folded" ] &&
		writes "$TMP/traces.folded" "$PROF" -t folded -s "$1" "$p/same-names.pb.gz"
}
for type in alloc_objects inuse_objects; do
	check "one function at several locations, $type: one line per stack of names, Go's traces summed" \
		traces_are_folded "$type"
done
check "... a sample whose type is 0 has its line" prints 0 '^main.main;main.idle 0$' "$PROF" -t folded "$p/same-names.pb.gz"
check "zero lines (GHC's): kept through folded -> folded" writes "$d/zero.folded" "$PROF" -t folded "$d/zero.folded"
check "... and through pprof" writes "$d/zero.folded" sh -c "\"$PROF\" -t pprof \"$d/zero.folded\" > \"$TMP/zero.pb.gz\" && \"$PROF\" -t folded < \"$TMP/zero.pb.gz\""
grep -vx 'MAIN.MAIN;Lib.CAF:f 0' "$d/zero.folded" > "$TMP/tree-zero.folded"
check "... through a tree: a node of Count 0 keeps its line, a caller of self 0 has none" \
	writes "$TMP/tree-zero.folded" sh -c "\"$PROF\" -t tree \"$d/zero.folded\" > \"$TMP/zero.tree\" && \"$PROF\" -t folded < \"$TMP/zero.tree\""

# An empty file: 0 bytes are no format, named or piped (docs/decisions.md).
: > "$TMP/empty.folded"
check "an empty file named without -f: empty input" says 1 "empty.folded: empty input" "$PROF" -t folded "$TMP/empty.folded"
check "... with -f folded: the empty profile" writes "$TMP/empty.folded" "$PROF" -f folded -t folded "$TMP/empty.folded"
