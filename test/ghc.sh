# GHC cost-centre profiles, sourced by test/run.sh (uses test/lib.sh, PROF,
# TMP): the files GHC 9.0.2 wrote here (testdata/ghc/: +RTS -p, -P, -Pa,
# -pj, and -N2 threaded) and two hand-made in GHC 7's layouts (the old
# `@ 20 ms` header, no SRC column), each judged by its own columns
# (test/ghc/judge.py); the -pj file by the speedscope app's import too.

. test/ghc-lib.sh
for f in testdata/ghc/*.ghcprof; do
	check "ghc: $f's own columns hold prof's reading" judged_by_own_columns "$f"
	[ ! -s "$TMP/g.judged" ] || sed 's/^/  | /' "$TMP/g.judged" | head -n 5
	check "ghc: $f sniffed from stdin" prints 0 '(ghc)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
done
sample_types() { # FILE: the types prof reads, as "TYPE/UNIT" on one line
	prof_q -t tables "$1" > "$TMP/g.tables" &&
		awk -F'\t' '/^# sample_types/ { t = 1; getline; next } t && !NF { exit } t { printf "%s/%s ", $1, $2 }' "$TMP/g.tables"
}
for f in testdata/ghc/fib-p.ghcprof testdata/ghc/fib-pj.ghcprof; do
	check "ghc: $f as time, alloc and entries" \
		sh -c '[ "$1" = "time/nanoseconds alloc/bytes entries/count " ]' - "$(sample_types "$f")"
done
check "ghc: time is the default type" prints 0 '^sample type: *time ' "$PROF" -t summary testdata/ghc/fib-P.ghcprof
# Windows writes CR LF: the same reading.
sed 's/$/\r/' testdata/ghc/fib-P.ghcprof > "$TMP/crlf.ghcprof"
check "ghc: a CR LF copy reads as the file" sh -c '"$0" -q -t folded "$1" > "$2.a" && "$0" -q -t folded "$3" > "$2.b" && cmp -s "$2.a" "$2.b"' \
	"$PROF" testdata/ghc/fib-P.ghcprof "$TMP/crlf" "$TMP/crlf.ghcprof"
install_browser_tools
needs_browser heavy "ghc: the speedscope app imports fib-pj.ghcprof as prof reads it (time in ticks, alloc)" \
	app_imports_as_prof testdata/ghc/fib-pj.ghcprof

# Deep trees, read with a stack of their own: a -pj tree 100000 deep, and
# a text tree 2000 deep (each row one space deeper).
awk 'BEGIN { n = 100000; printf "{\"tick_interval\": 1000, \"cost_centres\": [{\"id\": 1, \"label\": \"f\", \"module\": \"M\", \"src_loc\": \"<x>\"}], \"profile\": ";
	for (i = 0; i < n; i++) printf "{\"id\": 1, \"entries\": 1, \"alloc\": 0, \"ticks\": %d, \"children\": [", i == n - 1 ? 3 : 0;
	for (i = 0; i < n; i++) printf "]}"; print "}" }' > "$TMP/deep.json"
check "ghc: a -pj tree 100000 deep" prints 0 '^1 99999 3000000$' \
	sh -c '"$0" -q -f ghc -t folded "$1" | awk "{ print NR, gsub(/;/, \";\"), \$NF }"' "$PROF" "$TMP/deep.json"
awk 'BEGIN { n = 2000; print "\ttotal time  =  0.00 secs   (1 ticks @ 1000 us, 1 processor)"; print "\ttotal alloc = 0 bytes";
	printf "%-" n + 1 "s M no. entries %%time %%alloc %%time %%alloc ticks bytes\n\n", "COST CENTRE";
	for (i = 0; i < n; i++) printf "%" i "s%-" n + 1 - i "s M %d 1 0.0 0.0 0.0 0.0 %d 0\n", "", "f", i, i == n - 1 }' |
	sed 's/^\(COST CENTRE *\) M /\1 MODULE /' > "$TMP/deep.ghcprof"
check "ghc: a text tree 2000 deep" prints 0 '^1 1999 1000000$' \
	sh -c '"$0" -q -f ghc -t folded "$1" | awk "{ print NR, gsub(/;/, \";\"), \$NF }"' "$PROF" "$TMP/deep.ghcprof"
