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

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..errors import CdplotError
from ._validate import finite_vector

__all__ = ["find_cliques", "unjoined_pairs", "bridges", "Bridges"]


def _validate_significant(significant, k: int) -> np.ndarray:
    raw = np.asarray(significant)
    if raw.shape != (k, k):
        raise CdplotError(f"significant must be a ({k}, {k}) matrix, got shape {raw.shape}")
    if raw.dtype.kind in "fc" and not np.isfinite(raw).all():
        # a NaN or an infinity would count as True (significant) and silently split groups
        i, j = np.argwhere(~np.isfinite(raw))[0]
        raise CdplotError(
            f"significant[{i}, {j}] is {raw[i, j].item()!r}; give True or False for every pair"
        )
    return raw.astype(bool)


def _tie_groups(avg: np.ndarray, tol: float = 1e-9) -> list[list[int]]:
    order = np.argsort(avg, kind="stable")
    groups: list[list[int]] = []
    for i in order:
        if groups and abs(avg[i] - avg[groups[-1][0]]) <= tol:
            groups[-1].append(int(i))
        else:
            groups.append([int(i)])
    return groups


def _maximal_cliques(nodes: list[int], conflicts: list[int]) -> list[int]:
    """Bron-Kerbosch on a small graph (the members of two tie groups), as bitmasks."""
    out: list[int] = []

    def expand(r: int, p: list[int], x: list[int]) -> None:
        if not p and not x:
            out.append(r)
            return
        for v in list(p):
            fits = [u for u in p if u != v and not conflicts[v] >> u & 1]
            expand(r | 1 << v, fits, [u for u in x if not conflicts[v] >> u & 1])
            p = [u for u in p if u != v]
            x = x + [v]

    expand(0, list(nodes), [])
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
            out.append(tuple(order[a : e + 1].tolist()))
        last_end = max(last_end, e)
    return tuple(out)


def _ties_interchangeable(groups: list[list[int]], sig: np.ndarray) -> bool:
    """Whether the members of each tie group have the same significance row and no
    difference among themselves (always so when significance follows from the
    average ranks alone, as with the CD-based and rank z-tests)."""
    for g in groups:
        if len(g) > 1:
            rows = sig[g]
            if rows[:, g].any() or not (rows == rows[0]).all():
                return False
    return True


def _cliques_of_interchangeable_ties(avg, groups, compatible) -> tuple[tuple[int, ...], ...]:
    """Interchangeable tied methods join or leave a group together: find the
    groups of the tie groups (no ties left, so O(k^2)), then expand them."""
    reps = np.array([g[0] for g in groups])
    sub = _cliques_without_ties(np.arange(len(groups), dtype=float), compatible[np.ix_(reps, reps)])
    # a tie group of two or more joined to no neighbour is a group on its own
    covered = np.zeros(len(groups), dtype=bool)
    for c in sub:
        covered[c[0] : c[-1] + 1] = True
    spans = list(sub) + [
        (gi,) for gi in range(len(groups)) if not covered[gi] and len(groups[gi]) > 1
    ]
    spans.sort(key=lambda c: (c[0], c[-1]))
    # each span is a run of consecutive tie groups: a slice of their members laid end
    # to end (the groups hold O(k^2) names in all at thousands of methods)
    flat = [i for g in groups for i in sorted(g)]
    start = np.cumsum([0] + [len(g) for g in groups]).tolist()
    return tuple(tuple(flat[start[c[0]] : start[c[-1] + 1]]) for c in spans)


