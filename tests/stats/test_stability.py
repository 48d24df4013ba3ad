"""Tests of cdplot.stats._stability: the bootstrap against a loop, leave-one-out, claims."""

import json

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable, as_score_tables
from cdplot.stats import StabilityResult, compare, stability


def _positions(avg):
    """P(rank) contributions of one sample, ties sharing their positions (a plain loop)."""
    k = len(avg)
    out = np.zeros((k, k))
    for i in range(k):
        better = sum(avg[j] < avg[i] - 1e-9 for j in range(k))
        tied = sum(abs(avg[j] - avg[i]) <= 1e-9 for j in range(k))
        for r in range(better, better + tied):
            out[i, r] += 1.0 / tied
    return out


def _brute_force(res, b, seed, conf):
    """The bootstrap one sample at a time, each sample analysed by cdplot.compare."""
    x = np.asarray(res.scores.values)
    n, k = x.shape
    gen = np.random.default_rng(seed)
    # the same draws as stability(): one multinomial count per data set and sample
    counts = gen.multinomial(n, np.full(n, 1.0 / n), size=b)
    avgs, probs = [], np.zeros((k, k))
    sig_hits = np.zeros((k, k))
    for c in counts:
        rows = np.repeat(np.arange(n), c)
        r = compare(x[rows], higher_is_better=res.higher_is_better, test=res.test, alpha=res.alpha)
        avgs.append(r.average_ranks)
        probs += _positions(r.average_ranks)
        sig_hits += r.significant
    avgs = np.array(avgs)
    lo, hi = np.quantile(avgs, [(1 - conf) / 2, (1 + conf) / 2], axis=0)
    return lo, hi, probs / b, sig_hits / b


@pytest.mark.parametrize("test", ["nemenyi", "bonferroni-dunn", "friedman-z", "wilcoxon", "sign"])
def test_bootstrap_equals_a_loop_of_compare(rng, test):
    # a small table with ties (scores on a coarse grid), so that tied average ranks occur
    x = np.round(rng.normal(size=(9, 4)) + [0.0, 0.4, 0.8, 1.6], 0)
    res = compare(x, test=test)
    st = stability(res, n_boot=150, seed=7, confidence=0.9, n_boot_pairs=150)
    lo, hi, probs, sig = _brute_force(res, 150, 7, 0.9)
    np.testing.assert_allclose(st.interval_low, lo, atol=1e-12)
    np.testing.assert_allclose(st.interval_high, hi, atol=1e-12)
    np.testing.assert_allclose(st.rank_probabilities, probs, atol=1e-12)
    for (a, b), share in zip(st.pairs, st.pair_share, strict=True):
        i, j = res.methods.index(a), res.methods.index(b)
        assert share == pytest.approx(sig[i, j], abs=1e-12)
    assert len(st.pairs) == int(np.triu(res.significant).sum())


