# merge: several inputs made one, as pprof merges them. The profiles of
# testdata/merge/ (made by Go's profile package, test/make-merge-samples.sh)
# differ in periods, times, comments, drop_frames, string and id order,
# labels, mapping addresses, inlining, repeated and all-zero samples; with
# Go's own go_cpu.pb.gz they are merged in every order and grouping and
# compared as test/go/canon.go prints them (Go's reading, in an order of
# its own). Judged by `go tool pprof -proto`, which merges the same files.

CANON=$BUILD/canon
if ! go build -o "$CANON" test/go/canon.go > "$TMP/go.err" 2>&1; then
	fail "building test/go/canon.go: $(head -c 300 "$TMP/go.err")"
fi
M=testdata/merge
GO_CPU=testdata/pprof/go/go_cpu.pb.gz

# FILE [PATTERN]: the canonical text, without the lines PATTERN matches.
canon() { "$CANON" "$1" > "$TMP/canon.txt" && grep -v -- "${2:-^$}" "$TMP/canon.txt"; }
# NAME: prof merges the remaining arguments into $TMP/NAME.pb.gz.
merged() { name=$1; shift; "$PROF" -q -t pprof -o "$TMP/$name.pb.gz" "$@"; }
same_profile() { # A B [PATTERN]: equal as canon prints them (PATTERN's lines aside)
	canon "$1" "${3:-}" > "$TMP/canon.a" && canon "$2" "${3:-}" > "$TMP/canon.b" && cmp -s "$TMP/canon.a" "$TMP/canon.b"
}

as_go_merges() { # FILE...: prof's merge is go tool pprof's
	merged all "$@" && go tool pprof -proto -output "$TMP/go.pb.gz" "$@" > /dev/null 2>&1 &&
		same_profile "$TMP/all.pb.gz" "$TMP/go.pb.gz"
}
check "a b c merge as go tool pprof merges them: sums, header, zero samples dropped" as_go_merges $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz
check "... and with a profile Go wrote" as_go_merges $M/a.pb.gz $GO_CPU $M/b.pb.gz $M/c.pb.gz

# Associative: a merge of merges is the merge of all.
grouped_as_all() {
	merged all $M/a.pb.gz $GO_CPU $M/b.pb.gz $M/c.pb.gz &&
		merged ab $M/a.pb.gz $GO_CPU && merged ab_c "$TMP/ab.pb.gz" $M/b.pb.gz $M/c.pb.gz &&
		merged bc $M/b.pb.gz $M/c.pb.gz && merged a_bc $M/a.pb.gz $GO_CPU "$TMP/bc.pb.gz" &&
		merged ab_bc "$TMP/ab.pb.gz" "$TMP/bc.pb.gz" &&
		same_profile "$TMP/ab_c.pb.gz" "$TMP/all.pb.gz" && same_profile "$TMP/a_bc.pb.gz" "$TMP/all.pb.gz" &&
		same_profile "$TMP/ab_bc.pb.gz" "$TMP/all.pb.gz"
}
check "((a go) b c), (a go (b c)) and ((a go) (b c)) are (a go b c)" grouped_as_all

# Any order gives the same profile, but for what one input alone says:
# drop_frames is the first's that has it (a says one thing, c another).
in_any_order() {
	merged abc $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz || return 1
	for order in "a c b" "b a c" "b c a" "c a b" "c b a"; do
		set -- $order
		merged order $M/$1.pb.gz $M/$2.pb.gz $M/$3.pb.gz &&
			same_profile "$TMP/order.pb.gz" "$TMP/abc.pb.gz" "^0 drop: " || return 1
	done
}
check "every order of a b c gives the same profile, drop_frames aside" in_any_order
first_drop_frames() {
	merged cab $M/c.pb.gz $M/a.pb.gz $M/b.pb.gz && canon "$TMP/cab.pb.gz" | grep -qx '0 drop: other'
}
check "... which is the first input's that has it" first_drop_frames

# README's tree of merges on one machine: groups merged side by side, then the parts.
xargs_tree() {
	rm -rf "$TMP/parts" && mkdir "$TMP/parts" &&
		for i in 1 2 3; do printf '%s\n' $M/a.pb.gz $M/b.pb.gz $GO_CPU $M/c.pb.gz; done > "$TMP/day.list" &&
		xargs -P 2 -n 5 sh -c 'p=$1; shift; "$0" -q -t pprof -o "$(mktemp "$p.XXXXXX")" "$@"' "$PROF" "$TMP/parts/part" < "$TMP/day.list" &&
		[ "$(ls "$TMP/parts" | wc -l)" -eq 3 ] &&
		"$PROF" -q -t pprof -o "$TMP/tree.pb.gz" "$TMP"/parts/part.* &&
		merged whole --files-from "$TMP/day.list" &&
		same_profile "$TMP/tree.pb.gz" "$TMP/whole.pb.gz" "^0 drop: "
}
check "xargs -P: merging groups side by side, then the parts, is merging all" xargs_tree

