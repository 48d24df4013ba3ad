"""Cliff's delta, Cohen's d and per-method summaries (cdplot/stats/_effect_sizes.py)."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cdplot
from cdplot.errors import CdplotError
from cdplot.stats._effect_sizes import (
    _median_rank,
    _median_rank_exact,
    cliffs_delta,
    cohens_d,
    effect_sizes,
    magnitude,
)


def _delta_by_count(a, b):
    """Cliff (1993): (#(a_i > b_j) - #(a_i < b_j)) / (n m), over all pairs, directly."""
    gt = sum(1 for x in a for y in b if x > y)
    lt = sum(1 for x in a for y in b if x < y)
    return (gt - lt) / (len(a) * len(b))


@settings(max_examples=60, deadline=None)
@given(
    arrays(
        float,
        st.tuples(st.integers(1, 12), st.integers(2, 5)),
        # few distinct values, so that ties are common
        elements=st.sampled_from([0.1, 0.2, 0.25, 0.5, 0.75, 0.9, 1.0]),
    )
)
def test_cliffs_delta_equals_the_direct_count(x):
    delta = cliffs_delta(x)
    k = x.shape[1]
    for i in range(k):
        for j in range(k):
            assert delta[i, j] == pytest.approx(_delta_by_count(x[:, i], x[:, j]), abs=1e-12)


def test_cliffs_delta_matches_autorank_on_demsar():
    # autorank 1.3.0: autorank._util._cliffs_delta(x[:, i], x[:, j]) on Demšar (2006) Table 6,
    # printed AUCs (cdplot.load_example("demsar2006")), rounded to 6 decimals
    autorank = [
        [0, -0.107143, -0.005102, -0.117347],
        [0.107143, 0, 0.096939, 0.005102],
        [0.005102, -0.096939, 0, -0.112245],
        [0.117347, -0.005102, 0.112245, 0],
    ]
    (t,) = cdplot.load_example("demsar2006")
    assert cliffs_delta(t.values) == pytest.approx(np.array(autorank), abs=5e-7)


def test_cohens_d_is_the_paired_standardised_mean_difference():
    from scipy import stats

    rng = np.random.default_rng(3)
    x = rng.normal(size=(20, 4)) + np.array([0, 0.2, 0.5, 1.0])
    d = cohens_d(x)
    for i in range(4):
        for j in range(4):
            if i == j:
                continue
            diff = x[:, i] - x[:, j]
            assert d[i, j] == pytest.approx(diff.mean() / diff.std(ddof=1), rel=1e-12)
            # d_z = t / sqrt(n) for the paired t statistic (scipy.stats.ttest_rel)
            t = stats.ttest_rel(x[:, i], x[:, j]).statistic
            assert d[i, j] * np.sqrt(20) == pytest.approx(t, rel=1e-10)


def test_cohens_d_of_constant_differences():
    d = cohens_d([[1.0, 0.5, 1.0], [2.0, 1.5, 2.0], [3.0, 2.5, 3.0]])
    assert d[0, 1] == np.inf
    assert d[1, 0] == -np.inf
    assert np.isnan(d[0, 2])


def test_lower_is_better_flips_the_sign():
    rng = np.random.default_rng(5)
    x = rng.uniform(size=(15, 3))
    assert cliffs_delta(x, higher_is_better=False) == pytest.approx(-cliffs_delta(x))
    assert cohens_d(x, higher_is_better=False) == pytest.approx(-cohens_d(x))
    hi = effect_sizes(x)
    lo = effect_sizes(x, higher_is_better=False)
    assert lo.mean.tolist() == hi.mean.tolist(), "summaries stay in the scores' own unit"


@pytest.mark.parametrize(
    ("value", "measure", "label"),
    [
        # Romano et al. (2006): negligible < 0.147 <= small < 0.33 <= medium < 0.474 <= large
        (0.1469, "cliffs_delta", "negligible"),
        (0.147, "cliffs_delta", "small"),
        (-0.3299, "cliffs_delta", "small"),
        (0.33, "cliffs_delta", "medium"),
        (0.474, "cliffs_delta", "large"),
        # Cohen (1988): 0.2 / 0.5 / 0.8
        (0.1999, "cohens_d", "negligible"),
        (0.2, "cohens_d", "small"),
        (0.5, "cohens_d", "medium"),
        (-0.8, "cohens_d", "large"),
        (np.inf, "cohens_d", "large"),
        (np.nan, "cohens_d", "undefined"),
    ],
)
def test_magnitude_thresholds(value, measure, label):
    assert magnitude(value, measure) == label


def test_mean_interval_is_t_based():
    from scipy import stats

    rng = np.random.default_rng(9)
    x = rng.normal(size=(11, 2))
    es = effect_sizes(x, alpha=0.1)
    for j in range(2):
        lo, hi = stats.t.interval(0.9, 10, loc=x[:, j].mean(), scale=stats.sem(x[:, j]))
        assert es.mean_ci[j] == pytest.approx([lo, hi], rel=1e-10)


@pytest.mark.parametrize(
    ("n", "ranks"),
    [
        # Conover (1999), section 3.2: the 95 % interval of the median is [x_(r), x_(n-r+1)] with
        # r - 1 the largest count whose binomial(n, 1/2) lower tail is at most 0.025
        pytest.param(14, (3, 12), id="n14"),
        pytest.param(20, (6, 15), id="n20"),
        pytest.param(6, (1, 6), id="n6"),
        pytest.param(5, (1, 5), id="n5-widest"),
    ],
)
def test_median_interval_uses_order_statistics(n, ranks):
    x = np.arange(1.0, n + 1.0)[:, None] * np.ones((1, 2))
    es = effect_sizes(x)
    assert es.median_ci[0].tolist() == [float(ranks[0]), float(ranks[1])]


@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95, 0.99, 0.999])
def test_median_rank_from_scipy_agrees_with_the_exact_count(confidence):
    # the order statistic from scipy's binomial tail against the count in exact integers
    # (Conover 1999, section 3.2), for every n to 400 and a few larger ones
    for n in [*range(1, 401), 1000, 2345, 10_000]:
        assert _median_rank(n, confidence) == _median_rank_exact(n, confidence), n


