# Python's own pstats as the judge of prof's pstats files
# (test/pstats.sh, test/make-pstats-samples.sh). Runs on Python 2.7 and 3.
#
#   dump FILE               the statistics as pstats loads them, as JSON:
#                           made by the Python that wrote FILE, the golden
#   compare GOLDEN FILE     FILE (prof's output) against a golden: the same
#                           functions, cc, nc, tt and ct, callers and their
#                           nc, cc and ct (a bare count's caller: nc), but
#                           where docs/formats/pstats.md says prof cannot
#                           follow: ct of a function on a cycle of calls
#                           through others (and of the arcs into it and of
#                           a function into itself), cc of the arcs into a
#                           function called recursively (cc < nc); in the
#                           profile module's files (bare counts), ct of a
#                           function with several callers and of every
#                           function that calls it, however far up, and
#                           every ct within 2%: its float sums need not
#                           add up; ct of calls that took more than their
#                           caller's ct, and ct of a function holding more
#                           than its recorded callers bring (graphs that
#                           cannot be stacks); cc of a function's primitive
#                           calls into itself;
#                           prof's frames for time the graph cannot place
#                           (docs/callgraph.md) are left out
#   exact GOLDEN FILE       FILE against a golden with no exception: the
#                           same functions, cc, nc, tt and ct, the same
#                           callers with the same nc, cc, tt and ct (a bare
#                           count's caller: the same bare count), times to
#                           REL: a round trip of a pstats file
#   summary SUMMARY FILE    FILE's tt and ct per function name against
#                           `prof -t summary`'s self and total (in seconds
#                           for a time unit), to the summary's last digit;
#                           a name that functions with a file or line
#                           share at several places as py-spy shows it,
#                           "name (file:line)", or for a V8 profile as
#                           DevTools does, "name url:line" (docs/model.md,
#                           the summary's source line tells); other names
#                           of several functions are left out
#
# Times compare with a relative tolerance (REL) plus an absolute one of a
# nanosecond's thousandth: pstats sums in dict order, and the profile
# module's float sums are kept to 10^-18 s.
import json
import pstats
import re
import sys

REL = 1e-9


def text(s):
    if isinstance(s, bytes):
        return s.decode("utf-8", "replace")
    return s


def key_text(key):
    name = key[2]
    if not isinstance(name, (str, bytes)) and hasattr(name, "co_name"):
        name = '<code object %s, file "%s", line %d>' % (name.co_name, name.co_filename, name.co_firstlineno)
    return "%s:%d(%s)" % (text(key[0]), key[1], text(name))


def load(path):
    stats = pstats.Stats(path).stats
    out = {}
    for key, (cc, nc, tt, ct, callers) in stats.items():
        calls = {}
        for caller, value in callers.items():
            if isinstance(value, tuple):
                calls[key_text(caller)] = list(value)
            else:
                calls[key_text(caller)] = value
        out[key_text(key)] = [cc, nc, tt, ct, calls]
    return out


def close(a, b, tolerance):
    return abs(a - b) <= tolerance * max(abs(a), abs(b)) + 1e-12


