# sprof's views, sourced by test/run.sh (uses check, says,
# prints, writes, PROF, TMP, summary_rows, svg_frames and
# test/lib.sh's browser tools).
#  - `-t sprof` of every Rprof file that sprof's simple reading gets right
#    equals testdata/sprof/X.sprof.tsv, which test/r/sprof.R made in R from
#    sprof's own definitions (testdata/sprof/README.md);
#  - the short names are R's abbreviate(names, minlength = 4), for every
#    input (testdata/sprof/X.abbreviate.tsv, made by R);
#  - for every input, sprof's self and total per function are those that
#    test/tables-nodes.awk reads from its tables (-t tables, checked by R
#    against summaryRprof) or, for pprof, the summary's (checked against go
#    tool pprof), and its runs per function are the boxes of the
#    flame chart (checked against sprof's runs, test/svg/chart-runs.awk);
#  - the plot (-t sprofplot) renders in headless Chromium, its screenshot
#    shows every panel's marks, every mark sits where the panel's axes,
#    read off their ticks, put the values its title gives
#    (test/svg/check.cjs), and those values are `-t sprof`'s: the node and
#    stack panels' marks are those test/svg/sprof-marks.awk lists, the
#    event panels' runs those test/svg/sprof-events.awk checks, the memory
#    panels' changes those of the counters in `-t tables`.

sprof_section() { # NAME < TSV: the rows of one section, without its header
	awk -F'\t' -v want="# $1" '$0 == want { on = 1; getline; next } /^$/ { on = 0 } on'
}
short_names_are_rs() { # INPUT GOLDEN
	"$PROF" -q -t sprof "$1" > "$TMP/names.sprof.tsv" &&
		sprof_section nodes < "$TMP/names.sprof.tsv" | cut -f 1-2 | cmp -s - "$2"
}
# name, self, total: test/tables-nodes.awk's reading of the profile's tables.
nodes_are_tables() { # INPUT
	"$PROF" -q -t tables "$1" | LC_ALL=C awk -f test/tables-nodes.awk | LC_ALL=C sort > "$TMP/from-tables" &&
		"$PROF" -q -t sprof "$1" > "$TMP/nodes.sprof.tsv" &&
		sprof_section nodes < "$TMP/nodes.sprof.tsv" | awk -F'\t' -v OFS='\t' '{ print $1, $5, $8 }' |
		LC_ALL=C sort | cmp -s - "$TMP/from-tables"
}
# ... and for pprof, whose inlined frames the tables do not list: the summary's (go tool pprof's).
nodes_are_summary() { # INPUT
	summary_rows -s samples "$1" > "$TMP/sum" &&
		"$PROF" -q -t sprof "$1" > "$TMP/nodes.sprof.tsv" &&
		sprof_section nodes < "$TMP/nodes.sprof.tsv" | awk -F'\t' -v OFS='\t' '{ print $1, $5, $8 }' |
		LC_ALL=C sort | cmp -s - "$TMP/sum"
}
# name, nr_runs, records per run: the flame chart's boxes per name.
runs_are_chart_boxes() { # INPUT
	"$PROF" -q -t flamechart -s samples --minwidth 0 "$1" > "$TMP/runs.svg" &&
		svg_frames "$TMP/runs.svg" | LC_ALL=C awk -F'\t' -v OFS='\t' '$1 > 0 { n[$2]++; c[$2] += $3 }
			END { for (k in n) printf "%s\t%d\t%.3f\n", k, n[k], c[k] / n[k] }' | LC_ALL=C sort > "$TMP/boxes" &&
		"$PROF" -q -t sprof "$1" > "$TMP/runs.sprof.tsv" &&
		sprof_section nodes < "$TMP/runs.sprof.tsv" | cut -f 1,11,12 | LC_ALL=C sort | cmp -s - "$TMP/boxes"
}

