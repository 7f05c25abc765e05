#!/bin/sh
# Merging a fleet's profiles, beside go tool pprof merging the same files:
# 4000 small Go CPU profiles (bench/gen-fleet.go, in bench/data/fleet/),
# and 1000 and 100 of them, to show that memory stays flat in the number
# of inputs. bench/run.sh (make bench) runs these rows after its own; run
# alone (sh bench/fleet.sh), this appends them under a header of its own.
set -eu
cd "$(dirname "$0")/.."
PROF=${PROF:-./prof}
DATA=${DATA:-bench/data}
export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
. bench/lib.sh

fleet_rows() {
	mkdir -p "$DATA/fleet"
	[ -s "$DATA/fleet/cpu-03999.pb.gz" ] || go run bench/gen-fleet.go "$DATA/fleet" 4000
	for n in 100 1000 4000; do
		ls "$DATA"/fleet/cpu-*.pb.gz | head -n $n > "$DATA/fleet-$n.list"
	done
	go=$(baseline "go tool pprof -proto -output $DATA/go.pb.gz \$(cat $DATA/fleet-4000.list)")
	row "go tool pprof -proto, merging 4000 files" "go tool pprof -proto -output $DATA/go.pb.gz \$(cat $DATA/fleet-4000.list)"
	row "pprof merge, 4000 files of a fleet" "$PROF -t pprof --files-from $DATA/fleet-4000.list" \
		${go% *} ${go#* } "go tool pprof"
	# The memory of fewer inputs, to compare: flat in their number.
	for n in 100 1000; do
		row "pprof merge, $n files of a fleet" "$PROF -t pprof --files-from $DATA/fleet-$n.list"
	done
}

case $0 in
*fleet.sh)
	printf '\n### %s, %s (bench/fleet.sh)\n\n' "$today" "$machine" >> "$results"
	echo '| date | what | command | median s | max RSS MB | compared |' >> "$results"
	echo '|---|---|---|---|---|---|' >> "$results"
	fleet_rows ;;
esac
