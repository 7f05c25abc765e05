# Flame graphs and flame charts, sourced by test/run.sh (uses check,
# status_is, says, prints, PROF, TMP, and test/lib.sh's browser tools). What a picture must show is worked out
# here from other outputs of prof, by other code:
#  - a flame graph's frames (depth, name, count, x, width, in file order)
#    are those that test/svg/folded-frames.awk lays out from `prof -t
#    folded` of the same input: flamegraph.pl's rules, one frame per name;
#  - a flame chart's boxes (depth, name, count, x, width, first sample,
#    length) are sprof's runs, which test/svg/chart-runs.awk finds in
#    `prof -t tables` of an R profile;
#  - in headless Chromium (test/svg/check.cjs) every picture renders, its
#    screenshot shows its boxes, the boxes read back from the page equal
#    the above, and hover, zoom, search and a reopened URL work.
# The SVG is read by test/svg/frames.awk (svg_frames). flamegraph.pl's own frames are
# compared by test/flamegraph-peers.sh, which CI's cross-check runs.

folded_frames() { # WIDTH MINWIDTH < FOLDED
	LC_ALL=C awk -f test/svg/escape.awk -f test/svg/folded-frames.awk -v phase=paths | LC_ALL=C sort -t "$(printf '\002')" -k1,1 |
		LC_ALL=C awk -f test/svg/escape.awk -f test/svg/folded-frames.awk -v phase=layout -v width="$1" -v minwidth="$2"
}
graph_is_folded() { # FILE WIDTH MINWIDTH [-s TYPE | --inverted]: only -s is folded's too
	file=$1 width=$2 minwidth=$3
	shift 3
	folded_options=
	[ "${1:-}" = -s ] && folded_options="-s $2"
	"$PROF" -q -t folded $folded_options "$file" | folded_frames "$width" "$minwidth" > "$TMP/want" &&
		"$PROF" -q -t flamegraph --width "$width" --minwidth "$minwidth" "$@" "$file" > "$TMP/g.svg" &&
		svg_frames "$TMP/g.svg" | cut -f 1-5 | cmp -s - "$TMP/want"
}
reversed_graph_is_folded() { # FILE: --reverse draws the folded stacks read leaf first
	"$PROF" -q -t folded "$1" | awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); s = f[k]
		for (i = k - 1; i > 0; i--) s = s ";" f[i]; print s " " n }' | folded_frames 1200 0.1 > "$TMP/want" &&
		"$PROF" -q -t flamegraph --reverse "$1" > "$TMP/g.svg" && svg_frames "$TMP/g.svg" | cut -f 1-5 | cmp -s - "$TMP/want"
}
# Frames per line, summed by depth and function, are the frames per function, summed.
by_depth_and_function() {
	cut -f 1-3 | LC_ALL=C awk -F'\t' '{ sub(/ ([^ ]*:|line )[0-9]+$/, "", $2); n[$1 "\t" $2] += $3 }
		END { for (k in n) printf "%s\t%.0f\n", k, n[k] }' | LC_ALL=C sort
}
lines_sum_to_functions() { # FILE
	"$PROF" -q -t flamegraph --minwidth 0 "$1" > "$TMP/f.svg" &&
		"$PROF" -q -t flamegraph --minwidth 0 --frames line "$1" > "$TMP/l.svg" &&
		grep -q '<title>[^<]* [^ <]*:[0-9][0-9]* (' "$TMP/l.svg" &&
		svg_frames "$TMP/f.svg" | by_depth_and_function > "$TMP/f" &&
		svg_frames "$TMP/l.svg" | by_depth_and_function | cmp -s - "$TMP/f"
}
chart_runs() { # RPROF_FILE SAMPLE_TYPE MINWIDTH
	"$PROF" -q -t tables "$1" | LC_ALL=C awk -f test/svg/chart-runs.awk -v width=1200 -v minwidth="$3" \
		-v cpu="$([ "$2" = cpu ] && echo 1 || echo 0)" \
		-v intervals="$(grep -o 'sample\.interval=[0-9]*' "$1" | cut -d= -f2 | tr '\n' ' ')"
}
chart_is_runs() { # RPROF_FILE SAMPLE_TYPE MINWIDTH
	chart_runs "$@" | LC_ALL=C sort > "$TMP/want" &&
		"$PROF" -q -t flamechart -s "$2" --minwidth "$3" "$1" > "$TMP/c.svg" &&
		svg_frames "$TMP/c.svg" | LC_ALL=C sort | cmp -s - "$TMP/want"
}
# Each box's title says its data-count (what flame.js sums) as a person
# reads it: a time or a size in units (units_awk's label, render/units.c's
# rule), else the count and its unit.
counts_carried() { # SVG UNIT
	grep '^<g[ >].*<title>' "$1" | sed -n 's/^<g data-count="\([^"]*\)".*<title>.* (\([^(]*\), [0-9.]*%.*/\1	\2/p' > "$TMP/carried" &&
		[ -s "$TMP/carried" ] && [ "$(wc -l < "$TMP/carried")" -eq "$(grep -c '^<g[ >].*<title>' "$1")" ] &&
		awk -F'\t' -v unit="$2" "$units_awk"'BEGIN { scaled = label(1, unit) != "1" }
			{ want = scaled ? label($1, unit) : $1; got = $2
			if (!scaled) { gsub(/,/, "", got); if (!sub(" " (unit == "count" ? "samples" : unit) "$", "", got)) bad = 1 }
			if (got != want) bad = 1 } END { exit bad }' "$TMP/carried"
}
frame_is() { # SVG DEPTH NAME COUNT: exactly one frame of this name at this depth, with this count
	[ "$(svg_frames "$1" | awk -F'\t' -v d="$2" -v n="$3" '$1 == d && $2 == n { print $3 }')" = "$4" ]
}
fill_of() { # SVG NAME: the fills of the boxes with this title name
	grep -F "<title>$2 (" "$1" | sed 's/.*fill="\([^"]*\)".*/\1/' | sort -u
}
same_hue() { # SVG NAME NAME: within 3 degrees (the fills are rounded to integers)
	[ "$(echo "$(hue_of "$(fill_of "$1" "$2")") $(hue_of "$(fill_of "$1" "$3")")" |
		awk '{ d = $1 - $2; if (d < 0) d = -d; print (d > 180 ? 360 - d : d) }')" -le 3 ]
}
other_hue() { ! same_hue "$@"; }
one_colour() { # SVG1 SVG2 NAME: the same single fill in both
	[ -n "$(fill_of "$1" "$3")" ] && [ "$(fill_of "$1" "$3" | wc -l)" -eq 1 ] &&
		[ "$(fill_of "$1" "$3")" = "$(fill_of "$2" "$3")" ]
}
grey_depths() { # SVG: the depths of the grey boxes, one line each
	svg_frames "$1" > "$TMP/all.tsv"
	grep -E '^<g[ >].*<title>' "$1" | grep -n 'fill="rgb(190,190,190)"' | cut -d: -f1 |
		while read -r n; do sed -n "${n}p" "$TMP/all.tsv" | cut -f 1; done
}
svg_has() { # SVG EXTENDED_REGEX
	grep -Eq -- "$2" "$1"
}
sorted_is() { # TSV WANT: the same lines in any order
	LC_ALL=C sort "$1" > "$TMP/sorted.a" && LC_ALL=C sort "$2" | cmp -s - "$TMP/sorted.a"
}
hue_of() { # rgb(R,G,B) -> hue in degrees
	echo "$1" | tr -c '0-9\n' ' ' | awk '{ r = $1; g = $2; b = $3; max = r; min = r
		if (g > max) max = g; if (b > max) max = b; if (g < min) min = g; if (b < min) min = b
		d = max - min; h = max == r ? (g - b) / d : max == g ? 2 + (b - r) / d : 4 + (r - g) / d
		printf "%.0f\n", (h * 60 + 360) % 360 }'
}

