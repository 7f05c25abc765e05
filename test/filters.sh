# The filters (--focus ... --samples), sourced by test/run.sh (uses
# test/lib.sh, PROF, TMP, BUILD).
#
# The pattern filters are judged by go tool pprof: for each pprof and R
# input in testdata and each case below, `prof FLAGS -t pprof IN` holds the same samples (stacks, labels and
# summed values, by test/go/stacks.go) as `go tool pprof FLAGS -proto` of IN
# as pprof. The patterns are names from each profile itself: its first and
# third (or second, or first) function by self time. R inputs go to Go through prof's own pprof.
# The summary's values (in units) and percentages are go tool pprof -top's,
# under each filter (of the whole profile) and --diff-base (of the base).
build_stacks() {
	STACKS=$BUILD/stacks
	GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= go build -o "$STACKS" test/go/stacks.go > "$TMP/go.err" 2>&1 ||
		fail "building test/go/stacks.go: $(head -c 300 "$TMP/go.err")"
}

# A function name as a pattern that matches it literally (in ERE and RE2 alike).
quoted_name() { sed 's/[][\\.*^$(){}+?|]/\\&/g'; }
self_name() { # FILE N: the Nth function of the summary's by-self table (of type 0 when the default has none)
	by_self_name "$1" "$2" || by_self_name "$1" "$2" -s 0
}
by_self_name() { # FILE N [OPTIONS]: fails when the table has no Nth row
	file=$1 n=$2; shift 2
	"$PROF" -q "$@" -t summary "$file" > "$TMP/by-self.txt" || return 1
	awk -v n="$n" '/^by self:/ { rows = 1; getline; next }
		rows && /^$/ { rows = 0 } rows && ++i == n { name = $5 } END { if (name == "") exit 1; print name }' "$TMP/by-self.txt" |
		quoted_name | grep -a .
}

