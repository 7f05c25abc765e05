#!/usr/bin/env python3
"""Folded stacks of each event type, from the JDK's own reading of a JFR file.

Reads `jfr print --json --stack-depth 1000000` on stdin and writes one line
per distinct (event type, stack): TYPE, a tab, the frames outermost first
joined by ';', a space and the number of events. Frames are named as
async-profiler's converters name them and as docs/formats/jfr.md says prof
does: the class name with '/' as '.', a '.', the method name; the method
alone for a frame without a class or of async-profiler's C++ and kernel
types. Events with no stack (null or no frames) are left out, as prof's
folded output leaves them out. Lines are sorted, so that the file is
compared with prof's own sorted lines.
"""
import json
import sys
from collections import Counter


def frame_name(frame):
    method = frame.get("method")
    if not method:
        return "unknown"
    name = method.get("name") or ""
    cls = method.get("type")
    class_name = (cls or {}).get("name") or ""
    if not class_name or frame.get("type") in ("C++", "Kernel"):
        return name or "unknown"
    class_name = class_name.replace("/", ".")
    return class_name + "." + name if name else class_name


def main():
    events = json.load(sys.stdin)["recording"]["events"]
    counts = Counter()
    for event in events:
        trace = event["values"].get("stackTrace")
        if not trace or not trace.get("frames"):
            continue
        frames = [frame_name(f) for f in reversed(trace["frames"])]
        counts[(event["type"], ";".join(frames))] += 1
    lines = sorted("%s\t%s %d" % (t, s, n) for (t, s), n in counts.items())
    sys.stdout.write("".join(line + "\n" for line in lines))


main()