for golden in testdata/sprof/*.sprof.tsv; do
	in=testdata/$(basename "${golden%.sprof.tsv}" | sed 's|__|/|g')
	check "sprof of $in = sprof's own numbers (R)" writes "$golden" "$PROF" -t sprof "$in"
done
for golden in testdata/sprof/*.abbreviate.tsv; do
	in=testdata/$(basename "${golden%.abbreviate.tsv}" | sed 's|__|/|g')
	check "sprof's short names of $in = R's abbreviate()" short_names_are_rs "$in" "$golden"
done
for f in $(light_every 3 testdata/rprof/*.out testdata/rprof/patterns/*.out testdata/lispworks/kmeans-default.tree); do
	check "sprof's self and total of $f = its tables'" nodes_are_tables "$f"
done
check "sprof's self and total of go_cpu.pb.gz, inlined frames too = the summary's" \
	nodes_are_summary testdata/pprof/go/go_cpu.pb.gz
for f in $(light_every 3 testdata/rprof/*.out testdata/rprof/patterns/*.out testdata/pprof/go/go_cpu.pb.gz \
	testdata/lispworks/kmeans-default.tree); do
	check "sprof's runs of $f = the flame chart's boxes" runs_are_chart_boxes "$f"
done

# Choices where sprof has none, and refusals.
"$PROF" -q -t sprof testdata/pprof/go/mixed_mappings.pb.gz > "$TMP/empty.sprof.tsv"
check "a record of the empty stack is a stack of length 0" \
	grep -q "$(printf '^[0-9]*\t0\t[0-9]*\t[0-9.]*\t\t$')" "$TMP/empty.sprof.tsv"
check "a profile with no time says NA for times" \
	prints 0 "$(printf '^kmeans-default.tree\t47\t10\t[0-9]*\tNA$')" "$PROF" -t sprof testdata/lispworks/kmeans-default.tree
# Times belong to the records counted: a JFR's jdk.ExecutionSample events
# have no duration (jfr print lists none), so sprof's times are NA, not
# another event's (jdk.JavaMonitorEnter's) zero.
check "sprof of a JFR's execution samples: times NA, not another event's" \
	prints 0 "$(printf '^locks.jfr\t[0-9]*\t[0-9]*\t[0-9]*\tNA$')" "$PROF" -t sprof -s jdk.ExecutionSample testdata/jfr/locks.jfr
# sprofplot's subtitle gives the records' time in units, as views write
# them for people: sprof's sampling.time (seconds) as label() writes it.
plot_time_is_sprofs() { # INPUT
	seconds=$("$PROF" -q -t sprof "$1" | awk -F '\t' 'p { print $5; exit } /^id\tlen/ { p = 1 }') &&
		want=$(awk -v s="$seconds" "$units_awk"' BEGIN { print label(s, "seconds") }') &&
		"$PROF" -q -t sprofplot "$1" | grep -q "id=\"subtitle\"[^>]*>[^<]* ($want), "
}
check "sprofplot's subtitle: the records' time in units, sprof's sampling.time" plot_time_is_sprofs testdata/rprof/kmeans-default.out
check "sprof of a heap profile takes its first count, and says so" says 0 "writing sample type alloc_objects: the profile's default, inuse_space" \
	"$PROF" -t sprof testdata/pprof/go/go_heap.pb.gz
check "... and counts what it names" prints 0 "^go_heap.pb.gz	" \
	"$PROF" -t sprof -s alloc_objects testdata/pprof/go/go_heap.pb.gz
check "a negative value cannot be a record, and it says so" \
	says 1 "sprof's views cannot hold a negative value" "$PROF" -t sprof -s cpu testdata/pprof/go/wire_unpacked.pb
check "-o x.sprof.tsv is sprof's tables" prints 0 '^# profiles$' \
	sh -c "\"$PROF\" -o \"$TMP/x.sprof.tsv\" testdata/rprof/kmeans-default.out && cat \"$TMP/x.sprof.tsv\""

# Bounded: rows grow with distinct stacks and functions, never with records.
awk 'BEGIN { print "sample.interval=1000"
	for (i = 0; i < 200000; i++) printf "\"f%d\" \"g%d\" \"main\" \n", i % 7, i % 300 }' > "$TMP/long.out"
"$PROF" -q -t sprof "$TMP/long.out" > "$TMP/long.sprof.tsv"
check "200000 records of 2100 stacks: 2100 stack rows" \
	[ "$(sprof_section stack_list < "$TMP/long.sprof.tsv" | wc -l)" -eq 2100 ]
check "... 308 node rows" [ "$(sprof_section nodes < "$TMP/long.sprof.tsv" | wc -l)" -eq 308 ]
check "... and 200000 runs, every record another stack" \
	grep -q "$(printf '^long.out\t200000\t2100\t200000\t')" "$TMP/long.sprof.tsv"

# The plot, in Chromium. A mark per run of records while there are at
# most 2000 of them, so the long profile above is drawn a column at a time.
plot_marks_are_sprofs() { # NAME INPUT MINCOUNT: the node and stack panels
	"$PROF" -q -t sprof "$2" | LC_ALL=C awk -f test/svg/sprof-marks.awk -v mincount="$3" |
		LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2 -k3,3 |
		awk -F'\t' -v OFS='\t' '{ n[$1]++ } n[$1] <= ($1 ~ /-(self|total|refcount)$/ ? 40 : 400) { print $1, $4 }' \
		> "$TMP/marks.want"
	awk -F'\t' -v OFS='\t' '$1 ~ /^(nodes|stacks)-/ { print $1, $3 }' "$TMP/plot/$1.tsv" |
		LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 | cmp -s - "$TMP/marks.want"
}
plot_runs_are_sprofs() { # NAME INPUT: the event panels
	"$PROF" -q -t sprof "$2" > "$TMP/events.sprof.tsv" &&
		[ "$(LC_ALL=C awk -f test/svg/sprof-events.awk "$TMP/events.sprof.tsv" "$TMP/plot/$1.tsv")" = ok ]
}
plot_memory_is_tables() { # NAME INPUT COLUMN PANEL: each row's change of a counter, at its first record
	"$PROF" -q -t tables "$2" | awk -F'\t' -v col="$3" -v what="$4" '
		/^# / { s = substr($0, 3); getline; if (s == "samples") for (i = 1; i <= NF; i++) { if ($i == "samples") c = i; if ($i == col) m = i }; next }
		/^$/ { next }
		s == "samples" { if (e > 0) printf "events %d..%d: %s %.0f\n", e + 1, e + 1, what, $m - before
				 if ($c > 1) printf "events %d..%d: %s 0\n", e + 2, e + $c, what
				 e += $c; before = $m }' > "$TMP/memory.want"
	awk -F'\t' -v panel="memory-$5" '$1 == panel { print $3 }' "$TMP/plot/$1.tsv" | cmp -s - "$TMP/memory.want"
}
plot_columns_cover() { # NAME PANEL LEN MAX: marks of consecutive records from 1 to LEN, at most MAX
	awk -F'\t' -v panel="$2" -v len="$3" -v max="$4" '$1 == panel { n++; split($3, r, /[ .:]+/)
		if (r[2] != at + 1) bad = 1; at = r[3] } END { exit !(n > 0 && n <= max && at == len && !bad) }' "$TMP/plot/$1.tsv"
}
mkdir -p "$TMP/plot"
"$PROF" -q -t sprofplot -o "$TMP/plot/kmeans.sprof.svg" testdata/rprof/kmeans-default.out
"$PROF" -q -t sprofplot --mincount 0 -o "$TMP/plot/kmeans-all.sprof.svg" testdata/rprof/kmeans-default.out
"$PROF" -q -t sprofplot -o "$TMP/plot/boot.sprof.svg" testdata/rprof/boot-memory-gc-line.out
"$PROF" -q -t sprofplot --mincount 1 -o "$TMP/plot/names.sprof.svg" testdata/rprof/names-memory-line.out
"$PROF" -q -t sprofplot -o "$TMP/plot/go-cpu.sprof.svg" testdata/pprof/go/go_cpu.pb.gz
"$PROF" -q -t sprofplot -o "$TMP/plot/long.sprof.svg" "$TMP/long.out"
install_browser_tools
chromium_shows_each plot "$TMP/plot" ", each mark where the axes put its values"
for args in "kmeans.sprof testdata/rprof/kmeans-default.out 5" "kmeans-all.sprof testdata/rprof/kmeans-default.out 0" \
	"boot.sprof testdata/rprof/boot-memory-gc-line.out 5" "names.sprof testdata/rprof/names-memory-line.out 1" \
	"go-cpu.sprof testdata/pprof/go/go_cpu.pb.gz 5" "long.sprof $TMP/long.out 5"; do
	set -- $args
	needs_browser check "the nodes and stacks read back from $1.svg are sprof's" plot_marks_are_sprofs "$@"
	[ "$1" = long.sprof ] || needs_browser check "the runs read back from $1.svg are sprof's" plot_runs_are_sprofs "$1" "$2"
done
for f in boot.sprof:testdata/rprof/boot-memory-gc-line.out names.sprof:testdata/rprof/names-memory-line.out; do
	set -- small_v:vsize.small:vsize-small big_v:vsize.large:vsize-large nodes:nodes:nodes dup_count:duplications:duplications
	for counter; do
		needs_browser check "the ${counter%%:*} changes read back from ${f%%:*}.svg are the tables'" plot_memory_is_tables \
			"${f%%:*}" "${f#*:}" "${counter%%:*}" "$(echo "$counter" | cut -d: -f2)" "${counter##*:}"
	done
done
needs_browser check "200000 runs: each event panel a mark a pixel column, from record 1 to the last" \
	plot_columns_cover long.sprof profiles-ids 200000 340
needs_browser check "... the strip too" plot_columns_cover long.sprof profiles-strip 200000 1200
check "... and the page stays small" [ "$(wc -c < "$TMP/plot/long.sprof.svg")" -lt 600000 ]
check "a profile with nothing to draw says so" says 1 "no samples: nothing to draw" \
	"$PROF" -t sprofplot testdata/lispworks/minimal.tree
check "--mincount takes a whole number" says 2 "mincount takes a whole number" \
	"$PROF" -t sprofplot --mincount -1 testdata/rprof/kmeans-default.out
check "-o x.sprof.svg is sprof's plot" prints 0 '>sprof<' \
	sh -c "\"$PROF\" -o \"$TMP/x.sprof.svg\" testdata/rprof/kmeans-default.out && cat \"$TMP/x.sprof.svg\""