# prof's flags "--a X --b Y" as Go's "-a=X -b=Y" (dashes in names to underscores).
go_flags() {
	while [ $# -gt 0 ]; do
		printf ' -%s=%s' "$(printf '%s' "${1#--}" | tr '-' '_')" "$2"
		shift 2
	done
}
# go tool pprof leaves out samples whose values are all zero and samples
# with no frame, filtered or not (its driver always runs FilterSamplesByName).
nonzero() { grep -av -e '^\[0\( 0\)*\]' -e '^\[[-0-9 ]*\]'"$(printf '\t\t')"; [ $? -le 1 ]; }
# An R profile's third type (alloc) is the growth of R's memory counters from
# one sample to the next: prof counts it anew between the samples a filter
# keeps, as summaryRprof does on the filtered file; Go keeps each sample's.
first_two_types() { sed 's/^\[\([0-9]*\) \([0-9]*\) [0-9]*\]/[\1 \2]/' | LC_ALL=C sort; }
filters_as_go_does() { # PPROF FLAGS...: the same samples from prof and from go tool pprof
	filtered_input=$1; shift
	values=cat
	case $filtered_input in *.out.pb.gz) values=first_two_types ;; esac
	set -f # the patterns' brackets and stars are no file names
	# shellcheck disable=SC2046 # the flags split at spaces; no pattern holds one
	go tool pprof -symbolize=none $(go_flags "$@") -proto "$filtered_input" > "$TMP/filtered.go.pb" 2> /dev/null
	went=$?
	set +f
	[ $went -eq 0 ] && "$PROF" -q "$@" -t pprof "$filtered_input" > "$TMP/filtered.prof.pb" &&
		"$STACKS" "$TMP/filtered.go.pb" | $values > "$TMP/go.stacks" &&
		"$STACKS" "$TMP/filtered.prof.pb" | nonzero | $values > "$TMP/prof.stacks" &&
		cmp -s "$TMP/go.stacks" "$TMP/prof.stacks"
}

go_top() { # PPROF FLAGS...: go tool pprof -top of the case, every function, in $TMP/top.txt
	input=$1; shift
	set -f
	# shellcheck disable=SC2046 # the flags split at spaces; no pattern holds one
	go tool pprof -symbolize=none -top -nodecount=100000 -nodefraction=0 -edgefraction=0 $(go_flags "$@") \
		"$input" > "$TMP/top.txt" 2> /dev/null
	went=$?
	set +f
	return $went
}
summary_is_top() { # PPROF FLAGS...: the summary's functions, values and percentages are go tool pprof -top's
	input=$1; shift
	go_top "$input" "$@" || return 1
	# Go's default type for a pprof made from R's profile is not prof's (R's ticks): Go's it is.
	type=$(sed -n 's/^Type: //p' "$TMP/top.txt")
	"$PROF" -q "$@" -s "$type" -t summary "$input" > "$TMP/summary.txt" &&
		python3 test/python/summary_is_top.py "$TMP/summary.txt" "$TMP/top.txt"
}
summary_case() { # NAME PPROF FLAGS...: a check when Go's -top has values in units or a whole the flags narrowed
	name=$1; shift
	if go_top "$@" && python3 test/python/summary_is_top.py --tells "$TMP/top.txt"; then
		heavy "$name" summary_is_top "$@"
	fi
}
summary_cases() { # PPROF SOURCE: with no filter, and each filter that removes samples, by the third name
	third=$(self_name "$2" 3)
	[ -n "$third" ] || third=$(self_name "$2" 1)
	summary_case "summary of $2 in units and percentages as go tool pprof -top" "$1"
	for flag in --focus --ignore --show; do
		summary_case "summary $flag $third of $2: percentages of the whole, as go tool pprof -top" "$1" "$flag" "$third"
	done
}

filter_cases() { # PPROF SOURCE: every flag alone with the first name, and two pairs
	first=$(self_name "$2" 1) third=$(self_name "$2" 3)
	[ -n "$third" ] || third=$(self_name "$2" 2)
	[ -n "$third" ] || third=$first
	[ -n "$first" ] && [ -n "$third" ] || { fail "no names to filter by in $2"; return; }
	for flag in --focus --ignore --hide --show --show-from --prune-from; do
		heavy "$flag $first on $2 as go tool pprof" filters_as_go_does "$1" "$flag" "$first"
	done
	heavy "--focus $third --hide $first on $2 as go tool pprof" \
		filters_as_go_does "$1" --focus "$third" --hide "$first"
	heavy "--ignore $third --show-from $first on $2 as go tool pprof" \
		filters_as_go_does "$1" --ignore "$third" --show-from "$first"
	summary_cases "$1" "$2"
}

if [ -z "${LIGHT:-}" ]; then
	build_stacks
	for f in testdata/pprof/go/*.pb* testdata/pprof/patterns/*.pb.gz; do
		case $f in *.txt) continue ;; esac
		filter_cases "$f" "$f"
	done
	for f in testdata/rprof/*.out; do
		"$PROF" -q -t pprof "$f" > "$TMP/r.out.pb.gz"
		filter_cases "$TMP/r.out.pb.gz" "$f"
	done
fi

# The flame pictures' percentages are the summary's: of the whole profile
# under each filter, as go tool pprof's. The root box's title says the
# total drawn, in units, and its share of the whole: go tool pprof -top's
# "Showing nodes accounting for X, P% of T total" (X within what the two
# printed forms round away, P% the same text).
root_is_tops() { # PICTURE PPROF FLAGS...
	to=$1 input=$2; shift 2
	go_top "$input" "$@" || return 1
	type=$(sed -n 's/^Type: //p' "$TMP/top.txt")
	"$PROF" -q "$@" -s "$type" -t "$to" "$input" > "$TMP/root.svg" || return 1
	{ sed -n 's/^Showing nodes accounting for \(.*\), \([0-9.]*%\) of .* total$/\1 \2/p' "$TMP/top.txt"
	  sed -n 's/.*<title>all (\([^,]*\), \([0-9.]*%\)).*/\1 \2/p' "$TMP/root.svg"; } |
		awk 'BEGIN { split("ns 1 us 1e3 ms 1e6 s 1e9 hrs 3600e9 B 1 kB 1024 MB 1048576 GB 1073741824", f, " ")
				for (i = 1; i < 18; i += 2) scale[f[i]] = f[i + 1] + 0; scale[""] = 1 }
			function base(v,   u) { u = v; sub(/^[-+0-9.]*/, "", u); return u in scale ? (v + 0) * scale[u] : -1 }
			{ x[NR] = base($1); p[NR] = $2 }
			END { d = x[1] - x[2]; exit !(NR == 2 && p[1] == p[2] && x[1] >= 0 && (d < 0 ? -d : d) <= 0.006 * x[1]) }'
}
for to in flamegraph flamechart; do
	for flag in --focus --ignore --show --hide; do
		check "$to $flag main.fib of go_cpu.pb.gz: the root's share of the whole, as go tool pprof -top" \
			root_is_tops "$to" testdata/pprof/go/go_cpu.pb.gz "$flag" 'main\.fib'
	done
