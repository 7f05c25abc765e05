#!/bin/sh
# Regenerates the Java Flight Recorder files in testdata/jfr/ with OpenJDK
# 17 (and one with JDK 25, for jdk.CPUTimeSample) from the programs in
# test/java/, recorded with test/java/prof.jfc (only events with stacks,
# so that each file stays near 100 KB, most of it the JDK's metadata):
# CPU-bound (busy, and busy-again: a second run), allocating (alloc), threads and locks (locks), several
# chunks (chunks: a second recording started and stopped twice), and the
# JDK's default settings on CPU-bound work (default). Each file's goldens
# come from the JDK's own reader: NAME.jfr.stacks, .lines, .threads and .times are
# `jfr print --json --stack-depth 1000000` read by test/jfr-folded.py,
# NAME.jfr.summary is `jfr summary` without the types it counts no event of. Sampling is timer driven: every run
# gives other files, and other goldens with them.
#   sh test/make-jfr-samples.sh            every file
#   sh test/make-jfr-samples.sh synthetic  only those written byte by byte (no recording)
#   sh test/make-jfr-samples.sh goldens    every golden again, of the files there are (no recording)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata/jfr"
jdk=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
"$jdk/bin/javac" -d "$work" "$here"/java/*.java

[ "${1:-}" = synthetic ] || [ "${1:-}" = goldens ] || {
record() { # NAME MAIN MILLISECONDS
	(cd "$work" && "$jdk/bin/java" -XX:StartFlightRecording=filename="$work/$1.jfr,settings=$here/java/prof.jfc" \
		-cp . "$2" "$3" > /dev/null 2>&1)
	cp "$work/$1.jfr" "$out/$1.jfr"
}

record busy Busy 3000
record busy-again Busy 1500 # another run: its hidden classes named anew
record alloc Alloc 2000
record locks Locks 2000
record chunks Rotate 700
(cd "$work" && "$jdk/bin/java" -XX:StartFlightRecording=filename="$work/default.jfr" -cp . Busy 1500 > /dev/null 2>&1)
cp "$work/default.jfr" "$out/default.jfr"
# JDK 25's CPU-time sampler (JEP 509, experimental: only a settings file
# enables it), beside the execution sampler: jdk.CPUTimeSample.
if [ -x "$jdk25/bin/java" ]; then
	"$jdk25/bin/javac" -d "$work/25" "$here/java/Busy.java"
	sed 's#</configuration>#  <event name="jdk.CPUTimeSample"><setting name="enabled">true</setting><setting name="throttle">10 ms</setting></event>\n</configuration>#' \
		"$here/java/prof.jfc" > "$work/cputime.jfc"
	(cd "$work/25" && "$jdk25/bin/java" -XX:StartFlightRecording=filename="$work/cputime.jfr,settings=$work/cputime.jfc" \
		-cp . Busy 1500 > /dev/null 2>&1)
	cp "$work/cputime.jfr" "$out/cputime.jfr"
fi
}

# Small files written byte by byte (test/make-jfr-synthetic.py), and the
# refused ones in testdata/invalid/jfr/ (each .err checked by hand).
python3 "$here/make-jfr-synthetic.py" "$out" "$here/../testdata/invalid/jfr" "$work"

# The kept gzip files are read by the JDK as they were recorded.
[ "${1:-}" != goldens ] || for g in "$out"/*.jfr.gz; do gunzip -c "$g" > "${g%.gz}"; done
for f in "$out"/*.jfr; do
	bin=$jdk/bin
	case $f in
	*/cputime.jfr) bin=$jdk25/bin ;;
	*/synthetic-plain.jfr) continue ;; # the JDK reads no plain integers: synthetic.jfr's goldens, below
	*/synthetic.jfr | */synthetic-1.0.jfr) # each chunk alone (see make-jfr-synthetic.py), the sum of them
		name=$(basename "$f" .jfr)
		for c in 1 2; do "$bin/jfr" print --json --stack-depth 1000000 "$work/$name.$c.jfr" > "$work/$name.$c.json"; done
		python3 "$here/jfr-folded.py" "$f.stacks" "$f.lines" "$f.threads" "$f.times" "$work/$name".[12].json
		"$bin/jfr" summary "$f" | awk 'NF != 3 || $2 != "0"' > "$f.summary"
		continue ;;
	esac
	[ "${1:-}" != synthetic ] || case $f in */synthetic*.jfr | */async.jfr) ;; *) continue ;; esac
	"$bin/jfr" print --json --stack-depth 1000000 "$f" | python3 "$here/jfr-folded.py" "$f.stacks" "$f.lines" "$f.threads" "$f.times"
	"$bin/jfr" summary "$f" | awk 'NF != 3 || $2 != "0"' > "$f.summary"
done
for g in stacks lines threads times summary; do cp "$out/synthetic.jfr.$g" "$out/synthetic-plain.jfr.$g"; done
# Kept gzip-compressed, as pyroscope stores JFR: the tests read them so.
case ${1:-} in
synthetic) ;;
goldens) rm -f "$out/chunks.jfr" "$out/default.jfr" ;;
*) gzip -9 -n -f "$out/chunks.jfr" "$out/default.jfr" ;;
esac
