#!/usr/bin/env python3
"""What the JDK's own reading of a JFR file says prof must read from it.

Reads `jfr print --json --stack-depth 1000000` on stdin (or from the
files named after the three outputs, one recording read as their sum:
the chunks of a file, each printed alone) and writes three files, each sorted (byte order) so that it compares with prof's sorted
output:

 STACKS   one line per distinct (sample type, stack): TYPE, a tab, the
          frames outermost first joined by ';', a space and the number of
          events; and for the events that weigh something (bytes, a
          duration in nanoseconds) the same with type TYPE:FIELD and the
          summed weight, where it is not 0;
 LINES    each distinct frame of those stacks as NAME:LINE (0 for none);
 THREADS  TYPE, a tab, the thread's name (Java's, else the OS's), a tab and
          the number of its events with stacks (Go's pprof has no sample
          without one, and the test counts threads in Go's reading);
 TIMES    TYPE, a tab, a second S, a tab and the number of its events
          (with a stack field, null or not) that started at least S and
          less than S+1 seconds after the first such event of any type.

Frames are named as async-profiler's converters name them and as
docs/formats/jfr.md says prof does: the class name with '/' as '.', a '.',
the method name; the method alone for a frame without a class or of
async-profiler's C++ and kernel types; a hidden class without what each run
makes anew (App$$Lambda$90+0x00007f5de8007a08/1234 is App$$Lambda). An
allocation's stack ends in the class it allocated (its objectClass, named
as Java writes it: java.lang.String, byte[]; none when null). Events with no stack (null,
or no frames) are left out, as prof's folded output leaves them out.
"""
import datetime
import json
import re
import sys
from collections import Counter

# The same table as formats/jfr_read.c's: what an event weighs.
WEIGHTS = {
    "jdk.ObjectAllocationSample": "weight",
    "jdk.ObjectAllocationInNewTLAB": "allocationSize",
    "jdk.ObjectAllocationOutsideTLAB": "allocationSize",
    "jdk.JavaMonitorEnter": "duration",
    "jdk.JavaMonitorWait": "duration",
    "jdk.ThreadPark": "duration",
    "profiler.Malloc": "size",
    "profiler.LiveObject": "allocationSize",
    "profiler.WallClockSample": "samples",
}


PRIMITIVES = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long", "S": "short", "Z": "boolean"}


def without_run_parts(class_name):
    """A hidden class's name without its address and hash, and a lambda's number."""
    m = re.fullmatch(r"(.*?)(\$\d+)?\+0x[0-9a-fA-F]+(?:/\d+)?", class_name)
    if not m:
        return class_name
    return m.group(1) + (m.group(2) or "" if not m.group(1).endswith("$$Lambda") else "")


def java_class_name(jvm):
    """[J as long[], [Ljava/lang/String; as java.lang.String[], '/' as '.'."""
    dims = len(jvm) - len(jvm.lstrip("["))
    base = jvm[dims:]
    if dims and base in PRIMITIVES:
        base = PRIMITIVES[base]
    elif dims and base.startswith("L") and base.endswith(";"):
        base = base[1:-1]
    return without_run_parts(base).replace("/", ".") + "[]" * dims


def frame_name(frame):
    method = frame.get("method")
    if not method:
        return "unknown"
    name = method.get("name") or ""
    class_name = (method.get("type") or {}).get("name") or ""
    if not class_name or frame.get("type") in ("C++", "Kernel"):
        return name or "unknown"
    class_name = without_run_parts(class_name).replace("/", ".")
    return class_name + "." + name if name else class_name


def nanoseconds(value):
    """A number, or java.time.Duration's text (PT1M2.5S), in nanoseconds."""
    if isinstance(value, (int, float)):
        return int(value)
    m = re.fullmatch(r"(-?)PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+)(?:\.(\d+))?S)?", value)
    h, mi, s, frac = (int(m.group(2) or 0), int(m.group(3) or 0), int(m.group(4) or 0), m.group(5) or "")
    ns = ((h * 60 + mi) * 60 + s) * 10**9 + int((frac + "000000000")[:9]) * (-1 if s < 0 else 1)
    return -ns if m.group(1) else ns


def thread_name(thread):
    if not thread:
        return None
    return thread.get("javaName") or thread.get("osName") or None


def start_ns(text):
    """2026-11-26T15:21:24.786253720Z (or +01:00 for Z) in nanoseconds since the epoch"""
    m = re.fullmatch(r"([^.]*?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?", text)
    zone = m.group(3) or "Z"
    stamp = datetime.datetime.fromisoformat(m.group(1) + ("+00:00" if zone == "Z" else zone))
    return int(stamp.timestamp()) * 10**9 + int(((m.group(2) or "") + "000000000")[:9])


def write_sorted(path, lines):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(line + "\n" for line in sorted(lines, key=lambda s: s.encode())))


def main():
    stacks_path, lines_path, threads_path, times_path = sys.argv[1:5]
    events = []
    for doc in [open(p, encoding="utf-8") for p in sys.argv[5:]] or [sys.stdin]:
        events += json.load(doc)["recording"]["events"]
    counts, frames_seen, threads, starts = Counter(), set(), Counter(), []
    for event in events:
        kind, values = event["type"], event["values"]
        if "stackTrace" not in values:
            continue
        starts.append((kind, start_ns(values["startTime"])))
        trace = values.get("stackTrace")
        if not trace or not trace.get("frames"):
            continue
        thread = thread_name(values.get("sampledThread") or values.get("eventThread"))
        if thread is not None:
            threads[(kind, thread)] += 1
        outermost_first = list(reversed(trace["frames"]))
        names = [frame_name(f) for f in outermost_first]
        for f in outermost_first:
            frames_seen.add("%s:%d" % (frame_name(f), max(f.get("lineNumber") or 0, 0)))
        if (values.get("objectClass") or {}).get("name"):
            allocated = java_class_name(values["objectClass"]["name"])
            names.append(allocated)
            frames_seen.add("%s:0" % allocated)
        stack = ";".join(names)
        counts[(kind, stack)] += 1
        field = WEIGHTS.get(kind)
        if field and values.get(field) is not None:
            counts[(kind + ":" + field, stack)] += nanoseconds(values[field])
    write_sorted(stacks_path, ("%s\t%s %d" % (t, s, n) for (t, s), n in counts.items() if n))
    write_sorted(lines_path, frames_seen)
    write_sorted(threads_path, ("%s\t%s\t%d" % (t, th, n) for (t, th), n in threads.items()))
    first = min((ns for _, ns in starts), default=0)
    seconds = Counter((kind, (ns - first) // 10**9) for kind, ns in starts)
    write_sorted(times_path, ("%s\t%d\t%d" % (t, sec, n) for (t, sec), n in seconds.items()))


main()