done

# --max-depth N: each folded stack cut to its N outermost frames and summed
# again, as awk cuts the unfiltered folded stacks.
cut_by_awk() { # FOLDED N
	awk -v n="$2" '{ count = $NF; sub(/ [^ ]*$/, ""); k = split($0, f, ";"); s = f[1]
		for (i = 2; i <= k && i <= n; i++) s = s ";" f[i]; sum[s] += count }
		END { for (s in sum) print s, sum[s] }' "$1" | LC_ALL=C sort
}
max_depth_is_cut() { # FILE N
	"$PROF" -q -t folded "$1" > "$TMP/all.folded" && cut_by_awk "$TMP/all.folded" "$2" > "$TMP/cut.awk" &&
		"$PROF" -q --max-depth "$2" -t folded "$1" > "$TMP/cut.folded" && LC_ALL=C sort "$TMP/cut.folded" > "$TMP/cut.prof" &&
		cmp -s "$TMP/cut.awk" "$TMP/cut.prof"
}
for n in 1 3; do
	check "--max-depth $n cuts stacks as awk does" max_depth_is_cut testdata/rprof/optim-line.out "$n"
done

# --samples FROM:TO on a plain Rprof file: its header and the sample lines
# FROM to before TO, byte for byte.
window_is_lines() { # FILE FROM TO
	{ head -n 1 "$1"; tail -n +2 "$1" | sed -n "$(($2 + 1)),$3p"; } > "$TMP/window.out" &&
		"$PROF" -q --samples "$2:$3" -t rprof "$1" > "$TMP/window.got" && cmp -s "$TMP/window.got" "$TMP/window.out"
}
check "--samples 5:12 keeps those lines" window_is_lines testdata/rprof/kmeans-default.out 5 12
check "--samples 0:1 keeps the first" window_is_lines testdata/rprof/kmeans-default.out 0 1
check "--samples FROM: runs to the end" writes testdata/rprof/kmeans-default.out \
	"$PROF" --samples 0: -t rprof testdata/rprof/kmeans-default.out
check "--samples TO before FROM is a usage error" says 2 "ends before it starts" \
	"$PROF" --samples 9:3 -t rprof testdata/rprof/kmeans-default.out
check "--samples needs a colon" says 2 "takes FROM:TO" "$PROF" --samples 9 -t rprof testdata/rprof/kmeans-default.out

# What the filters do not remove stays: runs, memory columns and #File
# lines, so R reads the result; and what they remove leaves an empty,
# valid profile with a warning.
check "a bad pattern is a usage error" says 2 "--focus '(': " "$PROF" --focus '(' -t rprof testdata/rprof/kmeans-default.out
check "--max-depth 0 is a usage error" says 2 "above 0" "$PROF" --max-depth 0 -t rprof testdata/rprof/kmeans-default.out
check "a pattern matching nothing warns" says 0 "warning: --focus matched no frame" \
	"$PROF" --focus '^no such function$' -t rprof testdata/rprof/kmeans-default.out
