"""Published score tables, read as their authors ship them, give the numbers reported.

Fixtures in ``tests/io/data`` (sources and licences in its README.md):

- ``garcia-herrera-2008.csv``: García & Herrera (2008), JMLR 9:2677-2694, Table 2,
  accuracies of 5 classifiers on 30 data sets; the paper's average ranks are
  2.100, 3.250, 2.200, 4.333 and 3.117.
- ``bakeoff-redux-best-accuracy.tar.xz``: Middlehurst, Schäfer & Bagnall (2024), "Bake
  off redux", the results folder of the best classifier of each family (8 files
  ``<Method>_accuracy.csv``, 142 UCR data sets x 30 resamples) from tsml-eval 0.6.0.
- ``tser-2021/``: RMSE of 13 regressors on the 19 TSER archive data sets of Tan et al.
  (2021), 5 resamples, files ``<Method>_rmse.csv`` from tsml-eval 0.6.0 (Guijo-Rubio et
  al. 2024, results section 5.A.1).

Reference numbers for the results folders are computed here from exact rational means
(``fractions.Fraction``, ranked by ``scipy.stats.rankdata``), and the stored literals
were printed by that computation (scipy 1.16): the bake-off redux average rank of HC2
is 3.0669 and Friedman's chi2 166.82 with exact means, while a naive ``numpy.mean`` per
data set and method gives 3.0599 and 167.54 (issue 10).  An accuracy is a fraction
``correct / n`` of a test set; the files store it rounded to 16 or 17 digits, from which
``Fraction.limit_denominator`` recovers it exactly (checked below for every value).
Two methods with the same accuracies in another order then have equal means, and
cdplot's correctly rounded means tie them too.  The TSER archive of the tests has one
quirk as published: one file spells a data set ``PPGDalia-eq``, the others
``PPGDalia_eq``.
"""

import pathlib
import tarfile
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import friedmanchisquare, rankdata

import cdplot
from cdplot.io import read_scores

DATA = pathlib.Path(__file__).parent / "data"

BAKEOFF_METHODS = (
    "FreshPRINCE",
    "H-InceptionTime",
    "HC2",
    "MR-Hydra",
    "PF",
    "QUANT",
    "RDST",
    "WEASEL-2",
)
# average ranks (1 = best) from exact rational means, 4 decimals
BAKEOFF_RANKS = (5.4261, 4.4859, 3.0669, 3.2993, 6.0599, 4.5317, 4.3486, 4.7817)


