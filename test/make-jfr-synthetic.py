#!/usr/bin/env python3
"""Writes small JFR files byte by byte, for what a JVM's recording seldom
shows: testdata/jfr/synthetic.jfr (two chunks that reuse each other's ids
with other meanings; constant pools spread over two checkpoints, as a
flushing JDK writes them; every string encoding: null, empty, constant
pool, UTF-8, char array with a surrogate pair, Latin-1; a truncated stack;
a frame with no class, as async-profiler writes native frames; a park
duration in ticks), the same with plain integers (synthetic-plain.jfr),
the same in format 1.0 as JDK 9 and 10 wrote it (synthetic-1.0.jfr: no JDK
that old here), async-profiler's own event types as its jfrMetadata.cpp
lays them out (async.jfr: profiler.WallClockSample, profiler.Malloc,
profiler.LiveObject), synthetic.jfr's first chunk with events of a type
its metadata does not define (synthetic-undefined-event.jfr), and
testdata/invalid/jfr/: one fault each. test/make-jfr-samples.sh runs
it and has the JDK's jfr tool read each chunk of the valid ones alone for
their goldens: the JDK's reader keeps a pool entry's value from one chunk
to the next, where the format (and async-profiler's converters, and prof)
takes each chunk's own.

Usage: make-jfr-synthetic.py TESTDATA-JFR INVALID-JFR WORK-DIR, or
make-jfr-synthetic.py --bench OUT MEGABYTES [REPEAT]: one chunk of
execution samples as async-profiler writes them (few stacks, many
samples: 2,000 traces 8 to 40 deep over 5,000 methods, 16 threads),
seeded, for make bench; with REPEAT, the samples come REPEAT times in
the one chunk, going back in time at each repetition (test/jfr.sh).
"""
import os
import struct
import sys

import random

# Class ids, as a JDK numbers them: any numbers will do.
LONG, INT, BOOLEAN, STRING = 1, 2, 3, 4
THREAD, CLASS, SYMBOL, METHOD, FRAME_TYPE, FRAME, TRACE, STATE = 20, 21, 22, 23, 24, 25, 26, 27
TIMESPAN, EVENT, TIMESTAMP = 40, 41, 42
EXECUTION_SAMPLE, THREAD_PARK = 100, 101
WALL_CLOCK, MALLOC, LIVE_OBJECT = 102, 103, 104
UNDEFINED = 732  # no class has it