def test_rank_probabilities_sum_to_one(rng):
    x = rng.integers(0, 3, size=(30, 12)).astype(float)  # many ties
    st = stability(compare(x), n_boot=300, seed=3)
    np.testing.assert_allclose(st.rank_probabilities.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(st.rank_probabilities.sum(axis=0), 1.0, atol=1e-12)
    np.testing.assert_array_equal(st.p_best, st.rank_probabilities[:, 0])


def test_demsar_example_is_sensible_and_reproducible():
    # Demsar (2006) Table 6: average ranks 3.143, 2.000, 2.929, 1.929 (C4.5, C4.5+m,
    # C4.5+cf, C4.5+m+cf); no pair reaches Nemenyi's CD = 1.254 at alpha = 0.05
    res = compare(cdplot.load_example("demsar2006"))
    st = stability(res, n_boot=2000, seed=2006)
    again = stability(res, n_boot=2000, seed=2006)
    assert st == again
    assert st.seed == 2006
    assert st.order() == ("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")
    # the two variants with m share the lead: together they are best almost always
    p = dict(zip(st.methods, st.p_best, strict=True))
    assert p["C4.5+m+cf"] + p["C4.5+m"] > 0.97
    assert 0.4 < p["C4.5+m+cf"] < 0.75
    assert p["C4.5"] < 0.01
    # every interval holds the observed average rank
    assert (st.interval_low <= st.average_ranks).all()
    assert (st.average_ranks <= st.interval_high).all()
    assert st.pairs == ()
    text = str(st)
    assert "data sets are treated as a sample of the population of interest" in text.lower()
    assert "seed 2006" in text
    assert "1.96 sqrt(p(1-p)/2000)" in text
    assert "higher scores are better" in text
    # removing a data set where C4.5 does well makes C4.5+m+cf vs C4.5 significant
    named = {d.dataset for d in st.influential}
    assert {"breast cancer", "iris"} <= named


def test_seed_none_draws_and_records_one():
    res = compare(cdplot.load_example("demsar2006"))
    st = stability(res, n_boot=50)
    assert isinstance(st.seed, int)
    assert stability(res, n_boot=50, seed=st.seed) == st


def _flip_table():
    """Eleven data sets; only 'flip' makes A vs C significant under Nemenyi.

    A beats C by one rank on ten data sets and by two on 'flip': the rank-sum
    difference is 12 >= q sqrt(k (k+1) N / 6) = 2.343 sqrt(22) = 10.99 (k = 3,
    N = 11, q from Demsar 2006 Table 5a).  Without 'flip' it is 10 < 2.343 sqrt(20)
    = 10.48; without any other data set 11 >= 10.48.
    """
    rows = [[0.9, 0.7, 0.8]] * 10 + [[0.9, 0.8, 0.7]]
    names = [f"d{i}" for i in range(10)] + ["flip"]
    return compare(np.array(rows), methods=["A", "B", "C"], datasets=names)


def test_leave_one_out_names_the_data_set_that_flips_a_pair():
    res = _flip_table()
    assert res.significant[0, 2]
    st = stability(res, n_boot=100, seed=0)
    assert [d.dataset for d in st.influential] == ["flip"]
    (flip,) = st.influential
    assert flip.lost == (("A", "C"),)
    assert flip.gained == ()
    assert not flip.best_changes
    assert "Without flip: no longer significant: A vs C." in str(st)
    # the same by brute force: compare on the table without each data set
    x = np.asarray(res.scores.values)
    for d in range(11):
        r = compare(np.delete(x, d, axis=0))
        assert r.significant[0, 2] == (d != 10)


def test_leave_one_out_names_a_change_of_the_best_method():
    rows = [[0.9, 0.8]] * 3 + [[0.8, 0.9]] * 3 + [[0.95, 0.1]]
    names = ["a1", "a2", "a3", "b1", "b2", "b3", "decider"]
    res = compare(np.array(rows), methods=["A", "B"], datasets=names)
    st = stability(res, n_boot=50, seed=0)
    lost_lead = [d for d in st.influential if d.best_changes]
    # A wins four data sets and B three: without any of A's four they tie; without one
    # of B's, A leads by more
    assert {d.dataset for d in lost_lead} == {"a1", "a2", "a3", "decider"}
    for d in lost_lead:
        assert d.best_before == ("A",)
        assert d.best_after == ("A", "B")
        assert "the best method changes from A to A and B" in str(d)


def test_to_dict_is_json_and_complete():
    res = _flip_table()
    st = stability(res, n_boot=100, seed=0)
    d = json.loads(st.to_json())
    assert d["seed"] == 0
    assert d["pairs"][0]["a"] == "A"
    assert len(d["rank_probabilities"]["A"]) == 3
    assert d["influential"][0]["dataset"] == "flip"
    assert "paragraph" in d
    assert isinstance(st, StabilityResult)
    assert "<StabilityResult: k=3" in repr(st)


def test_paragraph_says_what_was_computed():
    st = stability(_flip_table(), n_boot=100, seed=5)
    text = st.paragraph()
    assert "sample of the population of interest" in text
    assert "seed 5" in text
    assert "Efron and Tibshirani 1993" in text
    assert "flip" in text


def test_p_value_tests_are_bounded_and_say_so(rng):
    x = rng.normal(size=(400, 60)) + np.linspace(0, 1, 60)
    res = compare(x, test="wilcoxon")
    st = stability(res, n_boot=500, seed=1)
    assert 10 <= st.n_boot_pairs < 500
    assert not st.leave_one_out
    text = str(st)
    assert f"first {st.n_boot_pairs} of the 500 samples" in text
    assert "leave_one_out=True runs it" in text


def test_monte_carlo_error():
    st = stability(_flip_table(), n_boot=400, seed=0)
    assert st.monte_carlo_error(0.5) == pytest.approx(1.959964 * 0.5 / 20, rel=1e-6)
    assert st.monte_carlo_error(0.0) == 0.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_boot": 0}, "n_boot"),
        ({"n_boot": 2.5}, "n_boot"),
        ({"seed": -1}, "seed"),
        ({"seed": "a"}, "seed"),
        ({"confidence": 1.0}, "confidence"),
        ({"n_boot_pairs": 200, "n_boot": 100}, "n_boot_pairs"),
        ({"leave_one_out": "yes"}, "leave_one_out"),
    ],
)
def test_bad_options_are_one_line_errors(kwargs, message):
    res = compare(cdplot.load_example("demsar2006"))
    with pytest.raises(CdplotError, match=message) as info:
        stability(res, **kwargs)
    assert "\n" not in str(info.value)


