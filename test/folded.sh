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
# Each count alone, but for a stack the other count alone weighs (issue 27).
awk '{ s = $0; sub(/ [^ ]* [^ ]*$/, "", s) } $(NF - 1) != 0 || $NF == 0 { print s, $(NF - 1) }' \
	"$d/differential.folded" > "$TMP/before.folded"
awk '{ s = $0; sub(/ [^ ]* [^ ]*$/, "", s) } $NF != 0 || $(NF - 1) == 0 { print s, $NF }' \
	"$d/differential.folded" > "$TMP/after.folded"
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

# One line per stack of names, in order of first appearance.
# go tool pprof -traces: each sample's names, leaf first, under its value
# (-unit=byte keeps bytes and counts unscaled, "6479B" and "4byte", which +0 reads).
go_traces_folded() { # FILE TYPE: Go's samples summed by stack of names, in order of first appearance
	go tool pprof -traces -unit=byte -sample_index="$2" "$1" 2> /dev/null | awk '
		/^-+\+-+$/ { if (n) { s = f[n]; for (i = n - 1; i > 0; i--) s = s ";" f[i]
				     if (!(s in sum)) order[++k] = s; sum[s] += v }
			     n = 0; next }
		n == 0 && /^ +[0-9]+[a-zA-Z]* +[^ ]/ { v = $1 + 0; f[++n] = $2; next }
		n > 0 && /^ +[^ ]/ { f[++n] = $1 }
		END { for (i = 1; i <= k; i++) print order[i], sum[order[i]] }'
}

# A stack that weighs 0 in the type written and something in another is
# that other type's: no line of 0 for it (issue 27). Judged across the
# types: by Go's traces of every type for pprof, by awk over prof's
# folded output of every type for JFR and perf (whose stacks of one event
# type weigh 0 in every other). A stack that weighs 0 in every type keeps
# its line (Go's heap profile has one).
other_types_weigh() { # TYPE'S FOLDED, EVERY TYPE'S FOLDED...: the 0 lines of the first whose stacks the others weigh
	awk 'FNR == 1 { file++ } { stack = $0; sub(/ [^ ]*$/, "", stack) }
	     file == 1 { if ($NF == 0) zero[stack] = 1; next }
	     $NF != 0 && stack in zero { print stack; delete zero[stack] }' "$@"
}
no_line_of_other_types() { # FILE: each type's folded stacks hold no 0 line for a stack another type weighs
	i=0
	: > "$TMP/every-type.folded"
	while "$PROF" -q -t folded -s $i "$1" > "$TMP/type-$i.folded" 2> /dev/null; do
		cat "$TMP/type-$i.folded" >> "$TMP/every-type.folded"
		i=$((i + 1))
	done
	[ $i -ge 2 ] || return 1
	while [ $((i -= 1)) -ge 0 ]; do
		[ -z "$(other_types_weigh "$TMP/type-$i.folded" "$TMP/every-type.folded")" ] || return 1
	done
}
for f in testdata/jfr/alloc.jfr testdata/jfr/locks.jfr testdata/perf/c-two-events.perf; do
	check "$f: no type's folded stacks have a 0 line for another type's stack" no_line_of_other_types "$f"
done
# Against Go's traces, which leave out a sample of 0 in every type: prof's
# lines of other than 0 are Go's, and none of its 0 lines is for a stack
# Go's traces of any type weigh.
go_judges_type() { # FILE TYPE
	go_types_into "$1" "$TMP/go-types" || return 1
	: > "$TMP/go-every-type.folded"
	while read -r type unit; do
		go_traces_folded "$1" "$type" >> "$TMP/go-every-type.folded"
	done < "$TMP/go-types"
	go_traces_folded "$1" "$2" | grep -v ' 0$' > "$TMP/go.folded" && [ -s "$TMP/go.folded" ] &&
		"$PROF" -t folded -s "$2" "$1" > "$TMP/prof.folded" 2> /dev/null &&
		grep -v ' 0$' "$TMP/prof.folded" | cmp -s - "$TMP/go.folded" &&
		[ -z "$(other_types_weigh "$TMP/prof.folded" "$TMP/go-every-type.folded")" ]
}
for type in alloc_objects alloc_space inuse_objects inuse_space; do
	check "Go's heap profile, $type: Go's traces, and no 0 line for another type's stack" \
		go_judges_type testdata/pprof/go/go_heap.pb.gz "$type"
done
check "... a stack of 0 in every type keeps its line (go_heap.pb.gz.parsed.txt has one)" \
	prints 0 ' 0$' "$PROF" -t folded -s inuse_space testdata/pprof/go/go_heap.pb.gz
for type in alloc_objects inuse_objects; do
	check "one function at several locations, $type: one line per stack of names, Go's traces summed" \
		go_judges_type "$p/same-names.pb.gz" "$type"
done
check "zero lines (GHC's): kept through folded -> folded" writes "$d/zero.folded" "$PROF" -t folded "$d/zero.folded"
check "... and through pprof" writes "$d/zero.folded" sh -c "\"$PROF\" -t pprof \"$d/zero.folded\" > \"$TMP/zero.pb.gz\" && \"$PROF\" -t folded < \"$TMP/zero.pb.gz\""
grep -vx 'MAIN.MAIN;Lib.CAF:f 0' "$d/zero.folded" > "$TMP/tree-zero.folded"
check "... through a tree: a node of Count 0 keeps its line, a caller of self 0 has none" \
	writes "$TMP/tree-zero.folded" sh -c "\"$PROF\" -t tree \"$d/zero.folded\" > \"$TMP/zero.tree\" && \"$PROF\" -t folded < \"$TMP/zero.tree\""

# An empty file: 0 bytes are no format, named or piped (docs/decisions.md).
: > "$TMP/empty.folded"
check "an empty file named without -f: empty input" says 1 "empty.folded: empty input" "$PROF" -t folded "$TMP/empty.folded"
check "... with -f folded: the empty profile" writes "$TMP/empty.folded" "$PROF" -f folded -t folded "$TMP/empty.folded"
