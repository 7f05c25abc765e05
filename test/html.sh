# The HTML report (-t html), sourced by test/run.sh (uses check, heavy,
# PROF, TMP, and test/lib.sh's browser tools). The page is judged as a
# person uses it, in headless Chromium opened from disk (test/html/check.cjs),
# and its numbers against prof's other outputs, read off the page:
#  - every test input prof writes a summary of gives a page, without a
#    message; each page opens, shows each of its views, and the console
#    shows no error or warning;
#  - on an R line profile, a Go heap profile of four sample types and a
#    timed V8 profile: each view's screenshot is not blank; Top, for every
#    sample type, is `-t summary -s TYPE`'s table (flat, flat%, cum, cum%);
#    the call tree opened whole is `-t folded`'s stacks summed by path
#    (self: stacks that end there), bottom-up the same of the stacks read
#    leaf first; sorting, filtering, the type switch, a click on a
#    function (its callers as awk sums them from the folded stacks, each
#    stack once), following a caller, the flame graph searched for the
#    selection, and the page's URL reopening the same view;
#  - docs/report.html, README's page, is judged as the R profile's page is.

install_browser_tools
html_dir=$TMP/html
mkdir -p "$html_dir/pages"

# -s TYPE's summary as the page's Top reads: flat, flat%, cum, cum%, name.
summary_top() { # FILE TYPE
	"$PROF" -q -t summary -s "$2" "$1" |
		awk '/^by self:/ { on = 1; getline; next } /^$/ { on = 0 } on { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" substr($0, 48) }' |
		LC_ALL=C sort
}
top_is_summary() { # FILE OUTDIR TYPE
	summary_top "$1" "$3" > "$TMP/want" && [ -s "$TMP/want" ] &&
		LC_ALL=C sort "$2/top.$3.tsv" | cmp -s - "$TMP/want"
}
# Paths from the root (names joined by a tab), each with its self and total, from folded stacks (in UNIT).
folded_paths() { # [leaf first [UNIT]]
	awk -v reverse="${1:-0}" -v unit="${2:-count}" "$units_awk"'{ n = $NF; sub(/ [^ ]+$/, ""); k = split($0, f, ";")
		if (reverse) for (i = 1; i <= k / 2; i++) { t = f[i]; f[i] = f[k + 1 - i]; f[k + 1 - i] = t }
		p = ""; for (i = 1; i <= k; i++) { p = p "\t" f[i]; total[p] += n } self[p] += n; all += n }
		END { print "\t" 0 "\t" label(all, unit)
			for (p in total) if (total[p] != 0) print p "\t" label(self[p] + 0, unit) "\t" label(total[p], unit) }' | LC_ALL=C sort
}
default_unit() { # FILE: the unit of the type the page opens on
	"$PROF" -q -t summary "$1" | sed -n 's/^sample type: .* (\(.*\))$/\1/p'
}
# The tree as the page shows it (depth, self, total, name): the same paths.
tree_paths() { # TSV
	awk -F'\t' '{ d = $1; path[d] = $4; p = ""; for (i = 1; i <= d; i++) p = p "\t" path[i]
		print p "\t" $2 "\t" $3 }' "$1" | LC_ALL=C sort
}
tree_is_folded() { # FILE OUTDIR
	"$PROF" -q -t folded "$1" | folded_paths 0 "$(default_unit "$1")" > "$TMP/want" &&
		tree_paths "$2/tree.tsv" | cmp -s - "$TMP/want"
}
# Bottom-up shows total only: a path's stacks read leaf first.
bottom_is_folded() { # FILE OUTDIR
	"$PROF" -q -t folded "$1" | folded_paths 1 "$(default_unit "$1")" | cut -f 1-1000 | awk -F'\t' -v OFS='\t' '{ $(NF - 1) = ""; print }' > "$TMP/want" &&
		tree_paths "$2/bottom.tsv" | awk -F'\t' -v OFS='\t' '{ $(NF - 1) = ""; print }' | cmp -s - "$TMP/want"
}
# Each caller of FUNCTION, with the stacks' counts it calls it in, each stack once.
folded_callers() { # FUNCTION UNIT
	awk -v fn="$1" -v unit="$2" "$units_awk"'{ n = $NF; sub(/ [^ ]+$/, ""); k = split($0, f, ";"); delete seen
		for (i = 2; i <= k; i++) if (f[i] == fn && !seen[f[i - 1]]++) w[f[i - 1]] += n }
		END { for (c in w) print c "\t" label(w[c], unit) }' | LC_ALL=C sort
}
callers_are_folded() { # FILE OUTDIR FUNCTION
	"$PROF" -q -t folded "$1" | folded_callers "$3" "$(default_unit "$1")" > "$TMP/want" && [ -s "$TMP/want" ] &&
		LC_ALL=C sort "$2/callers.tsv" | cmp -s - "$TMP/want"
}
said() { grep -qx "ok $2" "$1"; }