# Flame graphs: the frames of the folded stacks, at several widths and
# minimum widths, icicles and other sample types (under valgrind, the
# default of each only: `heavy`). (Names with ';' or a line
# break, which folded stacks change, are checked in Chromium below.)
for f in $(light_every 3 testdata/rprof/*.out testdata/rprof/*/*.out testdata/lispworks/*.tree testdata/pprof/go/go_cpu.pb.gz \
	 testdata/pprof/go/go_heap.pb.gz testdata/pprof/go/inline_labels.pb testdata/pprof/patterns/addresses.pb.gz); do
	"$PROF" -t folded "$f" 2>&1 > /dev/null | grep -q 'no escaping' && continue
	[ "$f" = testdata/lispworks/minimal.tree ] && continue
	check "flamegraph of $f = its folded stacks" graph_is_folded "$f" 1200 0.1
	heavy "flamegraph of $f, --minwidth 0" graph_is_folded "$f" 1200 0
	heavy "flamegraph of $f, --width 600 --minwidth 1 --inverted" graph_is_folded "$f" 600 1 --inverted
	heavy "flamegraph of $f, --minwidth 0.5%" graph_is_folded "$f" 1200 0.5%
done
check "flamegraph of an R profile's cpu time" graph_is_folded testdata/rprof/matrix-gc.out 1200 0.1 -s cpu
check "flamegraph of a heap profile's alloc_space" graph_is_folded testdata/pprof/go/go_heap.pb.gz 1200 0.1 -s alloc_space
for f in testdata/rprof/kmeans-default.out testdata/pprof/go/go_cpu.pb.gz; do
	check "flamegraph --reverse of $f" reversed_graph_is_folded "$f"
done
for f in testdata/rprof/boot-memory-gc-line.out testdata/rprof/optim-line.out testdata/pprof/go/go_cpu.pb.gz; do
	check "flamegraph --frames line of $f sums to its functions" lines_sum_to_functions "$f"
done
"$PROF" -q -t flamegraph --inverted testdata/rprof/kmeans-default.out > "$TMP/icicle.svg"
check "--inverted is an icicle" svg_has "$TMP/icicle.svg" '>Icicle Graph<'
check "... its root at the top" svg_has "$TMP/icicle.svg" '<title>all .*<rect x="10.0" y="60.0"'

# Where flamegraph.pl is wrong, prof is right: one frame per name
# (flamegraph.pl splits `as` around `as.environment`), a leaf ending in
# " NUMBER" is a name (not a second count), CRLF lines are read.
printf 'main;as;f 3\nmain;as 2\nmain;as.environment 4\n' > "$TMP/split.folded"
check "as and as.environment: frames of the folded stacks" graph_is_folded "$TMP/split.folded" 1200 0.1
"$PROF" -q -t flamegraph "$TMP/split.folded" > "$TMP/split.svg"
check "... one frame for as" frame_is "$TMP/split.svg" 2 as 5
check "... its callee right of its own time" svg_has "$TMP/split.svg" '<title>f \(3 samples, 33.33%\)</title><rect x="272.2"'
printf 'main;f 10 5\nmain;g 2\n' > "$TMP/number.folded"
"$PROF" -q -t flamegraph "$TMP/number.folded" > "$TMP/number.svg"
check "a leaf ending in a number is a name" frame_is "$TMP/number.svg" 2 "f 10" 5
printf 'main;a 3\r\nmain;b 2\r\n' > "$TMP/crlf.folded"
"$PROF" -q -t flamegraph "$TMP/crlf.folded" > "$TMP/crlf.svg"
check "CRLF lines are read" frame_is "$TMP/crlf.svg" 2 b 2
check "... and their counts" frame_is "$TMP/crlf.svg" 1 main 5
printf 'main;read_[k];x_[j] 3\nmain;a<b>&"c"\\d 2\n' > "$TMP/names.folded"
"$PROF" -q -t flamegraph "$TMP/names.folded" > "$TMP/names.svg"
check "perf's annotations are not shown" frame_is "$TMP/names.svg" 2 read 3
check "... as flamegraph.pl" frame_is "$TMP/names.svg" 3 x 3
check "markup in names is escaped" svg_has "$TMP/names.svg" '<title>a&lt;b&gt;&amp;&quot;c&quot;\\d \(2 samples'
# A sample with no frames counts in the root, as a line " N" would in flamegraph.pl.
"$PROF" -q -t flamegraph testdata/pprof/go/mixed_mappings.pb.gz > "$TMP/empty-stack.svg"
check "samples with an empty stack count in the root" frame_is "$TMP/empty-stack.svg" 0 all \
	"$("$PROF" -q -t tables testdata/pprof/go/mixed_mappings.pb.gz | awk -F'\t' '/^# samples/ { s = 1; getline; next } /^$/ { s = 0 } s { n += $NF } END { print n }')"

# Colours: a name's own, whatever the graph; hues by kind.
"$PROF" -q -t flamegraph testdata/rprof/boot-memory-gc-line.out > "$TMP/boot.svg"
"$PROF" -q -t flamegraph testdata/rprof/kmeans-default.out > "$TMP/kmeans.svg"
check "a name has one colour in every graph" one_colour "$TMP/boot.svg" "$TMP/kmeans.svg" lazyLoadDBfetch
printf 'main;stats::median;stats::sd;utils::head;runtime.main;runtime.gcBgMarkWorker;<GC> 3\nmain;[unknown] 1\n' > "$TMP/kinds.folded"
"$PROF" -q -t flamegraph "$TMP/kinds.folded" > "$TMP/kinds.svg"
check "R's packages have a hue each" same_hue "$TMP/kinds.svg" stats::median stats::sd
check "... and they differ" other_hue "$TMP/kinds.svg" stats::sd utils::head
check "Go's packages have a hue each" same_hue "$TMP/kinds.svg" runtime.main runtime.gcBgMarkWorker
check "<GC> has its own colour in every graph" one_colour "$TMP/kinds.svg" "$TMP/boot.svg" '&lt;GC&gt;'
check "nameless frames are grey" [ "$(fill_of "$TMP/kinds.svg" '[unknown]')" = 'rgb(190,190,190)' ]
"$PROF" -q -t flamegraph testdata/rprof/cut-lines.out > "$TMP/cut.svg"
# 16 samples cut short: 11 inside a name, named as R shows them, all
# outermost, grey but for the 3 whose name a whole function has too
# (`"optim_work`, `"optim_work"`, `"optim`); 5 after or inside the
# reference before a name, which make no frame.
check "frames R cut short are grey: 8 outermost boxes" [ "$(grey_depths "$TMP/cut.svg" | sort | uniq -c | awk '{ print $1, $2 }')" = "8 1" ]

printf 'main;a 1.25\nmain;b 1000.5\n' > "$TMP/fraction.folded"
"$PROF" -q -t flamegraph "$TMP/fraction.folded" > "$TMP/fraction.svg"
"$PROF" -q -t flamechart -s cpu testdata/rprof/kmeans-default.out > "$TMP/cpu-chart.svg"
for f in "$TMP/boot.svg" "$TMP/cut.svg" "$TMP/fraction.svg"; do
	check "$(basename "$f")'s boxes carry their titles' counts" counts_carried "$f" count
done
check "cpu-chart.svg's titles say its boxes' CPU time in units" counts_carried "$TMP/cpu-chart.svg" nanoseconds
"$PROF" -q -t flamegraph -s alloc_space testdata/pprof/go/go_heap.pb.gz > "$TMP/heap.svg"
check "heap.svg's titles say its boxes' bytes in units" counts_carried "$TMP/heap.svg" bytes

# docs/flamegraph.svg, README's picture (`make demo` makes it), is judged
# as any flame graph, not against an earlier output of prof: its frames
# are its profile's folded stacks laid out by flamegraph.pl's rules, its
# boxes carry their counts, and Chromium shows it (below).
"$PROF" -q -t folded testdata/rprof/boot-memory-gc-line.out | folded_frames 1200 0.1 > "$TMP/demo.want"
frames_are() { svg_frames "$1" | cut -f 1-5 | cmp -s - "$2"; }
check "docs/flamegraph.svg's frames are its profile's folded stacks" frames_are docs/flamegraph.svg "$TMP/demo.want"
check "docs/flamegraph.svg's boxes carry their titles' counts" counts_carried docs/flamegraph.svg count

# Flame charts: sprof's runs, every R profile, at three minimum widths.
for f in $(light_every 3 testdata/rprof/*.out testdata/rprof/*/*.out); do
	check "flamechart of $f = sprof's runs" chart_is_runs "$f" samples 0
	heavy "flamechart of $f in CPU time" chart_is_runs "$f" cpu 0.1
	heavy "flamechart of $f, narrow runs merged" chart_is_runs "$f" samples 30