@pytest.fixture(scope="module")
def bakeoff(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bakeoff") / "best"
    with tarfile.open(DATA / "bakeoff-redux-best-accuracy.tar.xz") as tar:
        tar.extractall(folder, filter="data")
    return folder


def exact_means(folder, metric, *, counts=False):
    """{method: {data set: Fraction}} from a results folder, without any rounding.

    With ``counts``, each value is the fraction ``correct / n`` it was rounded from.
    """
    out = {}
    for path in sorted(folder.glob(f"*_{metric}.csv")):
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        rows = {}
        for line in lines:
            name, *cells = line.split(",")
            values = [Fraction(c) for c in cells]
            if counts:
                exact = [v.limit_denominator(100_000) for v in values]
                # the fraction rounds to the very float the file holds
                assert [float(v) for v in exact] == [float(c) for c in cells]
                values = exact
            rows[name] = sum(values) / len(values)
        out[path.name.rsplit("_", 1)[0]] = rows
    return out


def ranks_of(table_by_method, methods, datasets, higher_is_better):
    # Fractions compare exactly, so equal means tie and distinct ones never do
    x = [[table_by_method[m][d] for m in methods] for d in datasets]
    keys = [sorted(set(row)) for row in x]
    codes = np.array([[k.index(v) for v in row] for row, k in zip(x, keys, strict=True)])
    return rankdata(-codes if higher_is_better else codes, axis=1)


# --- García & Herrera (2008) ------------------------------------------------


@pytest.mark.parametrize(
    ("method", "rank"),
    [
        pytest.param("C4.5", 2.100, id="gh2008-table2-c45"),
        pytest.param("k-NN(k=1)", 3.250, id="gh2008-table2-1nn"),
        pytest.param("NaiveBayes", 2.200, id="gh2008-table2-nb"),
        pytest.param("Kernel", 4.333, id="gh2008-table2-kernel"),
        pytest.param("CN2", 3.117, id="gh2008-table2-cn2"),
    ],
)
def test_garcia_herrera_2008_average_ranks(method, rank):
    res = cdplot.compare(DATA / "garcia-herrera-2008.csv")
    assert (res.n_datasets, res.n_methods) == (30, 5)
    assert res.higher_is_better is True
    # the paper prints 3 decimals
    assert res.average_rank(method) == pytest.approx(rank, abs=5e-4)


def test_garcia_herrera_2008_friedman_matches_scipy():
    (t,) = read_scores(DATA / "garcia-herrera-2008.csv")
    assert t.values[0].tolist() == [0.219, 0.202, 0.249, 0.165, 0.261]  # Abalone*, as printed
    res = cdplot.compare(t)
    # scipy.stats.friedmanchisquare(*t.values.T), scipy 1.16: 39.91275167785245
    expected = friedmanchisquare(*t.values.T).statistic
    assert res.friedman.statistic == pytest.approx(expected, rel=1e-12)
    assert res.friedman.statistic == pytest.approx(39.91275167785245, rel=1e-12)


# --- bake off redux: a results folder with 30 resamples -----------------------


def test_bakeoff_redux_folder_is_read_as_published(bakeoff):
    (t,) = read_scores(bakeoff)
    assert t.metric == "accuracy"
    assert t.methods == BAKEOFF_METHODS
    assert t.n_datasets == 142
    # the metric's file name says higher is better (issue 26: every name is evidence)
    assert t.higher_is_better is True
    assert t.direction.startswith("higher is better, inferred from the file name 'accuracy'")
    assert t.notes == (
        "read 8 results files of metric 'accuracy' from the folder; averaged 30 resamples "
        "per data set and method",
    )


def test_bakeoff_redux_average_ranks_are_those_of_exact_means(bakeoff):
    res = cdplot.compare(bakeoff)
    got = [res.average_rank(m) for m in BAKEOFF_METHODS]
    np.testing.assert_allclose(got, BAKEOFF_RANKS, atol=5e-5)
    assert res.friedman.statistic == pytest.approx(166.82, abs=5e-3)
    # brute force: exact rational means give the very same ranks
    exact = exact_means(bakeoff, "accuracy", counts=True)
    ranks = ranks_of(exact, BAKEOFF_METHODS, res.datasets, True)
    assert got == ranks.mean(axis=0).tolist()


def test_bakeoff_redux_naive_means_would_rank_differently(bakeoff):
    # what the fixture guards against: numpy's mean of the 30 resamples in file order
    # breaks exact ties (the same accuracies in another order), so HC2 would rank 3.0599
    naive = {}
    for path in sorted(bakeoff.glob("*_accuracy.csv")):
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        naive[path.name.rsplit("_", 1)[0]] = {
            line.split(",")[0]: np.array(line.split(",")[1:], dtype=float).mean() for line in lines
        }
    datasets = list(naive["HC2"])
    x = np.array([[naive[m][d] for m in BAKEOFF_METHODS] for d in datasets])
    hc2 = rankdata(-x, axis=1).mean(axis=0)[BAKEOFF_METHODS.index("HC2")]
    assert round(float(hc2), 4) == 3.0599
    assert round(float(friedmanchisquare(*x.T).statistic), 2) == 167.54
    assert round(cdplot.compare(bakeoff).average_rank("HC2"), 4) == 3.0669


def test_bakeoff_redux_as_a_shuffled_long_file_is_bit_identical(bakeoff, tmp_path):
    # the same results as one long file with aeon's column names, rows shuffled
    rows = []
    for path in sorted(bakeoff.glob("*_accuracy.csv")):
        method = path.name.rsplit("_", 1)[0]
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            name, *cells = line.split(",")
            rows += [f"{name},{method},{r},{c}" for r, c in enumerate(cells)]
    order = np.random.default_rng(10).permutation(len(rows))
    long = tmp_path / "bakeoff.csv"
    long.write_text(
        "problem,classifier,resample,accuracy\n" + "\n".join(rows[i] for i in order) + "\n",
        encoding="utf-8",
    )
    (folder_table,) = read_scores(bakeoff)
    (long_table,) = read_scores(long)
    assert long_table.metric == "accuracy"
    rows_of = [long_table.datasets.index(d) for d in folder_table.datasets]
    cols_of = [long_table.methods.index(m) for m in folder_table.methods]
    same = long_table.values[np.ix_(rows_of, cols_of)]
    assert same.tobytes() == folder_table.values.tobytes()
    a, b = cdplot.compare(folder_table), cdplot.compare(long_table)
    assert [a.average_rank(m) for m in BAKEOFF_METHODS] == [
        b.average_rank(m) for m in BAKEOFF_METHODS
    ]
    assert (a.friedman.statistic, a.friedman.pvalue) == (b.friedman.statistic, b.friedman.pvalue)


# --- TSER archive: RMSE, lower is better from the name ------------------------


@pytest.fixture
def tser(tmp_path):
    """The TSER results folder with its one misspelt data-set name corrected."""
    folder = tmp_path / "tser"
    folder.mkdir()
    for path in sorted((DATA / "tser-2021").glob("*.csv")):
        text = path.read_text(encoding="utf-8").replace("PPGDalia-eq,", "PPGDalia_eq,")
        (folder / path.name).write_text(text, encoding="utf-8")
    return folder


def test_tser_folder_as_published_names_the_data_set_spelt_two_ways():
    with pytest.raises(cdplot.CdplotError) as e:
        read_scores(DATA / "tser-2021")
    msg = str(e.value)
    assert "13 missing scores of metric 'rmse'" in msg
    assert "'PPGDalia-eq'/'1NN-ED' (in " in msg
    # dropping the incomplete data sets leaves the 18 complete ones, and says so
    (t,) = read_scores(DATA / "tser-2021", nan_policy="omit")
    assert t.n_datasets == 18
    assert set(t.dropped_datasets) == {"PPGDalia-eq", "PPGDalia_eq"}


def test_tser_folder_rmse_is_lower_is_better_from_the_file_name(tser):
    (t,) = read_scores(tser)
    assert (t.metric, t.n_datasets, t.n_methods) == ("rmse", 19, 13)
    assert t.higher_is_better is False
    assert t.direction.startswith("lower is better, inferred from the file name 'rmse'")
    assert "averaged 5 folds per data set and method" in t.notes[0]
    res = cdplot.compare(t)
    assert res.higher_is_better is False
    assert "lower is better" in str(res)


def test_tser_long_file_rmse_is_lower_is_better_from_the_column_name(tser, tmp_path):
    # issue 10 item 3: "dataset,regressor,fold,rmse" was read as wide and failed
    lines = []
    for path in sorted(tser.glob("*_rmse.csv")):
        method = path.name.rsplit("_", 1)[0]
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            name, *cells = line.split(",")
            lines += [f"{name},{method},{f},{c}" for f, c in enumerate(cells)]
    long = tmp_path / "tser.csv"
    long.write_text("dataset,regressor,fold,rmse\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (t,) = read_scores(long)
    assert (t.metric, t.higher_is_better) == ("rmse", False)
    assert t.direction.startswith("lower is better, inferred from the column name 'rmse'")
    assert t.notes == ("averaged 5 repetitions per data set and method (column 'fold')",)
    (folder_table,) = read_scores(tser)
    assert t.values.tobytes() == folder_table.values.tobytes()
    # brute force: ranks (1 = lowest RMSE) of the exact rational means of the decimals
    exact = exact_means(tser, "rmse")
    ranks = ranks_of(exact, t.methods, t.datasets, False)
    res = cdplot.compare(t)
    assert [res.average_rank(m) for m in t.methods] == ranks.mean(axis=0).tolist()
