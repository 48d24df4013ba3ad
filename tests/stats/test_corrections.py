"""Tests of cdplot.stats._corrections.

Peer tool: statsmodels 0.15.0, ``statsmodels.stats.multitest.multipletests(p,
method=...)`` with 'bonferroni', 'holm', 'simes-hochberg' and 'hommel'.
Shaffer and Bergmann-Hommel are checked against brute force over all set
partitions written here with itertools, independent of the library code.
"""

import itertools
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from cdplot.errors import CdplotError
from cdplot.stats._corrections import (
    MAX_BERGMANN_K,
    _partition_masks,
    _shaffer_multipliers,
    _shaffer_sizes,
    adjust,
    adjust_pairwise,
)

STATSMODELS_METHOD = {
    "bonferroni": "bonferroni",
    "holm": "holm",
    "hochberg": "simes-hochberg",
    "hommel": "hommel",
}

# statsmodels 0.15.0: multipletests([0.01, 0.04, 0.03, 0.005, 0.2, 0.04], method=M)[1]
P6 = [0.01, 0.04, 0.03, 0.005, 0.2, 0.04]


@pytest.mark.parametrize(
    ("correction", "expected"),
    [
        pytest.param(
            "bonferroni", [0.06, 0.24, 0.18, 0.03, 1.0, 0.24], id="statsmodels-0.15.0-bonferroni"
        ),
        pytest.param("holm", [0.05, 0.12, 0.12, 0.03, 0.2, 0.12], id="statsmodels-0.15.0-holm"),
        pytest.param(
            "hochberg", [0.05, 0.08, 0.08, 0.03, 0.2, 0.08], id="statsmodels-0.15.0-simes-hochberg"
        ),
        pytest.param("hommel", [0.05, 0.08, 0.06, 0.03, 0.2, 0.08], id="statsmodels-0.15.0-hommel"),
    ],
)
def test_adjust_statsmodels_literals(correction, expected):
    np.testing.assert_allclose(adjust(P6, correction), expected, rtol=1e-12)


@pytest.mark.parametrize("correction", list(STATSMODELS_METHOD))
@pytest.mark.parametrize("m", [1, 2, 3, 7, 50, 400])
def test_adjust_matches_statsmodels(rng, correction, m):
    for p in (rng.uniform(size=m), rng.uniform(size=m) ** 4, np.round(rng.uniform(size=m), 1)):
        expected = multipletests(p, method=STATSMODELS_METHOD[correction])[1]
        np.testing.assert_allclose(adjust(p, correction), expected, rtol=1e-12, atol=1e-15)


def test_hommel_large_family_matches_statsmodels(rng):
    # exercises the hull and interval code paths on a family of pairwise size
    p = rng.uniform(size=3000) ** 3
    expected = multipletests(p, method="hommel")[1]
    np.testing.assert_allclose(adjust(p, "hommel"), expected, rtol=1e-12, atol=1e-15)


def test_holm_demsar_control_example():
    # Demšar (2006), section 3.2.2: Holm against C4.5 rejects the first two
    # hypotheses (p = 0.015720, 0.019172 below 0.05/3 ... 0.05/2) and not the third.
    adjusted = adjust([0.015720, 0.019172, 0.608408], "holm")
    np.testing.assert_allclose(adjusted, [0.04716, 0.04716, 0.608408], atol=1e-6)
    assert list(adjusted <= 0.05) == [True, True, False]


def test_adjust_keeps_shape_and_passes_nan_through():
    p = np.array([[0.01, np.nan], [0.04, 0.02]])
    out = adjust(p, "bonferroni")
    assert out.shape == (2, 2)
    np.testing.assert_allclose(out, [[0.03, np.nan], [0.12, 0.06]])
    assert np.all(np.isnan(adjust([np.nan, np.nan], "holm")))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        pytest.param(
            lambda: adjust([0.1], "fdr_bh"), "correction='fdr_bh'", id="unknown-correction"
        ),
        pytest.param(lambda: adjust([0.1], "shaffer"), "correction='shaffer'", id="pairwise-only"),
        pytest.param(lambda: adjust([0.1, 1.5], "holm"), "1.5", id="p-above-1"),
        pytest.param(lambda: adjust(["a"], "holm"), "pvalues", id="not-numbers"),
        pytest.param(lambda: adjust_pairwise(np.ones((2, 3)), "holm"), "square", id="not-square"),
        pytest.param(
            lambda: adjust_pairwise([[1, 0.1], [0.2, 1]], "holm"), "symmetric", id="not-symmetric"
        ),
        pytest.param(
            lambda: adjust_pairwise([[1, np.nan], [np.nan, 1]], "shaffer"),
            "nan",
            id="shaffer-missing",
        ),
        pytest.param(
            lambda: adjust_pairwise(np.full((12, 12), 0.5), "bergmann"),
            "shaffer",
            id="bergmann-too-many",
        ),
    ],
)
def test_errors(call, match):
    with pytest.raises(CdplotError, match=match):
        call()


# --- the all-pairs family: independent brute force --------------------------