def find_cliques(average_ranks: ArrayLike, significant: ArrayLike) -> tuple[tuple[int, ...], ...]:
    """Maximal groups of consecutive methods with no significant difference inside.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each method (lower is better), finite.
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
    avg = finite_vector(average_ranks, "average_ranks")
    sig = _validate_significant(significant, len(avg))
    compatible = ~sig
    np.fill_diagonal(compatible, True)
    groups = _tie_groups(avg)
    m = len(groups)
    if m == len(avg):
        return _cliques_without_ties(avg, compatible)
    if _ties_interchangeable(groups, sig):
        return _cliques_of_interchangeable_ties(avg, groups, compatible)
    # Python ints as bitsets: the tie groups are small, so plain bit operations
    # beat numpy calls in this loop (it runs once per span of tie groups)
    off = sig.copy()
    np.fill_diagonal(off, False)
    packed = np.packbits(off, axis=1, bitorder="little")
    conflicts = [int.from_bytes(row.tobytes(), "little") for row in packed]
    group_masks = [sum(1 << i for i in g) for g in groups]
    found: set[int] = set()  # groups as bitmasks over the methods
    for a in range(m):
        interior_mask = 0
        interior_size = 0
        pending: set[int] = set()
        reached_end = False
        for b in range(a, m):
            if b - 1 > a:
                # T_{b-1} became interior: its members must fit the rest and each other
                new_mask = group_masks[b - 1]
                if any(conflicts[i] & (interior_mask | new_mask) for i in groups[b - 1]):
                    break
                interior_mask |= new_mask
                interior_size += len(groups[b - 1])
            ends = groups[a] if a == b else groups[a] + groups[b]
            cand = [i for i in ends if not conflicts[i] & interior_mask]
            cand_mask = sum(1 << i for i in cand)
            whole = len(cand) == len(ends) and not any(conflicts[i] & cand_mask for i in cand)
            cliques_here = [cand_mask] if whole else _maximal_cliques(cand, conflicts)
            here = set()
            for clique in cliques_here:
                if (
                    clique & group_masks[a]
                    and clique & group_masks[b]
                    and bin(clique).count("1") + interior_size >= 2
                ):
                    here.add(interior_mask | clique)
            if not whole:
                found |= pending
            # a whole span contains every group of the shorter spans from the same start
            pending = here
            reached_end = whole and b == m - 1
        found |= pending
        if reached_end:
            # every group starting later lies inside this one
            break
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


def _threshold_ends(s: np.ndarray) -> np.ndarray | None:
    """For a significance matrix ``s`` in rank order: ``e[p]``, the first position
    after ``p`` that differs from ``p``, when every row is "alike up to e[p], then
    different" and ``e`` never decreases; else ``None``.

    This holds whenever significance grows with the distance of average ranks
    (Nemenyi, Bonferroni-Dunn, the rank z-tests under any correction that keeps
    the order of the p-values), and it makes groups, unjoined pairs and bridges
    computable in O(k^2).
    """
    k = len(s)
    upper = np.triu(s, 1)
    ends = np.where(upper.any(axis=1), upper.argmax(axis=1), k)
    pos = np.arange(k)
    implied = (pos[None, :] >= ends[:, None]) & (pos[None, :] > pos[:, None])
    if not np.array_equal(implied, upper) or np.any(np.diff(ends) < 0):
        return None
    return ends


def unjoined_pairs(
    average_ranks: ArrayLike, significant: ArrayLike, cliques: Sequence[Sequence[int]]
) -> tuple[tuple[int, int], ...]:
    """Pairs that do not differ significantly but share no clique.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each method (lower is better), finite.
    significant : array_like of bool, shape (k, k)
        Symmetric matrix: whether each pair differs significantly.
    cliques : sequence of sequence of int
        The groups, as :func:`find_cliques` returns them.

    Returns
    -------
    tuple of (int, int)
        ``(i, j)`` with ``i`` ranked before ``j``.
    """
    # NaN ranks would sort last and NaN flags count as significant: refuse them as
    # find_cliques does
    avg = finite_vector(average_ranks, "average_ranks")
    k = len(avg)
    sig = _validate_significant(significant, k)
    order = np.argsort(avg, kind="stable")
    where = np.empty(k, dtype=np.int64)
    where[order] = np.arange(k)
    # groups as ranges of rank positions, when they are (always so without
    # ties, and for interchangeable ties): O(k^2) with a prefix maximum
    reach = np.full(k, -1)
    contiguous = True
    for c in cliques:
        p = np.sort(where[np.asarray(c)])
        if p[-1] - p[0] + 1 != len(p):
            contiguous = False
            break
        reach[p[0]] = max(reach[p[0]], p[-1])
    s = sig[np.ix_(order, order)]
    if contiguous:
        reach = np.maximum.accumulate(reach)
        pos = np.arange(k)
        together = pos[None, :] <= reach[:, None]
    else:
        together = np.zeros((k, k), dtype=bool)
        for c in cliques:
            p = where[np.asarray(c)]
            together[np.ix_(p, p)] = True
    pi, pj = np.nonzero(np.triu(~s & ~together, 1))
    return tuple(zip(order[pi].tolist(), order[pj].tolist(), strict=True))


def bridges(average_ranks: ArrayLike, significant: ArrayLike) -> tuple[tuple[int, int, int], ...]:
    """Significant pairs that a chain of overlapping groups links.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each method (lower is better), finite.
    significant : array_like of bool, shape (k, k)
        Symmetric matrix: whether each pair differs significantly.

    Returns
    -------
    tuple of (int, int, int)
        One triple ``(a, b, c)`` per pair ``a``, ``c`` (``a`` ranked first)
        that differs significantly while some ``b`` ranked between them
        differs from neither; ``b`` is the first such method in rank order.
        These are the places where overlapping groups must not be read as
        "all members of both groups are alike".

    Notes
    -----
    When significance grows with the distance in rank order (every CD-based
    or rank z-test), the first such ``b`` follows from where each method's
    significant differences start, in O(k^2) time and memory; otherwise the
    rows of "alike" flags are packed 64 to a word and intersected (O(k^3 / 64)
    word operations, O(k^2) memory).  :class:`Bridges` counts them without
    listing them.
    """
    avg = finite_vector(average_ranks, "average_ranks")
    sig = _validate_significant(significant, len(avg))
    a, b, c = _bridge_positions(avg, sig)
    return tuple(zip(a.tolist(), b.tolist(), c.tolist(), strict=True))


def _rank_order(avg: np.ndarray, sig: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rank order and the significance matrix in that order."""
    order = np.argsort(avg, kind="stable")
    return order, sig[np.ix_(order, order)]


