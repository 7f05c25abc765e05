# Python's own pstats numbers as the judge of the stacks prof makes of a
# pstats file (test/pstats.sh; docs/callgraph.md's properties), run by
# Debian's python3 on the golden the writing Python made (NAME.raw.txt,
# test/python/pstats_judge.py dump):
#
#   judge GOLDEN FOLDED
#
# where FOLDED is `prof -t folded` of the file: each function's self is
# the sum of the stacks it ends, its total the sum of the stacks that
# hold it, counted once (what `prof -t summary` shows; the views area
# holds the summary to the folded stacks). Function by function, for
# names the file holds once:
#  - self: tt, to REL;
#  - total off cycles: the total of a function on no cycle of calls
#    through others is its ct, to REL, where the file is consistent
#    there: ct is what its callers' arcs bring, or for one called from
#    outside what it holds (tt and its calls);
#  - total on a cycle: no more than its own ct;
#  - arcs: every arc with time shows in the folded stacks as the callee
#    right under its caller, but arcs within a cycle (a cycle is laid out
#    as a tree from where it is entered: docs/callgraph.md);
#  - the entry point (the function with the most ct)
#    stands at its ct, the program's total, on a cycle or not (to REL).
# The profile module's callers carry no times (bare counts): only self and
# the arcs are judged there.
import json
import re
import sys

from pstats_judge import on_cycles

REL = 1e-6


def name_of(key):
    return re.match(r"^.*?:\d+\((.*)\)$", key, re.S).group(1)


def read_folded(path):
    """The (caller, callee) names adjacent in some stack with time; each name's self and total."""
    pairs, self_of, total_of = set(), {}, {}
    with open(path) as f:
        for line in f:
            stack, value = line.rstrip("\n").rsplit(" ", 1)
            value = float(value)
            if value == 0:
                continue  # a sample of call counts only: no time placed there
            frames = stack.split(";")
            for a, b in zip(frames, frames[1:]):
                pairs.add((a, b))
            self_of[frames[-1]] = self_of.get(frames[-1], 0.0) + value
            for name in set(frames):
                total_of[name] = total_of.get(name, 0.0) + value
    return pairs, self_of, total_of


def judge(golden_path, folded_path):
    with open(golden_path) as f:
        golden = json.load(f)
    pairs, self_of, total_of = read_folded(folded_path)
    bare = any(not isinstance(v, list) for stat in golden.values() for v in stat[4].values())
    cyclic = on_cycles(golden)
    keys_of = {}
    for key in golden:
        keys_of.setdefault(name_of(key), []).append(key)
    unique = dict((name, keys[0]) for name, keys in keys_of.items() if len(keys) == 1)
    callees = {}
    for key, stat in golden.items():
        for caller, value in stat[4].items():
            if caller != key and not bare:
                callees.setdefault(caller, []).append(value[3])
    problems = []
    for name, key in sorted(unique.items()):
        cc, nc, tt, ct, callers = golden[key]
        self_time, prof_total = self_of.get(name, 0.0), total_of.get(name, 0.0)
        slack = REL * ct + 1e-9
        if abs(self_time - tt) > REL * tt + 1e-9:
            problems.append("%s: self %r, tt %r" % (name, self_time, tt))
        for caller, value in callers.items():
            took = value[3] if isinstance(value, list) else None
            inside_cycle = caller in cyclic and key in cyclic
            caller_took = caller in golden and golden[caller][3] > 0  # the profile module's profiler: 0
            if caller != key and not inside_cycle and caller_took and name_of(caller) in unique and (took or (took is None and tt)) \
                    and (name_of(caller), name) not in pairs:
                problems.append("%s: no stack has it under its caller %s" % (name, name_of(caller)))
        if bare:
            continue
        if key in cyclic:
            if prof_total > ct + slack:
                problems.append("%s: total %r on a cycle, more than its ct %r" % (name, prof_total, ct))
            continue
        brought = sum(v[3] for c, v in callers.items() if c != key)
        holds = tt + sum(callees.get(key, []))
        if callers and nc == sum(v[0] for v in callers.values()):
            consistent = abs(brought - ct) <= REL * ct + 1e-9
        else:
            consistent = abs(max(brought, holds) - ct) <= REL * ct + 1e-9
        if consistent and abs(prof_total - ct) > slack:
            problems.append("%s: total %r, ct %r" % (name, prof_total, ct))
    entry = max(golden, key=lambda k: golden[k][3]) if golden else None
    if entry and not bare and name_of(entry) in unique:
        got, ct = total_of.get(name_of(entry), 0.0), golden[entry][3]
        if abs(got - ct) > REL * ct + 1e-9:
            problems.append("entry point %s: total %r, ct %r" % (name_of(entry), got, ct))
    return problems


if __name__ == "__main__":
    problems = judge(*sys.argv[2:4])
    for p in problems:
        sys.stdout.write(p + "\n")
    sys.exit(1 if problems else 0)
