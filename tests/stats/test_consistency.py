"""compare_metrics and Kendall's tau-b (cdplot/stats/_consistency.py)."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable
from cdplot.stats._consistency import MetricsComparison, compare_metrics, kendall_tau_b


@pytest.fixture
def yang():
    return compare_metrics(cdplot.load_example("yang-table9"))


# small integer grids make ties common, which is where tau-b differs from tau-a
_vectors = st.integers(min_value=2, max_value=12).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 4), min_size=n, max_size=n),
        st.lists(st.integers(0, 4), min_size=n, max_size=n),
    )
)


@settings(max_examples=200, deadline=None)
@given(_vectors)
def test_tau_b_matches_scipy(xy):
    from scipy.stats import kendalltau

    x, y = (np.array(v, dtype=float) for v in xy)
    ours = kendall_tau_b(x, y)
    ref = kendalltau(x, y, variant="b").statistic
    if math.isnan(ref):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(ref, abs=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-10, 10, allow_nan=False), min_size=2, max_size=10, unique=True))
def test_tau_b_of_reversal_is_minus_one(x):
    x = np.array(x)
    assert kendall_tau_b(x, x) == pytest.approx(1.0)
    assert kendall_tau_b(x, -x) == pytest.approx(-1.0)


def test_tau_b_hand_example():
    # one discordant pair out of six: (5 - 1) / 6
    assert kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(2 / 3)


def test_tau_b_rejects_unequal_lengths():
    with pytest.raises(CdplotError, match="one length"):
        kendall_tau_b([1, 2, 3], [1, 2])


def test_yang_table9_winners(yang):
    # Yang's survey, Table 9, ranked with each measure's direction (5CV and Boots. are error rates)
    assert yang.metrics == ("5CV", "Boots.", "P", "R", "F", "AUC")
    assert yang.n_metrics == 6
    assert yang.n_methods == 3
    winners = dict(zip(yang.metrics, yang.winners, strict=False))
    assert winners["5CV"] == ("LDA",)
    assert winners["Boots."] == ("C4.5",)
    assert winners["R"] == ("C4.5",)
    assert winners["F"] == ("LDA",)
    assert winners["P"] == ("LDA", "NN")


def test_yang_dataset_winners_follow_the_paper(yang):
    # the survey's text: on Bupa the 5CV winner is LDA but the bootstrap winner is NN;
    # on Bupa the largest P is NN's, the largest R is C4.5's, the largest F is LDA's
    per = yang.dataset_winners()
    assert per["5CV"]["Bupa"] == ("LDA",)
    assert per["Boots."]["Bupa"] == ("NN",)
    assert per["P"]["Bupa"] == ("NN",)
    assert per["R"]["Bupa"] == ("C4.5",)
    assert per["F"]["Bupa"] == ("LDA",)
    # Flag, Glass and Ionosphere: P, R and F agree on LDA, NN and C4.5
    for metric in ("P", "R", "F"):
        assert per[metric]["Flag"] == ("LDA",)
        assert per[metric]["Glass"] == ("NN",)
        assert per[metric]["Ionosphere"] == ("C4.5",)


def test_tau_matrix_is_symmetric_with_unit_diagonal(yang):
    assert np.allclose(yang.tau, yang.tau.T, equal_nan=True)
    assert np.all(np.diag(yang.tau) == 1.0)
    assert not yang.tau.flags.writeable
    i, j = yang.metrics.index("5CV"), yang.metrics.index("AUC")
    assert yang.tau[i, j] == pytest.approx(-1.0)


def test_tau_agrees_with_average_ranks(yang):
    for a in range(yang.n_metrics):
        for b in range(yang.n_metrics):
            if a != b:
                assert yang.tau[a, b] == pytest.approx(
                    kendall_tau_b(yang.average_ranks[a], yang.average_ranks[b]), nan_ok=True
                )


def test_to_dict_is_json_and_str_has_words(yang):
    d = json.loads(json.dumps(yang.to_dict()))
    assert d["metrics"] == list(yang.metrics)
    assert d["winners"]["5CV"] == ["LDA"]
    assert set(d["results"]) == set(yang.metrics)
    text = str(yang)
    assert "Kendall's tau-b" in text
    assert "5CV" in text


def _tables():
    x = np.array([[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.7, 0.75, 0.5], [0.9, 0.7, 0.8]])
    methods, datasets = ["a", "b", "c"], ["d1", "d2", "d3", "d4"]
    return [
        ScoreTable(values=x, methods=methods, datasets=datasets, metric="acc"),
        ScoreTable(values=1 - x, methods=methods, datasets=datasets, metric="err"),
    ]


def test_direction_mapping_per_metric():
    mc = compare_metrics(_tables(), higher_is_better={"err": False})
    assert mc.result("acc").higher_is_better is True
    assert mc.result("err").higher_is_better is False
    # error = 1 - accuracy, ranked lower-is-better: the same ranking
    assert mc.tau[0, 1] == pytest.approx(1.0)
    # ranked higher-is-better by mistake, the error reverses it
    flipped = compare_metrics(_tables(), higher_is_better=True)
    assert flipped.tau[0, 1] == pytest.approx(-1.0)


def test_unknown_metric_in_direction_mapping():
    with pytest.raises(CdplotError, match="'loss'"):
        compare_metrics(_tables(), higher_is_better={"loss": False})


def test_one_metric_is_not_enough():
    with pytest.raises(CdplotError, match="at least two"):
        compare_metrics(_tables()[:1])


def test_different_methods_are_refused():
    t = _tables()
    other = ScoreTable(
        values=t[1].values, methods=["a", "b", "z"], datasets=t[1].datasets, metric="err"
    )
    with pytest.raises(CdplotError, match="lacks 'c'"):
        compare_metrics([t[0], other])


def test_from_results_reorders_methods():
    t = _tables()
    r1 = cdplot.compare(t[0])
    swapped = ScoreTable(
        values=t[1].values[:, ::-1], methods=["c", "b", "a"], datasets=t[1].datasets, metric="err"
    )
    r2 = cdplot.compare(swapped, higher_is_better=False)
    mc = MetricsComparison.from_results([r1, r2])
    assert mc.methods == ("a", "b", "c")
    assert mc.tau[0, 1] == pytest.approx(1.0)
    assert compare_metrics([r1, r2]).winners == mc.winners
