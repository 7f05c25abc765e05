# Conformance: what every format in the registry (prof --list-formats)
# has and does, checked from that list, so that a new format is held to
# it without a line here. Sourced by test/run.sh (uses test/lib.sh).
#   - Each reader's test inputs (testdata/: a file named with the reader's
#     extension, else one in testdata/READER/; goldens and notes left out)
#     get a bid from its probe and from no other reader's (unit probes).
#   - Every writer, on every clean test input (one --check reads without a
#     word): pprof, which holds the whole model, and a format writing what
#     it read itself, exit 0 and say nothing; the others exit 0 saying at
#     most warnings (what they cannot hold), or refuse with exit 1, an
#     error and no output.
#   - A reader marked t takes --time on some test input; one not marked
#     refuses it on every input.
#   - Every format has its page docs/formats/NAME.md, its row in
#     docs/README.md, its section in the manual and its entry in README;
#     every reader its fuzz target (the Makefile's, from this list), a seed
#     corpus, and refused inputs with their messages in testdata/invalid/.
#   - README's and the manual's lists of inputs with times are the
#     registry's (--help's is made from it).
#   - In a whole run: the runner's areas are the area scripts in test/,
#     each with its row in docs/testing.md.
# Under valgrind (LIGHT) only the registry's own checks run: those over
# test inputs start prof a few hundred times, and the fuzzers already run
# every probe and writer under the sanitizers.
"$PROF" --list-formats > "$TMP/formats"
conformance_formats=$(awk '{ print $1 }' "$TMP/formats")
readers=$(awk '$2 ~ /^r/ { print $1 }' "$TMP/formats")
writers=$(awk '$2 ~ /^.w/ { print $1 }' "$TMP/formats")
timed=$(awk '$2 ~ /^..t/ { print $1 }' "$TMP/formats")
# Made so that no probe claims it: mostly malformed text (test/folded.sh).
unsniffed="testdata/folded/malformed.folded"

