"""An exact reading of a speedscope evented profile at a number of
decimals, for judging prof's rounding of times it cannot hold whole
(dotnet-trace's 16 decimals): each time rounded to 10^-DECIMALS, ties to
even, by Python's decimal module, then each stretch between two events
summed to its open stack, as speedscope's own reading does with doubles.
Exits 1, saying the first difference, when prof's folded stacks (GOT; a
stack left out counts 0) differ from that in any digit.

PROFILES is an index, or indexes joined by commas: threads that prof reads
as one type, summed.

Usage: python3 speedscope_decimals.py FILE PROFILES DECIMALS GOT
"""
import decimal
import json
import sys

path, indexes, decimals, got_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
with open(path) as f:
    doc = json.load(f, parse_float=decimal.Decimal, parse_int=decimal.Decimal)
names = [frame["name"] for frame in doc["shared"]["frames"]]
unit = decimal.Decimal(1).scaleb(-decimals)
want = {}
for index in indexes.split(","):
    open_frames, last = [], None
    for event in doc["profiles"][int(index)]["events"]:
        at = event["at"].quantize(unit, rounding=decimal.ROUND_HALF_EVEN)
        if open_frames and at > last:
            stack = ";".join(names[int(i)] for i in open_frames)
            want[stack] = want.get(stack, 0) + at - last
        last = at
        if event["type"] == "O":
            open_frames.append(event["frame"])
        else:
            open_frames.pop()
got = {}
with open(got_path) as f:
    for line in f:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        got[stack] = decimal.Decimal(count)
for stack in sorted(set(want) | set(got)):
    if want.get(stack, 0) != got.get(stack, 0):
        sys.exit("%s: want %s, got %s" % (stack, want.get(stack, 0), got.get(stack, 0)))
