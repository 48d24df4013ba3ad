"""Order invariance: a file and its shuffled versions give bit-identical results.

Rows, columns and repetitions of a score file carry no meaning, so reading a
file with its rows shuffled, its columns in another order or its repetitions
relabelled and reordered must give the same ranks, statistics and p-values,
to the last bit (issue 10).  Two places could leak the order: the means of
repetitions (correctly rounded sums in the reading layer) and sums over
methods in the statistics (the Friedman statistic's sum of squared average
ranks, a correctly rounded ``math.fsum``).  The data are random, drawn from
few distinct values so that ties, which decide mid-ranks, are frequent.
"""

import itertools

import numpy as np
import pytest

import cdplot
from cdplot.stats._friedman import friedman_from_ranks
from cdplot.stats._ranks import rank_data

hypothesis = pytest.importorskip("hypothesis")
st = pytest.importorskip("hypothesis.strategies")

# the analyses whose every number is compared (a sum over data sets or methods in
# any of them would show up here)
ANALYSES = [
    {"test": "nemenyi"},
    {"test": "friedman-z", "correction": "holm"},
    {"test": "wilcoxon", "correction": "hochberg"},
    {"test": "sign", "correction": "bonferroni"},
    {"test": "bonferroni-dunn", "control": "m0"},
]


def outcome(res) -> tuple:
    """Every number of a result, in the order of the sorted method names.

    Returned as their bytes, so that NaN (a pair an analysis against a control
    does not test) compares equal to NaN and 0.0 differs from -0.0.
    """
    names = sorted(res.methods)
    pairs = list(itertools.combinations(names, 2))
    numbers = (
        tuple(res.average_rank(m) for m in names),
        res.friedman.statistic,
        res.friedman.pvalue,
        res.iman_davenport.statistic,
        res.iman_davenport.pvalue,
        res.critical_difference,
        tuple(res.pvalue(a, b) for a, b in pairs),
        tuple(float(res.statistics[res.methods.index(a), res.methods.index(b)]) for a, b in pairs),
    )
    return tuple(np.array(x, dtype=float).tobytes() for x in numbers)


def long_file(path, rows, columns):
    header = ("dataset", "method", "seed", "score")
    lines = [",".join(header[c] for c in columns)]
    lines += [",".join(str(r[c]) for c in columns) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@st.composite
def long_tables(draw):
    k = draw(st.integers(2, 7))
    n = draw(st.integers(2, 12))
    reps = draw(st.integers(1, 4))
    # few distinct values with a few decimals: ties within data sets, and means of
    # repetitions that round differently when summed in different orders
    values = st.sampled_from([0.1, 0.2, 0.3, 0.7, 0.15, 0.25, 0.35, 0.05, 0.9])
    rows = [
        (f"d{i}", f"m{j}", r, draw(values)) for i in range(n) for j in range(k) for r in range(reps)
    ]
    seed = draw(st.integers(0, 2**32 - 1))
    return rows, reps, seed


@hypothesis.settings(max_examples=40, deadline=None)
@hypothesis.given(data=long_tables())
def test_shuffled_long_files_give_bit_identical_results(tmp_path_factory, data):
    rows, reps, seed = data
    rng = np.random.default_rng(seed)
    tmp = tmp_path_factory.mktemp("long")
    base = long_file(tmp / "base.csv", rows, (0, 1, 2, 3))
    # rows shuffled, columns reordered, repetitions relabelled (a permutation of the
    # labels: each data set and method keeps the same multiset of scores)
    relabel = rng.permutation(reps) + 10
    moved = [(d, m, int(relabel[r]), s) for d, m, r, s in rows]
    moved = [moved[i] for i in rng.permutation(len(moved))]
    shuffled = long_file(tmp / "shuffled.csv", moved, tuple(rng.permutation(4)))
    for options in ANALYSES:
        assert outcome(cdplot.compare(shuffled, **options)) == outcome(
            cdplot.compare(base, **options)
        ), options


@hypothesis.settings(max_examples=25, deadline=None)
@hypothesis.given(seed=st.integers(0, 2**32 - 1))
def test_shuffled_wide_files_give_bit_identical_results(tmp_path_factory, seed):
    # sizes from the seed, not from hypothesis, which favours the smallest ones: the
    # sums that can leak the order need several methods
    rng = np.random.default_rng(seed)
    k, n = int(rng.integers(2, 21)), int(rng.integers(2, 41))
    x = np.round(rng.random((n, k)), 2)  # two decimals: ties now and then

    def wide(path, rows, cols):
        lines = ["dataset," + ",".join(f"m{j}" for j in cols)]
        lines += [f"d{i}," + ",".join(repr(float(x[i, j])) for j in cols) for i in rows]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    tmp = tmp_path_factory.mktemp("wide")
    base = wide(tmp / "base.csv", range(n), range(k))
    shuffled = wide(tmp / "shuffled.csv", rng.permutation(n), rng.permutation(k))
    for options in ANALYSES:
        assert outcome(cdplot.compare(shuffled, **options)) == outcome(
            cdplot.compare(base, **options)
        ), options


def test_friedman_statistic_does_not_depend_on_the_order_of_the_methods():
    # with 6 methods of these average ranks, numpy's pairwise sum of the squared
    # average ranks rounds differently in different column orders (found on the
    # bake-off redux accuracies); the correctly rounded sum does not
    rng = np.random.default_rng(12)
    x = rng.random((142, 6))
    ranks = rank_data(x)
    base = friedman_from_ranks(ranks)[0].statistic
    for _ in range(50):
        perm = rng.permutation(6)
        assert friedman_from_ranks(ranks[:, perm])[0].statistic == base