def test_refuses_what_is_not_a_comparison():
    ranks = cdplot.compare_ranks({"A": 3.143, "B": 2.0, "C": 2.929, "D": 1.929}, 14)
    with pytest.raises(CdplotError, match="needs the ComparisonResult") as info:
        stability(ranks)
    assert "\n" not in str(info.value)
    with pytest.raises(CdplotError, match="got ndarray"):
        stability(np.zeros((3, 3)))


def test_scales_to_100_methods_and_1000_data_sets(rng):
    import time

    x = rng.normal(size=(1000, 100)) + np.linspace(0, 1.5, 100)
    res = compare(x)
    start = time.process_time()
    st = stability(res, n_boot=1000, seed=0)
    # measured 0.3 s of CPU; the issue asks for less than a minute
    assert time.process_time() - start < 60
    np.testing.assert_allclose(st.rank_probabilities.sum(axis=1), 1.0, atol=1e-9)


# --- resample='datasets-and-folds': a two-stage bootstrap over data sets, then folds ----


def _fold_rows(rng, ragged=False):
    """Six data sets of 2 to 5 labelled folds, four methods, scores on a grid of 1/4.

    Multiples of 1/4 keep every sum and mean exact, so that ties between the
    means come out the same in the loop below and in the vectorised code.
    """
    rows = []
    for d in range(6):
        for f in range(2 + d % 4):
            for m, mu in {"A": 0.0, "B": 0.5, "C": 1.0, "D": 1.5}.items():
                if ragged and (d, f, m) in {(1, 0, "B"), (3, 2, "D"), (3, 4, "D")}:
                    continue
                score = np.round((mu + rng.normal()) * 4) / 4
                rows.append({"dataset": f"d{d}", "method": m, "fold": f, "score": score})
    return rows


def _fold_analysis(rng, test="nemenyi", ragged=False):
    (t,) = as_score_tables(_fold_rows(rng, ragged), keep_repetitions=True)
    return compare(t, test=test)


def _brute_force_folds(res, b, seed, conf):
    """Each sample by a plain loop over data sets and folds, analysed by cdplot.compare.

    The draws are those of stability() for a table this small (one chunk): N data
    set indices per sample, then one uniform number per fold position.
    """
    reps = np.asarray(res.scores.repetition_scores)
    means = np.asarray(res.scores.values)
    n, k, r = reps.shape
    gen = np.random.default_rng(seed)
    d = gen.integers(0, n, size=(b, n))
    u = gen.random((b, n, r))
    avgs, probs, sig_hits = [], np.zeros((k, k)), np.zeros((k, k))
    for t in range(b):
        sample = np.empty((n, k))
        for c in range(n):
            ds = int(d[t, c])
            folds = [f for f in range(r) if not np.isnan(reps[ds, :, f]).all()]
            drawn = [folds[int(u[t, c, p] * len(folds))] for p in range(len(folds))]
            for j in range(k):
                got = [reps[ds, j, f] for f in drawn if not np.isnan(reps[ds, j, f])]
                sample[c, j] = sum(got) / len(got) if got else means[ds, j]
        one = compare(sample, higher_is_better=res.higher_is_better, test=res.test)
        avgs.append(one.average_ranks)
        probs += _positions(one.average_ranks)
        sig_hits += one.significant
    lo, hi = np.quantile(np.array(avgs), [(1 - conf) / 2, (1 + conf) / 2], axis=0)
    return lo, hi, probs / b, sig_hits / b


@pytest.mark.parametrize(
    ("test", "ragged"), [("nemenyi", False), ("nemenyi", True), ("wilcoxon", False)]
)
def test_folds_bootstrap_equals_a_loop_over_data_sets_and_folds(rng, test, ragged):
    res = _fold_analysis(rng, test=test, ragged=ragged)
    st = stability(
        res, n_boot=120, seed=3, confidence=0.9, n_boot_pairs=120, resample="datasets-and-folds"
    )
    lo, hi, probs, sig = _brute_force_folds(res, 120, 3, 0.9)
    np.testing.assert_allclose(st.interval_low, lo, atol=1e-12)
    np.testing.assert_allclose(st.interval_high, hi, atol=1e-12)
    np.testing.assert_allclose(st.rank_probabilities, probs, atol=1e-12)
    for (a, b), share in zip(st.pairs, st.pair_share, strict=True):
        i, j = res.methods.index(a), res.methods.index(b)
        assert share == pytest.approx(sig[i, j], abs=1e-12)
    assert st.resample == "datasets-and-folds"
    assert ("lack scores for some folds" in " ".join(str(st).split())) == ragged


