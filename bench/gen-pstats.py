# Writes a large pstats file for make bench (bench/run.sh): a seeded call
# graph as cProfile would dump it, N functions (a DAG: each called by 1 to
# 30 functions before it), times in whole nanoseconds consistent with each
# other (ct = tt + the calls' ct, each callee's ct shared among its
# callers). marshal version 2, one piece at a time, so that memory stays
# small: the same stream pstats.Stats loads. With a third argument 4, the
# same profile as Python 3.4+ dumps it: the whole dict in one
# marshal.dump at version 4, where a key met again is a reference.
#   python3 bench/gen-pstats.py OUT N [4]
import marshal
import random
import sys

out, n = sys.argv[1], int(sys.argv[2])
version = int(sys.argv[3]) if len(sys.argv) > 3 else 2
random.seed(1)
callers = [random.sample(range(f), min(f, random.randint(1, 30))) if f else [] for f in range(n)]
key = [("/usr/lib/python3/pkg/module%d.py" % (f % 997), 10 + f % 5000, "func_%d" % f) for f in range(n)]
tt = [random.randint(1, 10 ** 6) for f in range(n)]
out_calls = [0] * n
arcs = [None] * n
ct = [0] * n
for f in range(n - 1, -1, -1):
    ct[f] = tt[f] + out_calls[f]
    weights = [random.random() for _ in callers[f]]
    total = sum(weights) or 1
    shares = [int(ct[f] * w / total) for w in weights]
    if shares:
        shares[-1] = ct[f] - sum(shares[:-1])
    arcs[f] = shares
    for c, share in zip(callers[f], shares):
        out_calls[c] += share
def entries():
    for f in range(n):
        calls = random.randint(1, 50)
        caller_stats = {}
        for c, share in zip(callers[f], arcs[f]):
            caller_stats[key[c]] = (calls, calls, tt[f] * 1e-9 / max(1, len(callers[f])), share * 1e-9)
        yield key[f], (calls * max(1, len(callers[f])), calls * max(1, len(callers[f])),
                       tt[f] * 1e-9, ct[f] * 1e-9, caller_stats)
with open(out, "wb") as w:
    if version == 4:
        marshal.dump(dict(entries()), w, 4)
    else:
        w.write(b"{")
        for k, v in entries():
            w.write(marshal.dumps(k, 2))
            w.write(marshal.dumps(v, 2))
        w.write(b"0")