def test_median_rank_at_the_bound_is_decided_exactly(monkeypatch):
    # P(Bin(10, 1/2) <= 1) = 11/1024 exactly: at a tail of exactly 11/1024, "at most the tail"
    # holds and r = 2; a float a rounding away could say either, so the exact count decides
    calls = []

    def exact(n, confidence):
        calls.append(n)
        return _median_rank_exact(n, confidence)

    monkeypatch.setattr("cdplot.stats._effect_sizes._median_rank_exact", exact)
    assert _median_rank(10, 1.0 - 22 / 1024) == 2
    assert calls == [10]
    # far from any tail probability the float decides alone: n = 10,000 at 95 % gives
    # n/2 - 1.96 sqrt(n)/2 = 4,902 (the normal approximation, Conover 1999, section 3.2)
    assert _median_rank(10_000, 0.95) == 4902
    assert calls == [10]


def test_result_is_readable_and_json_safe():
    (t,) = cdplot.load_example("demsar2006")
    es = effect_sizes(t.values, methods=t.methods)
    text = str(es)
    assert "C4.5+m+cf vs C4.5: delta = 0.117 (negligible), Cohen's d = 0.735 (medium)" in text
    assert len(repr(es)) < 100
    d = es.to_dict()
    json.dumps(d, allow_nan=False)
    assert d["cliffs_delta"]["C4.5+m+cf"]["C4.5"] == pytest.approx(0.117347, abs=5e-7)
    assert d["magnitude"]["cohens_d"]["C4.5+m"]["C4.5"] == "medium"
    with pytest.raises(ValueError, match="read-only"):
        es.cliffs_delta[0, 1] = 1.0


