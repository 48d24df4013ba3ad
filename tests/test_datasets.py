"""Tests of the bundled examples in cdplot.datasets.

References:
- Demšar (2006), "Statistical Comparisons of Classifiers over Multiple Data Sets",
  JMLR 7:1-30, Table 6: AUCs (3 decimals) with ranks in parentheses and average
  ranks 3.143, 2.000, 2.893, 1.964 (computed by the paper from unrounded AUCs).
- YANG Xing-li, "Survey for Performance Measure Index of Classification Learning
  Algorithm", Table 9: LDA / C4.5 / NN on Bupa, Ecoli, Flag, Glass, Iono. under
  5CV, Boots., P, R, F, AUC.
"""

import numpy as np
import pytest
from scipy.stats import rankdata

from cdplot.datasets import EXAMPLES, example_path, load_example
from cdplot.errors import CdplotError
from cdplot.io import read_scores

C45 = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
DEMSAR_DATASETS = (
    "adult (sample)",
    "breast cancer",
    "breast cancer wisconsin",
    "cmc",
    "ionosphere",
    "iris",
    "liver disorders",
    "lung cancer",
    "lymphography",
    "mushroom",
    "primary tumor",
    "rheum",
    "voting",
    "wine",
)


def test_examples_have_description_citation_and_file():
    assert set(EXAMPLES) == {"demsar2006", "demsar2006-ranks", "yang-table9"}
    for name, info in EXAMPLES.items():
        assert info["description"]
        assert info["citation"]
        path = example_path(name)
        assert path.is_file()
        # the file cites its source in its leading comment lines
        head = path.read_text(encoding="utf-8").splitlines()[:8]
        assert any(line.startswith("# Source:") for line in head)


@pytest.mark.parametrize("name", ["demsar2006", "demsar2006-ranks", "yang-table9"])
def test_example_is_marked(name):
    tables = load_example(name)
    for t in tables:
        assert t.source == f"example:{name}"
        assert t.higher_is_better is EXAMPLES[name]["higher_is_better"][t.metric]
        assert len(t.sha256) == 64
        assert t.notes == ()
        assert t.dropped_datasets == ()


# Demšar 2006, Table 6, rows spot-checked against the paper (as printed).
@pytest.mark.parametrize(
    ("dataset", "expected"),
    [
        pytest.param("adult (sample)", [0.763, 0.768, 0.771, 0.798], id="demsar2006-table6-adult"),
        pytest.param("iris", [0.936, 0.931, 0.916, 0.931], id="demsar2006-table6-iris"),
        pytest.param("mushroom", [1.000, 1.000, 1.000, 1.000], id="demsar2006-table6-mushroom"),
        pytest.param("voting", [0.972, 0.981, 0.975, 0.975], id="demsar2006-table6-voting"),
        pytest.param("wine", [0.957, 0.978, 0.946, 0.970], id="demsar2006-table6-wine"),
    ],
)
def test_demsar2006_values(dataset, expected):
    (t,) = load_example("demsar2006")
    assert t.metric == "AUC"
    assert t.higher_is_better is True
    assert t.methods == C45
    assert t.datasets == DEMSAR_DATASETS
    np.testing.assert_allclose(t.values[t.datasets.index(dataset)], expected, atol=5e-4)


def test_demsar2006_ranks_average_ranks():
    (t,) = load_example("demsar2006-ranks")
    assert t.higher_is_better is False
    assert t.methods == C45
    assert t.datasets == DEMSAR_DATASETS
    np.testing.assert_array_equal(t.values[t.datasets.index("voting")], [4, 1, 2, 3])
    # each row is a ranking of 4 methods: the ranks sum to 1 + 2 + 3 + 4
    np.testing.assert_allclose(t.values.sum(axis=1), 10)
    # Demšar 2006, Table 6, "average rank" row (3 decimals as printed)
    np.testing.assert_allclose(t.values.mean(axis=0), [3.143, 2.000, 2.893, 1.964], atol=5e-4)


def test_demsar2006_ranks_match_printed_aucs_except_voting():
    # Ranking the printed AUCs reproduces the paper's ranks except for the voting
    # row, where the printed 0.975, 0.975 tie was broken by the unrounded values.
    (auc,) = load_example("demsar2006")
    (ranks,) = load_example("demsar2006-ranks")
    mine = rankdata(-auc.values, axis=1)  # ties get the average rank, as in the paper
    differs = [auc.datasets[i] for i in np.flatnonzero((mine != ranks.values).any(axis=1))]
    assert differs == ["voting"]


def test_yang_table9():
    tables = load_example("yang-table9")
    assert [t.metric for t in tables] == ["5CV", "Boots.", "P", "R", "F", "AUC"]
    assert [t.higher_is_better for t in tables] == [False, False, True, True, True, True]
    for t in tables:
        assert t.methods == ("LDA", "C4.5", "NN")
        assert t.datasets == ("Bupa", "Ecoli", "Flag", "Glass", "Ionosphere")
    by_metric = {t.metric: t for t in tables}
    # Yang, Table 9, spot checks: 5CV row LDA/Bupa, Boots. row NN/Flag, AUC row C4.5/Iono.
    assert by_metric["5CV"].values[0, 0] == pytest.approx(0.326, abs=5e-4)
    assert by_metric["Boots."].values[2, 2] == pytest.approx(0.306, abs=5e-4)
    assert by_metric["AUC"].values[4, 1] == pytest.approx(0.891, abs=5e-4)
    np.testing.assert_allclose(
        by_metric["AUC"].values[:, 2], [0.658, 0.957, 0.595, 0.782, 0.811], atol=5e-4
    )


def test_example_files_read_as_user_files():
    (t,) = read_scores(example_path("demsar2006"))
    assert t.higher_is_better is None  # the direction comes from EXAMPLES, not the file
    assert t.source == str(example_path("demsar2006"))


@pytest.mark.parametrize("name", ["demsar", "", None, "DEMSAR2006"])
def test_unknown_example(name):
    with pytest.raises(
        CdplotError,
        match=r"unknown example .*; the examples are "
        r"'demsar2006', 'demsar2006-ranks', 'yang-table9'",
    ):
        load_example(name)
    with pytest.raises(CdplotError, match=r"unknown example"):
        example_path(name)