listed() { # WORD LIST...: is WORD among the words of LIST?
	word=$1; shift
	case " $* " in *" $word "*) return 0 ;; esac
	return 1
}
# The format whose extension ends FILE's name, as -o picks it: the first
# in the registry's order.
format_named_by() {
	awk -v f="$1" '{
		n = split($3, ext, ",")
		for (i = 1; i <= n; i++)
			if (length(f) > length(ext[i]) && substr(f, length(f) - length(ext[i]) + 1) == ext[i]) { print $1; exit }
	}' "$TMP/formats"
}
# The reader FILE is a test input of; nothing for a golden or a note (a
# file in a write-only format is a golden, as testdata/tables/'s).
reader_of() {
	case $1 in *.md | *.raw | *.raw.txt | *.parsed.txt | *.err) return ;;
	*.jfr.stacks | *.jfr.lines | *.jfr.threads | *.jfr.times | *.jfr.summary) return ;; # the JDK's reading of a recording
	esac
	named=$(format_named_by "$1")
	if [ -z "$named" ]; then
		named=${1#testdata/}
		named=${named%%/*}
	fi
	if listed "$named" $readers; then echo "$named"; fi
}
bids_alone() { # FILE FORMAT: FORMAT's probe bids for FILE, no other reader's does
	$UNIT probes "$1" > "$TMP/probes" 2> /dev/null &&
		awk -v want="$2" '$1 == want { mine = $2 } $1 != want && $2 > 0 { other = 1 }
			END { exit !(mine > 0 && !other) }' "$TMP/probes"
}
bids_none() { # FILE: no reader's probe bids for it
	$UNIT probes "$1" > "$TMP/probes" 2> /dev/null && ! awk '$2 > 0 { found = 1 } END { exit !found }' "$TMP/probes"
}
clean() { "$PROF" --check "$1" > /dev/null 2> "$TMP/check.err" && [ ! -s "$TMP/check.err" ]; }

# Every writer on FILE (read by READER); on failure $writer_fault says which and how.
writes_cleanly() { # FILE READER
	for to in $writers; do
		"$PROF" -t "$to" "$1" > "$TMP/w.out" 2> "$TMP/w.err"
		status=$?
		if [ "$to" = pprof ] || [ "$to" = "$2" ]; then
			[ $status -eq 0 ] && [ ! -s "$TMP/w.err" ]
		elif [ $status -eq 0 ]; then
			! grep -qv '^prof: .*: warning: ' "$TMP/w.err"
		else
			[ $status -eq 1 ] && [ ! -s "$TMP/w.out" ] &&
				tail -n 1 "$TMP/w.err" | grep '^prof: ' | grep -qv ': warning: '
		fi || {
			writer_fault="-t $to: exit $status, stderr '$(head -n 1 "$TMP/w.err")'"
			return 1
		}
	done
}
takes_time() { "$PROF" -q --time 0: -t pprof "$1" > /dev/null 2>&1; }
some_input_takes_time() { # FILE...
	for f in "$@"; do takes_time "$f" && return 0; done
	return 1
}
no_input_takes_time() { # FILE...
	for f in "$@"; do
		says 1 "needs samples with times" "$PROF" --time 0: -t pprof "$f" || return 1
	done
}

: > "$TMP/clean-inputs"
while read -r f; do
	[ -s "$f" ] || continue # 0 bytes say nothing of a format (an empty golden)
	reader=$(reader_of "$f")
	[ -n "$reader" ] || continue
	if listed "$f" $unsniffed; then
		heavy "no probe bids for $f" bids_none "$f"
		continue
	fi
	heavy "only $reader's probe bids for $f" bids_alone "$f" "$reader"
	# Names that are not UTF-8 on purpose (test/refusals.sh): a writer
	# of JSON replaces them with a warning, as docs/formats/json.md says.
	case $f in testdata/any-bytes/*) continue ;; esac
	[ -z "${LIGHT:-}" ] && clean "$f" || continue
	echo "$reader $f" >> "$TMP/clean-inputs"
	if writes_cleanly "$f" "$reader"; then
		pass
	else
		fail "every writer on $f: $writer_fault"
	fi
done <<EOF
$(find testdata -type f ! -path 'testdata/invalid/*' | LC_ALL=C sort)
EOF

# A pprof test input gzip-compressed is also read raw: its probe, not
# gzip's magic, must take it then (issue 27).
for f in $(find testdata -type f -name '*.pb.gz' ! -path 'testdata/invalid/*' | LC_ALL=C sort); do
	gunzip -c "$f" > "$TMP/raw.pb"
	heavy "only pprof's probe bids for $f gunzipped" bids_alone "$TMP/raw.pb" pprof
done
# Random bytes are no format: no probe bids for them, so prof says
# "unknown format" and no reader's deep error (issue 27: 20 KB of them
# were "bad pprof", as a few in a hundred such inputs were). Made by a seeded
# generator, the same every run.
python3 -c 'import random, sys
for size in (64, 1000, 20000, 100000):
    for seed in range(1, 51):
        random.seed(size * 100 + seed)
        with open("%s/random-%d-%d.bin" % (sys.argv[1], size, seed), "wb") as f:
            f.write(bytes(random.getrandbits(8) for _ in range(size)))' "$TMP"
unknown_format() { # FILE: no probe bids, and prof says so
	bids_none "$1" && says 1 "^prof: $1: unknown format; use -f" "$PROF" -t folded "$1"
}
for f in $(light_every 10 "$TMP"/random-*.bin); do
	check "${f##*/}: an unknown format" unknown_format "$f"
done
rm -f "$TMP"/random-*.bin

has_refusals() { # READER: an input in testdata/invalid/READER/ with the message it must get
	for f in testdata/invalid/"$1"/*; do
		case $f in *.err | *.why) continue ;; esac
		[ -f "$f.err" ] && return 0
	done
	return 1
}
has_seeds() { [ -n "$(ls "test/fuzz/corpus/$1" 2> /dev/null)" ]; }
# What `make fuzz` would build, asked of the Makefile itself.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -n FUZZ=1 BUILD="$BUILD" fuzz-targets 2> /dev/null |
	sed -n 's|.* -o [^ ]*/fuzz_\([^ ]*\) .*|\1|p' | LC_ALL=C sort > "$TMP/fuzz-targets"
for r in $readers; do
	inputs=$(awk -v r="$r" '$1 == r { print $2 }' "$TMP/clean-inputs")
	heavy "$r has clean test inputs" [ -n "$inputs" ]
	if listed "$r" $timed; then
		heavy "$r (marked t) takes --time on a test input" some_input_takes_time $inputs
	else
		heavy "$r (not marked t) refuses --time on every test input" no_input_takes_time $inputs
	fi
	check "$r has refused inputs in testdata/invalid/$r/" has_refusals "$r"
	check "$r has a seed corpus in test/fuzz/corpus/$r/" has_seeds "$r"
done
check "make fuzz builds a target for each reader, and any" \
	sh -c 'printf "%s\n" $1 any | LC_ALL=C sort | cmp -s - "$2"' sh "$readers" "$TMP/fuzz-targets"

same_formats() { # TEXT LIST: the registry's names among TEXT's words are LIST's
	echo "$1" | tr -c 'a-z\n' '\n' | grep -xF "$conformance_formats" | LC_ALL=C sort -u > "$TMP/named"
	printf '%s\n' $2 | LC_ALL=C sort -u | cmp -s - "$TMP/named"
}
line_after() { awk -v m="$2" 'found { print; exit } index($0, m) { found = 1 }' "$1"; }
for each in $conformance_formats; do
	check "$each has docs/formats/$each.md" [ -s "docs/formats/$each.md" ]
	check "docs/README.md links docs/formats/$each.md" grep -qF "(formats/$each.md)" docs/README.md
done
check "the manual has a section (.Ss) for each format, and no other" \
	same_formats "$(sed -n 's/^\.Ss //p' man/prof.1)" "$conformance_formats"
check "README lists each format (- **NAME**), and no other" \
	same_formats "$(sed -n 's/^- \*\*\([^*]*\)\*\*.*/\1/p' README.md)" "$conformance_formats"
check "README's inputs with times are the readers marked t" \
	same_formats "$(line_after README.md 'marks `t`:')" "$timed"
check "the manual's inputs with times are the readers marked t" \
	same_formats "$(line_after man/prof.1 '.Ql t :')" "$timed"

# The suite's own list: a format's tests come as an area script, sourced
# (no #! line) and not a library (lib.sh, *-lib.sh). Each must be in the
# runner's list of areas, or it would never run, and in docs/testing.md's
# table. Only a whole run knows the whole list.
area_scripts() {
	for script in test/*.sh; do
		case $script in test/lib.sh | test/*-lib.sh) continue ;; esac
		[ "$(head -c 2 "$script")" = "#!" ] || basename "$script" .sh
	done | LC_ALL=C sort
}
if [ "$areas" = "$all" ]; then
	check "the runner's areas are the area scripts in test/" \
		sh -c 'printf "%s\n" $1 | LC_ALL=C sort | cmp -s - "$2"' sh "$all" "$(area_scripts > "$TMP/areas"; echo "$TMP/areas")"
	for area in $all; do
		check "docs/testing.md's table has a row for test/$area.sh" grep -q "^| [^|]* | test/$area\.sh[ ,]" docs/testing.md
	done
fi