done
check "flamechart of appended runs is to scale" chart_is_runs testdata/rprof/append-mixed.out cpu 0
"$PROF" -q -t flamechart testdata/pprof/go/go_cpu.pb.gz > "$TMP/go-chart.svg"
check "a chart says when its input has no time order" svg_has "$TMP/go-chart.svg" 'id="subtitle".*no time order'
"$PROF" -q -t flamechart testdata/rprof/kmeans-default.out > "$TMP/kmeans-chart.svg"
check "an R profile's chart is in time" svg_has "$TMP/kmeans-chart.svg" 'id="subtitle"[^>]*>[^<]*: in time, cpu<'
check "... on an axis in seconds" svg_has "$TMP/kmeans-chart.svg" '<g id="axis" data-ns="[1-9]'
"$PROF" -q -t flamechart -s samples testdata/rprof/kmeans-default.out > "$TMP/kmeans-samples.svg"
check "... in samples: in time order" svg_has "$TMP/kmeans-samples.svg" 'id="subtitle"[^>]*>[^<]*: in time order, samples<'
check "... no axis" sh -c '! grep -q "id=\"axis\"" "$1"' - "$TMP/kmeans-samples.svg"
check "an input without times has no axis" sh -c '! grep -q "id=\"axis\"" "$1"' - "$TMP/go-chart.svg"