check "... and leaves no sample, with a warning" says 0 "the filters left no sample" \
	"$PROF" --focus '^no such function$' -t rprof testdata/rprof/kmeans-default.out
empty_profile_is_valid() {
	"$PROF" -q --focus '^no such function$' -t pprof testdata/rprof/kmeans-default.out > "$TMP/empty.pb.gz" &&
		"$PROF" --check "$TMP/empty.pb.gz" > /dev/null
}
check "an emptied profile is valid" empty_profile_is_valid
keeps_memory_and_runs() {
	"$PROF" -q --ignore '^lazyLoadDBfetch$' -t rprof testdata/rprof/boot-memory-gc-line.out > "$TMP/ignored.out" &&
		head -n 1 testdata/rprof/boot-memory-gc-line.out > "$TMP/header" && head -n 1 "$TMP/ignored.out" | cmp -s - "$TMP/header" &&
		grep -q '^#File ' "$TMP/ignored.out" && grep -q '^:[0-9]*:[0-9]*:[0-9]*:[0-9]*:"' "$TMP/ignored.out" &&
		! grep -q '"lazyLoadDBfetch"' "$TMP/ignored.out"
}
check "--ignore keeps the header, #File lines and memory columns" keeps_memory_and_runs
# R's summaryRprof reads each filtered file and counts what prof's summary counts.
r_reads_filtered() {
	for case in "--ignore lazyLoadDBfetch" "--hide boot" "--focus statistic" "--prune-from boot" "--max-depth 2" "--samples 10:40"; do
		# shellcheck disable=SC2086
		"$PROF" -q $case -t rprof testdata/rprof/boot-memory-gc-line.out > "$TMP/r-$(echo "$case" | tr -c 'a-z0-9\n' '_').out" || return 1
	done
	for f in "$TMP"/r-*.out; do printf '%s\n%s\n' "$f" "$f.tsv"; done | tr '\n' '\0' |
		LC_ALL=C.UTF-8 xargs -0 Rscript test/r/summaryrprof.R 2> "$TMP/r.log" || return 1
	for f in "$TMP"/r-*.out; do
		summary_is_summaryrprof "$f" "$f.tsv" || { echo "  R counts otherwise: $f" ; return 1; }
	done
}
heavy "R's summaryRprof counts the filtered files as prof does" r_reads_filtered

# --time FROM:TO on Rprof: the samples that started in the window, each
# taking its run's interval; awk finds the same window as sample indexes
# in the file (sample.interval= lines start runs), and --samples keeps them.
time_window_by_awk() { # FILE FROM TO: "first:end" sample indexes
	awk -v from="$2" -v to="$3" '
		/sample\.interval=/ { sub(/.*sample\.interval=/, ""); interval = $1 / 1e6; next }
		/^#/ { next }
		{ if (t < from - 1e-9) first = i + 1; if (t < to - 1e-9) end = i + 1; t += interval; i++ }
		END { printf "%d:%d\n", first, end }' "$1"
}
# --time FROM:TO keeps what --samples keeps of the (non-empty) window of
# sample indexes that WINDOW_OF finds in the file, written as FORMAT.
time_is_index_window() { # WINDOW_OF FORMAT FILE FROM TO
	window=$("$1" "$3" "$4" "$5") && [ "$window" != "0:0" ] &&
		"$PROF" -q --samples "$window" -t "$2" "$3" > "$TMP/by-index" &&
		"$PROF" -q --time "$4:$5" -t "$2" "$3" > "$TMP/by-time" && cmp -s "$TMP/by-time" "$TMP/by-index"
}
time_is_sample_window() { time_is_index_window time_window_by_awk rprof "$@"; }
check "--time 0.1:0.2 is samples 5 to 9 at 20 ms" time_is_sample_window testdata/rprof/kmeans-default.out 0.1 0.2
# Two runs appended, 20 ms then 5 ms (R's append = TRUE with another interval).
cat testdata/rprof/kmeans-default.out testdata/rprof/optim-line.out > "$TMP/two-runs.out"
check "--time across runs of 20 ms and 5 ms" time_is_sample_window "$TMP/two-runs.out" 0.9 1.2
check "--time from the middle of the first run into the second" time_is_sample_window "$TMP/two-runs.out" 0.5 1.03
check "--time within the second run" time_is_sample_window "$TMP/two-runs.out" 1.0 1.1
check "--time is refused for input without times" says 1 "--time needs samples with times" \
	"$PROF" --time 1:2 -t folded testdata/pprof/go/go_cpu.pb.gz