def _threshold_bridges(ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per rank position ``a``: how many bridges start there, the first ``b`` and ``c``.

    ``c`` differs from ``a`` iff ``c >= ends[a]``; ``b`` is alike to ``a`` iff
    ``b < ends[a]`` and alike to ``c`` iff ``b >= first[c]`` (the first position
    whose ends exceed ``c``).  So ``(a, c)`` is bridged iff ``a + 1 < ends[a]``
    and ``first[c] < ends[a]``; ``first`` never decreases, so these ``c`` are
    the run from ``ends[a]`` up to ``searchsorted(first, ends[a])``: O(k log k).
    """
    k = len(ends)
    first = np.searchsorted(ends, np.arange(k), side="right")
    upto = np.searchsorted(first, ends, side="left")
    pos = np.arange(k)
    count = np.where(pos + 1 < ends, np.maximum(upto - ends, 0), 0)
    c = np.minimum(ends, k - 1)
    b = np.maximum(pos + 1, first[c])
    return count, b, c


def _bridge_positions(avg: np.ndarray, sig: np.ndarray) -> tuple[np.ndarray, ...]:
    """Column indices ``(a, b, c)`` of every bridge, in the order :func:`bridges` lists them."""
    order, s = _rank_order(avg, sig)
    k = len(order)
    ends = _threshold_ends(s)
    if ends is not None:
        count, b0, _ = _threshold_bridges(ends)
        first = np.searchsorted(ends, np.arange(k), side="right")
        # the c of start a run from ends[a]: one entry per bridge, rows in rank order
        a = np.repeat(np.arange(k), count)
        start = np.cumsum(count) - count
        c = ends[a] + (np.arange(a.size) - start[a])
        b = np.maximum(a + 1, first[c])
        return order[a], order[b], order[c]
    # General significance: rows of "alike" bits packed 64 to a word; for each a,
    # the first b after a alike to both a and c is the lowest set bit of
    # (row a & row c) above a, found for all c at once (O(k^3 / 64) word operations)
    words = (k + 63) // 64
    packed = np.zeros((k, words * 8), dtype=np.uint8)
    packed[:, : (k + 7) // 8] = np.packbits(~s, axis=1, bitorder="little")
    packed = packed.view(np.uint64)
    powers = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
    out_a, out_b, out_c = [], [], []
    for a in range(k - 2):
        targets = np.flatnonzero(s[a, a + 2 :]) + a + 2
        if targets.size == 0:
            continue
        cand = packed[targets] & packed[a]
        # keep the bits of positions after a
        w0, b0 = divmod(a + 1, 64)
        cand[:, :w0] = 0
        cand[:, w0] &= ~np.uint64(0) << np.uint64(b0)
        nonzero = cand != 0
        has = nonzero.any(axis=1)
        w = nonzero.argmax(axis=1)
        word = cand[np.arange(targets.size), w]
        low = word & (~word + np.uint64(1))  # lowest set bit
        r = w * 64 + np.searchsorted(powers, low)
        ok = has & (r < targets)
        out_a.append(np.full(int(ok.sum()), a))
        out_b.append(r[ok])
        out_c.append(targets[ok])
    if not out_a:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    a, b, c = (np.concatenate(x).astype(np.int64) for x in (out_a, out_b, out_c))
    return order[a], order[b], order[c]


class Bridges(Sequence):
    """The bridges of an analysis, by name, listed only when asked.

    A read-only sequence of ``(a, b, c)`` name triples, equal to the tuple
    :func:`bridges` gives (mapped to names).  Its length and first triple
    cost O(k log k) after the O(k^2) check that significance grows with the
    distance in rank order (always so for the CD-based and rank z-tests);
    the triples themselves, O(k^2) of them (603,031 at 2,000 methods), are
    built on first iteration or indexing beyond the first and then kept.
    Other significance patterns list them at once.

    Parameters
    ----------
    names : sequence of str
        Method names, in column order.
    average_ranks : array_like, shape (k,)
        Average rank of each method (lower is better), finite.
    significant : array_like of bool, shape (k, k)
        Symmetric matrix: whether each pair differs significantly.

    Examples
    --------
    >>> sig = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    >>> found = Bridges(["A", "B", "C"], [1.0, 2.0, 3.0], sig)
    >>> len(found), found[0]
    (1, ('A', 'B', 'C'))
    """

    __slots__ = ("_names", "_avg", "_sig", "_count", "_first", "_listed")

    def __init__(self, names: Sequence[str], average_ranks: ArrayLike, significant: ArrayLike):
        self._names = tuple(names)
        self._avg = finite_vector(average_ranks, "average_ranks")
        self._sig = _validate_significant(significant, len(self._avg))
        self._listed: tuple[tuple[str, str, str], ...] | None = None
        order, s = _rank_order(self._avg, self._sig)
        ends = _threshold_ends(s)
        if ends is None:
            self._list()
            return
        count, b, c = _threshold_bridges(ends)
        self._count = int(count.sum())
        self._first = None
        if self._count:
            a = int(np.flatnonzero(count)[0])
            self._first = tuple(self._names[order[i]] for i in (a, int(b[a]), int(c[a])))

    def _list(self) -> tuple[tuple[str, str, str], ...]:
        if self._listed is None:
            m = self._names
            a, b, c = _bridge_positions(self._avg, self._sig)
            self._listed = tuple(
                zip(
                    map(m.__getitem__, a.tolist()),
                    map(m.__getitem__, b.tolist()),
                    map(m.__getitem__, c.tolist()),
                    strict=True,
                )
            )
            self._count = len(self._listed)
            self._first = self._listed[0] if self._listed else None
        return self._listed

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if index in (0, -self._count) and self._first is not None and type(index) is int:
            return self._first
        return self._list()[index]

    def __iter__(self):
        return iter(self._list())

    def __eq__(self, other) -> bool:
        if isinstance(other, Bridges | tuple | list):
            return len(self) == len(other) and tuple(self) == tuple(map(tuple, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple, but not one

    def __repr__(self) -> str:
        if self._count <= 3:
            return repr(self._list())
        return f"<Bridges: {self._count} triples, first {self._first!r}>"