def test_many_methods_are_fast_enough_and_exact():
    # vectorised: 100 methods x 300 data sets without a per-pair Python loop
    rng = np.random.default_rng(1)
    x = np.round(rng.uniform(size=(300, 100)), 2)
    delta = cliffs_delta(x)
    assert delta[3, 7] == pytest.approx(_delta_by_count(x[:, 3], x[:, 7]))
    assert np.allclose(delta, -delta.T)


@pytest.mark.parametrize(
    ("scores", "kwargs", "message"),
    [
        ([[1.0, np.nan]], {}, "row 0, column 1"),
        ([1.0, 2.0], {}, "table of data sets"),
        ([[1.0, 2.0]], {"methods": ["a"]}, "1 names for 2 columns"),
        ([[1.0, 2.0]], {"alpha": 2}, "alpha"),
    ],
)
def test_bad_input_is_one_line(scores, kwargs, message):
    with pytest.raises(CdplotError, match=message):
        effect_sizes(scores, **kwargs)


def test_scores_near_the_largest_float_do_not_overflow():
    # issue 14: finite inputs near 1e308 must not give inf or NaN from overflow
    x = np.array([[1e308, -1e308], [-1e308, 1e308], [1e308, 1e308], [0.5, 0.1]])
    small = x / 2.0**1000
    big, ref = effect_sizes(x), effect_sizes(small)
    assert np.array_equal(big.cliffs_delta, ref.cliffs_delta)
    assert np.array_equal(big.cohens_d, ref.cohens_d)
    assert np.all(np.isfinite(big.mean))
    assert big.mean == pytest.approx(ref.mean * 2.0**1000)
    assert big.median == pytest.approx(ref.median * 2.0**1000)


def test_an_interval_beyond_the_float_range_is_refused():
    x = np.array([[1.7e308, 0.0], [-1.7e308, 0.0], [1.7e308, 1.0]])
    with pytest.raises(CdplotError, match="beyond the largest float"):
        effect_sizes(x)


def test_cliffs_delta_matches_autorank_live():
    # autorank 1.3: autorank._util._cliffs_delta(x, y), its own O(N^2) double loop
    autorank_util = pytest.importorskip("autorank._util")
    rng = np.random.default_rng(12)
    # ties within and across methods (two decimals), as real accuracy tables have
    x = np.round(rng.uniform(0.6, 0.9, size=(25, 6)), 2)
    delta = cliffs_delta(x)
    for i in range(6):
        for j in range(6):
            if i != j:
                ref = autorank_util._cliffs_delta(x[:, i], x[:, j])
                assert delta[i, j] == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("rounding", [None, 3, 1, 0])
