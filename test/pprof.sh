# pprof cases, sourced by test/run.sh (uses check, fail, PROF, TMP, BUILD).
# Judged by Go's own readers: github.com/google/pprof/profile through
# test/dump.go (copied from shared/tools/pprof-check) and `go tool pprof`.
export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
DUMP=$BUILD/dump
if ! go build -o "$DUMP" test/dump.go > "$TMP/go.err" 2>&1; then
	fail "building test/dump.go (needs golang-go and golang-github-google-pprof-dev): $(head -c 300 "$TMP/go.err")"
fi

golden() { case $1 in *.gz) zcat "$1" ;; *) cat "$1" ;; esac; }
golden_for() { if [ -f "$1" ]; then echo "$1"; else echo "$1.gz"; fi; }
converts_to_pprof() { "$PROF" -q -t pprof "$1" > "$2"; }
go_dump_is() { "$DUMP" "$1" > "$TMP/dump" 2>&1 && golden "$2" | cmp -s - "$TMP/dump"; }
go_raw_is() {
	go tool pprof -symbolize=none -raw "$1" > "$TMP/raw" 2>&1 && golden "$2" | cmp -s - "$TMP/raw"
}
go_accepts() {
	"$DUMP" "$1" > /dev/null 2>&1 && go tool pprof -symbolize=none -raw "$1" > /dev/null 2>&1
}
go_refuses() { ! "$DUMP" "$1" > /dev/null 2>&1; }
back_to_rprof_is() { "$PROF" -q -t rprof "$1" | cmp -s - "$2"; }
# Per function: name, flat and cum samples, as `go tool pprof -top` shows them.
top_is_summaryrprof() {
	go tool pprof -symbolize=none -sample_index=samples -top -nodecount=1000000 "$1" 2> /dev/null |
		awk -v OFS='\t' 'rows { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
				       print name, $1, $4 } /flat%/ { rows = 1 }' | LC_ALL=C sort > "$TMP/top"
	LC_ALL=C sort "$2" | cmp -s - "$TMP/top"
}

for f in testdata/pprof/*/*; do
	case $f in *.txt | *.txt.gz | */LICENSE) continue ;; esac
	check "pprof -> pprof $f" converts_to_pprof "$f" "$TMP/out.pb.gz"
	check "Go's profile package reads $f back as it was" go_dump_is "$TMP/out.pb.gz" "$(golden_for "$f.parsed.txt")"
	check "go tool pprof -raw of $f as it was" go_raw_is "$TMP/out.pb.gz" "$(golden_for "$f.raw.txt")"
	check "pprof -> pprof sniffed from stdin $f" sh -c "\"$PROF\" -q -t pprof < \"$f\" | cmp -s - \"$TMP/out.pb.gz\""
done

for f in testdata/rprof/*.out testdata/rprof/*/*.out; do
	check "rprof -> pprof $f" converts_to_pprof "$f" "$TMP/r.pb.gz"
	check "Go's profile package and go tool pprof read the pprof of $f" go_accepts "$TMP/r.pb.gz"
	check "rprof -> pprof -> rprof $f" back_to_rprof_is "$TMP/r.pb.gz" "$f"
	[ -f "$f.summaryRprof.tsv" ] &&
		check "go tool pprof -top = summaryRprof for $f" top_is_summaryrprof "$TMP/r.pb.gz" "$f.summaryRprof.tsv"
done

for f in testdata/invalid/pprof/*; do
	case $f in *.err) continue ;; esac
	check "Go refuses $f too" go_refuses "$f"
done

check "profile.proto agrees with pprof's schema" sh test/proto-schema.sh