check "--time takes seconds" says 2 "takes FROM:TO in seconds" "$PROF" --time 1:x -t rprof testdata/rprof/kmeans-default.out

# --diff-base (and --normalize): go tool pprof's -diff_base, judged by Go:
# the same samples, base labelled pprof::base=true and negated. The bases:
# a part of the same Go profile (--focus), and other R profiles (with
# memory columns: the base's bytes allocated are negated too).
diffs_as_go_does() { # NEW BASE [--normalize]: both as pprof, through prof and through Go
	"$PROF" -q -t pprof "$1" > "$TMP/new.pb.gz" && "$PROF" -q -t pprof "$2" > "$TMP/base.pb.gz" || return 1
	go tool pprof -symbolize=none ${3:+-normalize} -diff_base="$TMP/base.pb.gz" -proto "$TMP/new.pb.gz" \
		> "$TMP/diff.go.pb" 2> /dev/null &&
		"$PROF" -q $3 --diff-base "$2" -t pprof "$1" > "$TMP/diff.prof.pb" &&
		"$STACKS" "$TMP/diff.go.pb" > "$TMP/go.stacks" &&
		"$STACKS" "$TMP/diff.prof.pb" | nonzero > "$TMP/prof.stacks" &&
		cmp -s "$TMP/go.stacks" "$TMP/prof.stacks"
}
"$PROF" -q --focus 'main\.fib' -t pprof testdata/pprof/go/go_cpu.pb.gz > "$TMP/fib.pb.gz"
if [ -z "${LIGHT:-}" ]; then
	heavy "--diff-base on Go as go tool pprof -diff_base" diffs_as_go_does testdata/pprof/go/go_cpu.pb.gz "$TMP/fib.pb.gz"
	heavy "--diff-base --normalize on Go as go tool pprof" diffs_as_go_does testdata/pprof/go/go_cpu.pb.gz "$TMP/fib.pb.gz" --normalize
	heavy "--diff-base on R as go tool pprof" diffs_as_go_does testdata/rprof/kmeans-default.out testdata/rprof/deep-truncated.out
	heavy "--diff-base on R with memory as go tool pprof" \
		diffs_as_go_does testdata/rprof/boot-memory-gc-line.out testdata/rprof/names-memory-line.out
	heavy "an R profile against its own pprof, converted earlier" \
		diffs_as_go_does testdata/rprof/optim-line.out "$TMP/new.pb.gz"
	heavy "summary --diff-base on Go: changes and % of the base as go tool pprof -top -diff_base" \
		summary_is_top testdata/pprof/go/go_cpu.pb.gz --diff-base "$TMP/fib.pb.gz"
	heavy "summary --diff-base --focus: % of the whole base as go tool pprof -top" \
		summary_is_top testdata/pprof/go/go_cpu.pb.gz --diff-base "$TMP/fib.pb.gz" --focus 'main\.hashLoop'
	"$PROF" -q -t pprof testdata/rprof/deep-truncated.out > "$TMP/r-base.pb.gz"
	"$PROF" -q -t pprof testdata/rprof/kmeans-default.out > "$TMP/r-new.pb.gz"
	heavy "summary --diff-base on R as go tool pprof -top -diff_base" \
		summary_is_top "$TMP/r-new.pb.gz" --diff-base "$TMP/r-base.pb.gz"