# Bounded: output grows with what can be drawn, not with samples.
awk 'BEGIN { print "main;big 1000000"; for (i = 0; i < 100000; i++) print "main;small" i ";leaf 1"
	print "main;tail 100000" }' > "$TMP/tiny.folded"
"$PROF" -q -t flamegraph "$TMP/tiny.folded" > "$TMP/tiny.svg"
check "100000 sub-pixel stacks: 4 frames" [ "$(grep -c '^<g[ >].*<title>' "$TMP/tiny.svg")" -eq 4 ]
check "... the frames of the folded stacks, placed after the narrow ones" graph_is_folded "$TMP/tiny.folded" 1200 0.1
check "... a small file" [ "$(wc -c < "$TMP/tiny.svg")" -lt 20000 ]
"$PROF" -q -t flamechart "$TMP/tiny.folded" > "$TMP/tiny-chart.svg"
check "... in a chart, one '...' box for their runs" svg_has "$TMP/tiny-chart.svg" \
	'class="elided" data-first="2" data-len="100000" data-runs="100000"><title>\.\.\. \(100,000 samples'
check "... a small file" [ "$(wc -c < "$TMP/tiny-chart.svg")" -lt 20000 ]

# Refusals and the command line.
check "a negative value cannot be drawn, and it says so" \
	says 1 "has cpu -[0-9]*: a flame graph cannot hold a negative value" \
	"$PROF" -t flamegraph testdata/pprof/go/wire_unpacked.pb
