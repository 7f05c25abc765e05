#!/bin/sh
# Regenerates the Ruby stackprof dumps in testdata/stackprof/ with Debian's
# ruby (3.1) and ruby-stackprof (0.2.21) from test/ruby/stackprof_workload.rb,
# run from /tmp/stackprof-workload/ so that the dumps name the script there,
# whatever the checkout's path:
# - MODE-raw.dump: StackProf.run(mode: MODE, raw: true, out: ...), the
#   Marshal file stackprof writes, with raw and raw_timestamp_deltas;
# - MODE-agg.dump: the same without raw: true (stackprof's default), which
#   holds only each frame's counts;
# - MODE-*.json: `stackprof MODE-*.dump --json`, the JSON of that dump;
# - cpu-redump.dump: `stackprof cpu-raw.dump --dump`, the dump marshalled
#   again by stackprof's report, with a newline after it;
# - cpu-metadata.dump (and .json): cpu mode with `metadata:` of many kinds
#   of Ruby object (a Struct, a Range, a Regexp, a Time, a Bignum, a
#   non-ASCII Symbol, a class, a module, a repeated String and Float);
# - cpu-merged.dump (and .json): `stackprof cpu-raw.dump cpu-metadata.dump
#   --dump` (--json): the two merged by stackprof's report, frames keyed by
#   a SHA-256 of name, file and line, raw dropped.
# MODE is cpu, wall (interval 200 us) and object (every allocation).
# Sampling varies, so every run gives other files; test/stackprof.sh judges
# them by the speedscope app's import of the JSON, not by fixed numbers.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata/stackprof"
work=/tmp/stackprof-workload
rm -rf "$work"
mkdir -p "$work" "$out"
trap 'rm -rf "$work"' EXIT
cp "$here/ruby/stackprof_workload.rb" "$work/"
for mode in cpu wall object; do
	interval=200
	[ "$mode" = object ] && interval=1
	for raw in raw agg; do
		ruby "$work/stackprof_workload.rb" "$mode" "$raw" "$out/$mode-$raw.dump" "$interval"
		stackprof "$out/$mode-$raw.dump" --json > "$out/$mode-$raw.json"
	done
done
stackprof "$out/cpu-raw.dump" --dump > "$out/cpu-redump.dump"
ruby "$work/stackprof_workload.rb" cpu raw "$out/cpu-metadata.dump" 200 metadata
stackprof "$out/cpu-metadata.dump" --json > "$out/cpu-metadata.json"
for to in dump json; do
	stackprof "$out/cpu-raw.dump" "$out/cpu-metadata.dump" --$to > "$out/cpu-merged.$to"
done
