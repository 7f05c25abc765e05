#!/bin/sh
# bench/gen-jstack.sh OUT BYTES: jstack dumps of a JDK 17 server, taken one
# after another (`jstack PID >> OUT`, as people watch a busy JVM) until the
# file has BYTES. Each dump has 200 pool threads and the JVM's own; each
# pool thread's stack is one of 400 call paths (10 to 90 frames over 3000
# methods of 300 classes, as web servers' stacks are deep) under 1 to 3
# leaf frames, in a state with its `- locked` / `- waiting on` / `- parking
# to wait for` lines as HotSpot prints them. Seeded: the same file each run.
set -eu
awk -v want="$2" '
function method(m) { return sprintf("com.example.pkg%d.Class%d.method%d(Class%d.java:%d)", m % 30, m % 300, m, m % 300, 20 + m % 900) }
function emit(x) { printf "%s", x; size += length(x) }
function addr() { return sprintf("0x%016x", 4293918720 + int(rand() * 1048576) * 8) }
BEGIN { srand(1)
	for (p = 0; p < 400; p++) { d = 10 + int(rand() * 81); s = ""
		for (k = 0; k < d; k++) s = s "\tat " method(int(rand() * 3000)) "\n"
		path[p] = s "\tat java.lang.Thread.run(java.base@17.0.21.1/Thread.java:840)\n" }
	split("RUNNABLE|WAITING (parking)|TIMED_WAITING (sleeping)|BLOCKED (on object monitor)|WAITING (on object monitor)", state, "|")
	split("runnable|waiting on condition|waiting on condition|waiting for monitor entry|in Object.wait()", what, "|")
	size = 0; t = 0
	while (size < want) { t += 1 + rand()
		emit(sprintf("2026-11-27 17:%02d:%02d\nFull thread dump OpenJDK 64-Bit Server VM (17.0.21.1+2-1-deb12u1-Debian mixed mode, sharing):\n\n", int(t / 60) % 60, int(t) % 60))
		emit("Threads class SMR info:\n_java_thread_list=0x00007fead8002750, length=212, elements={\n0x00007feb60017ef0, 0x00007feb60096420, 0x00007feb60097800, 0x00007feb6009f260\n}\n\n")
		for (i = 0; i < 200; i++) { st = 1 + int(rand() * 5)
			emit(sprintf("\"http-nio-8080-exec-%d\" #%d daemon prio=5 os_prio=0 cpu=%.2fms elapsed=%.2fs tid=0x00007feb6%07x nid=0x%x %s  [0x00007feb4%07x]\n   java.lang.Thread.State: %s\n",
				i + 1, 30 + i, rand() * 90000, 100 + t, i * 4096, 19600 + i, what[st], i * 65536, state[st]))
			if (st == 2) emit("\tat jdk.internal.misc.Unsafe.park(java.base@17.0.21.1/Native Method)\n\t- parking to wait for  <" addr() "> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n")
			else if (st == 3) emit("\tat java.lang.Thread.sleep(java.base@17.0.21.1/Native Method)\n")
			else if (st == 5) emit("\tat java.lang.Object.wait(java.base@17.0.21.1/Native Method)\n\t- waiting on <" addr() "> (a java.lang.Object)\n")
			for (l = int(rand() * 3); l >= 0; l--) { emit("\tat " method(int(rand() * 3000)) "\n")
				if (st == 4 && l == 0) emit("\t- waiting to lock <" addr() "> (a com.example.Cache)\n") }
			if (rand() < 0.3) emit("\t- locked <" addr() "> (a java.lang.Object)\n")
			emit(path[int(rand() * 400)] "\n") }
		emit("\"VM Thread\" os_prio=0 cpu=0.93ms elapsed=4.56s tid=0x00007feb60092450 nid=0x4cb5 runnable  \n\n")
		for (i = 0; i < 8; i++) emit(sprintf("\"GC Thread#%d\" os_prio=0 cpu=0.05ms elapsed=4.66s tid=0x00007feb600389b0 nid=0x4c%02x runnable  \n\n", i, 148 + i))
		emit("JNI global refs: 12, weak refs: 0\n\n")
		}
}' > "$1"
