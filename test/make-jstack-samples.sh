#!/bin/sh
# Regenerates the Java thread dumps in testdata/jstack/ from
# test/java/Dumped.java (threads held RUNNABLE, BLOCKED, sleeping, waiting,
# parked and in accept), run by OpenJDK 17 and by JDK 25:
# - jdkN.jstack: `jstack PID`; jdkN-jcmd.txt: `jcmd PID Thread.print`;
# - jdk17-many.jstack: three `jstack PID` appended, as the FlameGraph
#   README's loop makes them;
# - jdkN-kill3.txt: the program's stdout with the dump `kill -3 PID` has
#   the JVM print there, among the program's own lines and the heap summary;
# - jdk17-script.txt: `script -q -c 'jstack PID'`, a terminal transcript
#   (util-linux script(1): CR LF line ends after its own header);
# - jdk25-dump-to-file.txt: `jcmd PID Thread.dump_to_file -format=text`;
#   jdk21-dump-to-file.txt: the same with the states and `at` taken out by
#   sed, the form JDK 21 writes (../shared/formats/stack-collapse.md; no
#   JDK 21 here).
# Addresses, ids and timings differ from run to run; the tests judge the
# files by stackcollapse-jstack.pl's rules (test/jstack-collapse.awk), not
# by fixed stacks.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata/jstack"
jdk17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
work=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2> /dev/null; rm -rf "$work"' EXIT
mkdir -p "$out"
"$jdk17/bin/javac" -d "$work" "$here/java/Dumped.java"
start() { # JDK NAME: runs Dumped, its stdout in $work/NAME.out, until it says ready
	: > "$work/$2.out"
	"$1/bin/java" -Xmx64m -cp "$work" Dumped > "$work/$2.out" 2>&1 &
	pid=$!
	while ! grep -q '^ready$' "$work/$2.out"; do sleep 0.1; done
}
stop() { # NAME: kill -3, then the process ended and its stdout kept
	kill -3 "$pid"
	sleep 1
	kill "$pid"
	wait "$pid" || true
	pid=
	cp "$work/$1.out" "$out/$1-kill3.txt"
}
start "$jdk17" jdk17
"$jdk17/bin/jstack" "$pid" > "$out/jdk17.jstack"
"$jdk17/bin/jcmd" "$pid" Thread.print > "$out/jdk17-jcmd.txt"
: > "$out/jdk17-many.jstack"
for i in 1 2 3; do "$jdk17/bin/jstack" "$pid" >> "$out/jdk17-many.jstack"; sleep 0.2; done
script -q -c "$jdk17/bin/jstack $pid" "$out/jdk17-script.txt" > /dev/null
stop jdk17
start "$jdk25" jdk25
"$jdk25/bin/jstack" "$pid" > "$out/jdk25.jstack"
"$jdk25/bin/jcmd" "$pid" Thread.print > "$out/jdk25-jcmd.txt"
"$jdk25/bin/jcmd" "$pid" Thread.dump_to_file -format=text "$work/dump.txt" > /dev/null
cp "$work/dump.txt" "$out/jdk25-dump-to-file.txt"
stop jdk25
sed -e 's/^\(#[0-9]* "[^"]*"\) [A-Z_]* [0-9TZ:.-]*$/\1/' -e 's/^    at /      /' -e '/^    - /d' \
	"$out/jdk25-dump-to-file.txt" > "$out/jdk21-dump-to-file.txt"
