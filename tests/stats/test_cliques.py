import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdplot.stats._cliques import Bridges, bridges, find_cliques, unjoined_pairs


def _sym(k, pairs):
    s = np.zeros((k, k), dtype=bool)
    for i, j in pairs:
        s[i, j] = s[j, i] = True
    return s


def brute_force(avg, sig):
    """Every maximal group straight from the definition (exponential; small k only)."""
    k = len(avg)
    groups = []
    for r in range(2, k + 1):
        for g in itertools.combinations(range(k), r):
            lo, hi = min(avg[i] for i in g), max(avg[i] for i in g)
            if any(lo < avg[j] < hi for j in range(k) if j not in g):
                continue
            if any(sig[i, j] for i, j in itertools.combinations(g, 2)):
                continue
            groups.append(set(g))
    return sorted(tuple(sorted(g)) for g in groups if not any(g < h for h in groups))


@settings(max_examples=400, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda k: st.tuples(
            st.lists(st.integers(1, 5), min_size=k, max_size=k),
            st.lists(st.booleans(), min_size=k * k, max_size=k * k),
        )
    )
)
def test_matches_definition(case):
    ranks, bits = case
    k = len(ranks)
    avg = np.array(ranks, dtype=float)
    sig = np.triu(np.array(bits).reshape(k, k), 1)
    sig = sig | sig.T
    got = sorted(tuple(sorted(c)) for c in find_cliques(avg, sig))
    assert got == brute_force(avg, sig)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 9).flatmap(lambda k: st.lists(st.booleans(), min_size=k * k, max_size=k * k)))
def test_matches_definition_without_ties(bits):
    k = int(round(len(bits) ** 0.5))
    avg = np.arange(1.0, k + 1) + 0.25
    sig = np.triu(np.array(bits).reshape(k, k), 1)
    sig = sig | sig.T
    got = sorted(tuple(sorted(c)) for c in find_cliques(avg, sig))
    assert got == brute_force(avg, sig)


def test_no_bar_across_a_significant_method():
    # A-B-C-D in rank order; A differs from C only.  A bar from A to D would span C.
    avg = [1.0, 2.0, 3.0, 4.0]
    sig = _sym(4, [(0, 2)])
    assert find_cliques(avg, sig) == ((0, 1), (1, 2, 3))


def test_equal_ranks_are_joinable_in_either_order():
    # B and C tie; B differs from D, C does not: {C, D} is a group although B "sits between".
    avg = [1.0, 2.0, 2.0, 3.0]
    sig = _sym(4, [(1, 3), (0, 3), (0, 2)])
    assert find_cliques(avg, sig) == ((0, 1), (1, 2), (2, 3))


def test_bridges_and_unjoined():
    # a, b, c: a differs from c, b from neither -> two overlapping groups and one bridge
    avg = [1.0, 2.0, 3.0]
    sig = _sym(3, [(0, 2)])
    cl = find_cliques(avg, sig)
    assert cl == ((0, 1), (1, 2))
    assert bridges(avg, sig) == ((0, 1, 2),)
    assert unjoined_pairs(avg, sig, cl) == ()
    # non-monotone significance (possible with Wilcoxon): a~c but a differs from b
    sig = _sym(3, [(0, 1)])
    cl = find_cliques(avg, sig)
    assert cl == ((1, 2),)
    assert unjoined_pairs(avg, sig, cl) == ((0, 2),)


def test_all_alike_and_all_different():
    k = 6
    assert find_cliques(np.arange(k), np.zeros((k, k), bool)) == (tuple(range(k)),)
    allsig = ~np.eye(k, dtype=bool)
    assert find_cliques(np.arange(k), allsig) == ()


@pytest.mark.parametrize("k", [50, 200])
def test_large_k_is_fast_enough_to_run(k, rng):
    avg = np.sort(rng.uniform(1, k, k))
    sig = np.abs(avg[:, None] - avg[None, :]) >= k / 5
    cl = find_cliques(avg, sig)
    for c in cl:
        idx = np.array(c)
        assert not sig[np.ix_(idx, idx)].any()


def _brute_bridges(avg, sig):
    order = list(np.argsort(avg, kind="stable"))
    out = []
    for pa, a in enumerate(order):
        for pc in range(pa + 2, len(order)):
            c = order[pc]
            if not sig[a, c]:
                continue
            for b in order[pa + 1 : pc]:
                if not sig[a, b] and not sig[b, c]:
                    out.append((int(a), int(b), int(c)))
                    break
    return out