fi

# A difference is titled as one in every view: A minus B (the summary's and
# the report's are judged above and in test/html.sh).
check "--diff-base -t flamegraph: titled A minus B" prints 0 'id="subtitle"[^>]*>go_cpu.pb.gz minus fib.pb.gz: cpu, change' \
	"$PROF" -q --diff-base "$TMP/fib.pb.gz" -t flamegraph testdata/pprof/go/go_cpu.pb.gz
check "--diff-base -t summary: titled A minus B" prints 0 '^difference: *kmeans-default.out minus deep-truncated.out (--diff-base)$' \
	"$PROF" -q --diff-base testdata/rprof/deep-truncated.out -t summary testdata/rprof/kmeans-default.out

# Folded: "stack BASE NEW", each column what the one profile's folded stacks say.
joined_folded() { # BASE NEW: both folded, joined by stack (0 where one has none)
	"$PROF" -q -t folded "$1" > "$TMP/b.folded" && "$PROF" -q -t folded "$2" > "$TMP/n.folded" &&
		awk 'FNR == 1 { side++ } { n = $NF; sub(/ [^ ]*$/, ""); v[$0, side] += n; seen[$0] = 1 }
			END { for (s in seen) print s, v[s, 1] + 0, v[s, 2] + 0 }' "$TMP/b.folded" "$TMP/n.folded" | LC_ALL=C sort
}
folded_diff_is_joined() { # NEW BASE
	joined_folded "$2" "$1" > "$TMP/joined" &&
		"$PROF" -q --diff-base "$2" -t folded "$1" > "$TMP/diff.folded" &&
		LC_ALL=C sort "$TMP/diff.folded" | cmp -s - "$TMP/joined"
}
check "--diff-base -t folded: stack BASE NEW" folded_diff_is_joined testdata/rprof/kmeans-default.out testdata/rprof/deep-truncated.out
check "... on Go" folded_diff_is_joined testdata/pprof/go/go_cpu.pb.gz "$TMP/fib.pb.gz"
check "... read back as a differential profile" prints 0 "sample type: *after (count)" \
	sh -c '"$1" -q --diff-base "$2" -t folded "$3" > "$4" && "$1" -t summary < "$4"' sh "$PROF" \
	testdata/rprof/deep-truncated.out testdata/rprof/kmeans-default.out "$TMP/diff.folded"

# Summary: per function, the base's self and total, the profile's, and the
# change; each column what the one profile's summary says.
summary_changes_are_summaries() { # NEW BASE
	summary_rows "$2" > "$TMP/base.rows" && summary_rows "$1" > "$TMP/new.rows" &&
		awk -F '\t' -v OFS='\t' 'FNR == 1 { side++ } { s[$1, side] = $2; t[$1, side] = $3; seen[$1] = 1 }
			END { for (n in seen) print n, s[n, 1] + 0, s[n, 2] + 0, s[n, 2] - s[n, 1], t[n, 1] + 0, t[n, 2] + 0, t[n, 2] - t[n, 1] }' \
			"$TMP/base.rows" "$TMP/new.rows" | LC_ALL=C sort > "$TMP/changes.want" &&
		"$PROF" -q --diff-base "$2" -t summary --exact "$1" > "$TMP/changes.txt" &&
		awk -v OFS='\t' '/^by change/ { rows = 1; getline; next }
			rows { name = $9; for (i = 10; i <= NF; i++) name = name " " $i
				print name, $1, $2, $3 + 0, $5, $6, $7 + 0 }' "$TMP/changes.txt" | LC_ALL=C sort > "$TMP/changes.got" &&
		cmp -s "$TMP/changes.want" "$TMP/changes.got"
}
check "--diff-base -t summary: base, new and change per function" \
	summary_changes_are_summaries testdata/rprof/kmeans-default.out testdata/rprof/deep-truncated.out
