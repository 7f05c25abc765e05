# callgrind in and out, sourced by test/run.sh (uses test/lib.sh, PROF,
# UNIT, TMP). Judged by valgrind's callgrind_annotate:
#  - writing: its self and inclusive cost per function of prof's callgrind
#    output equal `prof -t summary` (R's ticks: summaryRprof's, through
#    the unit tool) for R and Go inputs, every type;
#  - reading: testdata/callgrind/ (valgrind's callgrind, by
#    test/make-callgrind-samples.sh): callgrind_annotate of prof's
#    callgrind output equals callgrind_annotate of the input, per function
#    and event, self always, inclusive except where the input's own
#    numbers cannot be stacks (docs/callgraph.md: recursion, and
#    call costs larger than what the callee holds, with their callers).
d=testdata/callgrind
. test/callgrind-lib.sh

# By name, as the summary counts: a name in several files (an R function with
# and without a srcref) has its self costs summed and no inclusive ("-").
callgrind_by_name() {
	awk -F '\t' -v OFS='\t' '{ i = index($1, ":"); name = substr($1, i + 1)
				   files[name]++; self[name] += $2; total[name] = $3 }
				 END { for (n in self) printf "%s\t%.0f\t%s\n", n, self[n], (files[n] > 1 ? "-" : total[n]) }' |
		LC_ALL=C sort
}

# The summary's rows with a name that is in several files get "-" too (from LIST).
callgrind_dashed() { # LIST
	awk -F '\t' -v OFS='\t' 'NR == FNR { if ($3 == "-") several[$1] = 1; next }
				 { if ($1 in several) $3 = "-"; if ($2 != 0 || $3 != 0) print }' "$1" - | LC_ALL=C sort
}

callgrind_written_is_summary() { # FILE TYPE: callgrind_annotate of prof's output, by name, is the summary's
	"$PROF" -q -t callgrind "$1" > "$TMP/w.callgrind" || return 1
	callgrind_annotate_rows "$TMP/w.callgrind" "$2" | callgrind_by_name > "$TMP/cg.names"
	[ -s "$TMP/cg.names" ] || return 1
	summary_rows --sample-type "$2" "$1" > "$TMP/cg.rows" &&
		callgrind_dashed "$TMP/cg.names" < "$TMP/cg.rows" | cmp -s - "$TMP/cg.names"
}
# R's ticks, through the unit tool: a name with a line break in it is two
# lines there, and written with a blank in callgrind; tabs are blanks in both.
callgrind_written_is_summaryrprof() { # FILE
	"$PROF" -q -t callgrind "$1" > "$TMP/w.callgrind" || return 1
	callgrind_annotate_rows "$TMP/w.callgrind" samples | callgrind_by_name > "$TMP/cg.names"
	$UNIT by-name "$1" > "$TMP/cg.by-name" 2> /dev/null || return 1
	awk -F '\t' -v OFS='\t' 'NF < 3 { part = part $0 " "; next }
		{ name = $1; for (i = 2; i <= NF - 2; i++) name = name " " $i; print part name, $(NF - 1), $NF; part = "" }' "$TMP/cg.by-name" |
		callgrind_dashed "$TMP/cg.names" | cmp -s - "$TMP/cg.names"
}

callgrind_converts_and_go_accepts() { converts_to_pprof "$1" "$TMP/cg.pb.gz" && go_accepts "$TMP/cg.pb.gz"; }

