#!/bin/sh
# Writes testdata/instruments/ and testdata/sample/: macOS text profiles
# made by hand (no macOS here), each in the exact layout of a real file:
# - instruments/: Instruments' deep copies, after speedscope's own samples
#   of each version (../shared/peers/speedscope/Instruments/: 7.3.1's
#   "Running Time  Self (ms)" and allocations' "Bytes Used  Count", 13.4's
#   "Weight  Self Weight" in cycles, 16.0's "Symbol Names" with its figure
#   spaces), with recursion, a node whose children outweigh it, and every
#   unit speedscope knows; and the Source Path column speedscope's importer
#   reads (no copy of ../shared has one), two functions of one name apart;
# - sample/: macOS sample's reports, after a real one
#   (../shared/testdata/wild/unsupported/macos-sample/inferno-sample.txt):
#   the header and its interval, "Call graph:" with the tree's + ! : |
#   marks, threads, ObjC and C++ symbols, unknown frames, same-name
#   siblings, and the sections after the graph.
# Tabs are written as '~' below and turned into tabs; FS as U+2007 (FIGURE
# SPACE), which Instruments 16 pads percentages with.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata"
fs=$(printf '\342\200\207')
tabs() { tr '~' '\t' | sed "s/FS/$fs/g"; }

tabs > "$out/instruments/time-7.3.1.txt" <<'END'
Running Time~Self (ms)~~Symbol Name
2012.0ms  100.0%~0~ ~start
2012.0ms  100.0%~2~ ~ main
1500.0ms   74.5%~300~ ~  work()
1200.0ms   59.6%~1190~ ~   work()
10.0ms    0.4%~10~ ~    malloc
400.0ms   19.8%~395~ ~  idle()
5.0ms    0.2%~5~ ~   <Unknown Address>
110.0ms    5.4%~0~ ~  helper()
60.0ms    2.9%~60~ ~   compute()
70.0ms    3.4%~70~ ~   compute2()
END

tabs > "$out/instruments/cycles-13.4.txt" <<'END'
Weight~Self Weight~~Symbol Name
12.50 Gc  100.0%~-~ ~demo (4242)
12.50 Gc  100.0%~-~ ~ start
12.50 Gc  100.0%~-~ ~  main
8.20 Gc   65.6%~1.10 Gc~ ~   demo::parse::h1a2b3c4d5e6f7a8b
7.10 Gc   56.8%~7.10 Gc~ ~    core::str::from_utf8::h9f8e7d6c5b4a3928
4.30 Gc   34.4%~12.00 Mc~ ~   demo::render::h4d5e6f7a8b9c0d1e
4.28 Gc   34.2%~4.28 Gc~ ~    _platform_memmove
850.00 Kc    0.0%~850.00 Kc~ ~   DYLD-STUB$$malloc
999 cycles    0.0%~999 cycles~ ~   mach_absolute_time
END

tabs > "$out/instruments/time-16.0.txt" <<'END'
Weight~Self Weight~Symbol Names
1.50 min  100.0%~0 s~   start
1.50 min  99.9%~0 s~    main
52.30 s  FS0.0%~846.00 ms~     delta()
797.00 ms  FS0.0%~786.00 ms~      alpha()
2.00 ms  FS0.0%~2.00 ms~       _malloc_zone_malloc
9.00 ms  FS0.0%~0 s~       delta()
9.00 ms  FS0.0%~9.00 ms~        szone_malloc_should_clear
30.10 s  FS0.0%~30.10 s~     gamma()
END

tabs > "$out/instruments/allocations-7.3.1.txt" <<'END'
Bytes Used~Count~~Symbol Name
 1.25 GB     100.0%~84671~ ~start
 1.25 GB     100.0%~84671~ ~ main
 640.50 MB      50.0%~42749~ ~  delta()
 512.00 KB       0.1%~12~ ~   leakMemory()
 900 Bytes       0.0%~3~ ~    malloc
 639.00 MB      49.9%~42000~ ~   beta()
 600.00 MB      48.0%~41000~ ~  gamma()
END

tabs > "$out/instruments/source-path.txt" <<'END'
Weight~Self Weight~Source Path~Symbol Name
10.00 ms  100.0%~-~/src/main.c~start
6.00 ms  60.0%~6.00 ms~/src/b.c~ helper
4.00 ms  40.0%~4.00 ms~/src/c.c~ helper
END