class Writer:
    def __init__(self, compressed):
        self.compressed = compressed
        self.b = bytearray()

    def leb(self, v):
        v &= (1 << 64) - 1
        for _ in range(8):
            if v < 0x80:
                self.b.append(v)
                return self
            self.b.append(v & 0x7F | 0x80)
            v >>= 7
        self.b.append(v)
        return self

    def long(self, v):
        return self.leb(v) if self.compressed else self.raw(struct.pack(">q", v))

    def int(self, v):
        return self.leb(v) if self.compressed else self.raw(struct.pack(">i", v))

    def short(self, v):
        return self.leb(v) if self.compressed else self.raw(struct.pack(">H", v))

    def byte(self, v):
        self.b.append(v)
        return self

    def raw(self, data):
        self.b += data
        return self

    def utf8(self, s):
        data = s.encode()
        return self.byte(3).int(len(data)).raw(data)

    def latin1(self, s):
        data = s.encode("latin-1")
        return self.byte(5).int(len(data)).raw(data)

    def chars(self, s):
        units = s.encode("utf-16-be")
        self.byte(4).int(len(units) // 2)
        for i in range(0, len(units), 2):
            self.short(units[i] << 8 | units[i + 1])
        return self

    def pooled(self, key):
        return self.byte(2).long(key)


def event(compressed, type_id, body):
    """size (counting itself: an int, padded to 4 bytes when compressed), type, body"""
    w = Writer(compressed)
    w.long(type_id).raw(body)
    size = len(w.b) + 4
    if compressed:
        head = bytes([size & 0x7F | 0x80, size >> 7 & 0x7F | 0x80, size >> 14 & 0x7F | 0x80, size >> 21 & 0x7F])
    else:
        head = struct.pack(">i", size)
    return head + bytes(w.b)


def element(strings, name, attrs, children=()):
    out = [("int", strings.index(name)), ("int", len(attrs))]
    for k, v in attrs:
        out += [("int", strings.index(k)), ("int", strings.index(v))]
    out.append(("int", len(children)))
    for c in children:
        out += c
    return out


def metadata(compressed, metadata_id=1, async_types=False):
    fields = {
        THREAD: [("osName", STRING, 0), ("osThreadId", LONG, 0), ("javaName", STRING, 0), ("javaThreadId", LONG, 0)],
        CLASS: [("name", SYMBOL, 1), ("modifiers", INT, 0)],
        SYMBOL: [("string", STRING, 0)],
        METHOD: [("type", CLASS, 1), ("name", SYMBOL, 1), ("descriptor", SYMBOL, 1)],
        FRAME_TYPE: [("description", STRING, 0)],
        FRAME: [("method", METHOD, 1), ("lineNumber", INT, 0), ("bytecodeIndex", INT, 0), ("type", FRAME_TYPE, 1)],
        TRACE: [("truncated", BOOLEAN, 0), ("frames", FRAME, 0)],
        STATE: [("name", STRING, 0)],
        EXECUTION_SAMPLE: [("startTime", LONG, 0), ("sampledThread", THREAD, 1), ("stackTrace", TRACE, 1), ("state", STATE, 1)],
        THREAD_PARK: [("startTime", LONG, 0), ("duration", LONG, 0), ("eventThread", THREAD, 1), ("stackTrace", TRACE, 1),
                      ("timeout", LONG, 0)],
    }
    events = {EXECUTION_SAMPLE: "jdk.ExecutionSample", THREAD_PARK: "jdk.ThreadPark"}
    if async_types:
        fields.update({
            WALL_CLOCK: [("startTime", LONG, 0), ("sampledThread", THREAD, 1), ("stackTrace", TRACE, 1),
                         ("state", STATE, 1), ("samples", INT, 0)],
            MALLOC: [("startTime", LONG, 0), ("eventThread", THREAD, 1), ("stackTrace", TRACE, 1),
                     ("address", LONG, 0), ("size", LONG, 0)],
            LIVE_OBJECT: [("startTime", LONG, 0), ("eventThread", THREAD, 1), ("stackTrace", TRACE, 1),
                          ("objectClass", CLASS, 1), ("allocationSize", LONG, 0), ("allocationTime", LONG, 0)],
        })
        events.update({WALL_CLOCK: "profiler.WallClockSample", MALLOC: "profiler.Malloc", LIVE_OBJECT: "profiler.LiveObject"})
    names = {LONG: "long", INT: "int", BOOLEAN: "boolean", STRING: "java.lang.String", THREAD: "java.lang.Thread",
             CLASS: "java.lang.Class", SYMBOL: "jdk.types.Symbol", METHOD: "jdk.types.Method",
             FRAME_TYPE: "jdk.types.FrameType", FRAME: "jdk.types.StackFrame", TRACE: "jdk.types.StackTrace",
             STATE: "jdk.types.ThreadState", TIMESPAN: "jdk.jfr.Timespan", EVENT: "jdk.jfr.Event",
             TIMESTAMP: "jdk.jfr.Timestamp", **events}
    strings = ["root", "metadata", "region", "class", "field", "annotation", "name", "id", "superType", "simpleType",
               "true", "constantPool", "dimension", "1", "value", "TICKS", "locale", "en_US", "gmtOffset", "0",
               "java.lang.annotation.Annotation"]
    for cid, name in names.items():
        strings += [name, str(cid)]
    for fl in fields.values():
        strings += [f[0] for f in fl]
    strings = list(dict.fromkeys(strings))
    classes = []
    for cid, name in names.items():
        attrs = [("name", name), ("id", str(cid))]
        if cid in events:
            attrs.append(("superType", "jdk.jfr.Event"))
        if cid in (TIMESPAN, TIMESTAMP):
            attrs.append(("superType", "java.lang.annotation.Annotation"))
        if cid in (SYMBOL, FRAME_TYPE, STATE):  # one field: a value is its field's, as the JDK marks them
            attrs.append(("simpleType", "true"))
        children = []
        for fname, ftype, pool in fields.get(cid, []):
            fattrs = [("name", fname), ("class", str(ftype))]
            if pool:
                fattrs.append(("constantPool", "true"))
            if (cid, fname) == (TRACE, "frames"):
                fattrs.append(("dimension", "1"))
            notes = []
            if (cid, fname) == (THREAD_PARK, "duration"):
                notes.append(element(strings, "annotation", [("class", str(TIMESPAN)), ("value", "TICKS")]))
            if fname in ("startTime", "allocationTime"):
                notes.append(element(strings, "annotation", [("class", str(TIMESTAMP)), ("value", "TICKS")]))
            children.append(element(strings, "field", fattrs, notes))
        if cid in (TIMESPAN, TIMESTAMP):
            children.append(element(strings, "field", [("name", "value"), ("class", str(STRING))]))
        classes.append(element(strings, "class", attrs, children))
    root = element(strings, "root", [], [element(strings, "metadata", [], classes),
                                         element(strings, "region", [("locale", "en_US"), ("gmtOffset", "0")])])
    w = Writer(compressed)
    w.long(0).long(0).long(metadata_id).int(len(strings))
    for s in strings:
        w.utf8(s)
    for kind, v in root:
        w.int(v)
    return event(compressed, 0, w.b)


def checkpoint(compressed, pools, delta=0):
    """pools: [(class id, [(key, bytes of the value)])]"""
    w = Writer(compressed)
    w.long(0).long(0).long(delta).byte(1).int(len(pools))
    for cid, entries in pools:
        w.long(cid).int(len(entries))
        for key, value in entries:
            w.long(key).raw(value)
    return event(compressed, 1, w.b)


def value(compressed, build):
    w = Writer(compressed)
    build(w)
    return bytes(w.b)


def trace(c, truncated, frames):
    def build(w):
        w.byte(truncated).int(len(frames))
        for method, line, frame_type in frames:
            w.long(method).int(line).int(0).long(frame_type)
    return value(c, build)


def chunk_pools(c, variant):
    """Constant pools of a chunk; variant 2 gives the same keys other meanings."""
    v = lambda build: value(c, build)
    if variant == 1:
        symbols = [(1, v(lambda w: w.utf8("demo/Main"))), (2, v(lambda w: w.utf8("main"))),
                   (3, v(lambda w: w.chars("caf\u00e9\U0001F600"))), (4, v(lambda w: w.pooled(9))),
                   (5, v(lambda w: w.utf8("()V"))), (6, v(lambda w: w.utf8("libc.so.6 write"))),
                   (7, v(lambda w: w.latin1("\u00fcber")))]
        classes = [(1, v(lambda w: w.long(1).int(1))), (2, v(lambda w: w.long(0).int(0)))]
        methods = [(1, v(lambda w: w.long(1).long(2).long(5))), (2, v(lambda w: w.long(1).long(3).long(5))),
                   (3, v(lambda w: w.long(1).long(4).long(5))), (4, v(lambda w: w.long(2).long(6).long(5))),
                   (5, v(lambda w: w.long(1).long(7).long(5)))]
        traces = [(1, trace(c, 0, [(2, 12, 1), (1, 30, 2)])), (2, trace(c, 1, [(3, 7, 1), (2, 12, 1)])),
                  (3, trace(c, 0, [(4, 0, 3), (5, -1, 2), (1, 31, 2)]))]
        threads = [(1, v(lambda w: w.utf8("main").long(101).latin1("main").long(1))),
                   (2, v(lambda w: w.utf8("worker \u00e9").long(102).byte(0).long(0))),
                   (3, v(lambda w: w.utf8("").long(103).byte(1).long(0)))]
        strings = [(9, v(lambda w: w.utf8("pooled")))]
    else:
        symbols = [(1, v(lambda w: w.utf8("demo/Other"))), (2, v(lambda w: w.utf8("run"))),
                   (5, v(lambda w: w.utf8("()V")))]
        classes = [(1, v(lambda w: w.long(1).int(1)))]
        methods = [(1, v(lambda w: w.long(1).long(2).long(5)))]
        traces = [(1, trace(c, 0, [(1, 5, 1)]))]
        threads = [(1, v(lambda w: w.utf8("second").long(104).utf8("second").long(5)))]
        strings = []
    frame_types = [(1, v(lambda w: w.utf8("JIT compiled"))), (2, v(lambda w: w.utf8("Interpreted"))),
                   (3, v(lambda w: w.utf8("Native")))]
    states = [(1, v(lambda w: w.utf8("STATE_RUNNABLE")))]
    # As a flushing JDK does: a first checkpoint, then one that adds to the
    # pools. The symbol that is a key into the string pool comes before it.
    first = [(SYMBOL, [e for e in symbols if e[0] in (1, 2, 4)]), (FRAME_TYPE, frame_types), (STRING, strings)]
    second = [(SYMBOL, [e for e in symbols if e[0] not in (1, 2, 4)]), (CLASS, classes), (METHOD, methods), (TRACE, traces), (THREAD, threads),
              (STATE, states)]
    # jfr print refuses a chunk with an empty pool (async-profiler writes such files).
    return [p for p in first if p[1]], second


def sample(c, time, thread, trace_key):
    return event(c, EXECUTION_SAMPLE, value(c, lambda w: w.long(time).long(thread).long(trace_key).long(1)))


def park(c, time, ticks, thread, trace_key):
    return event(c, THREAD_PARK, value(c, lambda w: w.long(time).long(ticks).long(thread).long(trace_key).long(0)))


def events(c, variant):
    if variant == 2:
        return [sample(c, 3000, 1, 1), sample(c, 3100, 1, 1)]
    return [sample(c, 1000, 1, 1), sample(c, 1010, 1, 1), sample(c, 1020, 2, 2), sample(c, 1030, 3, 3), sample(c, 1040, 1, 0),
            park(c, 1050, 2500, 2, 1), park(c, 1060, 500, 1, 3)]


def undefined_events(c):
    """synthetic.jfr's first chunk's events, with two of a type id its
    metadata does not define among them, as a JDK 16 emergency dump (hs_err)
    writes its type 732: the JDK's tools skip them by their size."""
    evs = events(c, 1)
    odd = lambda time: event(c, UNDEFINED, value(c, lambda w: w.long(time).long(7).utf8("not described")))
    return evs[:2] + [odd(1015)] + evs[2:5] + [odd(1045)] + evs[5:]


def chunk(compressed, variant, final, evs=None):
    """A chunk of pools of `variant`, and its events, or `evs`."""
    header = 68
    meta = metadata(compressed, variant)
    first, second = chunk_pools(compressed, variant)
    evs = b"".join(events(compressed, variant) if evs is None else evs)
    cp1 = checkpoint(compressed, first)
    at_cp1 = header + len(evs)
    at_cp2 = at_cp1 + len(cp1)
    cp2 = checkpoint(compressed, second, delta=at_cp1 - at_cp2)
    at_meta = at_cp2 + len(cp2)
    body = evs + cp1 + cp2 + meta
    size = header + len(body)
    # 1 000 ticks a second, from tick 0 at 2024-01-01T00:00:00Z.
    start_ns = 1704067200 * 10**9 + (variant - 1) * 10**9
    flags = (1 if compressed else 0) | (2 if final else 0)
    head = b"FLR\0" + struct.pack(">HHqqqqqqqBBBB", 2, 1, size, at_cp2, at_meta, start_ns, 5 * 10**9, 0, 1000,
                                      0, 0, 0, flags)
    return head + body


def async_chunk():
    """One chunk of async-profiler's event types, on synthetic.jfr's first pools."""
    c = True
    v = lambda build: value(c, build)
    first, second = chunk_pools(c, 1)

    def wall(time, thread, trace_key, samples):
        return event(c, WALL_CLOCK, v(lambda w: w.long(time).long(thread).long(trace_key).long(1).int(samples)))

    def malloc(time, thread, trace_key, size):
        return event(c, MALLOC, v(lambda w: w.long(time).long(thread).long(trace_key).long(0x7f0000001000 + time).long(size)))

    def live(time, thread, trace_key, size, allocated):
        return event(c, LIVE_OBJECT, v(lambda w: w.long(time).long(thread).long(trace_key).long(2).long(size).long(allocated)))
    evs = b"".join([wall(1000, 1, 1, 3), wall(1100, 2, 2, 1), wall(1200, 1, 1, 2), malloc(1300, 1, 3, 4096),
                    malloc(1400, 2, 3, 64), malloc(1450, 2, 1, 64), live(1500, 1, 1, 24, 1490), live(2600, 3, 3, 1 << 20, 1600)])
    cp = checkpoint(c, first + second)
    meta = metadata(c, 1, async_types=True)
    at_cp = 68 + len(evs)
    size = at_cp + len(cp) + len(meta)
    head = b"FLR\0" + struct.pack(">HHqqqqqqqBBBB", 2, 0, size, at_cp, at_cp + len(cp), 1704067200 * 10**9,
                                      3 * 10**9, 0, 1000, 0, 0, 0, 1)
    return head + evs + cp + meta


def version_1_0(chunk_bytes):
    """The chunk as JDK 9 and 10 wrote it: the same layout, format 1.0 in its header."""
    return chunk_bytes[:4] + struct.pack(">HH", 1, 0) + chunk_bytes[8:]


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def bench_chunk(megabytes, repeat=1):
    rnd = random.Random(1)
    c = True
    v = lambda build: value(c, build)
    symbols = [(k, v(lambda w, k=k: w.utf8("pkg%d/Class%d" % (k % 50, k) if k <= 1000 else "method%d" % k)))
               for k in range(1, 6001)] + [(6001, v(lambda w: w.utf8("()V")))]
    classes = [(k, v(lambda w, k=k: w.long(k).int(1))) for k in range(1, 1001)]
    methods = [(k, v(lambda w, k=k: w.long(rnd.randint(1, 1000)).long(1000 + k).long(6001))) for k in range(1, 5001)]
    traces = [(k, trace(c, 0, [(rnd.randint(1, 5000), rnd.randint(1, 900), rnd.randint(1, 2))
                               for _ in range(rnd.randint(8, 40))])) for k in range(1, 2001)]
    threads = [(k, v(lambda w, k=k: w.utf8("worker-%d" % k).long(k).utf8("worker-%d" % k).long(k))) for k in range(1, 17)]
    pools = [(SYMBOL, symbols), (FRAME_TYPE, [(1, v(lambda w: w.utf8("JIT compiled"))), (2, v(lambda w: w.utf8("Interpreted")))]),
             (CLASS, classes), (METHOD, methods), (TRACE, traces), (THREAD, threads),
             (STATE, [(1, v(lambda w: w.utf8("STATE_RUNNABLE")))])]
    body = bytearray()
    time, want = 0, megabytes * 10**6
    while len(body) < want:
        time += rnd.randint(1, 20)
        body += sample(c, time, rnd.randint(1, 16), rnd.randint(1, 2000))
    body = bytes(body) * repeat
    cp = checkpoint(c, pools)
    meta = metadata(c)
    at_cp = 68 + len(body)
    size = at_cp + len(cp) + len(meta)
    head = b"FLR\0" + struct.pack(">HHqqqqqqqBBBB", 2, 1, size, at_cp, at_cp + len(cp), 1704067200 * 10**9,
                                      time * 10**6, 0, 1000, 0, 0, 0, 3)
    return head + bytes(body) + cp + meta


def main():
    if sys.argv[1] == "--bench":
        write(sys.argv[2], bench_chunk(int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1))
        return
    OUT, INVALID, WORK = sys.argv[1:4]
    os.makedirs(INVALID, exist_ok=True)
    first, second = chunk(True, 1, False), chunk(True, 2, True)
    write(os.path.join(OUT, "synthetic.jfr"), first + second)
    write(os.path.join(WORK, "synthetic.1.jfr"), first)
    write(os.path.join(WORK, "synthetic.2.jfr"), second)
    write(os.path.join(OUT, "synthetic-plain.jfr"), chunk(False, 1, False) + chunk(False, 2, True))
    old_first, old_second = version_1_0(first), version_1_0(second)
    write(os.path.join(OUT, "synthetic-1.0.jfr"), old_first + old_second)
    write(os.path.join(WORK, "synthetic-1.0.1.jfr"), old_first)
    write(os.path.join(WORK, "synthetic-1.0.2.jfr"), old_second)
    write(os.path.join(OUT, "async.jfr"), async_chunk())
    write(os.path.join(OUT, "synthetic-undefined-event.jfr"), chunk(True, 1, True, undefined_events(True)))
    one = chunk(True, 1, True)
    patch = lambda data, at, new: data[:at] + new + data[at + len(new):]
    faults = {
        "version-0.9.jfr": patch(one, 4, struct.pack(">HH", 0, 9)),
        "version-3.jfr": patch(one, 4, struct.pack(">HH", 3, 0)),
        "chunk-size-too-small.jfr": patch(one, 8, struct.pack(">q", 20)),
        "no-ticks.jfr": patch(one, 56, struct.pack(">q", 0)),
        "header-cut-short.jfr": one[:40],
        "not-a-chunk-after.jfr": one + b"PK\3\4" + bytes(80),
        "event-too-big.jfr": patch(one, 68, bytes([0xFF, 0xFF, 0xFF, 0x7F])),
        "event-size-zero.jfr": patch(one, 68, bytes([0x80, 0x80, 0x80, 0x00])),
        "no-metadata.jfr": patch(one, one.rindex(metadata(True)) + 4, bytes([5])),
        "cut-before-metadata.jfr": one[:100],
        "bad-string-encoding.jfr": patch(one, one.index(b"\x03\x09demo/Main"), bytes([9])),
        "unknown-pool-class.jfr": patch(one, one.index(checkpoint(True, chunk_pools(True, 1)[0])) + 10, bytes([99])),
    }
    # Times and weights that nanoseconds cannot hold: the chunk's start
    # ticks the least a long holds, its start time the most; a park of 2^62
    # ticks; samples more than 2^63 ns from the first, in a later chunk or
    # going back in one.
    first_at_min = patch(chunk(True, 1, False), 32, struct.pack(">q", -2**63 + 10**12))
    faults.update({
        "start-ticks-min.jfr": patch(one, 48, struct.pack(">q", -2**63)),
        "start-time-max.jfr": patch(one, 32, struct.pack(">q", 2**63 - 1)),
        "park-too-long.jfr": chunk(True, 1, True, [sample(True, 1000, 1, 1), park(True, 1050, 2**62, 2, 1)]),
        "chunk-too-far-from-first.jfr": first_at_min + chunk(True, 2, True),
        "samples-too-far-apart.jfr": chunk(True, 1, True, [sample(True, 7 * 10**12, 1, 1), sample(True, -9 * 10**12, 1, 1)]),
    })
    for name, data in faults.items():
        write(os.path.join(INVALID, name), data)


main()
