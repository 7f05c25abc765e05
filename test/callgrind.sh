# callgrind in and out, sourced by test/run.sh (uses test/lib.sh, PROF,
# UNIT, TMP). Judged by valgrind's callgrind_annotate:
#  - writing: its self and inclusive cost per function of prof's callgrind
#    output equal `prof -t summary` (R's ticks: summaryRprof's, through
#    the unit tool) for R and Go inputs, every type;
#  - reading: testdata/callgrind/ (valgrind's callgrind, by
#    test/make-callgrind-samples.sh): callgrind_annotate of prof's
#    callgrind output equals callgrind_annotate of the input, per function
#    and event, self always, inclusive except where the input's own
#    numbers cannot be stacks (docs/formats/callgrind.md: recursion, and
#    call costs larger than what the callee holds, with their callers).
d=testdata/callgrind

# "file:function<TAB>self<TAB>inclusive" of EVENT, sorted; functions with a cost.
annotate_rows() { # FILE EVENT
	file=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	for inclusive in no yes; do
		# From /: callgrind_annotate strips the current directory from some names only.
		(cd / && callgrind_annotate --auto=no --threshold=100 --show="$2" --inclusive=$inclusive "$file" 2> /dev/null) |
			awk '/file:function/ { rows = 1; getline; next }
			     rows && NF { v = $1; gsub(",", "", v); if (v == ".") v = 0
					  sub(/^ *[0-9,.]+ +(\([ 0-9.]+%\) +)?/, ""); sub(/ \[[^]]*\]$/, ""); gsub(/\t/, " "); print $0 "\t" v }' |
			LC_ALL=C sort > "$TMP/cga.$inclusive"
	done
	LC_ALL=C join -t '	' -a1 -a2 -e 0 -o 0,1.2,2.2 "$TMP/cga.no" "$TMP/cga.yes" | awk -F '\t' '$2 != 0 || $3 != 0'
}

# By name, as the summary counts: a name in several files (an R function with
# and without a srcref) has its self costs summed and no inclusive ("-").
by_name() {
	awk -F '\t' -v OFS='\t' '{ i = index($1, ":"); name = substr($1, i + 1)
				   files[name]++; self[name] += $2; total[name] = $3 }
				 END { for (n in self) printf "%s\t%.0f\t%s\n", n, self[n], (files[n] > 1 ? "-" : total[n]) }' |
		LC_ALL=C sort
}

# The summary's rows with a name that is in several files get "-" too (from LIST).
dashed() { # LIST
	awk -F '\t' -v OFS='\t' 'NR == FNR { if ($3 == "-") several[$1] = 1; next }
				 { if ($1 in several) $3 = "-"; if ($2 != 0 || $3 != 0) print }' "$1" - | LC_ALL=C sort
}

written_is_summary() { # FILE TYPE: callgrind_annotate of prof's output, by name, is the summary's
	"$PROF" -q -t callgrind "$1" > "$TMP/w.callgrind" || return 1
	annotate_rows "$TMP/w.callgrind" "$2" | by_name > "$TMP/cg.names"
	[ -s "$TMP/cg.names" ] || return 1
	summary_rows --sample-type "$2" "$1" | dashed "$TMP/cg.names" | cmp -s - "$TMP/cg.names"
}
# R's ticks, through the unit tool: a name with a line break in it is two
# lines there, and written with a blank in callgrind; tabs are blanks in both.
written_is_summaryrprof() { # FILE
	"$PROF" -q -t callgrind "$1" > "$TMP/w.callgrind" || return 1
	annotate_rows "$TMP/w.callgrind" samples | by_name > "$TMP/cg.names"
	$UNIT by-name "$1" | awk -F '\t' -v OFS='\t' 'NF < 3 { part = part $0 " "; next }
		{ name = $1; for (i = 2; i <= NF - 2; i++) name = name " " $i; print part name, $(NF - 1), $NF; part = "" }' |
		dashed "$TMP/cg.names" | cmp -s - "$TMP/cg.names"
}

