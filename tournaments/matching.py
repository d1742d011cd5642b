"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Pure and independent of the tournament: the Swiss pairing (``tournaments.pairing``) asks it how
many players of a bracket can be paired without a rematch, and which players can take the bye.
``networkx.max_weight_matching`` does the matching too, but it does not give the outer vertices of
a failed search (the players who can sit out), and on the pairing benchmark it is far slower.
"""

from collections import deque
from collections.abc import Sequence


def maximum_matching(adjacency: Sequence[Sequence[int]]) -> list[int]:
    """Edmonds' blossom algorithm: a maximum-cardinality matching of a general graph.

    ``adjacency[v]`` lists the neighbours of vertex v (each edge on both sides, neighbours in
    order of preference). Returns each vertex's partner, or -1 for an unmatched vertex. It is
    O(V³) in the worst case; a greedy start leaves only a few vertices to augment in practice.
    """
    size = len(adjacency)
    mate = [-1] * size
    # A greedy start in preference order already matches nearly everyone, and keeps the result
    # close to the pairs a person would have made.
    for v in range(size):
        if mate[v] == -1:
            for w in adjacency[v]:
                if mate[w] == -1 and w != v:
                    mate[v] = w
                    mate[w] = v
                    break
    for root in range(size):
        if mate[root] == -1:
            augment_from(root, adjacency, mate)
    return mate


def augment_from(
    root: int, adjacency: Sequence[Sequence[int]], mate: list[int]
) -> list[bool] | None:
    """Grow an alternating tree from ``root`` and flip the augmenting path it finds, if any.

    Odd cycles (blossoms) are contracted by giving their vertices a common ``base``; this is
    what makes the algorithm correct on graphs that are not bipartite. Returns None after
    augmenting; when no augmenting path exists, it returns which vertices are outer (reached
    from the root by an even alternating path).
    """
    size = len(adjacency)
    parent = [-1] * size
    base = list(range(size))
    in_tree = [False] * size  # Even (outer) vertices of the alternating tree.
    in_tree[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * size
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_blossom(v: int, blossom_base: int, child: int, in_blossom: list[bool]) -> None:
        while base[v] != blossom_base:
            in_blossom[base[v]] = True
            in_blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for w in adjacency[v]:
            # mutmut's "and" survives as an equivalent mutant: an edge inside one blossom marks
            # nothing new below, and v's mate is the inner vertex that brought v in, whose
            # parent is set, so neither branch below takes it.
            if base[v] == base[w] or mate[v] == w:
                continue
            if w == root or (mate[w] != -1 and parent[mate[w]] != -1):
                # v and w are both even: the edge closes an odd cycle, which becomes one vertex.
                blossom_base = common_base(v, w)
                in_blossom = [False] * size
                mark_blossom(v, blossom_base, w, in_blossom)
                mark_blossom(w, blossom_base, v, in_blossom)
                for u in range(size):
                    if in_blossom[base[u]]:
                        base[u] = blossom_base
                        if not in_tree[u]:
                            in_tree[u] = True
                            queue.append(u)
            elif parent[w] == -1:
                parent[w] = v
                if mate[w] == -1:
                    # An unmatched vertex ends an augmenting path: flip it back to the root.
                    while w != -1:
                        previous = parent[w]
                        following = mate[previous]
                        mate[w] = previous
                        mate[previous] = w
                        w = following
                    return None
                in_tree[mate[w]] = True
                queue.append(mate[w])
    return in_tree