check "an empty profile cannot be drawn, and it says so" says 1 "no samples: nothing to draw" \
	"$PROF" -t flamechart testdata/lispworks/minimal.tree
check "--width out of range" status_is 2 "$PROF" -t flamegraph --width 50 testdata/rprof/kmeans-default.out
check "--minwidth not a number" status_is 2 "$PROF" -t flamegraph --minwidth 1px testdata/rprof/kmeans-default.out
check "--minwidth past 100%" status_is 2 "$PROF" -t flamegraph --minwidth 101% testdata/rprof/kmeans-default.out
check "--frames takes function or line" status_is 2 "$PROF" -t flamegraph --frames file testdata/rprof/kmeans-default.out
check "-o x.svg is a flame graph" status_is 0 "$PROF" -o "$TMP/x.svg" testdata/rprof/kmeans-default.out
check "... titled so" grep -q '>Flame Graph<' "$TMP/x.svg"
check "-o x.chart.svg is a flame chart" status_is 0 "$PROF" -o "$TMP/x.chart.svg" testdata/rprof/kmeans-default.out
check "... titled so" grep -q '>Flame Chart<' "$TMP/x.chart.svg"
check "--title, escaped" prints 0 '>R &amp; me<' \
	"$PROF" -t flamegraph --title 'R & me' testdata/rprof/kmeans-default.out

