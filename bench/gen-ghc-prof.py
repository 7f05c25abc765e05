#!/usr/bin/env python3
"""bench/gen-ghc-prof.py OUT BYTES p|P: a GHC `.prof` report as GHC 9's RTS
prints it for `+RTS -p` (p) or `-P` (P, with the ticks and bytes columns),
of about BYTES: the header, the flat summary, then the cost-centre tree,
each column padded to its widest value as rts/ProfilerReport.c does. The
tree (seeded) is that of a program built with -fprof-auto: 2000 cost
centres of 150 modules, each node the callee of one on the path to the
node made before it, at a depth drawn between 1 and 60 (most near 12);
a tenth of the nodes have ticks (twenty centres the most, and one node
in 2000, the hot loops, a thousand times more), most allocate; the
inherited figures are their subtree's."""
import random
import sys

from gen_tree import call_tree

out_path, want, layout = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(1)
centres = []
for c in range(2000):
    m = c % 150
    label = rng.choice(["go", "loop", "step", "parse", "render", "lookup", "insert", "fold", "main", "run"]) + str(c)
    if rng.random() < 0.2:
        label += ".\\"
    src = "src/App/Mod%d.hs:(%d,1)-(%d,%d)" % (m, 10 + c, 12 + c, 20 + c % 60) if rng.random() < 0.5 else "src/App/Mod%d.hs:%d:%d-%d" % (m, 10 + c, 1 + c % 9, 20 + c % 60)
    centres.append((label, "App.Mod%d" % m, src))
rows = want // (155 if layout == "P" else 140)  # the bytes of a row, padded to the widest label (60 deep)
parent, depth, children, cc = call_tree(rng, rows, 60, 2000)
hot = [20 if c < 20 else 1 for c in range(2000)]  # a few centres take most of the time, as in real programs
ticks = [rng.randrange(1, 40) * hot[cc[i]] if i and rng.random() < 0.1 else 0 for i in range(rows)]
for i in rng.sample(range(1, rows), rows // 2000):  # the hot loops: what -p's tenths of a percent show
    ticks[i] = rng.randrange(1000, 20000)
alloc = [rng.randrange(0, 2000000) * 8 if i and rng.random() < 0.7 else 0 for i in range(rows)]
entries = [rng.randrange(0, 100000) if rng.random() < 0.8 else 0 for i in range(rows)]
inh_ticks, inh_alloc = ticks[:], alloc[:]
for i in range(rows - 1, 0, -1):  # children are made after their parents
    inh_ticks[parent[i]] += inh_ticks[i]
    inh_alloc[parent[i]] += inh_alloc[i]
total_ticks, total_alloc = inh_ticks[0], inh_alloc[0]

def label_of(i):
    return "MAIN" if i == 0 else centres[cc[i]][0]

def module_of(i):
    return "MAIN" if i == 0 else centres[cc[i]][1]

def src_of(i):
    return "<built-in>" if i == 0 else centres[cc[i]][2]

def pct(x, total):
    return 100.0 * x / total if total else 0.0

verbose = layout == "P"
w_label = max(len("COST CENTRE"), max(depth[i] + len(label_of(i)) for i in range(rows)))
w_module = max(len("MODULE"), max(len(c[1]) for c in centres))
w_src = max(len("SRC"), max(len(c[2]) for c in centres))
w_id = len(str(rows + 100))
with open(out_path, "w") as out:
    out.write("\tFri Nov 27 20:48 2026 Time and Allocation Profiling Report  (Final)\n\n")
    out.write("\t   app +RTS -%s -RTS\n\n" % layout)
    out.write("\ttotal time  =        %.2f secs   (%d ticks @ 1000 us, 1 processor)\n" % (total_ticks / 1000, total_ticks))
    out.write("\ttotal alloc = %s bytes  (excludes profiling overheads)\n\n" % format(total_alloc, ","))
    # The flat summary: each cost centre's own figures, the largest first, down to 1%.
    flat = {}
    for i in range(1, rows):
        t, a = flat.get(cc[i], (0, 0))
        flat[cc[i]] = (t + ticks[i], a + alloc[i])
    fw_label = max(len("COST CENTRE"), max(len(c[0]) for c in centres))
    out.write("%-*s %-*s %-*s %6s %6s" % (fw_label, "COST CENTRE", w_module, "MODULE", w_src, "SRC", "%time", "%alloc"))
    out.write("  %5s %9s\n\n" % ("ticks", "bytes") if verbose else "\n\n")
    for c, (t, a) in sorted(flat.items(), key=lambda kv: -kv[1][0]):
        if pct(t, total_ticks) < 1 and pct(a, total_alloc) < 1:
            continue
        label, module, src = centres[c]
        out.write("%-*s %-*s %-*s %6.1f %6.1f" % (fw_label, label, w_module, module, w_src, src, pct(t, total_ticks), pct(a, total_alloc)))
        out.write("  %5d %9d\n" % (t, a) if verbose else "\n")
    head = "%-*s %-*s %-*s %*s %11s  %5s %6s   %5s %6s" % (w_label, "COST CENTRE", w_module, "MODULE", w_src, "SRC", w_id, "no.", "entries", "%time", "%alloc", "%time", "%alloc")
    out.write("\n\n%*s%s\n" % (len(head) - 28, "", "individual      inherited"))
    out.write(head + ("  %5s %9s\n\n" % ("ticks", "bytes") if verbose else "\n\n"))
    stack = [0]
    while stack:  # depth first, children in the order made
        i = stack.pop()
        stack.extend(reversed(children[i]))
        d = depth[i]
        out.write("%*s%s%*s %-*s %-*s %*d%12d %6.1f %6.1f  %6.1f %6.1f" % (
            d, "", label_of(i), w_label - d - len(label_of(i)), "", w_module, module_of(i), w_src, src_of(i), w_id, 100 + i, entries[i],
            pct(ticks[i], total_ticks), pct(alloc[i], total_alloc), pct(inh_ticks[i], total_ticks), pct(inh_alloc[i], total_alloc)))
        out.write("  %5d %9d\n" % (ticks[i], alloc[i]) if verbose else "\n")
