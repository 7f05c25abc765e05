# Folded stacks, summaries and tables, sourced by test/run.sh (uses check,
# status_is, stderr_has, PROF, UNIT, TMP, DUMP and pprof.sh's helpers).

# Equal stacks summed and sorted, from folded text on stdin.
sum_folded() {
	awk '{ n = $NF; sub(/ [0-9]+$/, ""); sum[$0] += n } END { for (s in sum) print s " " sum[s] }' |
		LC_ALL=C sort
}
folded_roundtrip() {
	"$PROF" -q -f folded -t folded "$1" > "$TMP/f0" && sum_folded < "$TMP/f0" > "$TMP/f1" &&
		sum_folded < "$1" | cmp -s - "$TMP/f1"
}
tree_folded_is_golden() { "$PROF" -q -t folded "$1" | cmp -s - "${1%.tree}.folded"; }

# "name<TAB>self<TAB>total" of the summary's by-self table, sorted.
summary_rows() {
	"$PROF" -q -t summary "$@" | awk -v OFS='\t' '
		/^by self:/ { rows = 1; getline; next } /^$/ { rows = 0 }
		rows { name = $5; for (i = 6; i <= NF; i++) name = name " " $i; print name, $1, $3 }' |
		LC_ALL=C sort
}
summary_is_summaryrprof() { summary_rows "$1" > "$TMP/s" && LC_ALL=C sort "$1.summaryRprof.tsv" | cmp -s - "$TMP/s"; }
# Through folded and back: the folded text holds what summaryRprof counts.
folded_is_summaryrprof() {
	"$PROF" -q -t folded "$1" > "$TMP/x.folded" && summary_rows "$TMP/x.folded" > "$TMP/s" &&
		LC_ALL=C sort "$1.summaryRprof.tsv" | cmp -s - "$TMP/s"
}
# go tool pprof -top's flat and cum per function, in exact units.
go_top_rows() { # FILE TYPE UNIT
	case $3 in nanoseconds) unit=-unit=ns ;; bytes) unit=-unit=B ;; *) unit= ;; esac
	go tool pprof -symbolize=none -top -nodefraction=0 -nodecount=1000000 -sample_index="$2" $unit "$1" 2> /dev/null |
		awk -v OFS='\t' 'rows { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
				       sub(/ \(inline\)$/, "", name); flat = $1; cum = $4
				       sub(/[^0-9]+$/, "", flat); sub(/[^0-9]+$/, "", cum); print name, flat, cum }
				 /flat%/ { rows = 1 }' | LC_ALL=C sort
}
summary_is_go_top() { # FILE TYPE UNIT
	go_top_rows "$1" "$2" "$3" > "$TMP/g" && summary_rows --sample-type "$2" "$1" > "$TMP/s" &&
		[ -s "$TMP/g" ] && cmp -s "$TMP/g" "$TMP/s"
}
tables_are_golden() { "$PROF" -q -t tables "$1" | cmp -s - "$2"; }

for f in testdata/lispworks/*.tree; do
	check "tree -> folded $f is its .folded" tree_folded_is_golden "$f"
done
for f in testdata/lispworks/*.folded; do
	check "folded -> folded $f" folded_roundtrip "$f"
done
check "empty folded file is an empty profile" status_is 0 "$PROF" -f folded -t folded testdata/lispworks/minimal.folded
for f in testdata/rprof/*.out testdata/rprof/*/*.out; do
	[ -f "$f.summaryRprof.tsv" ] || continue
	check "summary of $f = summaryRprof" summary_is_summaryrprof "$f"
	check "folded of $f holds summaryRprof's counts" folded_is_summaryrprof "$f"
done
# Symbolized pprof files, every sample type: summary = go tool pprof -top.
# (mixed_mappings is left out: pprof names frames without a function after
# their mapping, "[app]", where prof's summary counts only named functions.)
for f in testdata/pprof/go/*.pb* testdata/pprof/google/sample.cpu testdata/pprof/google/large.cpu; do
	case $f in *.txt | *.txt.gz | *mixed_mappings*) continue ;; esac
	go tool pprof -symbolize=none -raw "$f" 2> /dev/null | awk '/^Samples:/ { getline; print; exit }' |
		sed 's/\[dflt\]//' | tr ' ' '\n' | while IFS=/ read -r type unit; do echo "$type $unit"; done > "$TMP/types"
	while read -r type unit; do
		check "summary of $f ($type) = go tool pprof -top" summary_is_go_top "$f" "$type" "$unit"
	done < "$TMP/types"
done
check "folded: ';' and newline in names" status_is 0 "$PROF" -t folded testdata/rprof/names-gc.out
check "folded: ... are replaced" stdout_has ';bu rn;burn [0-9]*$'
check "folded: ... with a warning" stderr_has "no escaping"
for f in testdata/tables/*.tables.tsv; do
	in=testdata/$(basename "${f%.tables.tsv}" | sed 's/__/\//g')
	check "tables of $in" tables_are_golden "$in" "$f"
done

# --check: read and validate only, every problem listed.
check "--check valid" status_is 0 "$PROF" --check testdata/rprof/kmeans-default.out testdata/pprof/go/go_cpu.pb.gz
check "--check says valid" stdout_has "go_cpu.pb.gz: valid pprof profile"
printf 'sample.interval=20000\n"f" \n:1:2:3:4:"g" \n"h" \nabc\n"" \n' > "$TMP/bad.out"
check "--check invalid" status_is 1 "$PROF" --check "$TMP/bad.out"
check "--check lists every problem" sh -c "[ \$(grep -c '^prof: .*bad.out:[0-9]*: ' \"$TMP/cli.err\") -eq 3 ]"
printf 'LispWorks Profiler Tree: x\n0|5|0|5|5|A\n1|x|0|5|5|B\n1|9|0|5|5|C\n1|1|0|5|5|\n' > "$TMP/bad.tree"
check "--check invalid tree" status_is 1 "$PROF" --check "$TMP/bad.tree"
check "--check lists every tree problem" sh -c "[ \$(grep -c '^prof: .*bad.tree:[345]: ' \"$TMP/cli.err\") -eq 3 ]"

# Several inputs merge, as pprof merges.
cat testdata/rprof/kmeans-default.out testdata/rprof/optim-line.out > "$TMP/concat.out"
check "two Rprof files merge into their concatenation" sh -c "\"$PROF\" -t rprof testdata/rprof/kmeans-default.out testdata/rprof/optim-line.out | cmp -s - \"$TMP/concat.out\""
two_go_profiles_sum() {
	"$PROF" -q -t pprof testdata/pprof/go/go_cpu.pb.gz testdata/pprof/google/sample.cpu > "$TMP/m.pb.gz" &&
		[ "$(go_total "$TMP/m.pb.gz" cpu)" = "$( { go_total testdata/pprof/go/go_cpu.pb.gz cpu
			go_total testdata/pprof/google/sample.cpu cpu; } | awk '{ s += $1 } END { printf "%.0f\n", s }')" ]
}
check "two pprof files merge: Go sees the sum" two_go_profiles_sum
check "incompatible inputs are refused" status_is 1 "$PROF" -t pprof testdata/rprof/kmeans-default.out testdata/pprof/go/go_heap.pb.gz
check "... saying why" stderr_has "go_heap.pb.gz: cannot merge: its sample types differ"
check "stdin only once" status_is 2 "$PROF" -t rprof - -