def _set_partitions(items):
    """All set partitions of ``items`` (a list), recursively."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first, *part[i]]] + part[i + 1 :]
        yield [[first], *part]


def _exhaustive_sets(k):
    pairs = list(itertools.combinations(range(k), 2))
    out = set()
    for partition in _set_partitions(list(range(k))):
        true = frozenset(
            pairs.index(pair)
            for block in partition
            for pair in itertools.combinations(sorted(block), 2)
        )
        if true:
            out.add(true)
    return out


def _brute_bergmann(pvec, k):
    sets = _exhaustive_sets(k)
    per_set = [
        min(1.0, max(len(s) * min(pvec[j] for j in s) for s in sets if i in s))
        for i in range(len(pvec))
    ]
    # García & Herrera (2008) and scmamp's correct.for.monotocity: running
    # maximum in raw-p order, equal raw p-values sharing the largest value
    return np.array(
        [
            max(a for a, q in zip(per_set, pvec, strict=True) if q <= pvec[i])
            for i in range(len(pvec))
        ]
    )


def _brute_shaffer(pvec, k):
    sizes = {len(s) for s in _exhaustive_sets(k)} | {0}
    m = len(pvec)
    order = np.argsort(pvec, kind="stable")
    out = np.empty(m)
    running = 0.0
    for rank, idx in enumerate(order, start=1):
        t = max(s for s in sizes if s <= m - rank + 1)
        running = max(running, t * pvec[idx])
        out[idx] = min(1.0, running)
    return out


def _symmetric(pvec, k):
    mat = np.ones((k, k))
    i, j = np.triu_indices(k, 1)
    mat[i, j] = mat[j, i] = pvec
    return mat


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6, 7])
def test_shaffer_sizes_are_the_sizes_of_exhaustive_sets(k):
    brute = {len(s) for s in _exhaustive_sets(k)} | {0}
    assert _shaffer_sizes(k) == brute


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        # hand computation from S(4) = {0, 1, 2, 3, 6}, m = 6
        pytest.param(4, [6, 3, 3, 3, 2, 1], id="hand-k4"),
        # S(3) = {0, 1, 3}, m = 3
        pytest.param(3, [3, 1, 1], id="hand-k3"),
    ],
)
def test_shaffer_multipliers(k, expected):
    np.testing.assert_array_equal(_shaffer_multipliers(k), expected)


def test_partition_count_is_bell_number():
    # Bell numbers B_k (OEIS A000110) minus the all-singletons partition
    bell = {2: 2, 3: 5, 4: 15, 5: 52, 6: 203, 7: 877, 8: 4140, 9: 21147, 10: 115975}
    for k, b in bell.items():
        assert _partition_masks(k).shape == (b - 1, k * (k - 1) // 2)


@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_bergmann_and_shaffer_match_brute_force(rng, k):
    m = k * (k - 1) // 2
    for pvec in (rng.uniform(size=m) ** 3, np.round(rng.uniform(size=m) / 5, 2)):
        mat = _symmetric(pvec, k)
        i, j = np.triu_indices(k, 1)
        np.testing.assert_allclose(
            adjust_pairwise(mat, "bergmann")[i, j], _brute_bergmann(pvec, k), rtol=1e-12
        )
        np.testing.assert_allclose(
            adjust_pairwise(mat, "shaffer")[i, j], _brute_shaffer(pvec, k), rtol=1e-12
        )


def test_pairwise_hand_example():
    # k = 4, p-values of (0,1), (0,2), (0,3), (1,2), (1,3), (2,3).
    # Shaffer: 6*0.01, max(., 3*0.02), max(., 3*0.04), 3*0.3 = 0.9, 2*0.5, 0.6 -> 1.
    # Bergmann: (0,3) is in {(0,3)} (size 1), {(0,3),(1,2)} (size 2: 2*0.04),
    # and larger sets whose minimum is 0.01 or 0.02 times 3 or 6.
    mat = _symmetric(np.array([0.01, 0.02, 0.04, 0.3, 0.5, 0.6]), 4)
    np.testing.assert_allclose(adjust_pairwise(mat, "shaffer")[0], [1.0, 0.06, 0.06, 0.12])
    np.testing.assert_allclose(adjust_pairwise(mat, "bergmann")[0], [1.0, 0.06, 0.06, 0.08])


@pytest.mark.parametrize("correction", ["bonferroni", "holm", "hochberg", "hommel"])
def test_pairwise_plain_corrections_use_the_upper_triangle(rng, correction):
    k = 6
    pvec = rng.uniform(size=15) ** 2
    mat = _symmetric(pvec, k)
    out = adjust_pairwise(mat, correction)
    i, j = np.triu_indices(k, 1)
    np.testing.assert_allclose(
        out[i, j], multipletests(pvec, method=STATSMODELS_METHOD[correction])[1]
    )
    np.testing.assert_array_equal(out, out.T)
    np.testing.assert_array_equal(np.diag(out), 1.0)


def test_pairwise_untested_pairs_stay_out_of_the_family():
    mat = _symmetric(np.array([0.01, np.nan, 0.02]), 3)
    out = adjust_pairwise(mat, "bonferroni")
    assert out[0, 1] == pytest.approx(0.02)
    assert np.isnan(out[0, 2])
    assert np.isnan(out[2, 0])


def test_bergmann_limit_documented():
    assert MAX_BERGMANN_K == 11
    mat = _symmetric(np.full(55, 0.5), 11)
    assert np.all(adjust_pairwise(mat, "bergmann") == 1.0)


def test_core_does_not_import_scipy_stats():
    code = "import sys, cdplot.stats._corrections; sys.exit('scipy.stats' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# --- properties --------------------------------------------------------------

pvalues = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=1, max_size=30)


@given(p=pvalues, correction=st.sampled_from(["bonferroni", "holm", "hochberg", "hommel"]))
def test_adjusted_at_least_raw_and_monotone(p, correction):
    p = np.array(p)
    out = adjust(p, correction)
    assert np.all(out >= p - 1e-15)
    assert np.all(out <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(out[order]) >= -1e-15)


@given(p=pvalues)
def test_plain_corrections_are_ordered(p):
    # Hommel <= Hochberg <= Holm <= Bonferroni (each step is more powerful)
    p = np.array(p)
    hommel, hochberg, holm, bonf = (
        adjust(p, c) for c in ("hommel", "hochberg", "holm", "bonferroni")
    )
    assert np.all(hommel <= hochberg + 1e-12)
    assert np.all(hochberg <= holm + 1e-12)
    assert np.all(holm <= bonf + 1e-12)


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(2, 6),
    data=st.data(),
)
def test_bergmann_le_shaffer_le_holm(k, data):
    m = k * (k - 1) // 2
    pvec = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m)))
    mat = _symmetric(pvec, k)
    berg, shaf, holm = (adjust_pairwise(mat, c) for c in ("bergmann", "shaffer", "holm"))
    assert np.all(berg <= shaf + 1e-12)
    assert np.all(shaf <= holm + 1e-12)
    off = ~np.eye(k, dtype=bool)
    assert np.all(berg[off] >= mat[off] - 1e-15)


# García & Herrera (2008), section 5 example (C4.5, k-NN(k=1), NaiveBayes, Kernel,
# CN2 on 30 data sets): the unadjusted p-values of the 10 pairs as scmamp's tests
# quote them, in np.triu_indices order (C4.5-kNN, C4.5-NB, C4.5-Kernel, C4.5-CN2,
# kNN-NB, kNN-Kernel, kNN-CN2, NB-Kernel, NB-CN2, Kernel-CN2).
GH2008_RAW = [0.0048, 0.8065, 4.487e-8, 0.0128, 0.0101, 0.008, 0.744, 1.736e-7, 0.0247, 0.0029]
# scmamp (R/pvalue_corrections.R, the example of correct.for.monotocity) prints the
# Bergmann-Hommel values of these pairs in raw-p order before the monotonicity step:
#   4.4870e-07 1.0416e-06 0.0116 0.0288 0.032 0.0303 0.0384 0.0384 1 1
# (it prints 0.00116 for 4 x 0.0029, a typo).  kNN-NB (raw 0.0101 > 0.008) gets
# 0.0303 < 0.032, the inversion; after the running maximum it gets 0.032.
GH2008_BERGMANN = [0.0288, 1.0, 4.487e-7, 0.0384, 0.032, 0.032, 1.0, 1.0416e-6, 0.0384, 0.0116]


def test_bergmann_garcia_herrera_2008_is_monotone_like_scmamp():
    mat = _symmetric(np.array(GH2008_RAW), 5)
    i, j = np.triu_indices(5, 1)
    np.testing.assert_allclose(adjust_pairwise(mat, "bergmann")[i, j], GH2008_BERGMANN, rtol=1e-9)


@settings(max_examples=200, deadline=None)
@given(k=st.integers(3, 6), data=st.data())
def test_bergmann_adjusted_values_are_ordered_like_the_raw_ones(k, data):
    m = k * (k - 1) // 2
    pvec = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m)))
    i, j = np.triu_indices(k, 1)
    adj = adjust_pairwise(_symmetric(pvec, k), "bergmann")[i, j]
    order = np.argsort(pvec, kind="stable")
    assert np.all(np.diff(adj[order]) >= 0)
    assert np.all(adj >= pvec)


def test_pairwise_accepts_symmetry_to_printing_precision():
    # Issue 13 item 8: a matrix read back from a file differs in the last bits
    mat = _symmetric(np.array([0.01, 0.02, 0.3]), 3)
    mat[1, 0] = 0.01 * (1 + 1e-12)
    np.testing.assert_allclose(
        adjust_pairwise(mat, "holm"),
        adjust_pairwise(_symmetric(np.array([0.01, 0.02, 0.3]), 3), "holm"),
    )
    # the upper triangle is the one used
    assert adjust_pairwise(mat, "bonferroni")[1, 0] == pytest.approx(0.03, rel=1e-15)
    mat[1, 0] = 0.0101
    with pytest.raises(CdplotError, match=r"symmetric; pmatrix\[0, 1\]=0.01 but pmatrix\[1, 0\]"):
        adjust_pairwise(mat, "holm")