# Every test input: a page, and nothing said. Under valgrind (LIGHT), the
# first input of each directory, so that the writer meets every reader's
# model at a tenth of the cost; the browser then opens nothing.
html_inputs() {
	find testdata -type f ! -path 'testdata/invalid/*' | LC_ALL=C sort |
		if [ -n "${LIGHT:-}" ]; then awk '{ d = $0; sub(/\/[^\/]*$/, "", d) } !seen[d]++'; else cat; fi
}
: > "$TMP/html-pages"
while read -r f; do
	"$PROF" -q -t summary "$f" > /dev/null 2>&1 || continue
	page=$html_dir/pages/$(echo "$f" | tr '/' '_').html
	check "-t html of $f writes a page, saying nothing" says_nothing "$PROF" -q -o "$page" "$f" &&
		echo "$page" >> "$TMP/html-pages"
done <<EOF
$(html_inputs)
EOF

if [ "$browser_tools" = installed ] && [ -s "$TMP/html-pages" ] && [ -z "${LIGHT:-}" ]; then
	# shellcheck disable=SC2046
	NODE_PATH="$SPEEDSCOPE/node_modules" node test/html/check.cjs open $(cat "$TMP/html-pages") > "$html_dir/open.out" 2>&1
	while read -r page; do
		name=$(basename "$page" .html)
		heavy "Chromium opens $name.html and each of its views, the console quiet" grep -qx "$name ok" "$html_dir/open.out"
	done < "$TMP/html-pages"
	grep FAIL "$html_dir/open.out"
else
	while read -r page; do skipped=$((skipped + 1)); done < "$TMP/html-pages"
fi

# Every page a browser check opens has a limit (test/speedscope/chromium.cjs,
# lowered here to 2 s): a page whose view is never drawn fails by name
# within it, and the next page is still judged. timeout(1) only keeps a
# hang from holding up the suite.
cat > "$TMP/never.html" <<'EOF'
<!DOCTYPE html><body data-ready="1"><div id="tabs"><button onclick="document.body.dataset.ready = 0">x</button></div></body>
EOF
cat > "$TMP/drawn.html" <<'EOF'
<!DOCTYPE html><body data-ready="1"><div id="tabs"><button>x</button></div></body>
EOF
page_fails_within_limit() {
	BROWSER_PAGE_LIMIT_MS=2000 NODE_PATH="$SPEEDSCOPE/node_modules" timeout 60 \
		node test/html/check.cjs open "$TMP/never.html" "$TMP/drawn.html" > "$TMP/limit.out" 2>&1
	grep -qx 'never FAIL Error: never: no answer within 2 s' "$TMP/limit.out" && grep -qx 'drawn ok' "$TMP/limit.out"
}
needs_browser check "a page never drawn fails within the browser checks' limit" page_fails_within_limit

# The views and their numbers, on three inputs.
html_views() { # FILE NAME VIEW...: screenshots and numbers into $html_dir/NAME
	mkdir -p "$html_dir/$2"
	[ "$browser_tools" = missing ] || "$PROF" -q -o "$html_dir/$2/page.html" "$1"
	page_views "$@"
}
page_views() { # FILE NAME VIEW...: as html_views, of the page $html_dir/NAME/page.html, made of FILE
	out=$html_dir/$2
	[ "$browser_tools" != installed ] ||
		NODE_PATH="$SPEEDSCOPE/node_modules" node test/html/check.cjs views "$out" "$out/page.html" > "$out/views.out" 2>&1
	file=$1
	shift 2
	for view in "$@"; do
		needs_browser heavy "Chromium shows $file's $view, not blank" said "$out/views.out" "$view"
	done
	needs_browser heavy "Chromium's console is quiet on $file" said "$out/views.out" console
}
# The R line profile's page, and any other page of it: Top for each of
# its types is -t summary's, its call trees are -t folded's stacks.
r_page_is_prof() { # PAGE-NAME OUTDIR
	for type in samples cpu alloc; do
		needs_browser heavy "$1's Top ($type) is -t summary's of $r" top_is_summary "$r" "$2" "$type"
	done
	needs_browser heavy "$1's call tree is -t folded's stacks of $r" tree_is_folded "$r" "$2"
	needs_browser heavy "$1's bottom-up tree is -t folded's stacks of $r read leaf first" bottom_is_folded "$r" "$2"
}
r=testdata/rprof/boot-memory-gc-line.out
html_views "$r" r top flame chart tree bottom lines sprof
r_page_is_prof "the page" "$html_dir/r"
needs_browser heavy "the page's lines of $r are R's line numbers" grep -q '^workloads-shared.R	64	' "$html_dir/r/lines.tsv"

needs_browser heavy "the page of $r shows -t summary's header" sh -c \
	'"$1" -q -t summary "$2" | sed -n "/^\$/q; s/^\([^:]*\): *\(.*\)/\1\n\2/p" | cmp -s - "$3"' sh "$PROF" "$r" "$html_dir/r/header.txt"

bad=testdata/folded/bad-lines.folded
html_views "$bad" bad top
needs_browser heavy "the page of $bad shows the reader's warnings" sh -c \
	'grep -qx "3 warnings" "$1" && grep -q "^$2:3: not .*THIS IS A BAD LINE" "$1"' sh "$html_dir/bad/header.txt" "$bad"