@pytest.mark.parametrize(("n", "k"), [(1, 2), (3, 70), (40, 9), (150, 3)])
def test_blocked_cliffs_delta_equals_the_direct_count(n, k, rounding):
    # the blocked count crosses block boundaries (32 positions at these k) inside runs of ties
    rng = np.random.default_rng(n * 100 + k)
    x = rng.normal(size=(n, k))
    if rounding is not None:
        x = np.round(x, rounding)
    delta = cliffs_delta(x)
    for i, j in [(0, 1), (1, 0), (k - 1, 0), (k // 2, k - 1)]:
        if i != j:
            assert delta[i, j] == pytest.approx(_delta_by_count(x[:, i], x[:, j]), abs=1e-12)
    assert np.allclose(delta, -delta.T, atol=1e-15)


def test_cohens_d_of_near_copies_is_exact():
    # the k x k product var_i + var_j - 2 cov_ij cancels for near-copies; those pairs are
    # computed from the differences themselves
    rng = np.random.default_rng(4)
    base = rng.normal(size=30) * 1e3 + 1e6
    x = np.column_stack([base, base + 1e-4 * rng.normal(size=30) + 2e-5, base + 3.0, base * 2])
    d = cohens_d(x)
    for i in range(4):
        for j in range(4):
            if i == j:
                continue
            diff = x[:, i] - x[:, j]
            if np.ptp(diff) == 0:
                assert np.isinf(d[i, j])
            else:
                assert d[i, j] == pytest.approx(diff.mean() / diff.std(ddof=1), rel=1e-9)


def test_cohens_d_differs_from_autorank_on_purpose():
    # autorank 1.3's _cohen_d divides by the pooled standard deviation of two independent
    # samples; cdplot's d is d_z of the paired differences (the same data sets), as the
    # paired t-test and repeated-measures ANOVA see them
    autorank_util = pytest.importorskip("autorank._util")
    (t,) = cdplot.load_example("demsar2006")
    x = t.values
    pooled = autorank_util._cohen_d(x[:, 3], x[:, 0])
    assert cohens_d(x)[3, 0] == pytest.approx(0.735, abs=5e-4)
    assert abs(pooled) < 0.2, "the pooled d hides the consistent paired gain"


# ---- wired into every multi-method analysis ---------------------------------------------


def test_compare_carries_effect_sizes_computed_once():
    (t,) = cdplot.load_example("demsar2006")
    res = cdplot.compare(t)
    assert "effect_sizes" not in vars(res), "computed lazily, not by compare()"
    es = res.effect_sizes
    assert es is res.effect_sizes
    assert es.measure == "cliffs_delta"
    ref = effect_sizes(t.values, methods=t.methods)
    assert np.array_equal(es.cliffs_delta, ref.cliffs_delta)
    assert es.delta("C4.5+m+cf", "C4.5") == pytest.approx(0.117347, abs=5e-7)


def test_lower_is_better_analysis_flips_effects():
    rng = np.random.default_rng(8)
    x = rng.uniform(size=(12, 4))
    hi = cdplot.compare(x).effect_sizes
    lo = cdplot.compare(x, higher_is_better=False).effect_sizes
    assert np.allclose(lo.cliffs_delta, -hi.cliffs_delta)
    assert np.allclose(lo.cohens_d, -hi.cohens_d)


def test_json_has_the_effect_sizes_at_the_top_level_and_no_nan():
    # constant differences give an infinite d and identical columns an undefined one
    x = np.array([[1.0, 0.5, 1.0, 0.2], [2.0, 1.5, 2.0, 0.1], [3.0, 2.5, 3.0, 0.3]] * 4)
    res = cdplot.compare(x, methods=["a", "b", "c", "d"])
    d = json.loads(res.to_json())
    es = d["effect_sizes"]
    assert es["cohens_d"]["a"]["b"] is None  # +inf
    assert es["cohens_d"]["a"]["c"] is None  # NaN
    assert es["magnitude"]["cohens_d"]["a"]["b"] == "large"
    assert es["magnitude"]["cohens_d"]["a"]["c"] == "undefined"
    assert es["cliffs_delta"]["a"]["d"] == pytest.approx(
        _delta_by_count(x[:, 0], x[:, 3]), abs=1e-12
    )
    assert set(es["per_method"]["a"]) == {"mean", "std", "median", "mean_ci", "median_ci"}
    assert "Romano" in es["thresholds"]["cliffs_delta"]
    assert es["sign"].startswith("positive")


def test_str_lists_significant_pairs_largest_first_and_caps():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(40, 30)) + np.linspace(0, 4, 30)
    res = cdplot.compare(x)
    text = str(res)
    words = " ".join(text.split())
    assert "Effect sizes of the significant pairs (Cliff's delta first" in words
    assert "Romano et al. 2006" in words
    assert "positive: the first method is better" in words
    n_sig = len(res.significant_pairs())
    assert f"... and {n_sig - 10} more" in text
    block = text[text.index("Effect sizes of the significant pairs") :].splitlines()
    shown = [line for line in block if " vs " in line]
    assert len(shown) == 10
    values = [abs(float(line.split("delta = ")[1].split()[0])) for line in shown]
    assert values == sorted(values, reverse=True)


def test_many_methods_leave_the_tables_out_of_json_without_computing_them():
    from cdplot.stats._results import JSON_MATRIX_MAX_METHODS

    k = JSON_MATRIX_MAX_METHODS + 1
    x = np.random.default_rng(3).normal(size=(5, k))
    res = cdplot.compare(x)
    d = res.to_dict()
    assert d["effect_sizes"]["cliffs_delta"] is None
    assert str(JSON_MATRIX_MAX_METHODS) in d["effect_sizes"]["tables_omitted"]
    assert len(d["effect_sizes"]["per_method"]) == k
    assert "left out of this summary" in " ".join(str(res).split())
    assert "effect_sizes" not in vars(res)


def test_compare_metrics_carries_effect_sizes_per_metric():
    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    d = mc.to_dict()
    for label, r in zip(mc.metrics, mc.results, strict=True):
        assert r.effect_sizes.higher_is_better == r.higher_is_better
        assert d["results"][label]["effect_sizes"]["cliffs_delta"] is not None


def test_parametric_route_leads_with_cohens_d():
    # seed 0 passes both checks (Shapiro-Wilk and Mauchly), so ANOVA is chosen
    x = np.random.default_rng(0).normal(size=(30, 4)) + np.linspace(0, 1.5, 4)
    auto = cdplot.compare_auto(x)
    assert auto.path == "parametric"
    es = auto.effect_sizes
    assert es is auto.analysis.effect_sizes
    assert es.measure == "cohens_d"
    text = " ".join(str(auto).split())
    assert "Effect sizes of the significant pairs (Cohen's d first" in text
    d = auto.to_dict()
    assert d["effect_sizes"]["measure"] == "cohens_d"
    assert "effect_sizes" not in d["analysis"], "moved to the top level, not copied"
    json.dumps(d, allow_nan=False)
    diff = x[:, 3] - x[:, 0]
    assert es.d("method 4", "method 1") == pytest.approx(diff.mean() / diff.std(ddof=1))


def test_large_tables_list_the_first_significant_pairs_each_computed_alone(monkeypatch):
    from cdplot.stats import _results as results

    rng = np.random.default_rng(6)
    x = rng.normal(size=(40, 12)) + np.linspace(0, 3, 12)
    res = cdplot.compare(x)
    monkeypatch.setattr(results, "EFFECT_STR_BUDGET", 0)
    text = " ".join(str(res).split())
    assert "_effect_matrices" not in vars(res), "no k x k computation for str()"
    pairs = res.significant_pairs()
    assert f"Effect sizes of the first 10 of the {len(pairs)} significant pairs in rank order" in (
        text
    )
    a, b = pairs[0]
    full = res.effect_sizes
    assert f"{a} vs {b}: {full.pair_text(a, b)}" in text


@pytest.mark.parametrize("pairs_max", [0, 20_000_000])
@pytest.mark.parametrize("decimals", [0, 1, 2])
def test_tie_counts_by_steps_and_by_blocks_equal_the_direct_count(monkeypatch, pairs_max, decimals):
    # Issue 28: tied pairs are counted one depth step at a time over the runs of equal
    # scores, or as dense (run x method) blocks above _TIE_PAIRS_MAX pairs (0 forces
    # the blocks); one decimal over 30 data sets repeats a value within a method
    # (weighted entries), no decimals makes runs that hold every method
    from cdplot.stats import _effect_sizes

    rng = np.random.default_rng(28)
    x = np.round(rng.normal(size=(30, 6)), decimals)
    monkeypatch.setattr(_effect_sizes, "_TIE_PAIRS_MAX", pairs_max)
    delta = cliffs_delta(x)
    for i in range(6):
        for j in range(6):
            assert delta[i, j] == pytest.approx(_delta_by_count(x[:, i], x[:, j]), abs=1e-12)
