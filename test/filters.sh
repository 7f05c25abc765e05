# The filters (--focus ... --samples), sourced by test/run.sh (uses
# test/lib.sh, PROF, TMP, BUILD).
#
# The pattern filters are judged by go tool pprof: for each input and case
# below, `prof FLAGS -t pprof IN` holds the same samples (stacks, labels and
# summed values, by test/go/stacks.go) as `go tool pprof FLAGS -proto` of IN
# as pprof. The patterns are names from each profile itself: its first and
# third (or second) function by self time. R inputs go to Go through prof's own pprof.
build_stacks() {
	STACKS=$BUILD/stacks
	GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= go build -o "$STACKS" test/go/stacks.go > "$TMP/go.err" 2>&1 ||
		fail "building test/go/stacks.go: $(head -c 300 "$TMP/go.err")"
}

# A function name as a pattern that matches it literally (in ERE and RE2 alike).
quoted_name() { sed 's/[][\\.*^$(){}+?|]/\\&/g'; }
self_name() { # FILE N: the Nth function of the summary's by-self table
	"$PROF" -q -t summary "$1" | awk -v n="$2" '/^by self:/ { rows = 1; getline; next }
		rows && /^$/ { exit } rows && ++i == n { print $5; exit }' | quoted_name
}

# prof's flags "--a X --b Y" as Go's "-a=X -b=Y" (dashes in names to underscores).
go_flags() {
	while [ $# -gt 0 ]; do
		printf ' -%s=%s' "$(printf '%s' "${1#--}" | tr '-' '_')" "$2"
		shift 2
	done
}
# go tool pprof leaves out samples whose values are all zero, filtered or not.
nonzero() { grep -v '^\[0\( 0\)*\]'; [ $? -le 1 ]; }
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

filter_cases() { # PPROF SOURCE: every flag alone with the first name, and two pairs
	first=$(self_name "$2" 1) third=$(self_name "$2" 3)
	[ -n "$third" ] || third=$(self_name "$2" 2)
	[ -n "$first" ] && [ -n "$third" ] || { fail "no names to filter by in $2"; return; }
	for flag in --focus --ignore --hide --show --show-from --prune-from; do
		heavy "$flag $first on $2 as go tool pprof" filters_as_go_does "$1" "$flag" "$first"
	done
	heavy "--focus $third --hide $first on $2 as go tool pprof" \
		filters_as_go_does "$1" --focus "$third" --hide "$first"
	heavy "--ignore $third --show-from $first on $2 as go tool pprof" \
		filters_as_go_does "$1" --ignore "$third" --show-from "$first"
}

if [ -z "${LIGHT:-}" ]; then
	build_stacks
	for f in testdata/pprof/go/go_cpu.pb.gz testdata/pprof/go/go_heap.pb.gz testdata/pprof/go/inline_labels.pb \
		testdata/pprof/patterns/same-names.pb.gz testdata/pprof/patterns/node-wall.pb.gz; do
		filter_cases "$f" "$f"
	done
	for f in testdata/rprof/boot-memory-gc-line.out testdata/rprof/kmeans-default.out testdata/rprof/files-line.out; do
		"$PROF" -q -t pprof "$f" > "$TMP/r.out.pb.gz"
		filter_cases "$TMP/r.out.pb.gz" "$f"
	done
fi

# --max-depth N: each folded stack cut to its N outermost frames and summed
# again, as awk cuts the unfiltered folded stacks.
cut_by_awk() { # FOLDED N
	awk -v n="$2" '{ count = $NF; sub(/ [^ ]*$/, ""); k = split($0, f, ";"); s = f[1]
		for (i = 2; i <= k && i <= n; i++) s = s ";" f[i]; sum[s] += count }
		END { for (s in sum) print s, sum[s] }' "$1" | LC_ALL=C sort
}
max_depth_is_cut() { # FILE N
	"$PROF" -q -t folded "$1" > "$TMP/all.folded" && cut_by_awk "$TMP/all.folded" "$2" > "$TMP/cut.awk" &&
		"$PROF" -q --max-depth "$2" -t folded "$1" | LC_ALL=C sort > "$TMP/cut.prof" &&
		cmp -s "$TMP/cut.awk" "$TMP/cut.prof"
}
for n in 1 3; do
	check "--max-depth $n cuts stacks as awk does" max_depth_is_cut testdata/rprof/optim-line.out "$n"
done

# --samples FROM:TO on a plain Rprof file: its header and the sample lines
# FROM to before TO, byte for byte.
window_is_lines() { # FILE FROM TO
	{ head -n 1 "$1"; tail -n +2 "$1" | sed -n "$(($2 + 1)),$3p"; } > "$TMP/window.out" &&
		"$PROF" -q --samples "$2:$3" -t rprof "$1" | cmp -s - "$TMP/window.out"
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
time_is_sample_window() { # FILE FROM TO
	window=$(time_window_by_awk "$1" "$2" "$3") &&
		"$PROF" -q --samples "$window" -t rprof "$1" > "$TMP/by-index.out" &&
		"$PROF" -q --time "$2:$3" -t rprof "$1" | cmp -s - "$TMP/by-index.out"
}
check "--time 0.1:0.2 is samples 5 to 9 at 20 ms" time_is_sample_window testdata/rprof/kmeans-default.out 0.1 0.2
# Two runs appended, 20 ms then 5 ms (R's append = TRUE with another interval).
cat testdata/rprof/kmeans-default.out testdata/rprof/optim-line.out > "$TMP/two-runs.out"
check "--time across runs of 20 ms and 5 ms" time_is_sample_window "$TMP/two-runs.out" 0.9 1.2
check "--time from the middle of the first run into the second" time_is_sample_window "$TMP/two-runs.out" 0.5 1.03
check "--time within the second run" time_is_sample_window "$TMP/two-runs.out" 1.0 1.1
check "--time is refused for input without times" says 1 "--time needs samples with times" \
	"$PROF" --time 1:2 -t folded testdata/pprof/go/go_cpu.pb.gz
check "--time takes seconds" says 2 "takes FROM:TO in seconds" "$PROF" --time 1:x -t rprof testdata/rprof/kmeans-default.out