def on_cycles(stats):
    """The functions on a cycle of calls through other functions (Tarjan's SCCs)."""
    callees = {}
    for key, stat in stats.items():
        for caller in stat[4]:
            if caller != key:
                callees.setdefault(caller, []).append(key)
    index, low, stack, on_stack, cyclic = {}, {}, [], set(), set()
    for root in stats:
        if root in index:
            continue
        work = [(root, iter(callees.get(root, [])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        cyclic.update(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(callees.get(child, []))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return cyclic


# The frames prof's stacks name for time a call graph holds but cannot
# place (docs/callgraph.md): no function of the profile's.
MARKERS = (":0((untraced calls))", ":0((no recorded caller))")


def without_markers(stats):
    return dict((key, stat[:4] + [dict((c, v) for c, v in stat[4].items() if c not in MARKERS)])
                for key, stat in stats.items() if key not in MARKERS)


def in_both(golden, got, problems):
    """The functions of both, in order; each of one only is a problem."""
    for key in sorted(set(golden) | set(got)):
        if key in got and key in golden:
            yield key
        else:
            problems.append("%s: only in %s" % (key, "the golden" if key in golden else "prof's output"))


def compare(golden_path, path):
    with open(golden_path) as f:
        golden = json.load(f)
    got = without_markers(load(path))
    cyclic = on_cycles(golden)
    bare = any(not isinstance(v, list) for stat in golden.values() for v in stat[4].values())
    ct_tolerance = 0.02 if bare else REL
    todo = [key for key, stat in golden.items()
            if len([c for c, v in stat[4].items() if c != key and not isinstance(v, list)]) > 1]
    split = set()
    while todo:
        key = todo.pop()
        if key not in split:
            split.add(key)
            todo.extend(golden.get(key, [0] * 5)[4])
    cyclic.update(split)
    # A function holding more (tt and its calls) than all its recorded
    # callers bring, with no calls from outside: pstats keys several
    # functions alike (namedtuple's lambdas at <string>:1); prof's stacks
    # give it what it holds.
    calls_out = {}
    for key, stat in golden.items():
        for caller, value in stat[4].items():
            if caller != key and isinstance(value, list):
                calls_out[caller] = calls_out.get(caller, 0) + value[3]
    for key, (gcc, gnc, gtt, gct, gcallers) in golden.items():
        if not bare and gcallers and gnc == sum(v[0] for v in gcallers.values()) and \
                gtt + calls_out.get(key, 0) > gct * (1 + 1e-6) + 1e-9:
            cyclic.add(key)
    problems = []
    for key in in_both(golden, got, problems):
        (gcc, gnc, gtt, gct, gcallers), (cc, nc, tt, ct, callers) = golden[key], got[key]
        if (gcc, gnc) != (cc, nc):
            problems.append("%s: cc/nc %s/%s, golden %s/%s" % (key, cc, nc, gcc, gnc))
        for what, a, b in (("tt", tt, gtt), ("ct", ct, gct)):
            if not close(a, b, REL if what == "tt" else ct_tolerance) and not (what == "ct" and key in cyclic):
                problems.append("%s: %s %r, golden %r" % (key, what, a, b))
        if sorted(gcallers) != sorted(callers):
            problems.append("%s: callers %s, golden %s" % (key, sorted(callers), sorted(gcallers)))
            continue
        for caller, want in gcallers.items():
            have = callers[caller]
            if isinstance(want, list):
                # A primitive call into itself: two functions pstats keys alike (nested comprehensions).
                same_cc = have[1] == want[1] or gcc != gnc or caller == key
                more_than_caller = caller in golden and want[3] > golden[caller][3]
                same_ct = close(have[3], want[3], ct_tolerance) or key in cyclic or caller == key or more_than_caller
                if have[0] != want[0] or not same_cc or not same_ct:
                    problems.append("%s from %s: %s, golden %s" % (key, caller, have, want))
            elif (have[0] if isinstance(have, list) else have) != want:
                problems.append("%s from %s: %s calls, golden %s" % (key, caller, have, want))
    return problems


def shown_names(stats, devtools):
    """The stats by the name views show: py-spy's "name (file:line)" (or
    DevTools' "name url:line") where functions with a file or line share
    the name at other places."""
    parsed = [(re.match(r"^(.*?):(\d+)\((.*)\)$", key, re.S).groups(), stat) for key, stat in stats.items()]
    places = {}
    for (file, line, name), _ in parsed:
        if file or int(line) > 0:
            places.setdefault(name, set()).add((file, line))
    shown = []
    for (file, line, name), stat in parsed:
        if (file or int(line) > 0) and len(places[name]) > 1:
            place = file + ((":" if file else "line ") + line if int(line) > 0 else "")
            name = ("%s %s" if devtools else "%s (%s)") % (name, place)
        shown.append((name, stat))
    return shown


def exact(golden_path, path):
    with open(golden_path) as f:
        golden = json.load(f)
    got = load(path)
    problems = []
    for key in in_both(golden, got, problems):
        (gcc, gnc, gtt, gct, gcallers), (cc, nc, tt, ct, callers) = golden[key], got[key]
        if (gcc, gnc) != (cc, nc) or not close(tt, gtt, REL) or not close(ct, gct, REL):
            problems.append("%s: %s, golden %s" % (key, [cc, nc, tt, ct], [gcc, gnc, gtt, gct]))
        if sorted(gcallers) != sorted(callers):
            problems.append("%s: callers %s, golden %s" % (key, sorted(callers), sorted(gcallers)))
            continue
        for caller, want in gcallers.items():
            have = callers[caller]
            if isinstance(want, list) != isinstance(have, list):
                same = False
            elif isinstance(want, list):
                same = have[:2] == want[:2] and close(have[2], want[2], REL) and close(have[3], want[3], REL)
            else:
                same = have == want
            if not same:
                problems.append("%s from %s: %s, golden %s" % (key, caller, have, want))
    return problems


def summary(summary_path, path):
    rows = {}
    with open(summary_path) as f:
        lines = f.read().split("\n")
    unit = re.search(r"^sample type: .*\((\w+)\)$", "\n".join(lines), re.M).group(1)
    scale = {"nanoseconds": 1e-9, "microseconds": 1e-6, "milliseconds": 1e-3}.get(unit, 1.0)
    start = lines.index("by self:") + 2
    for line in lines[start:]:
        if not line.strip():
            break
        fields = line.split(None, 4)
        if len(fields) < 5 or not re.match(r"^-?[0-9.]+$", fields[0]):
            continue  # the rest of a name with a line break in it
        decimals = len(fields[0].split(".")[1]) if "." in fields[0] else 0
        rows[fields[4]] = (float(fields[0]) * scale, float(fields[2]) * scale, 10.0 ** -decimals * scale)
    names = {}
    source = re.search(r"^source: .*\((\w+)\)$", "\n".join(lines), re.M)
    for name, stat in shown_names(load(path), source is not None and source.group(1) == "cpuprofile"):
        if stat[2] == 0 and stat[3] == 0:
            continue
        names.setdefault(name, []).append(stat)
    problems = []
    for name, (self_time, total, last_digit) in rows.items():
        stats = names.get(name)
        if not stats:
            problems.append("%s: in the summary, not in pstats" % name)
            continue
        if len(stats) > 1:
            continue
        for what, a, b in (("self", stats[0][2], self_time), ("total", stats[0][3], total)):
            if abs(a - b) > last_digit + 1e-9 * abs(b):
                problems.append("%s: pstats %s %r, summary %r" % (name, what, a, b))
    for name in names:
        if name not in rows:
            problems.append("%s: in pstats, not in the summary" % name)
    return problems


def main(argv):
    if argv[1] == "dump":
        print(json.dumps(load(argv[2]), sort_keys=True, indent=0))
        return 0
    judge = {"compare": compare, "exact": exact, "summary": summary}[argv[1]]
    problems = judge(argv[2], argv[3])
    for p in problems:
        sys.stdout.write(p + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