largest_change_first() {
	"$PROF" -q --diff-base testdata/rprof/deep-truncated.out -t summary --exact testdata/rprof/kmeans-default.out > "$TMP/changes.txt" &&
		awk '/^by change/ { rows = 1; getline; next } rows { c = $7 < 0 ? -$7 : $7; if (n++ && c > last) bad = 1; last = c }
			END { exit bad }' "$TMP/changes.txt"
}
check "... the largest change first" largest_change_first

check "different sample types cannot be compared" says 1 "cannot be the base: its sample types differ" \
	"$PROF" --diff-base testdata/pprof/go/go_heap.pb.gz -t pprof testdata/pprof/go/go_cpu.pb.gz
"$PROF" -q -t folded testdata/rprof/kmeans-default.out > "$TMP/kmeans.folded"
check "R against other kinds of profile cannot be compared" says 1 "cannot be the base: one profile is R's" \
	"$PROF" --diff-base "$TMP/kmeans.folded" -t pprof testdata/rprof/kmeans-default.out
check "--normalize needs --diff-base" says 2 "give one" "$PROF" --normalize -t pprof testdata/rprof/kmeans-default.out
check "Rprof cannot hold a difference" says 1 "negative" \
	"$PROF" --diff-base testdata/rprof/deep-truncated.out -t rprof testdata/rprof/kmeans-default.out
check "a flame chart of a difference asks for a flame graph" says 1 "draw it with -t flamegraph" \
	"$PROF" --diff-base testdata/rprof/deep-truncated.out -t flamechart testdata/rprof/kmeans-default.out
# The differential flame graph of two parts of one Go profile (each without
# what the other lacks, normalized: some boxes grow, some shrink): boxes red
# where they grew, blue where they shrank, near white where nothing
# changed; and in Chromium (test/flame.sh).
"$PROF" -q --ignore 'main\.fib' -t pprof testdata/pprof/go/go_cpu.pb.gz > "$TMP/no-fib.pb.gz"
"$PROF" -q --ignore 'main\.even' -t pprof testdata/pprof/go/go_cpu.pb.gz > "$TMP/no-even.pb.gz"
colours_follow_changes() {
	"$PROF" -q --normalize --diff-base "$TMP/no-fib.pb.gz" -t flamegraph "$TMP/no-even.pb.gz" > "$TMP/diff.svg" &&
		grep -o '<title>[^<]*</title><rect[^>]*fill="[^"]*"' "$TMP/diff.svg" |
		awk '{ grew = /; change \+/; shrank = /; change -/
			red = /fill="rgb\(255,[0-9]+,[0-9]+\)"$/; blue = /,255\)"$/; white = /rgb\(250,250,250\)/
			if (grew != red || shrank != blue || (!grew && !shrank) != white) bad = 1
			kinds[grew "" shrank]++ } END { exit bad || !kinds["10"] || !kinds["01"] }'
}
check "... red boxes grew, blue ones shrank, near-white ones did not change" colours_follow_changes
# --time on a .cpuprofile: sample i started at the sum of timeDeltas 1..i
# after the first; node counts the samples in the window off the JSON.
cpuprofile_window_count() { # FILE FROM TO
	node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1])), from = +process.argv[2] * 1e6, to = +process.argv[3] * 1e6;
		let t = 0, n = 0; p.timeDeltas.forEach((d, i) => { if (i > 0) t += Math.max(d, 0); if (t >= from && t < to) n++; }); console.log(n);' "$@"
}
cpuprofile_time_is_node() { # FILE FROM TO
	want=$(cpuprofile_window_count "$@") &&
		"$PROF" -q --time "$2:$3" -s samples -t folded "$1" > "$TMP/window.folded" &&
		[ "$(awk '{ s += $NF } END { print s + 0 }' "$TMP/window.folded")" = "$want" ]
}
check "--time on a .cpuprofile counts the samples node finds in the window" \
	cpuprofile_time_is_node testdata/cpuprofile/default.cpuprofile 0.1 0.2