# In Chromium: each picture renders, shows its boxes, and reads back as above.
install_browser_tools
mkdir -p "$TMP/svg"
"$PROF" -q -t flamegraph -o "$TMP/svg/kmeans.svg" testdata/rprof/kmeans-default.out
"$PROF" -q -t flamegraph --inverted --width 800 -o "$TMP/svg/boot-icicle.svg" testdata/rprof/boot-memory-gc-line.out
"$PROF" -q -t flamegraph -o "$TMP/svg/go-cpu.svg" testdata/pprof/go/go_cpu.pb.gz
"$PROF" -q -t flamegraph -o "$TMP/svg/names-gc.svg" testdata/rprof/names-gc.out
cp "$TMP/names.svg" "$TMP/svg/markup.svg"
cp docs/flamegraph.svg "$TMP/svg/demo.svg"
"$PROF" -q --diff-base testdata/rprof/deep-truncated.out -t flamegraph -o "$TMP/svg/kmeans-diff.svg" \
	testdata/rprof/kmeans-default.out
"$PROF" -q -t flamechart -o "$TMP/svg/kmeans-chart.svg" testdata/rprof/kmeans-default.out
"$PROF" -q -t flamechart -o "$TMP/svg/append-chart.svg" testdata/rprof/append-mixed.out
"$PROF" -q -t flamechart --minwidth 30 -s samples -o "$TMP/svg/optim-chart.svg" testdata/rprof/optim-line.out
"$PROF" -q -t flamechart -o "$TMP/svg/go-cpu-chart.svg" testdata/pprof/go/go_cpu.pb.gz
chromium_shows_each frames "$TMP/svg" ""
# A picture whose script never reads its boxes fails by name within the
# browser checks' limit (lowered here to 2 s), and the next is still judged.
mkdir -p "$TMP/limit"
echo '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>let boxes;</script></svg>' > "$TMP/limit/never.svg"
cp "$TMP/svg/kmeans.svg" "$TMP/limit/kmeans.svg"
picture_fails_within_limit() {
	BROWSER_PAGE_LIMIT_MS=5000 NODE_PATH="$SPEEDSCOPE/node_modules" timeout 60 \
		node test/svg/check.cjs frames "$TMP/limit" "$TMP/limit/never.svg" "$TMP/limit/kmeans.svg" > "$TMP/limit.out" 2>&1
	grep -qx 'never FAIL Error: never: no answer within 5 s' "$TMP/limit.out" && grep -qx 'kmeans ok' "$TMP/limit.out"
}
needs_browser check "a picture never read fails within the browser checks' limit" picture_fails_within_limit
dom_is() { # NAME EXPECTED_TSV COLUMNS: the boxes read from the page
	cut -f "$3" "$TMP/svg/$1.tsv" | cmp -s - "$2"
}
"$PROF" -q -t folded testdata/rprof/kmeans-default.out | folded_frames 1200 0.1 > "$TMP/kmeans.want"
needs_browser check "the page's frames of kmeans.svg = its folded stacks" dom_is kmeans "$TMP/kmeans.want" 1-5
needs_browser check "a difference's boxes are the profile's own, sized by it" dom_is kmeans-diff "$TMP/kmeans.want" 1-5
needs_browser check "the page's frames of docs/flamegraph.svg = its folded stacks" dom_is demo "$TMP/demo.want" 1-5
"$PROF" -q -t folded testdata/rprof/boot-memory-gc-line.out | folded_frames 800 0.1 > "$TMP/boot.want"
needs_browser check "the page's frames of an icicle = its folded stacks" dom_is boot-icicle "$TMP/boot.want" 1-5
"$PROF" -q -t folded testdata/pprof/go/go_cpu.pb.gz | folded_frames 1200 0.1 > "$TMP/go.want"
needs_browser check "the page's frames of go-cpu.svg = its folded stacks" dom_is go-cpu "$TMP/go.want" 1-5
for name in names-gc markup go-cpu-chart; do
	svg_frames "$TMP/svg/$name.svg" > "$TMP/$name.want"
	needs_browser check "the page reads $name.svg's names and boxes as written" dom_is "$name" "$TMP/$name.want" 1-7
