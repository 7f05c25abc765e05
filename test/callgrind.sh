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
for f in $(light_every 3 testdata/rprof/*.out); do
	check "callgrind: callgrind_annotate of $f written is summaryRprof" callgrind_written_is_summaryrprof "$f"
done
for f in $(light_every 3 testdata/pprof/go/*.pb.gz); do
	go_types_into "$f" "$TMP/cg.types" || { fail "callgrind: types of $f"; continue; }
	while read -r type unit; do
		check "callgrind: callgrind_annotate of $f written is the summary, $type" callgrind_written_is_summary "$f" "$type"
	done < "$TMP/cg.types"
done
for f in $(light_every 3 testdata/perf/*.perf); do
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
check "... inlined code (fi=) is its own function inside its caller, shown with its file" \
	prints 0 ";main (test/callgrind/inline.c);main (test/callgrind/inl.h) [0-9]*$" "$PROF" -t folded "$d/inline-instr.callgrind"
# Written and read back: every self cost where it was (stacks become the graph's).
callgrind_self_costs_kept() { # FILE TYPE
	"$PROF" -q -t callgrind "$1" > "$TMP/sk.callgrind" &&
		summary_rows -s "$2" "$1" > "$TMP/sk.rows" && summary_rows -s "$2" "$TMP/sk.callgrind" > "$TMP/sk.back" &&
		cut -f1,2 "$TMP/sk.rows" | awk -F '\t' '$2 != 0' > "$TMP/sk.a" &&
		cut -f1,2 "$TMP/sk.back" | grep -v "$callgraph_markers" | awk -F '\t' '$2 != 0' | cmp -s - "$TMP/sk.a"
}
check "callgrind: an R profile written and read back keeps every self count" callgrind_self_costs_kept testdata/rprof/kmeans-default.out cpu
check "... a Go profile" callgrind_self_costs_kept testdata/pprof/go/go_cpu.pb.gz samples
check "... -t callgrind picks the extension .callgrind" \
	sh -c '"$1" -q -o "$2" "$3" && head -n 1 "$2" | grep -qx "# callgrind format"' - "$PROF" "$TMP/x.callgrind" testdata/rprof/kmeans-default.out
check "... a type with decimals is refused, not rounded" \
	says 1 "decimals" "$PROF" -t callgrind testdata/folded/fractional.folded
check "... units come back from the event: lines prof writes" \
	prints 0 "^inuse_space	bytes$" sh -c '"$1" -q -t callgrind "$2" > "$3" && "$1" -q -t tables < "$3"' - "$PROF" testdata/pprof/go/go_heap.pb.gz "$TMP/heap.callgrind"

# Issue 19, made from the format's rules. One function name in two objects
# (callgrind's "0x..." names of code without symbols, in a library and in
# [vdso]; valgrind's name ids are the file's, ob= holds for the fn= blocks
# after it, cob= names a callee's) is two functions, as KCachegrind keys
# them: each keeps its own costs under its own object in prof's callgrind
# output, calls into each from where they were, as an awk reading of
# ob=/cob= sees them; callgrind_annotate, which
# adds them up by file and name, sees prof's output as the input.
cat > "$TMP/objects.callgrind" <<'CG'
# callgrind format
version: 1
creator: made by hand from the format's rules
positions: line
events: Ir
summary: 32

ob=(1) /bin/prog
fl=(1) prog.c
fn=(1) main
16 5
cob=(2) /usr/lib/libstdc++.so.6
cfi=(2) ???
cfn=(2) 0x0000000000001000
calls=1 0
16 20
cob=(3) [vdso]
cfi=(2)
cfn=(2)
calls=2 0
17 7

ob=(3)
fl=(2)
fn=(2)
0 3
cfn=(3) 0x0000000000002000
calls=1 0
0 4

ob=(2)
fl=(2)
fn=(2)
0 20

ob=(3)
fl=(2)
fn=(3)
0 4

totals: 32
CG
# "OBJECT:FUNCTION<TAB>self" (first event), and with --arcs also
# "OBJECT:FUNCTION:LINE -> OBJECT:FUNCTION<TAB>inclusive" per call arc, sorted.
object_costs() { # [--arcs] CALLGRIND
	arcs=0; [ "$1" = --arcs ] && { arcs=1; shift; }
	awk -v arcs=$arcs 'function name(kind, v,   id) {
			if (!match(v, /^\([0-9]+\)/)) return v
			id = substr(v, 1, RLENGTH)
			if (length(v) > RLENGTH) names[kind, id] = substr(v, RLENGTH + 2)
			return names[kind, id]
		}
		/^ob=/ { ob = name("ob", substr($0, 4)); next }
		/^cob=/ { cob = name("ob", substr($0, 5)); next }
		/^fn=/ { fn = name("fn", substr($0, 4)); next }
		/^cfn=/ { callee = (cob != "" ? cob : ob) ":" name("fn", substr($0, 5)); cob = ""; next }
		/^calls=/ { call = 1; next }
		/^[0-9+*-]/ { if (!call) self[ob ":" fn] += $2; else if (arcs) self[ob ":" fn ":" $1 " -> " callee] += $2; call = 0 }
		END { for (k in self) if (self[k]) print k "\t" self[k] }' "$1" | LC_ALL=C sort
}
objects_kept() { # CALLGRIND
	"$PROF" -q -t callgrind "$1" > "$TMP/objects.out" && object_costs --arcs "$TMP/objects.out" > "$TMP/objects.got" &&
		object_costs --arcs "$1" | cmp -s - "$TMP/objects.got" && grep -q '\[vdso\]:0x0*1000	3$' "$TMP/objects.got"
}
check "callgrind: a name in two objects keeps each object's costs and calls" objects_kept "$TMP/objects.callgrind"
check "... and callgrind_annotate sees prof's output as the input" callgrind_read_back_is_input "$TMP/objects.callgrind"
check "... Go reads its pprof" callgrind_converts_and_go_accepts "$TMP/objects.callgrind"

# A file cut short keeps its summary: line (valgrind writes it in the
# header, totals: last) but loses cost lines: read as it is, with a warning
# naming the summary: line, when the cost lines sum to less than 99% of it
# (docs/formats/callgrind.md); a file that ends after calls= is no refusal
# then. valgrind's own files (sums exact) say nothing.
f=$d/recurse-default.callgrind
summary_line=$(grep -n '^summary:' "$f" | cut -d: -f1)
half=$(($(wc -l < "$f") / 2))
after_call=$(awk 'NR > 300 && /^calls=/ { print NR; exit }' "$f")
for n in "$half" "$after_call"; do
	head -n "$n" "$f" > "$TMP/cut.callgrind"
	check "callgrind: cut after line $n of $f: read, with a warning naming summary:" says 0 \
		"^prof: $TMP/cut.callgrind:$summary_line: warning: summary: says 47791 Ir, but the cost lines sum to [0-9]* (.*): the file looks cut short; read as it is\$" \
		"$PROF" -t callgrind "$TMP/cut.callgrind"
	# Calls whose callee's lines are cut hold more than it: untraced calls (docs/callgraph.md).
	check "... its self costs those of the lines left" sh -c '"$0" -q -t folded "$1" | grep -v ";(untraced calls) [0-9]*\$" |
		awk "{ s += \$NF } END { print s }" | grep -qx "$2"' \
		"$PROF" "$TMP/cut.callgrind" "$(object_costs "$TMP/cut.callgrind" | awk -F '\t' '{ s += $2 } END { print s }')"
done
for f in $d/*.callgrind; do
	check "callgrind: no warning for $f" says_nothing "$PROF" -t folded "$f"
done
# The bound: 1% of what the file states, here 482 of 48273 or 48275 (the costs sum to 47791).
sed 's/^summary: 47791$/summary: 48273/; s/^totals: 47791$/totals: 48273/' "$d/recurse-default.callgrind" > "$TMP/near.callgrind"
check "callgrind: costs 1% under totals: no warning" says_nothing "$PROF" -t folded "$TMP/near.callgrind"
sed 's/^summary: 47791$/summary: 48275/; s/^totals: 47791$/totals: 48275/' "$d/recurse-default.callgrind" > "$TMP/near.callgrind"
check "callgrind: costs more than 1% under totals: a warning naming totals:" says 0 \
	"^prof: $TMP/near.callgrind:$(wc -l < "$d/recurse-default.callgrind"): warning: totals: says 48275 Ir" "$PROF" -t folded "$TMP/near.callgrind"

# Issue 28, the round trip: a callgrind file's own self costs and calls
# are kept beside its samples (docs/model.md), so callgrind_annotate of
# prof's callgrind of it is callgrind_annotate of the file, with no
# exception: every function's self and inclusive cost of every event
# (test/pstats.sh checks that a filter or a merge leaves the stacks the
# truth, for both formats alike).
callgrind_round_trip() { # FILE
	"$PROF" -q -t callgrind "$1" > "$TMP/rt.callgrind" || return 1
	for event in $(sed -n 's/^events: *//p' "$1"); do
		callgrind_annotate_rows "$1" "$event" > "$TMP/rt.in" && [ -s "$TMP/rt.in" ] || return 1
		callgrind_annotate_rows "$TMP/rt.callgrind" "$event" | cmp -s - "$TMP/rt.in" || return 1
	done
}
for f in $d/*.callgrind "$TMP/objects.callgrind"; do
	check "callgrind: callgrind_annotate of prof's callgrind of $f is the file's, inclusive too" callgrind_round_trip "$f"
	check "... filtered, from its stacks: the input's but where its numbers are not stacks" \
		callgrind_read_back_is_input "$f" --ignore '^no such function$'
done
check "... its calls, each with its count and cost, as an awk reading of ob= and cob= sees them" objects_kept "$TMP/objects.callgrind"