# The functions of a callgrind file whose inclusive cost of EVENT no stacks
# can give, one a line: those called from themselves, those called for more
# than they hold (self plus their calls), every caller of those, and those
# called for less than they hold.
inexact_functions() { # FILE EVENT
	awk -v event="$2" '
		function name(kind, v,   id) {
			if (match(v, /^\([0-9]+\)/)) {
				id = substr(v, 1, RLENGTH)
				if (length(v) > RLENGTH) names[kind, id] = substr(v, RLENGTH + 2)
				return names[kind, id]
			}
			return v
		}
		/^events:/ { for (i = 2; i <= NF; i++) if ($i == event) col = i - 1 }
		/^fl=|^fi=|^fe=/ { file = name("fl", substr($0, 4)); next }
		/^fn=/ { fn = name("fn", substr($0, 4)); next }
		/^cfi=|^cfl=/ { cfile = name("fl", substr($0, 5)); next }
		/^cfn=/ { callee = (cfile != "" ? cfile : file) ":" name("fn", substr($0, 5)); cfile = ""; next }
		/^jfi=/ { name("fl", substr($0, 5)); next }
		/^jfn=/ { name("fn", substr($0, 5)); next }
		/^ob=|^cob=/ { next }
		/^calls=/ { call = 1; next }
		/^(jump|jcnd)=/ { jump = 1; next }
		/^[0-9+*-]/ {
			if (jump) { jump = 0; next }
			key = file ":" fn
			n = split($0, f, /[ \t]+/)
			cost = f[positions + col]; cost += 0
			if (call) { into[callee] += cost; if (callee == key) self_called[key] = 1; else out[key] += cost
				    callers[callee] = callers[callee] SUBSEP key; call = 0 }
			else self[key] += cost
			seen[key] = 1
		}
		/^positions:/ { positions = NF - 1 }
		BEGIN { positions = 1 }
		END {
			for (k in into) if (self_called[k] || into[k] > self[k] + out[k]) bad[k] = 1
			do { grew = 0
			     for (k in bad) { n = split(callers[k], c, SUBSEP)
					      for (i = 2; i <= n; i++) if (!(c[i] in bad)) { bad[c[i]] = 1; grew = 1 } }
			} while (grew)
			# One that holds more than its calls bring starts flow of its own (clone() in a
			# new thread): callgrind_annotate counts only the calls, prof all of it.
			for (k in into) if (into[k] < self[k] + out[k]) bad[k] = 1
			for (k in bad) print k
		}' "$1" | LC_ALL=C sort
}

# Per event: self equal for every function, inclusive for all but the inexact ones.
read_back_is_input() { # FILE
	"$PROF" -q -t callgrind "$1" > "$TMP/r.callgrind" || return 1
	for event in $(sed -n 's/^events: *//p' "$1"); do
		inexact_functions "$1" "$event" > "$TMP/cg.inexact"
		annotate_rows "$1" "$event" > "$TMP/cg.in"
		annotate_rows "$TMP/r.callgrind" "$event" > "$TMP/cg.out"
		[ -s "$TMP/cg.in" ] || return 1
		cut -f1,2 "$TMP/cg.out" > "$TMP/cg.self.out"
		cut -f1,2 "$TMP/cg.in" | cmp -s - "$TMP/cg.self.out" || return 1
		awk -F '\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$TMP/cg.inexact" "$TMP/cg.in" > "$TMP/cg.exact.in"
		awk -F '\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$TMP/cg.inexact" "$TMP/cg.out" |
			cmp -s - "$TMP/cg.exact.in" || return 1
	done
}

converts_and_go_accepts() { converts_to_pprof "$1" "$TMP/cg.pb.gz" && go_accepts "$TMP/cg.pb.gz"; }

for f in $d/*.callgrind; do
	check "callgrind: callgrind_annotate of prof's $f is the input's" read_back_is_input "$f"
	check "... sniffed from stdin" status_is 0 sh -c '"$1" -t summary < "$2"' - "$PROF" "$f"
	check "... Go reads its pprof" converts_and_go_accepts "$f"
done
for f in testdata/rprof/*.out; do
	check "callgrind: callgrind_annotate of $f written is summaryRprof" written_is_summaryrprof "$f"
done
for f in testdata/pprof/go/*.pb.gz; do
	go_types_into "$f" "$TMP/cg.types" || { fail "callgrind: types of $f"; continue; }
	while read -r type unit; do
		check "callgrind: callgrind_annotate of $f written is the summary, $type" written_is_summary "$f" "$type"
	done < "$TMP/cg.types"
done
