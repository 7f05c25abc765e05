"""A GHC profile judges prof's reading of it: each cost-centre stack's own
figures, as the file prints them, against prof's folded stacks of the
same file (one file per sample type: time, alloc, entries).

Text (+RTS -p, -P): for every row of the tree, its entries are prof's,
and a row with no time of its own (0 ticks, or 0.0 %time) has none in prof's;
with -P its ticks and bytes are prof's time and alloc exactly, every
%time and %alloc (individual and inherited) is what prof's stacks give,
rounded as GHC's %5.1f rounds, and the header's totals are prof's sums;
without -P, prof's individual figures round to the file's percentages,
and its inherited ones are within the rounding of the rows they sum.
JSON (+RTS -pj): every node's ticks, alloc and entries are prof's.
Columns are found as GHC places them: by the tree header's positions,
counted in characters.

Usage: python3 judge.py FILE TIME.folded ALLOC.folded ENTRIES.folded
Prints what differs; exit 1 when anything does.
"""
import json
import re
import sys

problems = []


def problem(text):
    problems.append(text)


def folded(path):
    sums = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            stack, _, weight = line.rstrip("\n").rpartition(" ")
            key = tuple(stack.split(";"))
            sums[key] = sums.get(key, 0) + int(weight)
    return sums


def subtree(sums, path):
    n = len(path)
    return sum(v for k, v in sums.items() if k[:n] == path)


def pct(part, whole):
    return "%.1f" % (0.0 if whole == 0 else float(part) / float(whole) * 100.0)


def judge_json(text, time, alloc, entries):
    profile = json.loads(text)
    tick_ns = profile["tick_interval"] * 1000
    names = {c["id"]: c["module"] + "." + c["label"] for c in profile["cost_centres"]}
    seen = {}
    todo = [(profile["profile"], ())]
    while todo:
        node, caller = todo.pop()
        path = caller + (names[node["id"]],)
        got = seen.setdefault(path, [0, 0, 0])
        got[0] += node["ticks"] * tick_ns
        got[1] += node["alloc"]
        got[2] += node["entries"]
        todo.extend((c, path) for c in node["children"])
    for path, want in sorted(seen.items()):
        have = [sums.get(path, 0) for sums in (time, alloc, entries)]
        if have != want:
            problem("%s: the file's time, alloc, entries %s, prof's %s" % (";".join(path), want, have))
    for kind, sums in (("time", time), ("alloc", alloc), ("entries", entries)):
        for path in sums:
            if path not in seen:
                problem("%s: a stack of prof's %s the file has no node of" % (";".join(path), kind))


def columns(header):
    """Character positions of MODULE, SRC (or None) and no., and the words after no."""
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    at = dict((w, p) for p, w in words)
    after = [w for p, w in words if p > at["no."]]
    return at["MODULE"], at.get("SRC"), at["no."], after


def judge_text(lines, time, alloc, entries):
    header = [i for i, l in enumerate(lines) if l.lstrip().startswith("COST CENTRE") and " no. " in l][0]
    totals = "\n".join(lines[:header])
    m = re.search(r"total time\s*=\s*\S+ secs\s*\((\d+) ticks @ (\d+) (us|ms)", totals)
    ticks_total, interval = int(m.group(1)), int(m.group(2)) * (1000 if m.group(3) == "ms" else 1)
    alloc_total = int(re.search(r"total alloc\s*=\s*([\d,]+) bytes", totals).group(1).replace(",", ""))
    module_at, src_at, no_at, after = columns(lines[header])
    verbose = after[-2:] == ["ticks", "bytes"]
    rows, stack = [], []
    for line in lines[header + 1:]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip(" "))
        label = line[depth:module_at].strip()
        module = line[module_at:src_at if src_at is not None else no_at].split()[0]
        numbers = line[no_at:].split()
        del stack[depth:]
        stack.append(module + "." + label)
        rows.append((tuple(stack), numbers))
    time_total = ticks_total * interval * 1000
    if verbose:
        if sum(time.values()) != time_total or sum(alloc.values()) != alloc_total:
            problem("prof's totals %d ns, %d bytes; the header's %d, %d" %
                    (sum(time.values()), sum(alloc.values()), time_total, alloc_total))
    counts = {}
    for path, _ in rows:
        counts[path] = counts.get(path, 0) + 1
    for kind, sums in (("time", time), ("alloc", alloc), ("entries", entries)):
        for path in sums:
            if path not in counts:
                problem("%s: a stack of prof's %s the file has no row of" % (";".join(path), kind))
    for path, numbers in rows:
        name = ";".join(path)
        if counts[path] > 1:
            problem("%s: %d rows of one stack: not judged" % (name, counts[path]))
            continue
        no, n_entries, t_self, a_self, t_all, a_all = numbers[:6]
        # No time of its own in the file is none in prof: entries alone make no time.
        if (numbers[6] == "0" if verbose else t_self == "0.0") and time.get(path, 0) != 0:
            problem("%s: no time of its own in the file, %d ns in prof's" % (name, time[path]))
        if entries.get(path, 0) != int(n_entries):
            problem("%s: entries %s, prof's %d" % (name, n_entries, entries.get(path, 0)))
        have = (pct(time.get(path, 0), time_total), pct(alloc.get(path, 0), alloc_total))
        if have != (t_self, a_self):
            problem("%s: individual %%time %%alloc %s %s, prof's %s %s" % ((name, t_self, a_self) + have))
        t_sub, a_sub = subtree(time, path), subtree(alloc, path)
        if verbose:
            ticks, nbytes = numbers[6:8]
            if time.get(path, 0) != int(ticks) * interval * 1000 or alloc.get(path, 0) != int(nbytes):
                problem("%s: ticks, bytes %s %s, prof's %d ns %d" % (name, ticks, nbytes, time.get(path, 0), alloc.get(path, 0)))
            have = (pct(t_sub, time_total), pct(a_sub, alloc_total))
            if have != (t_all, a_all):
                problem("%s: inherited %%time %%alloc %s %s, prof's %s %s" % ((name, t_all, a_all) + have))
        else:
            # Each row below rounds by up to 0.05 points: the sum of n rows by n times that.
            n = sum(1 for p, _ in rows if p[:len(path)] == path)
            for sub, whole, printed, what in ((t_sub, time_total, t_all, "%time"), (a_sub, alloc_total, a_all, "%alloc")):
                got = 0.0 if whole == 0 else float(sub) / whole * 100.0
                if abs(got - float(printed)) > 0.05 * (n + 1) + 1e-9:
                    problem("%s: inherited %s %s, prof's %.3f over %d rows" % (name, what, printed, got, n))


def main():
    with open(sys.argv[1], encoding="utf-8", newline=None) as f:
        text = f.read()
    time, alloc, entries = (folded(p) for p in sys.argv[2:5])
    if text.lstrip().startswith("{"):
        judge_json(text, time, alloc, entries)
    else:
        judge_text(text.split("\n"), time, alloc, entries)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
