#!/usr/bin/env python3
"""bench/gen-stackprof.py OUT BYTES json|marshal: a Ruby stackprof dump of
StackProf.run(mode: :cpu, raw: true, interval: 1000), of about BYTES:
`raw` (records of a length, the frame ids root first, and how many
samples in a row had that stack), `raw_sample_timestamps` and
`raw_timestamp_deltas`, and `frames` (name, file, line, total_samples,
samples, edges), as stackprof 0.2.21 writes them. Frame ids are VALUEs
(addresses near 2**47), so Marshal writes each as a Bignum, as in real
dumps. `marshal` is the file StackProf.run(out: F) writes (Marshal 4.8:
Symbols linked after their first use, each file name's String linked
after its first, as Ruby links one object); `json` is `stackprof F
--json`'s form. Stacks: one of 400 call paths (5 to 60 deep over 3000
methods of 300 files) under 1 to 3 leaf frames, half the samples on the
path of the one before (a program stays in a loop), seeded: the same
file each run."""
import json
import random
import struct
import sys

out_path, want, form = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(1)
ids = [139873349000000 + 40 * k for k in range(3000)]
paths = [[rng.randrange(3000) for _ in range(5 + rng.randrange(56))] for _ in range(400)]
per_id = 16 if form == "json" else 9  # bytes a frame id takes in raw
raw, deltas, stamps, stacks = [], [], [], {}
clock, size, prev, path = 25905826555, 0, None, None
while size < want:
    if prev is None or rng.random() < 0.5:
        path = paths[rng.randrange(400)]
    prev = tuple(path + [rng.randrange(3000) for _ in range(1 + rng.randrange(3))])
    n = 1 + (rng.random() < 0.05)  # stackprof counts a stack repeated in a row in one record
    raw.append(len(prev))
    raw.extend(ids[f] for f in prev)
    raw.append(n)
    stacks[prev] = stacks.get(prev, 0) + n
    for _ in range(n):
        d = 1000 + rng.randrange(200)
        clock += d
        deltas.append(d)
        stamps.append(clock)
    size += len(prev) * per_id + 20
frames = {}
for f in range(3000):
    frames[f] = {"name": "Pkg%d::Class%d#method%d" % (f % 30, f % 300, f), "file": "/app/lib/pkg%d/class%d.rb" % (f % 30, f % 300),
                 "line": 10 + f % 500, "total_samples": 0, "samples": 0, "edges": {}}
for stack, n in stacks.items():
    for k, f in enumerate(stack):
        if f not in stack[:k]:
            frames[f]["total_samples"] += n
        if k + 1 < len(stack):
            e = frames[f]["edges"]
            e[stack[k + 1]] = e.get(stack[k + 1], 0) + n
    frames[stack[-1]]["samples"] += n
used = {f for s in stacks for f in s}
total = sum(stacks.values())
dump = [("version", 1.2), ("mode", ("sym", "cpu")), ("interval", 1000), ("samples", total), ("gc_samples", 0),
        ("missed_samples", 0), ("metadata", {}),
        ("frames", [(ids[f], frames[f]) for f in sorted(used)]),
        ("raw", raw), ("raw_sample_timestamps", stamps), ("raw_timestamp_deltas", deltas)]

if form == "json":
    def plain(v):
        if isinstance(v, tuple):
            return v[1]
        return v
    doc = {}
    for k, v in dump:
        if k == "frames":
            doc[k] = {str(i): {**fr, "edges": {str(ids[c]): n for c, n in fr["edges"].items()}} for i, fr in v}
        else:
            doc[k] = plain(v)
    with open(out_path, "w") as out:
        json.dump(doc, out, separators=(",", ":"))
    sys.exit(0)

class Marshal:
    def __init__(self):
        self.parts, self.symbols, self.objects, self.links = [b"\x04\x08"], {}, 0, {}

    def long(self, n):  # Marshal's packed integer
        if n == 0:
            return b"\x00"
        if 0 < n < 123:
            return bytes([n + 5])
        if -124 < n < 0:
            return struct.pack("b", n - 5)
        out = []
        for _ in range(4):
            out.append(n & 0xFF)
            n >>= 8
            if n in (0, -1):
                break
        return struct.pack("b", len(out) if n == 0 else -len(out)) + bytes(out)

    def symbol(self, name):
        if name in self.symbols:
            self.parts.append(b";" + self.long(self.symbols[name]))
            return
        self.symbols[name] = len(self.symbols)
        b = name.encode()
        self.parts.append(b":" + self.long(len(b)) + b)

    def value(self, v, link_key=None):
        if v is None:
            self.parts.append(b"0")
        elif isinstance(v, tuple):
            self.symbol(v[1])
        elif isinstance(v, int) and -2**30 <= v < 2**30:
            self.parts.append(b"i" + self.long(v))
        elif isinstance(v, int):
            self.objects += 1
            mag = abs(v).to_bytes((abs(v).bit_length() + 15) // 16 * 2, "little")
            self.parts.append(b"l" + (b"+" if v > 0 else b"-") + self.long(len(mag) // 2) + mag)
        elif isinstance(v, float):
            self.objects += 1
            b = repr(v).encode()
            self.parts.append(b"f" + self.long(len(b)) + b)
        elif isinstance(v, str):
            if link_key is not None and link_key in self.links:
                self.parts.append(b"@" + self.long(self.links[link_key]))
                return
            if link_key is not None:
                self.links[link_key] = self.objects
            self.objects += 1
            b = v.encode()
            self.parts.append(b'"' + self.long(len(b)) + b)
        elif isinstance(v, list) and v and isinstance(v[0], tuple) and len(v[0]) == 2 and not isinstance(v[0][0], str):
            self.hash(v)  # frames: pairs of id and frame
        elif isinstance(v, list):
            self.objects += 1
            self.parts.append(b"[" + self.long(len(v)))
            self.integers(v)
        elif isinstance(v, dict):
            self.hash(list(v.items()))

    def integers(self, v):  # raw's millions of numbers: each one's bytes made once
        made = {}
        for x in v:
            b = made.get(x)
            if b is None:
                objects = self.objects
                self.value(x)
                b = made[x] = self.parts.pop()
                self.objects = objects
            self.parts.append(b)
            self.objects += b[0] == ord("l")  # a Bignum is an object each time it is written

    def hash(self, pairs):
        self.objects += 1
        self.parts.append(b"{" + self.long(len(pairs)))
        for k, x in pairs:
            if isinstance(k, str):
                self.symbol(k)
            else:
                self.value(k)
            if isinstance(x, dict) and "edges" in x:
                self.frame(x)
            else:
                self.value(x)

    def frame(self, fr):
        self.objects += 1
        self.parts.append(b"{" + self.long(6))
        self.symbol("name"); self.value(fr["name"])
        self.symbol("file"); self.value(fr["file"], link_key=fr["file"])
        self.symbol("line"); self.value(fr["line"])
        self.symbol("total_samples"); self.value(fr["total_samples"])
        self.symbol("samples"); self.value(fr["samples"])
        self.symbol("edges"); self.hash([(ids[c], n) for c, n in fr["edges"].items()])

m = Marshal()
m.hash(dump)
with open(out_path, "wb") as out:
    out.write(b"".join(m.parts))
