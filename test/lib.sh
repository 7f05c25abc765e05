# The test library, sourced by test/run.sh and test/cross-check.sh before
# anything else: counting, running a command and judging what it said, and
# the checks that more than one area script (or the cross-check) uses.
# The caller sets PROF, UNIT, TMP and BUILD, and calls build_dump before a
# check that reads pprof through Go.
passed=0
failed=0
skipped=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
# A failed check that ran its command through status_is also shows how
# that command ended, so that a failure seen once (in CI) can be read.
check() { # NAME COMMAND...: passes when the command succeeds
	name=$1; shift
	ran_status=
	if "$@"; then pass; else fail "$name"; show_last_command; fi
}
show_last_command() {
	[ -n "$ran_status" ] || return 0
	echo "  exit $ran_status; stderr:"
	head -n 5 "$TMP/cli.err" | sed 's/^/  | /'
}
heavy() { # NAME COMMAND...: a check too slow for valgrind; skipped where LIGHT is set
	if [ -n "${LIGHT:-}" ]; then skipped=$((skipped + 1)); else check "$@"; fi
}
# The inputs of a loop of checks: all of them, or where LIGHT is set
# (valgrind, whose cost is prof's runs) the first of every N, so that
# each kind of input still meets memcheck at a fraction of the runs.
light_every() { # N FILE...
	n=$1; shift
	i=0
	for f in "$@"; do
		[ -n "${LIGHT:-}" ] && [ $((i % n)) -ne 0 ] || echo "$f"
		i=$((i + 1))
	done
}

# Running a command: its stdout and stderr land in $TMP/cli.out and
# $TMP/cli.err, written afresh by that command. A check that judges what a
# command said runs the command itself (says, prints, writes...), never
# reads what an earlier check's command left there. prof's output is
# judged from a file it wrote, never through a pipe: sh has no pipefail,
# and a pipe loses prof's exit status, so a crash after the output would
# pass.
#
# Every such check also holds prof to its rule for errors: a `prof: ...`
# line on stderr that is neither a warning (`prof: [FILE[:LINE]: ]warning:
# ...`) nor the progress line (`\rprof: N MB read ...`, cleared by `\r\033[K`)
# is an error, and an error means a non-zero exit. A command that says one
# and exits 0 fails, whatever status the check expected.
status_is() { # EXPECTED COMMAND...: exit status only
	want=$1; shift
	"$@" > "$TMP/cli.out" 2> "$TMP/cli.err"
	ran_status=$?
	! error_at_exit_0 && [ "$ran_status" -eq "$want" ]
}
error_at_exit_0() {
	[ "$ran_status" -eq 0 ] || return 1
	error=$(tr '\r' '\n' < "$TMP/cli.err" | sed "s/^$(printf '\033')\\[K//" |
		grep -Ev '^prof: (.*: )?warning: |^prof: [0-9.]+ MB read ' | grep -m 1 '^prof: ') || return 1
	echo "  exit 0 after an error: $error"
}
says() { # STATUS PATTERN COMMAND...: the exit status, and PATTERN on stderr
	pattern=$2
	want=$1; shift 2
	status_is "$want" "$@" && grep -q -- "$pattern" "$TMP/cli.err"
}
says_times() { # STATUS N PATTERN COMMAND...: N lines of stderr match PATTERN
	times=$2 pattern=$3
	want=$1; shift 3
	status_is "$want" "$@" && [ "$(grep -c -- "$pattern" "$TMP/cli.err")" -eq "$times" ]
}
says_nothing() { # COMMAND...: exit 0 and an empty stderr
	status_is 0 "$@" && [ ! -s "$TMP/cli.err" ]
}
refuses() { # STATUS PATTERN COMMAND...: the exit status, PATTERN on stderr, and nothing on stdout
	pattern=$2
	want=$1; shift 2
	status_is "$want" "$@" && grep -q -- "$pattern" "$TMP/cli.err" && [ ! -s "$TMP/cli.out" ]
}
prints() { # STATUS PATTERN COMMAND...: the exit status, and PATTERN on stdout
	pattern=$2
	want=$1; shift 2
	status_is "$want" "$@" && grep -q -- "$pattern" "$TMP/cli.out"
}
prints_no() { # PATTERN COMMAND...: exit 0, and no line of stdout matches PATTERN
	pattern=$1; shift
	status_is 0 "$@" && ! grep -q -- "$pattern" "$TMP/cli.out"
}
writes() { # EXPECTED COMMAND...: exit 0, and exactly EXPECTED's bytes on stdout
	expected=$1; shift
	status_is 0 "$@" && cmp -s "$TMP/cli.out" "$expected"
}
file_is() { # FILE EXPECTED COMMAND...: exit 0, and the command wrote FILE as EXPECTED
	rm -f "$1"
	made=$1 expected=$2; shift 2
	status_is 0 "$@" && cmp -s "$made" "$expected"
}

