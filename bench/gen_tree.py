"""The call tree the tree-shaped generators draw (bench/gen-heapprofile.py,
bench/gen-ghc-prof.py): seeded, each node the callee of one on the path to
the node made before it, at a depth drawn between 1 and `deepest` (most
near 12), as programs' trees go; each node names one of `names` functions,
siblings other functions, as V8 and GHC merge a node's children of one
frame."""


def call_tree(rng, nodes, deepest, names):
    """parent, depth, children and name of each node; node 0 is the root."""
    parent, depth, children = [-1], [0], [[]]
    path = [0]  # the last node made and its callers
    for i in range(1, nodes):
        del path[int(rng.triangular(1, deepest, 12)):]
        p = path[-1]
        path.append(i)
        parent.append(p)
        depth.append(depth[p] + 1)
        children.append([])
        children[p].append(i)
    name = [rng.randrange(names) for _ in range(nodes)]
    for kids in children:
        seen = set()
        for c in kids:
            while name[c] in seen:
                name[c] = rng.randrange(names)
            seen.add(name[c])
    return parent, depth, children, name
