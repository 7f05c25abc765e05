#!/usr/bin/env python3
"""bench/gen-heapprofile.py OUT BYTES: a V8 sampling heap profile as
`node --heap-prof` writes one (compact JSON: `head`, the allocation tree
of nodes with callFrame, selfSize, id and children, then `samples`), of
about BYTES: a seeded tree over 3000 functions of 90 scripts, each node
the callee of one on the path to the node made before it, at a depth
drawn between 1 and 40 (most near 12); about half the bytes are the
tree, the rest the samples (size, nodeId, ordinal) at its nodes with bytes."""
import random
import sys

from gen_tree import call_tree

out_path, want = sys.argv[1], int(sys.argv[2])
rng = random.Random(1)
nodes = int(want / 2 / 190)
parent, depth, children, func = call_tree(rng, nodes, 40, 3000)
# Leaves and a fifth of the inner nodes allocate, as V8's samples fall.
self_size = [rng.randrange(1, 64) * 4096 if (not children[i] or rng.random() < 0.2) and i else 0 for i in range(nodes)]
allocating = [i for i in range(nodes) if self_size[i]]

def frame(i):
    if i == 0:
        return '{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}'
    f = func[i]
    return ('{"functionName":"fn%d","scriptId":"%d","url":"file:///app/lib/module%d.js","lineNumber":%d,"columnNumber":%d}'
            % (f, 100 + f % 90, f % 90, 10 + f, f % 60))

with open(out_path, "w") as out:
    out.write('{"head":')
    # Depth first, by a stack of our own: each entry a node and how many children are written.
    stack = [[0, 0]]
    out.write('{"callFrame":%s,"selfSize":%d,"id":%d,"children":[' % (frame(0), self_size[0], 1))
    while stack:
        top = stack[-1]
        kids = children[top[0]]
        if top[1] == len(kids):
            out.write("]}")
            stack.pop()
            continue
        c = kids[top[1]]
        out.write('%s{"callFrame":%s,"selfSize":%d,"id":%d,"children":[' % ("," if top[1] else "", frame(c), self_size[c], c + 1))
        top[1] += 1
        stack.append([c, 0])
    out.write(',"samples":[')
    size, ordinal, parts = out.tell(), 0, []
    while size < want:
        ordinal += 1
        s = '%s{"size":%d,"nodeId":%d,"ordinal":%d}' % ("," if ordinal > 1 else "", rng.randrange(16, 65536), allocating[rng.randrange(len(allocating))] + 1, ordinal)
        parts.append(s)
        size += len(s)
    out.write("".join(parts))
    out.write("]}")