def _brute_unjoined(avg, sig, cliques):
    order = list(np.argsort(avg, kind="stable"))
    out = []
    for pa, a in enumerate(order):
        for b in order[pa + 1 :]:
            if not sig[a, b] and not any(a in c and b in c for c in cliques):
                out.append((int(a), int(b)))
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=2, max_size=12),
    st.integers(1, 8),
)
def test_rank_threshold_fast_paths_match_the_definitions(sums, cd):
    # Issue 14 (scale): with significance = |R_i - R_j| >= CD (every CD-based
    # test) groups, unjoined pairs and bridges take O(k^2) paths, ties included
    # (average ranks as sums / 4, many ties).
    avg = np.array(sums, dtype=float) / 4
    sig = np.abs(avg[:, None] - avg[None, :]) >= cd / 4
    np.fill_diagonal(sig, False)
    cliques = find_cliques(avg, sig)
    assert sorted(tuple(sorted(c)) for c in cliques) == brute_force(avg, sig)
    assert list(unjoined_pairs(avg, sig, cliques)) == _brute_unjoined(avg, sig, cliques)
    assert list(bridges(avg, sig)) == _brute_bridges(avg, sig)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(3, 8).flatmap(
        lambda k: st.tuples(
            st.lists(st.integers(1, 4), min_size=k, max_size=k),
            st.lists(st.booleans(), min_size=k * k, max_size=k * k),
        )
    )
)
def test_general_paths_match_the_definitions(case):
    ranks, bits = case
    k = len(ranks)
    avg = np.array(ranks, dtype=float)
    sig = np.triu(np.array(bits).reshape(k, k), 1)
    sig = sig | sig.T
    cliques = find_cliques(avg, sig)
    assert list(unjoined_pairs(avg, sig, cliques)) == _brute_unjoined(avg, sig, cliques)
    assert list(bridges(avg, sig)) == _brute_bridges(avg, sig)


@pytest.mark.parametrize("k", [63, 64, 65, 150])
def test_general_bridges_across_several_words(k):
    # the general path packs 64 methods to a word: check word boundaries
    rng = np.random.default_rng(k)
    avg = rng.permutation(k).astype(float)
    sig = np.triu(rng.random((k, k)) < 0.3, 1)
    sig = sig | sig.T
    assert list(bridges(avg, sig)) == _brute_bridges(avg, sig)


def _check_lazy_bridges(avg, sig):
    # Issue 28: the count and the first triple come before (and without) the list,
    # and must agree with the definition; then the list itself
    names = [f"m{i}" for i in range(len(avg))]
    want = [tuple(names[i] for i in t) for t in _brute_bridges(avg, sig)]
    lazy = Bridges(names, avg, sig)
    assert len(lazy) == len(want)
    assert bool(lazy) == bool(want)
    if want:
        assert lazy[0] == want[0]
        assert lazy[-len(want)] == want[0]
    assert list(lazy) == want
    assert lazy == tuple(want)
    assert len(lazy) == len(want)
    if want:
        assert lazy[-1] == want[-1]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=2, max_size=12),
    st.integers(1, 8),
)
def test_lazy_bridges_count_and_first_match_the_definition(sums, cd):
    avg = np.array(sums, dtype=float) / 4
    sig = np.abs(avg[:, None] - avg[None, :]) >= cd / 4
    np.fill_diagonal(sig, False)
    _check_lazy_bridges(avg, sig)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(3, 8).flatmap(
        lambda k: st.tuples(
            st.lists(st.integers(1, 4), min_size=k, max_size=k),
            st.lists(st.booleans(), min_size=k * k, max_size=k * k),
        )
    )
)
def test_lazy_bridges_of_any_significance_match_the_definition(case):
    ranks, bits = case
    k = len(ranks)
    avg = np.array(ranks, dtype=float)
    sig = np.triu(np.array(bits).reshape(k, k), 1)
    _check_lazy_bridges(avg, sig | sig.T)


def test_lazy_bridges_at_many_methods_are_counted_without_listing(rng):
    # a CD-based pattern at k = 400 (tens of thousands of bridges): the count and
    # the first triple agree with the listing by bridges(), which is not built
    k = 400
    avg = np.sort(rng.uniform(1, k, k))
    sig = np.abs(avg[:, None] - avg[None, :]) >= k / 5
    np.fill_diagonal(sig, False)
    lazy = Bridges([str(i) for i in range(k)], avg, sig)
    count, first = len(lazy), lazy[0]
    assert lazy._listed is None
    listed = bridges(avg, sig)
    assert count == len(listed) > 10_000
    assert first == tuple(str(i) for i in listed[0])
    assert list(lazy) == [tuple(map(str, t)) for t in listed]