cat > "$out/sample/two-threads.txt" <<'END'
Analysis of sampling demo (pid 4242) every 1 millisecond
Process:         demo [4242]
Path:            /Users/me/demo
Load Address:    0x100000000
Identifier:      demo
Version:         0
Code Type:       ARM64
Platform:        macOS
Parent Process:  zsh [100]

Date/Time:       2026-11-27 10:00:00.000 +0000
Launch Time:     2026-11-27 09:59:58.000 +0000
OS Version:      macOS 14.5 (23F79)
Report Version:  7
Analysis Tool:   /usr/bin/sample

Physical footprint:         5.1M
Physical footprint (peak):  5.1M
----

Call graph:
    2410 Thread_1001   DispatchQueue_1: com.apple.main-thread  (serial)
    + 2410 start  (in dyld) + 2240  [0x18f1a20e0]
    +   2410 main  (in demo) + 64  [0x100003f40]
    +     1800 -[Parser parseAll:]  (in demo) + 120  [0x100003a78]
    +     ! 1500 -[Parser parseAll:]  (in demo) + 88  [0x100003a58]
    +     ! : 1200 std::__1::basic_string<char>::append(char const*)  (in libc++.1.dylib) + 40  [0x18f2b1234]
    +     ! : | 700 _platform_memmove  (in libsystem_platform.dylib) + 96  [0x18f4c5e60]
    +     ! : 300 ???  (in <unknown binary>)  [0x1050a0000]
    +     ! 300 -[Parser parseAll:]  (in demo) + 200  [0x100003ac8]
    +     500 render  (in demo) + 12  [0x100003b0c]
    +     ! 450 draw_line  (in demo) + 8  [0x100003c08]
    +     ! 40 draw_line  (in demo) + 60  [0x100003c3c]
    +     50 render  (in demo) + 80  [0x100003b50]
    +     60 ???  (in demo)  load address 0x100000000 + 0xf0000  [0x1000f0000]
    2410 Thread_1002
    + 2410 start_wqthread  (in libsystem_pthread.dylib) + 8  [0x18f4f0d1c]
    +   2410 _pthread_wqthread  (in libsystem_pthread.dylib) + 364  [0x18f4f2e6c]
    +     2400 __workq_kernreturn  (in libsystem_kernel.dylib) + 8  [0x18f4b8e4c]
    +     10 _dispatch_worker_thread2  (in libdispatch.dylib) + 180  [0x18f3a1f54]

Total number in stack (recursive counted multiple, when >=5):
        3       -[Parser parseAll:]  (in demo) + 0  [0x100003a00]
        2       draw_line  (in demo) + 0  [0x100003c00]

Sort by top of stack, same collapsed (when >= 5):
        __workq_kernreturn  (in libsystem_kernel.dylib)        2400
        _platform_memmove  (in libsystem_platform.dylib)        700

Binary Images:
       0x100000000 -        0x100007fff +demo (0) <1A2B3C4D-0000-0000-0000-000000000000> /Users/me/demo
END

cat > "$out/sample/interval.txt" <<'END'
Sampling process 777 for 2 seconds with 10 milliseconds of run time between samples
Sampling completed, processing symbols...
Sample analysis of process 777 written to file /dev/stdout

Analysis of sampling sleepy (pid 777) every 10 milliseconds
Process:         sleepy [777]
Path:            /usr/local/bin/sleepy
Identifier:      sleepy
Code Type:       X86-64
----

Call graph:
    180 Thread_55   DispatchQueue_1: com.apple.main-thread  (serial)
    + 180 start  (in libdyld.dylib) + 1  [0x7fff737cf3d5]
    +   180 main  (in sleepy) + 41  [0x10384b549]
    +     120 spin  (in sleepy) + 10  [0x10384b600]
    +     60 __semwait_signal  (in libsystem_kernel.dylib) + 10  [0x7fff7390a9de]

Total number in stack (recursive counted multiple, when >=5):

Binary Images:
END

cat > "$out/sample/graph-only.txt" <<'END'
Call graph:
    25 Thread_9
    + 25 thread_start  (in libsystem_pthread.dylib) + 13  [0x7fff739c240d]
    +   20 worker  (in app) + 5  [0x10a000005]
    +   ! 20 compute  (in app) + 9  [0x10a000109]
    +   3 worker  (in app) + 70  [0x10a000046]
    7 Thread_10
    + 7 thread_start  (in libsystem_pthread.dylib) + 13  [0x7fff739c240d]
END
