"""Groups of methods that do not differ significantly (the bars of a CD diagram).

A *clique* is a maximal group of at least two methods that is consecutive in
rank order (no method outside it has an average rank strictly inside the
group's span) and in which no two members differ significantly.

Peers get this wrong in three ways, each of which is avoided here:

* a bar drawn across a method that differs significantly from a member
  (groups are checked pairwise, not only at their ends);
* methods with equal average ranks never joined (a method tied with a
  group's end may be left out of the group, because its position in a tie
  is arbitrary);
* significance assumed transitive (where ``a`` differs from ``c`` while
  ``b`` between them differs from neither, both overlapping groups are kept,
  and the relation is listed in ``bridges``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["find_cliques", "unjoined_pairs", "bridges"]


def _tie_groups(avg: np.ndarray, tol: float = 1e-9) -> list[list[int]]:
    order = np.argsort(avg, kind="stable")
    groups: list[list[int]] = []
    for i in order:
        if groups and abs(avg[i] - avg[groups[-1][0]]) <= tol:
            groups[-1].append(int(i))
        else:
            groups.append([int(i)])
    return groups


def _maximal_cliques(nodes: list[int], compatible: np.ndarray) -> list[set[int]]:
    """Bron-Kerbosch on a small graph (the members of two tie groups)."""
    out: list[set[int]] = []

    def expand(r: set[int], p: set[int], x: set[int]) -> None:
        if not p and not x:
            out.append(r)
            return
        for v in list(p):
            nb = {u for u in nodes if u != v and compatible[v, u]}
            expand(r | {v}, p & nb, x & nb)
            p = p - {v}
            x = x | {v}

    expand(set(), set(nodes), set())
    return out


def _cliques_without_ties(avg: np.ndarray, compatible: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Without ties every group is an interval of the rank order.

    ``[a, e]`` is a group iff each member's first conflict to its right lies
    beyond ``e``, so the longest group from ``a`` ends at
    ``end(a) = min(first_conflict(a) - 1, end(a + 1))``.
    """
    order = np.argsort(avg, kind="stable")
    k = len(order)
    conflict = ~compatible[np.ix_(order, order)] & np.triu(np.ones((k, k), dtype=bool), 1)
    first = np.where(conflict.any(axis=1), conflict.argmax(axis=1), k)
    end = np.minimum.accumulate((first - 1)[::-1])[::-1]
    out = []
    last_end = -1
    for a in range(k):
        e = int(end[a])
        if e > last_end and e > a:
            out.append(tuple(int(i) for i in order[a : e + 1]))
        last_end = max(last_end, e)
    return tuple(out)


def find_cliques(average_ranks, significant) -> tuple[tuple[int, ...], ...]:
    """Maximal groups of consecutive methods with no significant difference inside.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each method (lower is better).
    significant : array_like of bool, shape (k, k)
        Symmetric matrix: whether each pair differs significantly.

    Returns
    -------
    tuple of tuple of int
        Column indices of each group of two or more methods, members in
        rank order, groups ordered from the best to the worst.  Groups
        contained in another are dropped.

    Examples
    --------
    >>> sig = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    >>> find_cliques([1.0, 2.0, 3.0], sig)
    ((0, 1), (1, 2))
    """
    avg = np.asarray(average_ranks, dtype=float)
    sig = np.asarray(significant, dtype=bool)
    compatible = ~sig
    np.fill_diagonal(compatible, True)
    groups = _tie_groups(avg)
    m = len(groups)
    if m == len(avg):
        return _cliques_without_ties(avg, compatible)
    found: set[int] = set()  # groups as bitmasks over the methods
    for a in range(m):
        interior: list[int] = []
        interior_mask = 0
        # fits[i]: method i is compatible with every interior member
        fits = np.ones(len(avg), dtype=bool)
        pending: set[int] = set()
        for b in range(a, m):
            if b - 1 > a:
                # T_{b-1} became interior: its members must fit the rest and each other
                new = groups[b - 1]
                if not (fits[new].all() and compatible[np.ix_(new, new)].all()):
                    break
                interior += new
                interior_mask |= sum(1 << i for i in new)
                fits &= compatible[new].all(axis=0)
            ends = groups[a] if a == b else groups[a] + groups[b]
            cand = [i for i in ends if fits[i]]
            whole = len(cand) == len(ends) and bool(compatible[np.ix_(cand, cand)].all())
            cliques_here = [set(cand)] if whole else _maximal_cliques(cand, compatible)
            ta, tb = set(groups[a]), set(groups[b])
            here = set()
            for clique in cliques_here:
                if (clique & ta) and (clique & tb) and len(clique) + len(interior) >= 2:
                    here.add(interior_mask | sum(1 << i for i in clique))
            if not whole:
                found |= pending
            # a whole span contains every group of the shorter spans from the same start
            pending = here
        found |= pending
    # keep maximal groups only
    masks = sorted(found, key=lambda g: -bin(g).count("1"))
    kept: list[int] = []
    for g in masks:
        if not any(g & h == g for h in kept):
            kept.append(g)
    cliques = []
    for g in kept:
        members = [i for i in range(len(avg)) if g >> i & 1]
        members.sort(key=lambda i: (avg[i], i))
        cliques.append(tuple(members))
    cliques.sort(key=lambda c: (avg[c[0]], avg[c[-1]], c))
    return tuple(cliques)


def unjoined_pairs(average_ranks, significant, cliques) -> tuple[tuple[int, int], ...]:
    """Pairs that do not differ significantly but share no clique.

    Returns
    -------
    tuple of (int, int)
        ``(i, j)`` with ``i`` ranked before ``j``.
    """
    avg = np.asarray(average_ranks, dtype=float)
    sig = np.asarray(significant, dtype=bool)
    k = len(avg)
    together = np.zeros((k, k), dtype=bool)
    for c in cliques:
        idx = np.array(c)
        together[np.ix_(idx, idx)] = True
    order = np.argsort(avg, kind="stable")
    out = []
    for p, i in enumerate(order):
        for j in order[p + 1 :]:
            if not sig[i, j] and not together[i, j]:
                out.append((int(i), int(j)))
    return tuple(out)


def bridges(average_ranks, significant) -> tuple[tuple[int, int, int], ...]:
    """Triples ``(a, b, c)``: ``a`` and ``c`` differ, ``b`` between them differs from neither.

    These are the places where overlapping groups must not be read as
    "all members of both groups are alike".
    """
    avg = np.asarray(average_ranks, dtype=float)
    sig = np.asarray(significant, dtype=bool)
    order = np.argsort(avg, kind="stable")
    s = sig[np.ix_(order, order)]
    ns = ~s
    k = len(order)
    pos = np.arange(k)
    between = (pos[:, None, None] < pos[None, :, None]) & (pos[None, :, None] < pos[None, None, :])
    hit = between & ns[:, :, None] & ns[None, :, :] & s[:, None, :]
    p, q, r = np.nonzero(hit)
    return tuple((int(order[i]), int(order[j]), int(order[m])) for i, j, m in zip(p, q, r))