for f in $d/*.callgrind; do
	check "callgrind: callgrind_annotate of prof's $f is the input's" callgrind_read_back_is_input "$f"
	check "... sniffed from stdin" prints 0 "(callgrind)$" sh -c '"$1" -t summary < "$2"' - "$PROF" "$f"
	check "... Go reads its pprof" callgrind_converts_and_go_accepts "$f"
done
for f in testdata/rprof/*.out; do
	check "callgrind: callgrind_annotate of $f written is summaryRprof" callgrind_written_is_summaryrprof "$f"
done
for f in testdata/pprof/go/*.pb.gz; do
	go_types_into "$f" "$TMP/cg.types" || { fail "callgrind: types of $f"; continue; }
	while read -r type unit; do
		check "callgrind: callgrind_annotate of $f written is the summary, $type" callgrind_written_is_summary "$f" "$type"
	done < "$TMP/cg.types"
done
for f in testdata/perf/*.perf; do
	"$PROF" -q -t tables "$f" > "$TMP/cg.tables" || { fail "callgrind: types of $f"; continue; }
	for type in $(awk -F '\t' '/^# sample_types/ { rows = 1; getline; next }
		rows && /^$/ { rows = 0 } rows { print $1 }' "$TMP/cg.tables"); do
		check "callgrind: callgrind_annotate of $f written is the summary, $type" callgrind_written_is_summary "$f" "$type"
	done
done
# perf's command root has no DSO: callgrind_annotate shows it in no object
# ("???"), not in the object of the function written before it.
check "callgrind: a function of no object after one of some is in none" sh -c \
	'"$1" -q -t callgrind "$2" > "$3" && callgrind_annotate --auto=no --inclusive=yes "$3" | grep -q "???:R \[???\]\$"' \
	sh "$PROF" testdata/perf/r-loop.perf "$TMP/root.callgrind"

# What the graph carries besides costs.
check "callgrind: summary: and totals: kept in meta" \
	prints 0 "^callgrind:totals	" "$PROF" -t tables "$d/inline-cache-branch.callgrind"
check "... --dump-instr's addresses and the object through pprof" \
	sh -c '"$1" -q -t pprof "$2" > "$3" && go tool pprof -symbolize=none -raw "$3" 2> /dev/null |
		grep -q "^ *[0-9]*: 0x[0-9a-f]* M=1 main test/callgrind/recurse.c:2[0-9] s=0$"' - "$PROF" "$d/recurse-instr.callgrind" "$TMP/cg-instr.pb.gz"
check "... 13 events of --cache-sim and --branch-sim, with their units" \
	prints 0 "^Bim	mispredictions$" "$PROF" -t tables "$d/inline-cache-branch.callgrind"
check "... inlined code (fi=) is its own function inside its caller" \
	prints 0 ";main;main [0-9]*$" "$PROF" -t folded "$d/inline-instr.callgrind"
# Written and read back: every self cost where it was (stacks become the graph's).
callgrind_self_costs_kept() { # FILE TYPE
	"$PROF" -q -t callgrind "$1" > "$TMP/sk.callgrind" &&
		summary_rows -s "$2" "$1" > "$TMP/sk.rows" && summary_rows -s "$2" "$TMP/sk.callgrind" > "$TMP/sk.back" &&
		cut -f1,2 "$TMP/sk.rows" | awk -F '\t' '$2 != 0' > "$TMP/sk.a" &&
		cut -f1,2 "$TMP/sk.back" | awk -F '\t' '$2 != 0' | cmp -s - "$TMP/sk.a"
}
check "callgrind: an R profile written and read back keeps every self count" callgrind_self_costs_kept testdata/rprof/kmeans-default.out cpu
check "... a Go profile" callgrind_self_costs_kept testdata/pprof/go/go_cpu.pb.gz samples
check "... -t callgrind picks the extension .callgrind" \
	sh -c '"$1" -q -o "$2" "$3" && head -n 1 "$2" | grep -qx "# callgrind format"' - "$PROF" "$TMP/x.callgrind" testdata/rprof/kmeans-default.out
check "... a type with decimals is refused, not rounded" \
	says 1 "decimals" "$PROF" -t callgrind testdata/folded/fractional.folded
check "... units come back from the event: lines prof writes" \
	prints 0 "^inuse_space	bytes$" sh -c '"$1" -q -t callgrind "$2" > "$3" && "$1" -q -t tables < "$3"' - "$PROF" testdata/pprof/go/go_heap.pb.gz "$TMP/heap.callgrind"
