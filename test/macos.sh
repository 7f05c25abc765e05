# macOS text profiles: Instruments' deep copy (-f instruments) and macOS
# sample's report (-f sample), sourced by test/run.sh (uses test/lib.sh,
# test/macos-lib.sh, PROF, TMP). No macOS runs here: the inputs are made
# by hand in the exact layouts of real files (test/make-macos-samples.sh;
# testdata/README.md); the real files in ../shared are CI's cross-check.
#   - instruments (testdata/instruments/: 7.3.1's time and allocations,
#     13.4's cycles, 16.0's "Symbol Names", a Source Path column): sniffed,
#     from stdin too; the sample type by the weights' unit; stacks and
#     weights the speedscope app's import of the same file, in headless
#     Chromium;
#   - sample (testdata/sample/): sniffed, from stdin too; every call graph
#     line's inclusive count is what prof's stacks add up to under its
#     path (test/sample-totals.awk); each thread a label counted as its
#     line (go tool pprof -tags); wall is samples x the header's interval,
#     and there is no wall without one.
. test/macos-lib.sh
install_browser_tools
sniffed_from_stdin() { # FILE FORMAT
	"$PROF" --check < "$1" 2> /dev/null | grep -qx "<stdin>: valid $2 profile"
}
type_is() { # FILE TYPE: the default sample type
	prof_q --list-types "$1" | awk -v t="$2" '/\(default\)/ && $1 == t { found = 1 } END { exit !found }'
}
for f in testdata/instruments/*.txt; do
	check "$f sniffed as instruments" prints 0 'valid instruments profile' "$PROF" --check "$f"
	check "$f sniffed from stdin" sniffed_from_stdin "$f" instruments
	needs_browser heavy "$f: stacks and weights as the speedscope app imports them" instruments_is_apps "$f"
done
check "Instruments' times are cpu in ms" type_is testdata/instruments/time-7.3.1.txt cpu
check "Instruments 16's times are cpu in ms" type_is testdata/instruments/time-16.0.txt cpu
check "Instruments' cycles are cycles" type_is testdata/instruments/cycles-13.4.txt cycles
check "Instruments' allocations are space in bytes" type_is testdata/instruments/allocations-7.3.1.txt space

for f in testdata/sample/*.txt; do
	check "$f sniffed as sample" prints 0 'valid sample profile' "$PROF" --check "$f"
	check "$f sniffed from stdin" sniffed_from_stdin "$f" sample
	check "$f: each line's inclusive count is prof's" sample_totals_are_reports "$f"
	check "$f: a thread label each, counted as its line" sample_threads_are_reports "$f"
	check "$f: wall is the samples times the interval" sample_wall_is_interval "$f"
done
