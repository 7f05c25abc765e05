#!/usr/bin/env python3
"""bench/gen-firefox-processed.py OUT BYTES: a processed Firefox profile
(profiler.firefox.com's export, version 70 as samply saves: the shared
stack, frame, func and string tables, each thread's samples as columns
of stack, weight and timeDeltas) of about BYTES, grown from
testdata/firefox/processed-v70.json.gz: its tables (34,000 stacks over
7,000 frames) kept, and each of its 4 threads' samples drawn again from
its own stacks and time deltas, seeded, until the file has BYTES."""
import gzip
import json
import os
import random
import sys

out_path, want = sys.argv[1], int(sys.argv[2])
rng = random.Random(1)
profile = json.load(gzip.open(os.path.join(os.path.dirname(__file__), "../testdata/firefox/processed-v70.json.gz")))
threads = profile["threads"]
base = len(json.dumps(profile, separators=(",", ":")))
per_sample = 17  # a stack index, a weight and a time delta, with their commas
n = max(1, (want - base) // per_sample // len(threads))
for t in threads:
    s = t["samples"]
    stacks, deltas = s["stack"], s["timeDeltas"]
    s["stack"] = [stacks[rng.randrange(len(stacks))] for _ in range(n)]
    s["weight"] = [1 + (rng.random() < 0.1) for _ in range(n)]  # samply merges samples of one stack in a row
    s["timeDeltas"] = [round(deltas[rng.randrange(len(deltas))], 6) for _ in range(n)]
    s["length"] = n
with open(out_path, "w") as out:
    json.dump(profile, out, separators=(",", ":"))
