# Legacy pprof (-f legacy), sourced by test/run.sh (uses test/lib.sh, PROF,
# TMP, DUMP). The judge is Go's own reader: github.com/google/pprof's
# ParseData, through `go tool pprof -raw` (goldens in testdata/legacy/,
# made by test/make-legacy-samples.sh from profiles real programs wrote)
# and through test/dump.go (every field as parsed, drop_frames included),
# which must print the same for the legacy file and for prof's pprof of it.
LEGACY=testdata/legacy

raw_of_sniffed_is() { # FILE GOLDEN: go tool pprof -raw of prof's pprof, the input sniffed on stdin
	"$PROF" -q -t pprof < "$1" > "$TMP/legacy.pb.gz" && go_raw_is "$TMP/legacy.pb.gz" "$2"
}

for f in "$LEGACY"/*.cpu "$LEGACY"/*.heap "$LEGACY"/*.txt; do
	raw=${f%.*}.raw
	check "$f sniffed as legacy" prints 0 'valid legacy profile' "$PROF" --check "$f"
	[ -f "$raw" ] || continue
	check "$f: go tool pprof -raw of prof's pprof is Go's reading" raw_of_sniffed_is "$f" "$raw"
	heavy "$f: the golden is what go tool pprof reads" go_raw_is "$f" "$raw"
	check "$f: Go's profile package reads the same profile" reads_as_go_does "$f"
done

# Go 1.19 writes a threadcreate row with no addresses and then refuses it;
# prof reads it as what it says: 4 threads created at an unknown place.
check "Go refuses its own threadcreate profile (the golden says how)" sh -c \
	'go tool pprof -raw -symbolize=none "$1" > /dev/null 2> "$2"; [ $? -eq 1 ] && grep -q "malformed profile format" "$2" && grep -q "malformed profile format" "$3"' \
	_ "$LEGACY/go-threadcreate.txt" "$TMP/err" "$LEGACY/go-threadcreate.err"
check "prof reads it: 4 threads, an empty stack" sh -c \
	'"$1" -q -t pprof "$2" > "$3" && "$4" "$3" | grep -q "^ *4: $"' _ "$PROF" "$LEGACY/go-threadcreate.txt" "$TMP/t.pb.gz" "$DUMP"

# Made-up files for the corners of Go's rules; Go's reading is the judge.
craft() { # NAME TEXT: $TMP/craft/NAME
	mkdir -p "$TMP/craft"
	printf '%b' "$2" > "$TMP/craft/$1"
}
words() { # NAME PACK WORD...: binary words (perl pack letter: V L4 LE, N L4 BE, Q< Q> 64-bit)
	name=$1 pack=$2; shift 2
	perl -e '$p = shift; print pack("$p*", map { hex } @ARGV)' "$pack" "$@" > "$TMP/craft/$name"
}
# The records after the header: every second frame the signal handler's
# (Go drops it), then a leaf the unwinder gave twice (Go drops the copy).
cpu_records() {
	echo 3 4 401010 500000 401010 403000  2 3 401020 500000 403000  1 3 401030 500000 403000  0 1 0
}
craft heap-v2 'heap profile: 2: 2048 [4: 4096] @ heap_v2/524288\n1: 1024 [2: 2048] @ 0x401000 0x402000\n  1: 1024 [2: 2048] @ 0x401000 0x403000\n'
craft heapz-v2 'heap profile: 1: 100 [1: 100] @ heapz_v2/100\n 1: 100 [ 1: 100] @ 0x10 0x20\n# a comment\n\n'
craft heap-no-rate 'heap profile: 1: 100 [1: 100] @ heap\n1: 100 [1: 100] @ 0x10\n'
craft growth 'heap profile: 1: 100 [0: 0] @ growthz\n1: 100 [0: 0] @ 0x10 0x20\n'
craft fragmentation 'heap profile: 1: 100 [0: 0] @ fragmentationz\n1: 100 [0: 0] @ 0x10 0x20\n'
craft heap-odd-lines 'heap profile: 1: 100 [2: 200] @ heapprofile\nxx -1: -100 [2: 200] @ 0x10 junk\n0: 0 [3: 30] @ 0x20\n-3: -30 [0: 0] @\n'
craft contentionz '--- contentionz 1 ---\ncycles/second = 2000000000\nsampling period = 10\nms since reset = 1234\ndiscarded samples = 0\n  500 2 @ 0x10 0x20\n12345 @ 0x30\n--- Memory map: ---\n00400000-00500000: /bin/prog\n'
craft mutex '--- mutex:\ncycles/second=1000000000\nsampling period=0\n100 1 @ 0x10\n# 0x10 main.f\n'
craft contention-hex '--- contention:\ncycles/second=0x3b9aca00\n7 3 @ 0x10\n--- more\nskipped\nMAPPED_LIBRARIES:\n0x400000-0x500000 r-xp 0 08:02 1 /bin/p\n'
craft goroutine '# a comment first\n\ngoroutine profile: total 9\n010 @ 0x10 0x20\n# 0x10 main.f\n\n1 @ 0x30\n'
craft maps 'heap profile: 1: 10 [1: 10] @ heapprofile
1: 10 [1: 10] @ 0x401234 0x7f0000001234 0x7f0000002345 0x600010 0x800010 0x900010 0xa00010 0x1000
MAPPED_LIBRARIES:
build=abc123
00400000-00500000 r-xp 00000000 08:02 1234 /usr/bin/prog
7f0000000000-7f0000002000 r-xp 00000000 08:02 99 /lib/libc.so.6
7f0000002000-7f0000003000 r-xp 00002000 08:02 99 /lib/libc.so.6
00600000-00700000 rw-p 00000000 00:00 0 [heap]
file.cc:12] 0x800000-0x900000 /opt/plugin.so (@1000) $build
0x900000 0xa00000 prog2
a00000-b00000: pr
'
craft maps-main-later 'heap profile: 1: 10 [1: 10] @ heapprofile
1: 10 [1: 10] @ 0x7f0000001234 0x401234 0x402234
MAPPED_LIBRARIES:
7f0000000000-7f0000002000 r-xp 00000000 08:02 99 /lib/libc.so.6
00401000-00500000 r-xp 00001000 08:02 1234 /usr/bin/prog (deleted)
[vdso]
'
craft maps-hugepage 'heap profile: 1: 10 [1: 10] @ heapprofile
1: 10 [1: 10] @ 0x401234 0x300000
MAPPED_LIBRARIES:
00200000-00400000 r-xp 00000000 00:00 0 /anon_hugepage
00400000-00500000 r-xp 00200000 08:02 1234 /usr/bin/prog
'
craft threadz '--- threadz 1 ---\n\n--- Thread 7f01 (name: main/1) stack: ---\n  PC: 0x401000 0x402000\n--- Thread 7f02 (name: w/2) stack: ---\n  [same as previous thread]\n--- Thread 7f03 (name: w/3) stack: ---\n  PC: 0x401010 0x401010 0x403000\n      creator: 0x404000\n--- Memory map: ---\n00400000-00500000: /bin/prog\n'
craft thread-no-stack '# comment\n--- Thread 7f01 (name: a/b/1) stack: ---\n PC: 0x10\n---- no stack trace for 7f02\nignored\n--- Memory map: ---\n00000000-00100000: /bin/p\n'
craft java-heap '--- heapz 1 ---\nformat = java\nresolution = bytes\n  100  2 @ 0x1 0x2\n  50 1 @ 0x2 0x3 0x4\n\n 0x1 a.B.c (B.java:12)\n 0x2 a.B.d (/src/a/B.java)\n 0x3 generated stub/JIT thing\n 0x2 a.B.d2 (B.java:-3)\n 0x9 unused (U.java:1)\n'
craft java-contention '--- contentionz 1 ---\nformat = java\nresolution = microseconds\nsampling period = 100\nms since reset = 60\n 5 1 @ 0x1 0x9\n\n 0x1 x.Y.z (Y.java:1)\n 0x9 x.Y.w (f (x) (Y.java:0)\n'
for name in heap-v2 heapz-v2 heap-no-rate growth fragmentation heap-odd-lines contentionz mutex \
	contention-hex goroutine maps maps-main-later maps-hugepage threadz thread-no-stack java-heap \
	java-contention; do
	check "made-up $name: read as Go reads it" reads_as_go_does "$TMP/craft/$name"
done

# Binary CPU profiles in every word size and byte order Go tries.
maps_text='00400000-00500000: /bin/prog\n'
words cpu32le V 0 3 0 2710 0 $(cpu_records)
words cpu32be N 0 3 0 2710 0 $(cpu_records)
words cpu64be 'Q>' 0 3 0 2710 0 $(cpu_records)
words cpu64le 'Q<' 0 3 0 2710 0 $(cpu_records)
for name in cpu32le cpu32be cpu64be cpu64le; do
	printf "$maps_text" >> "$TMP/craft/$name"
	check "made-up $name: read as Go reads it" reads_as_go_does "$TMP/craft/$name"
done
words java-cpu 'Q<' 0 3 1 2710 0 3 2 1 2  1 3 2 3 4  0 1 0
printf ' 0x1 a.b (A.java:1)\n 0x2 c.d (C.java:2)\n 0x3 e.f (/x/E.java)\n' >> "$TMP/craft/java-cpu"
check "made-up java-cpu: read as Go reads it" reads_as_go_does "$TMP/craft/java-cpu"
words cpu-no-end 'Q<' 0 3 0 2710 0 5 2 401000 402000
check "a CPU profile without its end record: read, with a warning" says 0 'no end-of-data record' \
	"$PROF" -t pprof -o "$TMP/no-end.pb.gz" "$TMP/craft/cpu-no-end"
check "... and read as Go reads it" reads_as_go_does "$TMP/craft/cpu-no-end"
head -c 100 "$LEGACY/cpu-1thread.cpu" > "$TMP/craft/cut.cpu"
check "a CPU profile cut inside a record is refused at its byte" says 1 'byte 100: the profile ends inside' \
	"$PROF" -t pprof "$TMP/craft/cut.cpu"

# The refusals in testdata/invalid/legacy/ are Go's refusals too.
for f in testdata/invalid/legacy/*; do
	case $f in *.err) continue ;; esac
	check "Go refuses $f too" go_refuses "$f"
done