done
chart_runs testdata/rprof/kmeans-default.out cpu 0.1 > "$TMP/kc.want"
needs_browser check "the page's boxes of kmeans-chart.svg = sprof's runs" sorted_is "$TMP/svg/kmeans-chart.tsv" "$TMP/kc.want"
chart_runs testdata/rprof/append-mixed.out cpu 0.1 > "$TMP/ac.want"
needs_browser check "the page's boxes of append-chart.svg = sprof's runs, to scale" sorted_is "$TMP/svg/append-chart.tsv" "$TMP/ac.want"
chart_runs testdata/rprof/optim-line.out samples 30 > "$TMP/oc.want"
needs_browser check "the page's boxes of optim-chart.svg = sprof's runs, narrow ones merged" sorted_is "$TMP/svg/optim-chart.tsv" "$TMP/oc.want"

# Hover, zoom, search (each matched subtree counted once) and the URL, in Chromium.
matched() { # REGEX < FOLDED: the share of the samples whose stack has a match
	awk -v re="$1" '{ n = $NF; sub(/ [0-9]+$/, ""); t += n; k = split($0, f, ";")
		for (i = 1; i <= k; i++) if (f[i] ~ re) { m += n; break } }
		END { if (m == t) print "Matched: 100%"; else printf "Matched: %.2f%%\n", 100 * m / t }'
}
interacts() { # SVG REGEX FOLDED
	NODE_PATH="$SPEEDSCOPE/node_modules" node test/svg/check.cjs interact "$1" "$2" "$(matched "$2" < "$3")" > "$TMP/interact.out" 2>&1
	while read -r status what; do
		[ "$status" = ok ] && pass || fail "$1: $what"
	done < "$TMP/interact.out"
	grep -q '^ok no script errors' "$TMP/interact.out" || fail "$1: $(tail -n 3 "$TMP/interact.out")"
}
"$PROF" -q -t folded testdata/rprof/kmeans-default.out > "$TMP/kmeans.folded"
"$PROF" -q -t flamegraph --minwidth 0 -o "$TMP/svg/kmeans0.svg" testdata/rprof/kmeans-default.out
needs_browser interacts "$TMP/svg/kmeans0.svg" 'cmp' "$TMP/kmeans.folded"
"$PROF" -q -t flamechart --minwidth 0 -o "$TMP/svg/kmeans0-chart.svg" testdata/rprof/kmeans-default.out
needs_browser interacts "$TMP/svg/kmeans0-chart.svg" '^(cmp|genCode)$' "$TMP/kmeans.folded"
"$PROF" -q -t folded testdata/rprof/deep-truncated.out > "$TMP/deep.folded"
"$PROF" -q -t flamegraph --minwidth 0 -o "$TMP/svg/deep0.svg" testdata/rprof/deep-truncated.out
needs_browser interacts "$TMP/svg/deep0.svg" 'deep|burn' "$TMP/deep.folded"