def test_folds_text_says_which_levels_were_resampled(rng):
    res = _fold_analysis(rng)
    st = stability(res, n_boot=50, seed=0, resample="datasets-and-folds")
    text = " ".join(str(st).split())
    assert "bootstrap samples of the 6 data sets and, within each, of its folds" in text
    assert "Bengio and Grandvalet 2004" in text
    assert "two-stage bootstrap over data sets and folds" in st.paragraph()
    assert st.to_dict()["resample"] == "datasets-and-folds"
    plain = stability(res, n_boot=50, seed=0)
    assert plain.resample == "datasets"
    assert "folds" not in plain.paragraph()
    # the data-set level alone ignores the folds: the same as without them
    (t,) = as_score_tables(_fold_rows(np.random.default_rng(0)))
    assert t.repetition_scores is None


def test_folds_are_refused_without_repetitions_in_one_line(rng):
    res = compare(cdplot.load_example("demsar2006"))
    with pytest.raises(CdplotError, match="keep_repetitions") as info:
        stability(res, resample="datasets-and-folds")
    assert "\n" not in str(info.value)
    rows = [{k: v for k, v in row.items() if k != "fold"} for row in _fold_rows(rng)]
    with pytest.warns(cdplot.errors.CdplotWarning, match="averaged duplicate rows"):
        (t,) = as_score_tables(rows, keep_repetitions=True)
    with pytest.raises(CdplotError, match="repetition_col") as info:
        stability(compare(t), resample="datasets-and-folds")
    assert "\n" not in str(info.value)
    with pytest.raises(CdplotError, match="resample='folds'"):
        stability(res, resample="folds")


def test_folds_scale_to_100_methods(rng):
    import time

    x = rng.normal(size=(200, 100, 10)) + np.linspace(0, 1.5, 100)[:, None]
    table = ScoreTable(
        values=x.mean(axis=2),
        methods=[f"m{j}" for j in range(100)],
        datasets=[f"d{i}" for i in range(200)],
        repetition_scores=x,
        repetition_labels=[str(f) for f in range(10)],
    )
    start = time.process_time()
    st = stability(compare(table), n_boot=300, seed=0, resample="datasets-and-folds")
    # measured about 2 s of CPU for 300 samples of 200 data sets x 10 folds x 100 methods
    assert time.process_time() - start < 60
    np.testing.assert_allclose(st.rank_probabilities.sum(axis=1), 1.0, atol=1e-9)


# --- leave-one-out at scale: counted, with the notable data sets named ----


def test_many_influential_data_sets_are_summarised(rng):
    x = rng.normal(size=(60, 40)) + np.linspace(0, 1.5, 40)
    res = compare(x)
    st = stability(res, n_boot=20, seed=0)
    assert len(st.influential) > 10
    text = str(st)
    loo = " ".join(text[text.index("Leaving one data set out:") : text.index("Notes:")].split())
    movers = [d for d in st.influential if d.n_changed]
    pairs = {p for d in st.influential for p in d.lost + d.gained}
    most = max(d.n_changed for d in movers)
    who = "any one of the 60" if len(movers) == 60 else f"{len(movers)} of the 60"
    assert f"Removing {who} data sets changes the significance of at least one pair" in loo
    assert f"at most {most} of the 780 pairs tested, {len(pairs)} different pairs" in loo
    # the data sets named: those changing the best method and the five changing most pairs
    named = [d.dataset for d in st.notable_influences()]
    top = sorted(st.influential, key=lambda d: -d.n_changed)[:5]
    assert {d.dataset for d in top} <= set(named)
    assert {d.dataset for d in st.influential if d.best_changes} <= set(named)
    assert loo.count("Without ") == min(len(named), 20)
    assert len(named) < len(st.influential)
    # the full list stays in to_dict()
    assert len(st.to_dict()["influential"]) == len(st.influential)
    assert st.influence_summary() in st.paragraph()
    assert "pairs change significance (" in loo


def test_few_influential_data_sets_are_each_described():
    # Demsar's example: nine data sets, each listed with what it changes (as before)
    st = stability(compare(cdplot.load_example("demsar2006")), n_boot=100, seed=1)
    assert len(st.influential) == 9
    assert st.notable_influences() == st.influential
    text = " ".join(str(st).split())
    assert "Without breast cancer: newly significant: C4.5+m vs C4.5; C4.5+m+cf vs C4.5." in text
    assert "Without adult (sample): the best method changes from C4.5+m+cf to C4.5+m." in text
    assert "Removing" not in text
