# Shapes of pprof that other profilers write (testdata/pprof/patterns/,
# made with Go's profile package), sourced by test/run.sh (uses check,
# status_is, says, prints, says_nothing, refuses, PROF, TMP). pprof.sh also converts
# each to pprof and compares with Go's goldens.
p=testdata/pprof/patterns

# Negative values (delta profiles): each writer that cannot show one says
# which sample and value, and which types have none; those types work.
for to in folded speedscope tree; do
	check "a negative value refused by $to, naming the sample, the value and the types without, writing nothing" \
		refuses 1 "sample 1 has alloc_space -2048: .* cannot hold a negative value; types without, for --sample-type: alloc_objects$" \
		"$PROF" -t "$to" -s alloc_space "$p/delta-negative.pb.gz"
	check "$to of the type without negatives" status_is 0 "$PROF" -q -t "$to" -s alloc_objects "$p/delta-negative.pb.gz"
done
for to in summary tables pprof; do
	check "$to holds negative values" status_is 0 "$PROF" -t "$to" "$p/delta-negative.pb.gz"
done
check "... and the summary shows them" prints 0 "-2048 .*main.shrink" "$PROF" -t summary --exact "$p/delta-negative.pb.gz"

# A default type that is zero everywhere is said, with the types that have data.
check "an empty mutex profile warns that delay is 0, naming contentions" \
	says 0 "sample type delay is 0 in every sample; types with data, for --sample-type: contentions" \
	"$PROF" -t folded "$p/idle-mutex.pb.gz"
check "... and not when a type with data is chosen" says_nothing "$PROF" -t folded -s contentions "$p/idle-mutex.pb.gz"

# Fine-grained time: the longest interval that divides every sample's time.
node_wall_in_ticks() { # 30000 and 12500 us: 12 and 5 lines of 2500 us
	says 0 "writing sample.interval=2500" "$PROF" -t rprof -s wall "$p/node-wall.pb.gz" &&
		grep -q "^line profiling: sample.interval=2500$" "$TMP/cli.out" &&
		[ "$(grep -c '"' "$TMP/cli.out")" -eq 17 ]
}
check "Node wall time to Rprof: ticks of 2500 us, the values' common divisor, said, in the header and the lines" \
	node_wall_in_ticks

# Rprof's line per tick is bounded before anything is written.
check "more lines than --max-lines: says how many, and the option, and writes nothing" \
	refuses 1 "47 lines of ticks to write .*more than --max-lines 46" \
	"$PROF" -t rprof --max-lines 46 testdata/rprof/kmeans-default.out
check "--max-lines 0 lifts the bound" status_is 0 "$PROF" -t rprof --max-lines 0 testdata/rprof/kmeans-default.out
check "a writer's option for another writer: says which formats take it" \
	says 2 "max-lines is for rprof, not for -t folded" "$PROF" -t folded --max-lines 5 testdata/rprof/kmeans-default.out

# Frames with no function count in the summary by address, as folded names them.
check "unsymbolized frames in the summary by their first address" prints 0 " 0x401234$" "$PROF" -t summary "$p/addresses.pb.gz"
check "... and their second" prints 0 " 0x405678$" "$PROF" -t summary "$p/addresses.pb.gz"
check "... as folded stacks name them" prints 0 "^main;0x401234;0x405678 20000000$" "$PROF" -t folded "$p/addresses.pb.gz"