check "... from the start" cpuprofile_time_is_node testdata/cpuprofile/interval100.cpuprofile 0 0.05
# --time on perf script: each sample at its header's time after the
# first's; awk finds the window as sample indexes, and --samples keeps them.
perf_window_by_awk() { # FILE FROM TO: "first:end" sample indexes
	awk -v from="$2" -v to="$3" 'match($0, / [0-9]+\.[0-9]+: /) {
			t = substr($0, RSTART + 1, RLENGTH - 3) + 0
			if (i == 0) t0 = t
			if (t - t0 < from - 1e-9) first = i + 1
			if (t - t0 < to - 1e-9) end = i + 1
			i++
		}
		END { printf "%d:%d\n", first, end }' "$1"
}
perf_time_is_sample_window() { time_is_index_window perf_window_by_awk pprof "$@"; }
check "--time on perf script is the window of its headers' times" \
	perf_time_is_sample_window testdata/perf/c-cpu-clock.perf 0.05 0.1
check "... two events, from the start" perf_time_is_sample_window testdata/perf/c-two-events.perf 0 0.02
check "... pid, cpu, to the end" perf_time_is_sample_window testdata/perf/c-pid-cpu.perf 0.1 99
sed -E 's/ [0-9]+\.[0-9]+: / /' testdata/perf/c-cpu-clock.perf > "$TMP/no-times.perf"
check "--time is refused for perf script printed without times" says 1 "--time needs samples with times" \
	"$PROF" --time 0:1 -t folded "$TMP/no-times.perf"

# --time on speedscope: a sampled profile's samples at the sum of the
# weights before them, an evented one's stretches at their opening event;
# node sums the weights that start in the window off the JSON.
speedscope_window_weight() { # FILE FROM TO
	node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1])), from = +process.argv[2], to = +process.argv[3];
		const ns = { nanoseconds: 1e-9, microseconds: 1e-6, milliseconds: 1e-3, seconds: 1 };
		const p = d.profiles.find((q) => ns[q.unit]), s = ns[p.unit];
		let sum = 0;
		if (p.type === "sampled") {
			let t = 0;
			p.weights.forEach((w) => { if (t * s >= from - 1e-12 && t * s < to - 1e-12) sum += w; t += Math.max(w, 0); });
		} else {
			let depth = 0, last = p.events[0].at;
			const first = last;
			for (const e of p.events) {
				if (depth > 0 && e.at > last && (last - first) * s >= from - 1e-12 && (last - first) * s < to - 1e-12) sum += e.at - last;
				last = e.at; depth += e.type === "O" ? 1 : -1;
			}
		}
		console.log(Math.round(sum));' "$@"
}
speedscope_time_is_node() { # FILE FROM TO TYPE
	want=$(speedscope_window_weight "$1" "$2" "$3") &&
		"$PROF" -q --time "$2:$3" -s "$4" -t folded "$1" > "$TMP/window.folded" &&
		[ "$(awk '{ s += $NF } END { print s + 0 }' "$TMP/window.folded")" = "$want" ] &&
		[ "$want" != 0 ]
}
check "--time on speedscope's export of a .cpuprofile (evented) takes the stretches node finds" \
	speedscope_time_is_node testdata/speedscope/node-default.speedscope.json 0.1 0.2 default.cpuprofile
check "... and on prof's sampled speedscope of an R profile" \
	speedscope_time_is_node testdata/speedscope/kmeans-prof.speedscope.json 0.2 0.5 cpu
check "--time is refused for speedscope profiles of their own" says 1 "--time needs samples with times" \
	"$PROF" --time 0:1 -t folded testdata/speedscope/kmeans-prof-app.speedscope.json