# prof -q, for the helpers below that judge its output: -q leaves errors
# only, so a `prof: ` line at exit 0 is an error said by a run that
# claims success, which fails as status_is fails it.
prof_q() { # ARGS...: "$PROF" -q ARGS, its stderr in $TMP/q.err
	"$PROF" -q "$@" 2> "$TMP/q.err" || return
	! grep -q '^prof: ' "$TMP/q.err"
}

# Rprof files.
roundtrip() { # FILE [FROM]: prof -t rprof gives back the same bytes
	prof_q ${2:+-f "$2"} -t rprof "$1" > "$TMP/rt" && cmp -s "$1" "$TMP/rt"
}
sniffed_roundtrip() { # reads stdin, so the format can only be sniffed
	prof_q -t rprof < "$1" > "$TMP/rt" && cmp -s "$1" "$TMP/rt"
}
agrees_with_summaryrprof() { # FILE GOLDEN: the model's ticks per function
	$UNIT by-name "$1" > "$TMP/by-name" 2> /dev/null && cmp -s "$TMP/by-name" "$2"
}
# awk's label(V, UNIT): a value as views write it for people, render/units.c's
# units_label (times and sizes scaled, two decimals, ".00" dropped), a count as it is.
units_awk='function label(v, unit,   u, f, i, to, s) {
	u = tolower(unit); if (length(u) > 2 && u ~ /s$/) u = substr(u, 1, length(u) - 1)
	split("ns us ms s hrs", tn, " "); split("1 1e3 1e6 1e9 3600e9", tf, " ")
	split("B kB MB GB TB PB", bn, " "); split("1 1024 1048576 1073741824 1099511627776 1125899906842624", bf, " ")
	if (u ~ /^(ns|nanosecond)$/) f = "t1"; else if (u ~ /^(us|microsecond)$/) f = "t2"
	else if (u ~ /^(ms|millisecond)$/) f = "t3"; else if (u ~ /^(s|sec|second)$/) f = "t4"
	else if (u ~ /^(hour|hr)$/) f = "t5"; else if (u ~ /^(b|byte)$/) f = "b1"; else if (u ~ /^(kb|kbyte|kilobyte)$/) f = "b2"
	else if (u ~ /^(mb|mbyte|megabyte)$/) f = "b3"; else if (u ~ /^(gb|gbyte|gigabyte)$/) f = "b4"; else return v
	i = substr(f, 2) + 0; v = v * (f ~ /^t/ ? tf[i] : bf[i]); to = i
	for (i = 1; i <= (f ~ /^t/ ? 5 : 6); i++) if ((v < 0 ? -v : v) / (f ~ /^t/ ? tf[i] : bf[i]) >= 1) to = i
	s = sprintf("%.2f", v / (f ~ /^t/ ? tf[to] : bf[to])); sub(/\.00$/, "", s)
	return s == "0" || s == "-0" ? "0" : s (f ~ /^t/ ? tn[to] : bn[to])
}'
# "name<TAB>self<TAB>total" of the summary's by-self table, sorted.
summary_rows() {
	prof_q -t summary --exact "$@" > "$TMP/summary.txt" || return 1
	awk -v OFS='\t' '
		/^by self:/ { rows = 1; getline; next } /^$/ { rows = 0 }
		rows { name = $5; for (i = 6; i <= NF; i++) name = name " " $i; print name, $1, $3 }' "$TMP/summary.txt" |
		LC_ALL=C sort
}
summary_is_summaryrprof() { # FILE GOLDEN
	summary_rows "$1" > "$TMP/s" && LC_ALL=C sort "$2" | cmp -s - "$TMP/s"
}
# Through folded and back: the folded text holds what summaryRprof counts.
folded_is_summaryrprof() { # FILE GOLDEN
	prof_q -t folded "$1" > "$TMP/x.folded" && summary_rows "$TMP/x.folded" > "$TMP/s" &&
		LC_ALL=C sort "$2" | cmp -s - "$TMP/s"
}

