# Java thread dumps, sourced by test/run.sh (uses test/lib.sh, PROF, TMP):
# dumps the JDK made here (testdata/jstack/: jstack, jcmd Thread.print,
# kill -3, several dumps in one file, a script(1) transcript, JDK 25's
# Thread.dump_to_file and JDK 21's form of it), and a made-up dump for
# each rule of docs/formats/jstack.md, judged by those rules as
# test/jstack-collapse.awk reads them: stackcollapse-jstack.pl's, and
# prof's additions where the script reads nothing or drops a thread.

# prof's folded stacks of TYPE against the awk reading (ARGS: -v all=1,
# -v prof=1), both sorted.
folds_as_rules() { # FILE TYPE [AWK_ARGS...]
	file=$1 type=$2
	shift 2
	awk -f test/jstack-collapse.awk "$@" "$file" | LC_ALL=C sort > "$TMP/j.want" &&
		prof_q -f jstack -t folded -s "$type" "$file" > "$TMP/j.got" &&
		LC_ALL=C sort "$TMP/j.got" | cmp -s - "$TMP/j.want"
}
# Each thread's state label, as go tool pprof counts the tags of prof's
# pprof, against the states the file gives (awk: the first state line of
# each thread, or dump_to_file's header).
states_are_files() { # FILE
	prof_q -f jstack -t pprof -o "$TMP/j.pb.gz" "$1" &&
		go tool pprof -tags -sample_index=threads "$TMP/j.pb.gz" 2> /dev/null |
		awk '/^ state:/ { s = 1; next } s && NF == 0 { exit } s { print $NF, int($1) }' | LC_ALL=C sort > "$TMP/j.tags" &&
		awk '/^#[0-9]+ "/ { if (match($0, /" [A-Z_]+ /)) n[substr($0, RSTART + 2, RLENGTH - 3)]++; next }
			/^"/ { seen = 0; next } /^$/ { seen = 0; next }
			/java.lang.Thread.State: / && !seen { s = substr($0, index($0, "State: ") + 7); sub(/[ \t].*/, "", s); n[s]++; seen = 1 }
			END { for (s in n) print s, n[s] }' "$1" | LC_ALL=C sort | cmp -s - "$TMP/j.tags"
}
for f in $(light_every 3 testdata/jstack/*); do
	case $f in
	*dump-to-file*) check "jstack: $f folds by the rules with prof's additions" folds_as_rules "$f" runnable -v prof=1 ;;
	*script*) tr -d '\r' < "$f" > "$TMP/no-cr.txt"
		check "jstack: $f (CR LF) folds as the script folds it without its CRs" \
			sh -c 'awk -f test/jstack-collapse.awk "$1" | LC_ALL=C sort > "$2.want" && "$3" -q -t folded "$4" | LC_ALL=C sort | cmp -s - "$2.want"' \
			- "$TMP/no-cr.txt" "$TMP/j" "$PROF" "$f" ;;
	*) check "jstack: $f folds as stackcollapse-jstack.pl's rules fold it" folds_as_rules "$f" runnable ;;
	esac
	check "jstack: every thread of $f, as the rules read threads" folds_as_rules "$f" threads -v all=1 -v prof=1
	check "jstack: $f sniffed from stdin" prints 0 '(jstack)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
done
for f in testdata/jstack/jdk17.jstack testdata/jstack/jdk25-jcmd.txt testdata/jstack/jdk25-dump-to-file.txt; do
	check "jstack: the state labels of $f are its threads' states" states_are_files "$f"
done
# A console that prefixes every line (sbt's "[info] "; sed makes it): the
# prefix before "Full thread dump" is taken off, blank lines included, and
# the dump reads as the file itself.
sed 's/^/[info] /' testdata/jstack/jdk17-many.jstack > "$TMP/prefixed.txt"
check "jstack: a dump whose lines a console prefixed reads as the dump, sniffed" \
	sh -c '"$0" -q -t folded "$1" | LC_ALL=C sort > "$3.prefixed" && "$0" -q -t folded "$2" | LC_ALL=C sort | cmp -s - "$3.prefixed"' \
	"$PROF" "$TMP/prefixed.txt" testdata/jstack/jdk17-many.jstack "$TMP/j"
check "jstack: three dumps in one file count each thread three times" \
	sh -c '"$0" -q -t folded -s threads "$1" | grep -q "^main;.* 3$"' "$PROF" testdata/jstack/jdk17-many.jstack
check "jstack: with states, runnable is the default type" prints 0 '^sample type: *runnable' "$PROF" -t summary testdata/jstack/jdk17.jstack
check "jstack: without states (JDK 21's dump_to_file), threads is" prints 0 '^sample type: *threads' \
	"$PROF" -t summary testdata/jstack/jdk21-dump-to-file.txt

# One made-up dump per rule (docs/formats/jstack.md), each folded by prof
# as the rules fold it, for the runnable threads and for every thread.
# (Each case is written first, then judged: a check at the end of a pipe
# would count in a subshell.)
rule_case() { # NAME: $TMP/rule-NAME.txt judged
	check "jstack rule $1: runnable threads" folds_as_rules "$TMP/rule-$1.txt" runnable -v prof=1
	check "jstack rule $1: every thread" folds_as_rules "$TMP/rule-$1.txt" threads -v all=1 -v prof=1
}
header() { printf '"%s" #%d prio=5 os_prio=0 tid=0x1 nid=0x2 runnable [0x3]\n' "$1" "$2"; }
state() { printf '   java.lang.Thread.State: %s\n' "$1"; }
{ header pool-1-thread-12 1; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header pool-1-thread-3 2; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header worker- 3; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header x-1y 4; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'; } > "$TMP/rule-name-without-number.txt"
rule_case name-without-number
{ header first 1; state RUNNABLE; state WAITING; printf '\tat a.B.run(B.java:1)\n\n'
  header second 2; state 'TIMED_WAITING (sleeping)'; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header none 3; printf '\tat a.B.run(B.java:1)\n\n'; } > "$TMP/rule-first-state-wins.txt"
rule_case first-state-wins
{ header 'C2 CompilerThread0' 1; state RUNNABLE; printf '\tat a.B.compile(B.java:1)\n\n'
  header 'my Service Thread pool' 2; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header 'Signal Dispatcher' 3; state RUNNABLE; printf '\n'
  header 'Attach Listener' 4; state RUNNABLE; printf '\n'
  header 'Go CompilerThread' 5; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header 'Notification Thread' 6; state RUNNABLE; printf '\n'; } > "$TMP/rule-background-threads.txt"
rule_case background-threads
{ header epoll 1; state RUNNABLE; printf '\tat sun.nio.ch.EPollArrayWrapper.epollWait(Native Method)\n\tat a.B.poll(B.java:1)\n\n'
  header epoll-new 2; state RUNNABLE; printf '\tat sun.nio.ch.EPoll.wait(Native Method)\n\n'
  header accept 3; state RUNNABLE; printf '\tat java.net.PlainSocketImpl.socketAccept(Native Method)\n\n'
  header accept0 4; state RUNNABLE; printf '\tat sun.nio.ch.ServerSocketChannelImpl.accept0(Native Method)\n\n'
  header read 5; state RUNNABLE; printf '\tat java.net.SocketInputStream.socketRead0(Native Method)\n\tat java.net.SocketInputStream.read(SocketInputStream.java:150)\n\n'
  header other-accept0 6; state RUNNABLE; printf '\tat a.Channel.accept0(Native Method)\n\n'; } > "$TMP/rule-waiting-on-io.txt"
rule_case waiting-on-io
{ header frames 1; state RUNNABLE
  printf '\tat a.B.c(B.java:12)\n        at a.B.d(Unknown Source)\n at java.base@17/java.lang.Thread.run(Thread.java:840)\n\tat noparens\n'
  printf '\t- locked <0x1> (a java.lang.Object)\n\tat a.$Lambda$1/0x0001.run(Unknown Source)\n\n'; } > "$TMP/rule-frame-names.txt"
rule_case frame-names
{ printf '2024-01-02 03:04:05\nFull thread dump OpenJDK 64-Bit Server VM (17 mixed mode):\n\n'
  printf 'Threads class SMR info:\n_java_thread_list=0x1, length=1, elements={\n0x1\n}\n\n'
  printf '$ jstack 123\n# a comment\n'; header t 1; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n   No compile task\n\n'
  printf '"VM Thread" os_prio=0 tid=0x1 nid=0x2 runnable\n\nJNI global references: 12\nJNI global refs: 12, weak refs: 0\n$ exit\n'; } > "$TMP/rule-other-lines.txt"
rule_case other-lines
{ header a 1; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n'
  header b 2; state WAITING; printf '\tat a.B.wait(B.java:2)\n\n'
  header twice 3; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header twice 4; state RUNNABLE; printf '\tat a.B.run(B.java:1)\n\n'
  header unended 5; state RUNNABLE; printf '\tat a.B.last(B.java:9)\n'; } > "$TMP/rule-threads-end-at-blank-lines.txt"
rule_case threads-end-at-blank-lines
{ printf '123\n2024-01-02T03:04:05Z\n21.0.1+12-LTS\n\n#1 "main"\n      a.B.main(B.java:3)\n      java.base/a.B.x(B.java:4)\n\n'
  printf '#22 "" virtual\n      a.B.v(B.java:5)\n\n#3 "pool-2" RUNNABLE 2024-01-02T03:04:05Z\n    at a.B.run(B.java:1)\n    - locked <a.B@1>\n\n'
  printf '#4 "Attach Listener" RUNNABLE 2024-01-02T03:04:05Z\n\n#5 "w" WAITING 2024-01-02T03:04:05Z\n    at a.B.w(B.java:2)\n\n'; } > "$TMP/rule-dump-to-file.txt"
rule_case dump-to-file
check "jstack rule first-state-wins: the state labels are each thread's first" states_are_files "$TMP/rule-first-state-wins.txt"
# A frame's file and line, from "(FILE:LINE)" after any module: each
# "at" line's, as sed reads them, against the tables' functions and locations.
frame_places_are_files() { # FILE
	sed -n 's/^[ \t]*at \([^(]*\)(\([^:/)]*\/\)*\([^:)]*\):\([0-9]*\)).*/\1	\3	\4/p' "$1" | LC_ALL=C sort -u > "$TMP/j.places" &&
		prof_q -f jstack -t tables "$1" > "$TMP/j.tables" &&
		awk -F'\t' '/^# / { part = $0; getline; next } !NF { next }
			part == "# locations" { fn[$1] = $2; line[$1] = $3 }
			part == "# functions" { name[$1] = $2; file[$1] = $4 }
			END { for (l in fn) if (line[l] > 0) print name[fn[l]] "\t" file[fn[l]] "\t" line[l] }' "$TMP/j.tables" |
		LC_ALL=C sort -u | cmp -s - "$TMP/j.places"
}
for f in "$TMP/rule-frame-names.txt" testdata/jstack/jdk17.jstack testdata/jstack/jdk25-dump-to-file.txt; do
	check "jstack: the file and line of each frame of ${f##*/}" frame_places_are_files "$f"
done