# Flame charts in time, on real recordings (test/make-chart-recordings.sh):
# a JFR of six busy threads and main, perf of four threads, node's one,
# and the speedscope app's export of that perf recording, a profile per
# thread (test/make-speedscope-samples.sh). In
# Chromium, the axis's seconds (read off its tick labels and places) are
# the recording's, first sample to last, as the profiler's own tools give
# it in NAME.lanes (the last sample lasts at most twice the usual gap, and
# 2% for reading ticks to 0.1 px); a click zooms the axis to the box's
# time, as its title says it (to 1%); each lane is a thread, the busiest
# first, its root's samples and the sum of its depth-1 boxes' samples both
# the thread's.
lanes_are() { # NAME: $TMP/lanes/NAME.lanes against testdata/chart/NAME.lanes
	page=$TMP/lanes/$(echo "$1" | tr . -).lanes want=testdata/chart/$1.lanes
	[ -s "$page" ] || return 1
	awk -v want="$(awk '$1 == "seconds" { print $2 }' "$want")" \
		'$1 == "axis" { ok = $2 >= want - 0.001 && $2 <= want * 1.02 + 0.05 }
		$1 == "zoom" { d = $2 - $3; zoom = $2 > 0 && (d < 0 ? -d : d) <= 0.01 * $2 } END { exit !(ok && zoom) }' "$page" || return 1
	sed -n 's/^lane //p' "$page" | awk -F'\t' '{ name = $1; sub(/: [0-9.]+%$/, "", name); sub(/^.* tid /, "", name)
		if ($2 != $3 || (NR > 1 && $2 > last)) bad = 1; last = $2; print name " " $2 } END { exit bad }' > "$TMP/lanes.page" &&
		sed -n 's/^thread //p' "$want" | sorted_is "$TMP/lanes.page" -
}
mkdir -p "$TMP/lanes"
for f in threads.jfr threads.perf busy.cpuprofile threads.speedscope.json; do
	"$PROF" -q -t flamechart --minwidth 0 -o "$TMP/lanes/$(echo "$f" | tr . -).svg" "testdata/chart/$f"
done
check "a JFR's chart is in time, a lane per thread" svg_has "$TMP/lanes/threads-jfr.svg" 'id="subtitle"[^>]*>threads.jfr: in time, a lane per thread \(8 threads\)'
check "... each lane labelled with its thread and share" svg_has "$TMP/lanes/threads-jfr.svg" '<text [^>]*>worker-6: [0-9.]+%</text>'
check "... a box's title says how long it ran" svg_has "$TMP/lanes/threads-jfr.svg" '<title>Lanes.hash \([0-9]+ samples, [0-9.]+%, [0-9.]+m?s\)'
check "a speedscope file of a profile per thread: in time, a lane per thread" svg_has "$TMP/lanes/threads-speedscope-json.svg" \
	'id="subtitle"[^>]*>threads.speedscope.json: in time, a lane per thread \(4 threads\)'
# Past 8 threads, the 7 busiest keep a lane each and the rest share one:
# 11 threads of perf script text, thread 100+K sampled 2K times.
awk 'BEGIN { for (s = 0; s < 22; s++) for (k = 1; k <= 11; k++) if (s < 2 * k)
	printf "w %d 1.%06d: 1 cpu-clock:\n\t    1000 f+0x1 (bin)\n\t    2000 main+0x1 (bin)\n\n", 100 + k, s * 1000 + k * 10 }' > "$TMP/eleven.perf"
"$PROF" -q -t flamechart "$TMP/eleven.perf" > "$TMP/eleven.svg"
lane_roots() { # SVG: per lane, its root's samples and name
	sed -n 's/.* data-len="\([0-9]*\)" data-lane="[0-9]*"><title>\([^<]*\): [0-9.]*% (.*/\1 \2/p' "$1"
}
check "11 threads: 8 lanes, the 4 least busy in one" [ "$(lane_roots "$TMP/eleven.svg" | tr '\n' ,)" = \
	"$(awk '/^w / { n[$2]++ } END { for (t = 111; t > 104; t--) printf "%d w tid %d,", n[t], t; print n[101] + n[102] + n[103] + n[104] " 4 other threads," }' "$TMP/eleven.perf")" ]
if [ "$browser_tools" = installed ]; then
	NODE_PATH="$SPEEDSCOPE/node_modules" node test/svg/check.cjs lanes "$TMP/lanes" "$TMP/lanes"/*.svg > "$TMP/lanes.out" 2>&1
	for f in threads.jfr threads.perf busy.cpuprofile threads.speedscope.json; do
		check "Chromium shows the chart of $f" grep -qx "$(echo "$f" | tr . -) ok" "$TMP/lanes.out"
		check "... $f: its axis is the recording's seconds (a zoom's its box's), its lanes its threads' samples" lanes_are "$f"
	done
else
	skipped=$((skipped + 8))
fi