# pprof, judged by Go's own readers: github.com/google/pprof/profile
# through test/dump.go (every field as the package parsed it, ids and order
# as stored) and `go tool pprof`.
build_dump() {
	export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
	DUMP=$BUILD/dump
	# Made once (CI makes it before its jobs, which would race to make it).
	[ "$DUMP" -nt test/dump.go ] && return
	if ! go build -o "$DUMP" test/dump.go > "$TMP/go.err" 2>&1; then
		fail "building test/dump.go (needs golang-go and golang-github-google-pprof-dev): $(head -c 300 "$TMP/go.err")"
	fi
}
golden() { case $1 in *.gz) zcat "$1" ;; *) cat "$1" ;; esac; }
golden_for() { if [ -f "$1" ]; then echo "$1"; else echo "$1.gz"; fi; }
# A conversion that succeeds says nothing on stderr (-q leaves only errors).
converts_to_pprof() { "$PROF" -q -t pprof "$1" > "$2" 2> "$TMP/pprof.err" && [ ! -s "$TMP/pprof.err" ]; }
go_dump_is() { "$DUMP" "$1" > "$TMP/dump" 2>&1 && golden "$2" | cmp -s - "$TMP/dump"; }
go_raw() { go tool pprof -symbolize=none -raw "$1" 2> /dev/null; }
go_raw_is() {
	go tool pprof -symbolize=none -raw "$1" > "$TMP/raw" 2>&1 && golden "$2" | cmp -s - "$TMP/raw"
}
go_accepts() {
	"$DUMP" "$1" > /dev/null 2>&1 && go_raw "$1" > /dev/null
}
# A numeric label of 0 cannot be in profile.proto (Go's decoder drops it),
# so Go's reading of the legacy file is compared without such labels.
reads_as_go_does() { # FILE: legacy pprof, read by Go and by prof into pprof, then by Go
	"$DUMP" "$1" > "$TMP/go.dump" 2>&1 &&
		prof_q -t pprof "$1" > "$TMP/legacy.pb.gz" &&
		"$DUMP" "$TMP/legacy.pb.gz" > "$TMP/prof.dump" 2>&1 &&
		grep -v '^ *bytes:\[0\]$' "$TMP/go.dump" | cmp -s - "$TMP/prof.dump"
}
go_refuses() { ! "$DUMP" "$1" > /dev/null 2>&1; }
back_to_rprof_is() { prof_q -t rprof "$1" > "$TMP/back.out" && cmp -s "$TMP/back.out" "$2"; }
# Per function: name, flat and cum samples, as `go tool pprof -top` shows them.
top_is_summaryrprof() { # PPROF GOLDEN
	go tool pprof -symbolize=none -sample_index=samples -top -nodecount=1000000 "$1" 2> /dev/null |
		awk -v OFS='\t' 'rows { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
				       print name, $1, $4 } /flat%/ { rows = 1 }' | LC_ALL=C sort > "$TMP/top"
	LC_ALL=C sort "$2" | cmp -s - "$TMP/top"
}
# Sample types, "type unit" per line, as go tool pprof -raw lists them, into
# LIST. A list of cases drawn from it must not vanish when Go fails: an
# empty list fails.
go_types_into() { # FILE LIST
	go_raw "$1" | awk '/^Samples:/ { getline; print; exit }' | sed 's/\[dflt\]//' | tr ' ' '\n' |
		while IFS=/ read -r type unit; do [ -z "$type" ] || echo "$type $unit"; done > "$2"
	[ -s "$2" ]
}
# A pprof file's default sample type, as Go reads it: default_sample_type,
# else the last type.
pprof_default_type() {
	"$DUMP" "$1" | sed -n 's/^DefaultSampleType: //p' | grep . ||
		go_raw "$1" | awk '/^Samples:/ { getline; split($NF, t, "/"); print t[1]; exit }'
}
go_total() { # FILE TYPE: sum of TYPE's column in go tool pprof -raw
	go_raw "$1" | awk -v type="$2" '
		/^Samples:/ { header = 1; next }
		header == 1 { for (i = 1; i <= NF; i++) { split($i, t, "/"); if (t[1] == type) col = i }
			      header = 2; next }
		header == 2 && /^ *-?[0-9]+( +-?[0-9]+)*:/ { sub(/:.*/, ""); split($0, v, " "); s += v[col] }
		/^Locations/ { header = 0 }
		END { printf "%.0f\n", s }'
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

# Folded stacks, as a reference reading: CR dropped, '#' comments and blank
# lines skipped, "STACK COUNT" or, where every line has two, "STACK COUNT
# COUNT"; counts may be fractions. Prints each stack once, a tab, and its
# summed counts, sorted; a line of neither form is malformed: counted on
# stderr.
folded_sums() {
	tr -d '\r' | awk '
		/^#/ || /^[ \t]*$/ { next }
		{ n++ }
		match($0, / [0-9]+(\.[0-9]*)? [0-9]+(\.[0-9]*)?$/) { two++ }
		match($0, / [0-9]+(\.[0-9]*)?$/) { line[++lines] = $0 }
		END {
			diff = two == n
			for (i = 1; i <= lines; i++) {
				k = split(line[i], w, " ")
				c2 = diff ? w[k] : ""
				c1 = diff ? w[k - 1] : w[k]
				stack = line[i]; sub(diff ? " [^ ]+ [^ ]+$" : " [^ ]+$", "", stack)
				one[stack] += c1; other[stack] += c2
			}
			for (s in one) printf "%s\t%.15g%s\n", s, one[s], diff ? sprintf(" %.15g", other[s]) : ""
			if (n > lines) printf "%d malformed\n", n - lines > "/dev/stderr"
		}' | LC_ALL=C sort
}
folded_roundtrip() { # the same summed stacks through -f folded -t folded
	prof_q -f folded -t folded "$1" > "$TMP/f0" && folded_sums < "$TMP/f0" > "$TMP/f1" 2> /dev/null &&
		folded_sums < "$1" 2> /dev/null | cmp -s - "$TMP/f1"
}

# LispWorks trees.
without_comments() { grep -v '^;' "$1"; }
tree_roundtrip() { prof_q -t lispworks "$1" > "$TMP/t" && without_comments "$1" | cmp -s - "$TMP/t"; }
sniffed_tree_roundtrip() { prof_q -t tree < "$1" > "$TMP/t" && without_comments "$1" | cmp -s - "$TMP/t"; }
stacks_are_folded() { # TREE: the model's stacks are the reference reader's X.folded
	$UNIT stacks lispworks "$1" | cmp -s - "${1%.tree}.folded"
}
tree_folded_is_golden() { prof_q -t folded "$1" > "$TMP/t.folded" && cmp -s "$TMP/t.folded" "${1%.tree}.folded"; }
# Equal stacks summed, sorted: stacks compared whatever their order.
summed_stacks() { $UNIT stacks "$1" "$2" 2> /dev/null | folded_sums 2> /dev/null; }
rprof_tree_rprof_keeps_stacks() {
	prof_q -t tree "$1" > "$TMP/r.tree" && prof_q -t rprof "$TMP/r.tree" > "$TMP/r.out" &&
		summed_stacks rprof "$1" > "$TMP/a" && summed_stacks rprof "$TMP/r.out" > "$TMP/b" &&
		cmp -s "$TMP/a" "$TMP/b"
}
# pprof -> tree: the roots add up to Go's total of the chosen sample type.
roots_total() { awk -F'|' '$1 == 0 { s += $2 } END { printf "%.0f\n", s }' "$1"; }
tree_total_is_go_total() { # FILE TYPE
	"$PROF" -q -t tree --sample-type "$2" "$1" > "$TMP/p.tree" 2> "$TMP/p.err" ||
		{ grep -q "negative value" "$TMP/p.err" && go_raw "$1" | grep -q -- ' -[0-9]'; return; }
	[ "$(roots_total "$TMP/p.tree")" = "$(go_total "$1" "$2")" ]
}
default_type_is_pprofs() {
	want=$(pprof_default_type "$1")
	"$PROF" -q -t tree "$1" > "$TMP/d1" 2>&1
	echo "exit $?" >> "$TMP/d1"
	"$PROF" -q -t tree --sample-type "$want" "$1" > "$TMP/d2" 2>&1
	echo "exit $?" >> "$TMP/d2"
	cmp -s "$TMP/d1" "$TMP/d2"
}

# speedscope: the real app (npm package `speedscope`, pinned in
# test/speedscope/package-lock.json) loads a profile in headless Chromium
# (Debian's), and its Sandwich view must show the expected self and total
# counts. speedscope keeps apart two functions of one name (R's with and
# without a srcref, from other files): their selfs add up to the name's; a
# total is compared where a name is one frame.
SPEEDSCOPE=test/speedscope
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
# The browser tools: the npm packages of $SPEEDSCOPE (the app, and
# playwright-core to drive Chromium), installed by npm ci where missing or
# older than the lock file, and Debian's Chromium. Every area that uses
# them calls this first, so that each area runs alone; the first call
# decides for the run. What is missing is one failure that says why (npm's
# own message, without its stack trace), and the checks that need the tools
# are then counted as skipped (needs_browser), not failed one by one.
#
# NO_BROWSER=1 (make check SANITIZE=1 and VALGRIND=1) leaves the browser
# out: it judges prof's output, which is the same whatever the build, and
# `make check` judges it. Each browser check is then counted as skipped,
# but its command still runs, with the browser tools doing nothing
# (test/speedscope/chromium.cjs), so that prof still meets every input the
# check feeds it; a run of prof in it that ends by a signal, a sanitizer's
# report or valgrind's error status fails (prof_ran_cleanly).
browser_tools=
install_browser_tools() {
	[ -z "$browser_tools" ] || return 0
	browser_tools=missing
	if [ -n "${NO_BROWSER:-}" ]; then
		browser_tools=unused
		watch_prof
	elif [ ! -x "$CHROMIUM" ]; then
		fail "no Chromium at $CHROMIUM (Debian's chromium, or set CHROMIUM): the checks in a browser are skipped"
	elif ! [ "$SPEEDSCOPE/node_modules/.package-lock.json" -nt "$SPEEDSCOPE/package-lock.json" ] &&
		! npm ci --prefix "$SPEEDSCOPE" --no-audit --no-fund > "$TMP/npm.log" 2>&1; then
		fail "npm ci in $SPEEDSCOPE (the speedscope app, playwright-core) failed: the checks in a browser are skipped"
		grep -Ev '^(npm (error|ERR!)( *| +[{}]|   .*))?$' "$TMP/npm.log" | head -n 8 | sed 's/^/  | /'
	else
		browser_tools=installed
		start_browser
	fi
}
# One Chromium for the run, which every browser tool connects to
# (BROWSER_WS, test/speedscope/chromium.cjs): a start of its own cost each
# tool some 1.5 s of CPU and 3 s on the clock, a hundred times in
# `make check`. test/run.sh ends it. Should it not start within 30 s,
# each tool starts its own, as it would alone.
browser_server=
start_browser() {
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/browser-server.cjs" > "$TMP/browser-ws" 2> "$TMP/browser-server.err" &
	browser_server=$!
	tries=0
	while [ ! -s "$TMP/browser-ws" ] && [ "$tries" -lt 300 ] && kill -0 "$browser_server" 2> /dev/null; do
		sleep 0.1
		tries=$((tries + 1))
	done
	if [ -s "$TMP/browser-ws" ]; then
		BROWSER_WS=$(cat "$TMP/browser-ws")
		export BROWSER_WS
	fi
}
needs_browser() { # CHECKER NAME COMMAND...: CHECKER (check, heavy...) when the browser tools are installed, else a skip
	if [ "$browser_tools" = installed ]; then "$@"; return; fi
	skipped=$((skipped + 1))
	[ "$browser_tools" = unused ] || return 0
	# A heavy check is left out under valgrind (LIGHT), prof's runs too;
	# another checker (an area's own) runs no prof of its own.
	case $1 in
	check) ;;
	heavy) [ -z "${LIGHT:-}" ] || return 0 ;;
	*) return 0 ;;
	esac
	shift
	prof_ran_cleanly "$@"
}
# NO_BROWSER: prof as $TMP/prof-watched runs it, which notes in
# $TMP/prof-watched.log each run that ended by a signal or valgrind's
# error status (above 2: prof's own statuses are 0, 1 and 2) or said a
# sanitizer's report; its stderr still reaches the caller, after it ends.
watch_prof() {
	cat > "$TMP/prof-watched" <<'EOF'
#!/bin/sh
"$WATCHED_PROF" "$@" 2> "$WATCHED_ERR.$$"
status=$?
echo "$*" >> "$WATCHED_ERR.runs"
cat "$WATCHED_ERR.$$" >&2
if [ $status -gt 2 ] || grep -q 'runtime error\|Sanitizer' "$WATCHED_ERR.$$"; then
	echo "exit $status: prof $*" >> "$WATCHED_ERR.log"
	grep -m 3 'runtime error\|Sanitizer\|==[0-9]*== [A-Z]' "$WATCHED_ERR.$$" | sed 's/^/  | /' >> "$WATCHED_ERR.log"
fi
rm -f "$WATCHED_ERR.$$"
exit $status
EOF
	chmod +x "$TMP/prof-watched"
	WATCHED_PROF=$PROF WATCHED_ERR=$TMP/prof-watched
	export WATCHED_PROF WATCHED_ERR
}
prof_ran_cleanly() { # NAME COMMAND...: the command's runs of prof (if any) end cleanly, whatever it judged
	: > "$TMP/prof-watched.log"
	: > "$TMP/prof-watched.runs"
	watched_name=$1
	shift
	PROF=$TMP/prof-watched
	"$@" > /dev/null 2>&1
	PROF=$WATCHED_PROF
	[ -s "$TMP/prof-watched.runs" ] || return 0
	check "prof, as \"$watched_name\" runs it (its browser left out), ends cleanly" [ ! -s "$TMP/prof-watched.log" ]
	[ ! -s "$TMP/prof-watched.log" ] || sed 's/^/  /' "$TMP/prof-watched.log"
}
by_name() { # name, summed self, total (or "-" when the name is several frames)
	awk -F'\t' -v OFS='\t' '{ self[$1] += $2; total[$1] = $3; n[$1]++ }
		END { for (k in self) print k, self[k], n[k] == 1 ? total[k] : "-" }' | LC_ALL=C sort
}
# A flame graph's or chart's frames, as test/svg/frames.awk reads them off
# the SVG: depth, name, count, x, width (and a chart's first sample, length).
svg_frames() { LC_ALL=C awk -f test/svg/escape.awk -f test/svg/frames.awk "$1"; }
# test/svg/check.cjs's KIND of checks on every SVG in DIR, in Chromium: a
# check per picture, and check.cjs's reasons printed where one fails.
chromium_shows_each() { # KIND DIR WHAT_ELSE_IS_CHECKED
	if [ "$browser_tools" = unused ]; then
		for f in "$2"/*.svg; do check "prof wrote $(basename "$f") (its browser left out)" [ -s "$f" ]; done
	fi
	if [ "$browser_tools" != installed ]; then
		for f in "$2"/*.svg; do skipped=$((skipped + 1)); done
		return
	fi
	NODE_PATH="$SPEEDSCOPE/node_modules" node test/svg/check.cjs "$1" "$2" "$2"/*.svg > "$2.out" 2>&1
	for f in "$2"/*.svg; do
		name=$(basename "$f" .svg)
		check "Chromium shows $name.svg$3" grep -qx "$name ok" "$2.out"
	done
	grep FAIL "$2.out"
}
speedscope_shows() { # PROFILE EXPECTED_TSV
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/frames.cjs" \
		"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$1" > "$TMP/shown" 2> "$TMP/shown.err" || return 1
	by_name < "$TMP/shown" > "$TMP/shown.by_name"
	awk -F'\t' -v OFS='\t' 'NR == FNR { several[$1] = $3 == "-"; next }
		{ print $1, $2, several[$1] ? "-" : $3 }' "$TMP/shown.by_name" "$2" | LC_ALL=C sort |
		cmp -s - "$TMP/shown.by_name"
}

# Any input: read or refused (exit 0 or 1, never a signal or a sanitizer
# report), and, when read, written in every format.
# Under valgrind (LIGHT) each replay writes a third of the formats, the
# next replay the next third, so that the crashers together meet them all.
replays=0
replay_writers=
replays_cleanly() { # FILE FORMAT (or any)
	from=$2
	[ "$from" = any ] && from=auto
	"$PROF" -q -f "$from" --check "$1" > /dev/null 2> "$TMP/replay.err"
	status=$?
	replayed_cleanly $status || return 1
	[ $status -eq 1 ] && return 0
	[ -n "$replay_writers" ] || replay_writers=$("$PROF" --list-formats | awk '$2 ~ /w/ { print $1 }')
	replays=$((replays + 1))
	nth_writer=0
	for to in $replay_writers; do
		nth_writer=$((nth_writer + 1))
		[ -n "${LIGHT:-}" ] && [ $(((nth_writer + replays) % 3)) -ne 0 ] && continue
		"$PROF" -q -f "$from" -t "$to" "$1" > /dev/null 2> "$TMP/replay.err"
		replayed_cleanly $? || return 1
	done
	# Merged with itself, as `prof F F` merges: the second's times after the first's.
	"$PROF" -q -f "$from" -t folded "$1" "$1" > /dev/null 2> "$TMP/replay.err"
	replayed_cleanly $?
}
# Exit 0 or 1, no sanitizer's report, and (-q: errors only) no error at exit 0.
replayed_cleanly() { # STATUS
	[ "$1" -le 1 ] && ! grep -q 'runtime error\|Sanitizer' "$TMP/replay.err" &&
		{ [ "$1" -eq 1 ] || ! grep -q '^prof: ' "$TMP/replay.err"; }
}
speedscope_profiles_are_reference() { # SPEEDSCOPE_JSON: each profile's folded stacks are a reference reading's in node
	n=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).profiles.length)' "$1") || return 1
	k=0
	while [ "$k" -lt "$n" ]; do
		node test/node/speedscope-folded.cjs "$1" "$k" | LC_ALL=C sort > "$TMP/want" &&
			prof_q -f speedscope -t folded -s "$k" "$1" > "$TMP/got" &&
			LC_ALL=C sort "$TMP/got" | cmp -s - "$TMP/want" || return 1
		k=$((k + 1))
	done
}
# A speedscope file of threads, thread by thread: each profile's folded
# stacks (the reference reading in node) are those of the profile of that
# thread in prof's speedscope JSON of the file, named "TITLE: TYPE: THREAD",
# within a relative 1e-9 (the reference sums doubles). REFERENCE is the
# file, or the app's export of it; prof reads FILE.
speedscope_threads_are() { # REFERENCE_JSON FILE
	prof_q -t speedscope -o "$TMP/threads.speedscope.json" "$2" &&
		node -e 'const fs = require("fs"), read = (f) => JSON.parse(fs.readFileSync(f)).profiles;
			const want = read(process.argv[1]), got = read(process.argv[2]);
			if (want.length < 2 || want.length !== got.length) process.exit(1);
			want.forEach((p, k) => {
				const j = got.findIndex((q) => q.name.endsWith(": " + p.name) &&
					q.name.slice(0, -p.name.length - 2).includes(": "));
				if (j < 0) process.exit(1);
				console.log(k + " " + j);
			});' "$1" "$TMP/threads.speedscope.json" > "$TMP/thread.pairs" || return 1
	while read -r k j; do
		node test/node/speedscope-folded.cjs "$1" "$k" > "$TMP/thread.want" &&
			node test/node/speedscope-folded.cjs "$TMP/threads.speedscope.json" "$j" > "$TMP/thread.got" &&
			[ -s "$TMP/thread.want" ] && node test/node/folded-close.cjs "$TMP/thread.want" "$TMP/thread.got" || return 1
	done < "$TMP/thread.pairs"
}

# Chrome's trace events: the speedscope app's import of a file (exported
# as its own JSON, a profile per thread) read as folded stacks, every
# profile's, into OUT; OUT.names gets the profiles' names.
app_import_folded() { # FILE OUT
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/export.cjs" \
		"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$1" "$TMP/app.json" 2> "$TMP/app.err" || return 1
	node -e 'for (const p of JSON.parse(require("fs").readFileSync(process.argv[1])).profiles) console.log(p.name)' \
		"$TMP/app.json" > "$2.names" || return 1
	: > "$2"
	k=0
	while [ "$k" -lt "$(wc -l < "$2.names")" ]; do
		node test/node/speedscope-folded.cjs "$TMP/app.json" "$k" >> "$2" || return 1
		k=$((k + 1))
	done
}
# Folded stacks summed, each weight times SCALE, to the thousandth (the
# app's times are doubles of microseconds: compared to the nanosecond);
# stacks that come to 0 left out.
scaled_sums() { # SCALE
	awk -v s="$1" '{ w = $NF; sub(/ [^ ]+$/, ""); t[$0] += w * s }
		END { for (k in t) { v = sprintf("%.3f", t[k]); sub(/\.?0+$/, "", v); if (v != "0" && v != "-0") print k " " v } }' |
		LC_ALL=C sort
}
trace_is_apps() { # FILE: prof's stacks and wall time are the app's import's, summed over threads
	prof_q -t folded -s wall "$1" > "$TMP/prof.folded" && scaled_sums 1 < "$TMP/prof.folded" > "$TMP/prof.sums" &&
		app_import_folded "$1" "$TMP/app.folded" && scaled_sums 1 < "$TMP/app.folded" > "$TMP/app.sums" &&
		cmp -s "$TMP/app.sums" "$TMP/prof.sums"
}