go=testdata/pprof/go/go_heap.pb.gz
html_views "$go" go top flame tree bottom lines
for type in alloc_objects alloc_space inuse_objects inuse_space; do
	needs_browser heavy "the page's Top of $go ($type) is -t summary's" top_is_summary "$go" "$html_dir/go" "$type"
done
needs_browser heavy "the page's call tree of $go is -t folded's stacks" tree_is_folded "$go" "$html_dir/go"

v8=testdata/cpuprofile/default.cpuprofile
html_views "$v8" v8 top flame chart tree bottom lines
needs_browser heavy "the page's call tree of $v8 is -t folded's stacks" tree_is_folded "$v8" "$html_dir/v8"

for case in "r $r mean ^sort" "go $go main.allocBig main[.]alloc"; do
	set -- $case
	out=$html_dir/$1-interact
	mkdir -p "$out"
	[ "$browser_tools" != installed ] ||
		NODE_PATH="$SPEEDSCOPE/node_modules" node test/html/check.cjs interact "$out" "$html_dir/$1/page.html" "$3" "$4" \
			> "$out.out" 2>&1
	for what in "sort by cum" "sort by cum ascending" "sort by flat" "sort by flat ascending" \
		"sort by name ascending" "sort by name" "peek of $3" "the URL reopens the view" console \
		"tree opens on $3" "flame graph searches $3" "follow caller" "filter $4"; do
		needs_browser heavy "in Chromium, $2's page: $what" grep -qF "ok $what" "$out.out"
	done
	needs_browser heavy "in Chromium, $2's page: the callers of $3 are -t folded's" callers_are_folded "$2" "$out" "$3"
	[ "$browser_tools" != installed ] || grep FAIL "$out.out"
done
needs_browser heavy "in Chromium, $go's page: the sample type switches Top" grep -q "^ok type switch changes Top" "$html_dir/go-interact.out"

# Numbers in units and pprof's percentages: the page of a focused Go
# profile and of a difference, read in Chromium (header and Top), are go
# tool pprof -top's of the same case (test/python/summary_is_top.py):
# percentages of the whole profile, and of the base's total.
page_as_summary() { # OUTDIR TYPE: the page's header and Top as -t summary writes them
	awk 'NR % 2 { label = $0; next } { print label ": " $0 }' "$1/header.txt"
	printf '\nby self:\n          self   self%%         total  total%%  function\n'
	awk -F'\t' '{ print $1 " " $2 " " $3 " " $4 "  " $5 }' "$1/top.$2.tsv"
}
page_is_top() { # OUTDIR PPROF FLAGS...: the page of the case, in Chromium, is go tool pprof -top's
	out=$1 input=$2; shift 2
	# shellcheck disable=SC2046 # the flags split at spaces; no pattern holds one
	go tool pprof -symbolize=none -top -nodecount=100000 -nodefraction=0 -edgefraction=0 $(go_flags "$@") \
		"$input" > "$out/top.txt" 2> /dev/null &&
		page_as_summary "$out" "$(sed -n 's/^Type: //p' "$out/top.txt")" > "$out/page-summary.txt" &&
		python3 test/python/summary_is_top.py "$out/page-summary.txt" "$out/top.txt"
}
go_flags() { # prof's flags "--a X" as Go's "-a=X"
	while [ $# -gt 0 ]; do printf ' -%s=%s' "$(printf '%s' "${1#--}" | tr '-' '_')" "$2"; shift 2; done
}
"$PROF" -q --focus 'main\.fib' -t pprof testdata/pprof/go/go_cpu.pb.gz > "$TMP/fib.pb.gz"
for case in "focus --focus main\.fib" "ignore --ignore main\.fib" "diff --diff-base $TMP/fib.pb.gz"; do
	set -- $case
	units_dir=$html_dir/units-$1; shift
	mkdir -p "$units_dir"
	check "-t html of go_cpu.pb.gz $* writes a page, saying nothing" \
		says_nothing "$PROF" -q "$@" -o "$units_dir/page.html" testdata/pprof/go/go_cpu.pb.gz
	page_views testdata/pprof/go/go_cpu.pb.gz "${units_dir##*/}" top
	needs_browser heavy "the page of go_cpu.pb.gz $* in Chromium: units and percentages as go tool pprof -top" \
		page_is_top "$units_dir" testdata/pprof/go/go_cpu.pb.gz "$@"
done
needs_browser heavy "the page of a difference, in Chromium, says it is one: A minus B" \
	grep -qx 'go_cpu.pb.gz minus fib.pb.gz (--diff-base)' "$html_dir/units-diff/header.txt"

# docs/report.html, README's page (`make demo` makes it of $r), is judged
# as the pages above are, not against an earlier output of prof: its views
# drawn, Top for every type -t summary's, its call trees -t folded's.
mkdir -p "$html_dir/demo"
cp docs/report.html "$html_dir/demo/page.html"
page_views "$r" demo top flame chart tree bottom lines sprof
r_page_is_prof docs/report.html "$html_dir/demo"
