# Folded stacks, summaries and tables, sourced by test/run.sh (uses
# test/lib.sh, PROF, UNIT, TMP, DUMP).

tables_are_golden() { "$PROF" -q -t tables "$1" > "$TMP/tables.tsv" && cmp -s "$TMP/tables.tsv" "$2"; }

for f in testdata/lispworks/*.tree; do
	check "tree -> folded $f is its .folded" tree_folded_is_golden "$f"
done
for f in testdata/lispworks/*.folded; do
	check "folded -> folded $f" folded_roundtrip "$f"
done
check "empty folded file is an empty profile" status_is 0 "$PROF" -f folded -t folded testdata/lispworks/minimal.folded
for f in testdata/rprof/*.out; do
	[ -f "$f.summaryRprof.tsv" ] || continue
	check "summary of $f = summaryRprof" summary_is_summaryrprof "$f" "$f.summaryRprof.tsv"
	check "folded of $f holds summaryRprof's counts" folded_is_summaryrprof "$f" "$f.summaryRprof.tsv"
done
# alloc/bytes: per function, summaryRprof(memory = "both")'s mem.total (MB,
# one decimal; 0.0 left out). A run's first row allocates nothing: its own
# heap would show up here as megabytes.
alloc_mb_rows() {
	summary_rows "$@" | awk -F'\t' -v OFS='\t' '{ mb = sprintf("%.1f", $3 / 1048576) } mb != "0.0" { print $1, mb }'
}
alloc_is_summaryrprof() { # FILE GOLDEN
	alloc_mb_rows --sample-type alloc "$1" > "$TMP/m" && LC_ALL=C sort "$2" | cmp -s - "$TMP/m"
}
folded_alloc_is_summaryrprof() { # FILE GOLDEN
	"$PROF" -q -t folded -s alloc "$1" > "$TMP/alloc.folded" && alloc_mb_rows "$TMP/alloc.folded" > "$TMP/m" &&
		LC_ALL=C sort "$2" | cmp -s - "$TMP/m"
}
for golden in testdata/rprof/*.summaryRprof-memory.tsv; do
	f=${golden%.summaryRprof-memory.tsv}
	check "alloc summary of $f = summaryRprof's mem.total" alloc_is_summaryrprof "$f" "$golden"
	check "alloc folded of $f holds summaryRprof's mem.total" folded_alloc_is_summaryrprof "$f" "$golden"
done
# Symbolized pprof files, every sample type: summary = go tool pprof -top.
# (mixed_mappings is left out: pprof names frames without a function after
# their mapping, "[app]", where prof's summary counts only named functions.)
for f in testdata/pprof/go/*.pb*; do
	case $f in *.txt | *.txt.gz | *mixed_mappings*) continue ;; esac
	check "go tool pprof lists the sample types of $f" go_types_into "$f" "$TMP/types"
	while read -r type unit; do
		check "summary of $f ($type) = go tool pprof -top" summary_is_go_top "$f" "$type" "$unit"
	done < "$TMP/types"
done
# The summary's header states only what is true of the type shown: of a
# JFR event's type, its samples are the JDK's count of that event (`jfr
# summary`, the .summary golden) and no other event's time is its total
# time; a pstats file's rows are no samples and it has no runs.
jfr_header_is_the_events() { # JFR JDK_SUMMARY
	"$PROF" -q -t tables "$1" > "$TMP/jfr.tables" || return 1
	events=$(awk '/^# sample_types/ { on = 1; next } /^#/ { on = 0 } on && $2 == "count" && $1 !~ /:/ { print $1 }' "$TMP/jfr.tables")
	[ -n "$events" ] || return 1
	for e in $events; do
		"$PROF" -q -t summary -s "$e" "$1" > "$TMP/jfr.summary.txt" || return 1
		got=$(sed -n 's/^samples: *//p' "$TMP/jfr.summary.txt")
		want=$(awk -v e="$e" '$1 == e { print $2 }' "$2")
		[ -n "$want" ] && [ "$got" = "$want" ] || { echo "$e: samples $got, the JDK counts $want"; return 1; }
		! grep -v "^total time: .*($e[:)]" "$TMP/jfr.summary.txt" | grep -q '^total time:' ||
			{ echo "$e: $(grep '^total time:' "$TMP/jfr.summary.txt")"; return 1; }
	done
}
for f in testdata/jfr/*.jfr testdata/jfr/*.jfr.gz; do
	[ -f "${f%.gz}.summary" ] || continue
	check "summary header of $f: each event's samples are the JDK's count, no other event's time" \
		jfr_header_is_the_events "$f" "${f%.gz}.summary"
done
check "summary header of a pstats file: no samples, no runs" sh -c \
	'"$1" -q -t summary "$2" > "$3" && grep -q "^total:" "$3" && ! grep -q "^\(samples\|runs\):" "$3"' sh \
	"$PROF" testdata/pstats/cprofile-3.12.prof "$TMP/pstats.summary.txt"
check "folded: ';' and newline in names are replaced" prints 0 ';bu rn;burn [0-9]*$' "$PROF" -t folded testdata/rprof/names-gc.out
check "folded: ... with a warning" says 0 "no escaping" "$PROF" -t folded testdata/rprof/names-gc.out
# The tables goldens guard every column against change; where there is an
# oracle, the numbers are judged by it too: per function, the self and
# total samples test/tables-nodes.awk works out from the tables alone are
# R's summaryRprof's, or those of the shared corpus's reference reading of
# a tree (its .folded). Go's -top counts inlined frames, which the awk
# does not read, so the pprof golden stays a guard only.
tables_nodes_are() { # FILE NAME_SELF_TOTAL
	"$PROF" -q -t tables "$1" > "$TMP/nodes.tsv" && LC_ALL=C awk -f test/tables-nodes.awk "$TMP/nodes.tsv" |
		LC_ALL=C sort | cmp -s - "$2"
}
folded_nodes() { # < FOLDED: name, self, total (once per stack)
	awk '{ n = $NF; sub(/ [^ ]+$/, ""); k = split($0, f, ";"); self[f[k]] += n; split("", seen)
		for (i = 1; i <= k; i++) if (!seen[f[i]]++) total[f[i]] += n }
		END { for (x in total) printf "%s\t%.0f\t%.0f\n", x, self[x], total[x] }' | LC_ALL=C sort
}
for f in testdata/tables/*.tables.tsv; do
	in=testdata/$(basename "${f%.tables.tsv}" | sed 's/__/\//g')
	check "tables of $in" tables_are_golden "$in" "$f"
	case $in in
	*.out) oracle=$in.summaryRprof.tsv ;;
	*.tree) oracle=${in%.tree}.folded ;;
	*) continue ;;
	esac
	[ -f "$oracle" ] || continue
	case $oracle in
	*.tsv) LC_ALL=C sort "$oracle" ;;
	*) folded_nodes < "$oracle" ;;
	esac > "$TMP/oracle.tsv"
	check "tables of $in: self and total per function are $oracle's" tables_nodes_are "$in" "$TMP/oracle.tsv"
done

# --check: read and validate only, every problem listed.
check "--check says valid" prints 0 "go_cpu.pb.gz: valid pprof profile" \
	"$PROF" --check testdata/rprof/kmeans-default.out testdata/pprof/go/go_cpu.pb.gz
printf 'sample.interval=20000\n"f" \n:1:2:3:4:"g" \n"h" \nabc\n"" \n' > "$TMP/bad.out"
check "--check lists every problem" says_times 1 3 '^prof: .*bad.out:[0-9]*: ' "$PROF" --check "$TMP/bad.out"
printf 'LispWorks Profiler Tree: x\n0|5|0|5|5|A\n1|x|0|5|5|B\n1|9|0|5|5|C\n1|1|0|5|5|\n' > "$TMP/bad.tree"
check "--check lists every tree problem" says_times 1 3 '^prof: .*bad.tree:[345]: ' "$PROF" --check "$TMP/bad.tree"

# Several inputs merge, as pprof merges.
two_go_profiles_sum() {
	"$PROF" -q -t pprof testdata/pprof/go/go_cpu.pb.gz testdata/pprof/go/inline_labels.pb > "$TMP/m.pb.gz" &&
		[ "$(go_total "$TMP/m.pb.gz" cpu)" = "$( { go_total testdata/pprof/go/go_cpu.pb.gz cpu
			go_total testdata/pprof/go/inline_labels.pb cpu; } | awk '{ s += $1 } END { printf "%.0f\n", s }')" ]
}
check "two pprof files merge: Go sees the sum" two_go_profiles_sum
check "stdin only once" status_is 2 "$PROF" -t rprof - -

# Functions that share a name stay apart in every view, each named as its
# ecosystem's tools name it (docs/model.md, "Frames, their identity and
# names"): `<module>` of three files and `__init__` of two classes as
# py-spy's "name (file:line)", read off Python's own pstats keys
# "file:line(name)" (the .raw.txt golden); two anonymous V8 functions as
# DevTools' "(anonymous) url:line", read off the callFrames by node.
pstats_names() { # RAW_TXT: the py-spy names of the script's <module> and __init__
	sed -n 's/^"\(\(first\|second\|main\)\.py\):\([0-9]*\)(\(<module>\|__init__\))": \[$/\4 (\1:\3)/p' "$1" | LC_ALL=C sort -u
}
v8_anonymous_names() { # CPUPROFILE: DevTools' names of the script's anonymous functions
	node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1]));
		const names = new Set(p.nodes.filter((n) => !n.callFrame.functionName && n.callFrame.url.endsWith("same_names.js"))
			.map((n) => `(anonymous) ${n.callFrame.url}:${n.callFrame.lineNumber + 1}`));
		console.log([...names].sort().join("\n"))' "$1"
}
# A writer's output with its names as text: SVG's and HTML's escapes undone;
# the tables' function rows named as FORM ("pyspy" or "devtools") names them.
view_text() { # WRITER FILE FORM
	case $1 in
	flamegraph|flamechart) "$PROF" -q -t "$1" --minwidth 0 "$2" | sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' ;;
	html) "$PROF" -q -t html "$2" | sed 's/\\u003c/</g; s/\\u003e/>/g' ;;
	tables) "$PROF" -q -t tables "$2" | awk -F'\t' -v form="$3" '/^# functions/ { f = 1; next }
		f && NF > 4 { print form == "pyspy" ? $2 " (" $4 ":" $5 ")" : $2 " " $4 ":" $5 }' ;;
	*) "$PROF" -q -t "$1" "$2" ;;
	esac
}
shows_each_name() { # WRITER FILE FORM NAMES_FILE: every name there, at least two
	view_text "$1" "$2" "$3" > "$TMP/view.txt" || return 1
	[ "$(wc -l < "$4")" -ge 2 ] || return 1
	while IFS= read -r wanted; do
		grep -qF -- "$wanted" "$TMP/view.txt" || return 1
	done < "$4"
}
pstats_names testdata/pstats/same-names-3.11.prof.raw.txt > "$TMP/pstats.names"
v8_anonymous_names testdata/cpuprofile/same-names.cpuprofile > "$TMP/v8.names"
for writer in folded flamegraph flamechart summary sprof html tables speedscope; do
	check "same names: $writer shows <module> of three files and __init__ of two classes apart" \
		shows_each_name "$writer" testdata/pstats/same-names-3.11.prof pyspy "$TMP/pstats.names"
	check "same names: $writer shows two anonymous V8 functions apart" \
		shows_each_name "$writer" testdata/cpuprofile/same-names.cpuprofile devtools "$TMP/v8.names"
done
check "same names: a name no other function has stays short" prints 0 '^run;spread (first.py:9);<built-in method builtins.sum>;<genexpr> (first.py:10) ' \
	sh -c '"$0" -q -t folded "$1" | sed "s/.*;run;/run;/"' "$PROF" testdata/pstats/same-names-3.11.prof