# --files-from: the paths of more inputs, after any FILE.
listed_as_given() {
	printf '%s\n\n%s\n' $M/b.pb.gz $M/c.pb.gz > "$TMP/list" && merged listed --files-from "$TMP/list" $M/a.pb.gz &&
		merged given $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz && cmp -s "$TMP/listed.pb.gz" "$TMP/given.pb.gz"
}
check "--files-from LIST: its paths after the FILEs, empty lines skipped, the same bytes" listed_as_given
null_listed() {
	printf '%s\0%s\0%s\0' $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz > "$TMP/list0" &&
		merged null --null --files-from "$TMP/list0" && merged given $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz &&
		cmp -s "$TMP/null.pb.gz" "$TMP/given.pb.gz"
}
check "--null: NUL-separated paths, as find -print0 writes them" null_listed
stdin_listed() {
	printf '%s\n' $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz > "$TMP/list" &&
		"$PROF" -q -t pprof -o "$TMP/stdin.pb.gz" --files-from - < "$TMP/list" &&
		merged given $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz && cmp -s "$TMP/stdin.pb.gz" "$TMP/given.pb.gz"
}
check "--files-from -: the list on stdin" stdin_listed
printf '%s\n' $M/a.pb.gz $M/b.pb.gz > "$TMP/list2"
check "--check --files-from checks every listed file" says_nothing "$PROF" --check --files-from "$TMP/list2"
check "... saying each is valid" prints 0 "b.pb.gz: valid pprof profile" "$PROF" --check --files-from "$TMP/list2"
one_listed() {
	printf '%s\n' $M/a.pb.gz > "$TMP/one.list" && merged one --files-from "$TMP/one.list" &&
		merged a $M/a.pb.gz && cmp -s "$TMP/one.pb.gz" "$TMP/a.pb.gz" && [ "$(go_total "$TMP/a.pb.gz" samples)" = 10 ]
}
check "one listed file alone is read as it is, not merged" one_listed
printf '%s\n' $M/a.pb.gz - > "$TMP/list-dash"
check "a listed '-' is refused: stdin is given as a FILE" refuses 1 "list-dash:2: '-' (stdin) cannot be listed" \
	"$PROF" -t pprof --files-from "$TMP/list-dash"
check "stdin as the list and as a FILE is refused" refuses 2 "stdin ('-') can be read only once" \
	"$PROF" -t pprof --files-from - -
: > "$TMP/empty.list"
check "a list of no paths is refused" refuses 1 "empty.list: lists no profile" "$PROF" -t pprof --files-from "$TMP/empty.list"
check "a missing list is refused" refuses 1 "nolist: cannot open" "$PROF" -t pprof --files-from "$TMP/nolist"
printf '%s\0x\n' $M/a.pb.gz > "$TMP/nul.list"
check "a NUL in a newline list is refused, naming --null" refuses 1 "nul.list:1: a NUL byte in a path (for NUL-separated paths, use --null)" \
	"$PROF" -t pprof --files-from "$TMP/nul.list"
check "--null without --files-from is a usage error" status_is 2 "$PROF" -t pprof --null $M/a.pb.gz
check "a period type of another kind is refused, as Go refuses it" refuses 1 "wall.pb.gz: cannot merge: its period type differs" \
	"$PROF" -t pprof $M/a.pb.gz $M/wall.pb.gz
check "incompatible inputs are refused, saying why" says 1 "go_heap.pb.gz: cannot merge: its sample types differ" \
	"$PROF" -t pprof testdata/rprof/kmeans-default.out testdata/pprof/go/go_heap.pb.gz
# Rprof's call sites (the reference after the outermost frame) merge with their files.
cat testdata/rprof/kmeans-default.out testdata/rprof/optim-line.out > "$TMP/concat.out"
check "two Rprof files merge into their concatenation" writes "$TMP/concat.out" "$PROF" -t rprof testdata/rprof/kmeans-default.out testdata/rprof/optim-line.out

# Memory grows with the merged profile, not with the inputs: 6000 inputs
# merge within the address space that two need (before, each input's
# locations, stacks and strings stayed: 60 KB per input); the sums are
# 2000 times the three's.
flat_memory() {
	for i in $(seq 2000); do printf '%s\n' $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz; done > "$TMP/l6000" &&
		"$PROF" -m 8M -q -t pprof -o "$TMP/two.pb.gz" $M/a.pb.gz $M/b.pb.gz &&
		"$PROF" -m 8M -q -t pprof -o "$TMP/m6000.pb.gz" --files-from "$TMP/l6000" &&
		merged abc $M/a.pb.gz $M/b.pb.gz $M/c.pb.gz &&
		[ "$(go_total "$TMP/m6000.pb.gz" cpu)" = "$(go_total "$TMP/abc.pb.gz" cpu | awk '{ printf "%.0f\n", $1 * 2000 }')" ]
}
heavy "6000 inputs merge in the memory of two (--max-memory 8M), summed" flat_memory
