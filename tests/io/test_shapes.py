"""Result files of the shapes benchmark tools publish (issue 26), read right or refused in one line.

Every file under ``tests/io/data/shapes/`` is synthetic: the column names and
layout of the tool named in its test, made-up numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cdplot
from cdplot.cli import main
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.io import as_score_tables, read_scores

SHAPES = Path(__file__).parent / "data" / "shapes"


# ---- 1. direction: every name is evidence, conflicts are refused, the reason is said ----


def test_metric_column_keeps_the_score_columns_direction():
    # critdd's 2-D example layout: diagram,dataset,method,loss (lower is better).  Before,
    # --metric-col diagram made the metric's value ('diagram1') the only evidence, and the
    # four analyses were ranked higher-is-better without a word.
    tables = read_scores(SHAPES / "diagrams_long.csv", metric_col="diagram")
    assert [t.metric for t in tables] == ["diagram1", "diagram2", "diagram3", "diagram4"]
    for t in tables:
        assert t.higher_is_better is False
        assert t.direction.startswith("lower is better, inferred from the column name 'loss'")
    res = cdplot.compare(tables[0])
    assert res.higher_is_better is False
    assert res.direction_reason == "lower is better, inferred from the column name 'loss'"
    assert res.to_dict()["direction_reason"] == res.direction_reason


def test_conflicting_names_are_refused_naming_both_and_the_option(tmp_path):
    p = tmp_path / "scores.csv"
    p.write_text(
        "dataset,method,metric,accuracy\n"
        "iris,A,error,0.9\niris,B,error,0.8\nwine,A,error,0.7\nwine,B,error,0.6\n"
    )
    (t,) = read_scores(p)
    assert t.higher_is_better is None
    with pytest.raises(CdplotError) as e:
        cdplot.compare(t)
    msg = str(e.value)
    assert "\n" not in msg
    assert "column name 'accuracy' says higher is better" in msg
    assert "metric name 'error' says lower is better" in msg
    assert "higher_is_better=True or higher_is_better=False" in msg
    # the explicit option settles it, and the note says it was asked
    res = cdplot.compare(t, higher_is_better=False)
    assert res.order() == ("B", "A")
    assert res.direction_reason == "lower is better, as asked"
    assert any("the names in the data disagree" in n for n in res.notes)


def test_file_name_is_evidence(tmp_path):
    p = tmp_path / "rmse_results.csv"
    p.write_text("dataset,A,B\niris,0.3,0.2\nwine,0.5,0.4\n")
    (t,) = read_scores(p)
    assert t.higher_is_better is False
    assert "file name 'rmse_results'" in t.direction
    # "time" in a file name names the data (time series), not the score
    q = tmp_path / "time_series_scores.csv"
    q.write_text(p.read_text())
    (t,) = read_scores(q)
    assert t.higher_is_better is None
    # a file name against the column name is a conflict
    r = tmp_path / "error_rates.csv"
    r.write_text("dataset,method,accuracy\niris,A,0.9\niris,B,0.8\nwine,A,0.7\nwine,B,0.6\n")
    (t,) = read_scores(r)
    with pytest.raises(CdplotError, match="file name 'error_rates' says lower is better"):
        cdplot.compare(t)


def test_the_default_direction_is_said_in_every_output(tmp_path, capsys):
    p = tmp_path / "scores.csv"
    p.write_text("dataset,A,B,C\nd1,0.9,0.8,0.7\nd2,0.8,0.7,0.9\nd3,0.7,0.9,0.6\n")
    res = cdplot.compare(p)
    assert res.direction_reason == "higher is better by default"
    assert any(n.startswith("Higher is better by default: no column") for n in res.notes)
    assert "Higher is better by default" in " ".join(str(res).split())
    assert res.to_dict()["direction_reason"] == "higher is better by default"
    from cdplot.plot._common import caption_text

    assert caption_text(res).startswith("Higher is better by default. ")
    assert main(["stats", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["direction_reason"] == "higher is better by default"


def test_declared_direction_is_said(tmp_path):
    p = tmp_path / "t.json"
    p.write_text(
        json.dumps(
            {
                "methods": ["A", "B"],
                "datasets": ["x", "y"],
                "scores": [[1, 2], [3, 4]],
                "higher_is_better": False,
            }
        )
    )
    res = cdplot.compare(p)
    assert res.direction_reason == "lower is better, as the data declare"


# ---- 2. separate analyses are never averaged silently ----


def test_a_column_splitting_data_set_and_method_pairs_is_refused():
    with pytest.raises(CdplotError) as e:
        read_scores(SHAPES / "diagrams_long.csv")
    msg = str(e.value)
    assert "\n" not in msg
    assert "column 'diagram' takes 4 values ('diagram1', 'diagram2'" in msg
    assert "metric_col='diagram'" in msg
    # averaging them as repetitions is a choice the user can make, and it is said
    (t,) = read_scores(SHAPES / "diagrams_long.csv", repetition_col="diagram")
    assert t.notes[0] == "averaged 4 repetitions per data set and method (column 'diagram')"


def test_a_numbered_column_splitting_the_pairs_is_refused_too(tmp_path):
    # the same four analyses with the diagrams numbered 1..4 instead of named
    text = (SHAPES / "diagrams_long.csv").read_text("utf-8")
    numbered = tmp_path / "numbered.csv"
    numbered.write_text(
        text.replace("diagram1,", "1,")
        .replace("diagram2,", "2,")
        .replace("diagram3,", "3,")
        .replace("diagram4,", "4,"),
        "utf-8",
    )
    with pytest.raises(CdplotError, match=r"column 'diagram' takes 4 values \('1', '2'"):
        read_scores(numbered)


def test_a_split_is_found_among_few_combinations_of_many_names():
    # 40 data sets x 40 methods, of which 40 pairs occur (a key space 10x the rows, numbered
    # before the check): two diagrams in every pair are still two analyses
    rows = [
        {"dataset": f"d{i}", "method": f"m{i}", "diagram": g, "acc": 0.5}
        for i in range(40)
        for g in ("first", "second")
    ]
    with pytest.raises(CdplotError, match=r"column 'diagram' takes 2 values \('first', 'second'"):
        as_score_tables(rows)
    # the same label within each pair describes the rows: read on, to the missing scores
    for r in rows:
        r["diagram"] = "first" if int(r["dataset"][1:]) % 2 else "second"
    with (
        pytest.warns(CdplotWarning, match="averaged duplicate rows"),
        pytest.raises(CdplotError, match="1560 missing scores of metric 'acc'"),
    ):
        as_score_tables(rows)


def test_the_refusal_on_the_command_line(capsys):
    assert main(["stats", str(SHAPES / "diagrams_long.csv")]) == 2
    err = capsys.readouterr().err
    assert "pass --metric-col diagram to analyse each apart" in err
    assert len(err.strip().splitlines()) == 1


FOLDS_LONG = (
    "dataset,method,fold,score\n"
    "d1,A,0,0.5\nd1,A,1,0.6\nd1,B,0,0.4\nd1,B,1,0.3\n"
    "d2,A,0,0.5\nd2,A,1,0.6\nd2,B,0,0.7\nd2,B,1,0.3\n"
)


def test_a_fold_column_given_as_the_metric_column_is_refused(tmp_path):
    # metric_col='fold' once ran one analysis per fold, its headings "(0, higher is better)"
    p = tmp_path / "x.csv"
    p.write_text(FOLDS_LONG, "utf-8")
    for read in (read_scores, as_score_tables):
        with pytest.raises(CdplotError) as e:
            read(p, metric_col="fold")
        assert str(e.value) == (
            f"{p}: the metric column metric_col='fold' holds whole numbers ('0', '1'), not "
            "metric names; pass repetition_col='fold' if they tell repeated runs (folds, "
            "seeds) apart, else name the metrics"
        )
        assert e.value.option == "metric_col"
    # the option the message names reads the file
    (t,) = read_scores(p, repetition_col="fold")
    assert t.values.tolist() == [[0.55, 0.35], [0.55, 0.5]]


def test_a_metric_column_named_like_seeds_or_holding_numbers_is_refused():
    rows = [
        {"dataset": d, "method": m, "seed": f"s{k}", "k": k, "acc": 0.5 + k / 10}
        for d in ("d1", "d2")
        for m in ("A", "B")
        for k in (1, 2)
    ]
    # named like a repetition column, whatever its values
    with pytest.raises(CdplotError) as e:
        as_score_tables(rows, metric_col="seed", repetition_col="k")
    assert str(e.value).startswith(
        "list of records: the metric column metric_col='seed' holds values of a column named "
        "like repetitions ('s1', 's2'), not metric names; pass repetition_col='seed'"
    )
    # integers (not text) under any name
    with pytest.raises(CdplotError, match=r"metric_col='k' holds whole numbers \('1', '2'\)"):
        as_score_tables(rows, metric_col="k", repetition_col="seed")
    # metrics with names are read as before
    for r in rows:
        r["k"] = f"top{r['k']}"
    tables = as_score_tables(rows, metric_col="k", repetition_col="seed")
    assert [t.metric for t in tables] == ["top1", "top2"]


def test_a_column_describing_rows_is_not_a_split():
    # a method's family and a data set's task type are constant within a pair: ignored
    rows = [
        {"dataset": d, "problem_type": t, "method": m, "family": f, "fold": k, "acc": k / 10}
        for d, t in (("iris", "multiclass"), ("adult", "binary"))
        for m, f in (("rf", "trees"), ("xgb", "trees"), ("svm", "kernel"))
        for k in range(3)
    ]
    (t,) = as_score_tables(rows)
    assert t.methods == ("rf", "xgb", "svm")
    assert "ignored 2 columns 'problem_type', 'family'" in t.notes
    # a label that changes with the fold (a file per fold) follows the repetitions
    for r in rows:
        r["file"] = f"fold{r['fold']}.csv"
    (t,) = as_score_tables(rows)
    assert t.n_datasets == 2


# ---- 3. the column names benchmark tools write ----


def test_tabrepo_long_file_is_read_with_no_option():
    # TabRepo's per-config results: dataset, fold, framework, metric_error + 9 more numbers
    (t,) = read_scores(SHAPES / "tabrepo_long.csv")
    assert t.metric == "metric_error"
    assert t.methods[0] == "CatBoost_c1_BAG_L1"
    assert (t.n_datasets, t.n_methods) == (5, 4)
    assert t.higher_is_better is False
    assert "averaged 3 repetitions per data set and method (column 'fold')" in t.notes
    assert any(n.startswith("ignored 9 columns 'metric_error_val'") for n in t.notes)


def test_unknown_method_column_is_refused_with_the_option():
    with pytest.raises(CdplotError) as e:
        read_scores(SHAPES / "tabrepo_unknown_method.csv")
    msg = str(e.value)
    assert "data set '10090' appears twice" in msg
    assert "pass method_col= naming the column of methods ('tabrepo_config')" in msg
    (t,) = read_scores(SHAPES / "tabrepo_unknown_method.csv", method_col="tabrepo_config")
    assert t.metric == "metric_error"


@pytest.mark.parametrize(
    "name",
    [
        "framework",
        "model",
        "algorithm",
        "classifier",
        "regressor",
        "learner",
        "estimator",
        "method",
        "system",
        "config",
    ],
)
def test_method_column_names(name):
    rows = [{"dataset": d, name: m, "accuracy": v} for d in "xy" for m, v in (("A", 1), ("B", 2))]
    (t,) = as_score_tables(rows)
    assert t.methods == ("A", "B")


def test_several_numeric_columns_name_the_candidates(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("dataset,framework,fold,val_a,val_b\nx,A,0,1,2\nx,B,0,1,2\ny,A,0,1,2\ny,B,0,1,2\n")
    with pytest.raises(CdplotError, match=r"among 'val_a', 'val_b'; pass score_col= naming one"):
        read_scores(p)


# ---- 7. smaller ----


@pytest.mark.parametrize("sep", ["\\t", "tab", "\t"])
def test_tab_separator_spellings(tmp_path, sep):
    p = tmp_path / "t.txt"
    p.write_text("dataset\tA\tB\niris\t0.9\t0.8\nwine\t0.7\t0.6\n")
    (t,) = read_scores(p, sep=sep)
    assert t.methods == ("A", "B")


def test_help_says_file_may_be_a_results_folder(capsys):
    for argv in (["--help"], ["stats", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        assert "results folder" in " ".join(capsys.readouterr().out.split())


def test_text_output_names_no_python_call():
    import numpy as np

    rng = np.random.default_rng(26)
    x = rng.random((30, 12)) + np.arange(12) / 4
    text = str(cdplot.compare(x))
    assert "()" not in text


# ---- 4. whitespace-aligned text tables ----


def test_fernandez_delgado_layout():
    # results.txt of Fernandez-Delgado et al. (2014): a name column, method columns aligned
    # by spaces, a rule line, then a "mean" row that is no data set
    (t,) = read_scores(SHAPES / "fernandez_delgado_results.txt")
    assert t.n_methods == 10
    assert t.n_datasets == 10
    assert "mean" not in t.datasets
    assert t.datasets[-1] == "blood"
    assert "skipped 1 rule line ('----')" in t.notes
    assert "dropped a summary row ('mean', row 13), which is no data set" in t.notes
    assert t.values[0, 0] == 58.61


def test_r_print_layout():
    # R's print(data.frame): no header over the row names, quoted names with spaces
    (t,) = read_scores(SHAPES / "r_print.txt")
    assert t.methods == ("RF", "SVM", "kNN")
    assert t.datasets == ("iris setosa", "wine", "glass")
    assert any("'Average'" in n for n in t.notes)


@pytest.mark.parametrize("word", ["mean", "Average", "avg", "median", "total"])
def test_summary_rows_of_a_csv_are_dropped(tmp_path, word):
    p = tmp_path / "s.csv"
    p.write_text(f"dataset,A,B\niris,0.9,0.8\nwine,0.7,0.6\nglass,0.5,0.6\n{word},0.7,0.67\n")
    (t,) = read_scores(p)
    assert t.datasets == ("iris", "wine", "glass")
    res = cdplot.compare(t)
    assert any(f"summary row ('{word}', row 5)" in n for n in res.to_dict()["notes"])


def test_ragged_aligned_row_counts_are_true(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("name  A  B  C\nx  1  2  3\ny  1  2\nz  3  2  1\n")
    with pytest.raises(CdplotError, match=r"r.txt, row 3 has 3 cells, the header \(row 1\) has 4"):
        read_scores(p)


# ---- 5. missing results: drop data sets, methods, or whichever keeps the most ----


def test_nan_policies_say_what_they_dropped():
    f = SHAPES / "gaps_long.csv"  # STC ran on 1 of 6 data sets, DrCIF lacks Beef
    with pytest.raises(CdplotError, match="'omit-methods': the methods"):
        read_scores(f)
    with pytest.raises(CdplotError, match="only 1 data set .* complete"):
        read_scores(f, nan_policy="omit")  # STC leaves one complete data set
    (t,) = read_scores(f, nan_policy="omit-methods")
    assert t.methods == ("HC2", "ROCKET")
    assert t.dropped_methods == ("DrCIF", "STC")
    assert "dropped 2 methods with missing scores (nan_policy='omit-methods'): 'DrCIF', 'STC'" in (
        t.notes
    )
    (t,) = read_scores(f, nan_policy="omit-fewest")
    # dropping STC, then Beef, keeps 5 x 3 = 15 scores (omit-methods keeps 6 x 2 = 12)
    assert t.methods == ("HC2", "ROCKET", "DrCIF")
    assert t.dropped_methods == ("STC",)
    assert t.dropped_datasets == ("Beef",)
    res = cdplot.compare(t)
    d = res.to_dict()
    assert d["dropped_methods"] == ["STC"]
    assert d["dropped_datasets"] == ["Beef"]
    assert any("nan_policy='omit-fewest'): 'STC'" in n for n in d["notes"])


def test_nan_policy_on_the_command_line(capsys):
    f = str(SHAPES / "gaps_long.csv")
    assert main(["stats", f, "--nan-policy", "omit-fewest"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Dropped 1 method with missing scores (nan_policy='omit-fewest'): 'STC'." in out
    assert "Dropped 1 data set with missing scores (nan_policy='omit-fewest'): 'Beef'." in out


# ---- 6. equal true means stay ties ----


def test_equal_true_means_of_k_over_n_tie():
    # 30 resamples of accuracies k/11 written to 17 significant digits (as tsml-eval writes
    # them); on 'Beef' HC2's and ROCKET's counts differ but sum to 233 both, so the true
    # means are equal (233/330), while the correctly rounded means of the written decimals
    # differ in the last bit
    import csv
    import math

    from cdplot.io._build import TIE_RTOL

    f = SHAPES / "resamples_k_over_n.csv"
    with open(f) as fh:
        rows = [r for r in csv.DictReader(fh) if r["dataset"] == "Beef"]
    raw = {
        m: math.fsum(float(r["accuracy"]) for r in rows if r["classifier"] == m) / 30
        for m in ("HC2", "ROCKET")
    }
    assert raw["HC2"] != raw["ROCKET"]  # the rounding the fix removes
    assert abs(raw["HC2"] - raw["ROCKET"]) < TIE_RTOL * raw["HC2"]
    (t,) = read_scores(f)
    beef = t.values[t.datasets.index("Beef")]
    assert beef[0] == beef[1]
    assert any(n.startswith("treated averaged scores of one data set that agree") for n in t.notes)
    res = cdplot.compare(t)
    assert res.ranks[t.datasets.index("Beef")].tolist() == [2.5, 2.5, 1.0]


def test_tie_close_means_keeps_real_differences():
    import numpy as np

    from cdplot.io._build import tie_close_means

    a = 0.9333333333333333
    b = np.nextafter(a, 1)
    m = np.array([[b, a, 0.5, np.nan], [1.0, 1.0 + 1e-9, 2.0, 2.0]])
    out, n = tie_close_means(m, np.ones(m.shape, dtype=bool))
    assert n == 1
    assert out[0, 0] == out[0, 1] == a  # the smaller value, whatever the order
    assert out[1].tolist() == [1.0, 1.0 + 1e-9, 2.0, 2.0]
    # a cell that is no mean (one row) keeps its written value
    out, n = tie_close_means(m, np.array([[True, False, True, True]] * 2))
    assert (n, out[0, 0], out[0, 1]) == (0, b, a)


def _groupby_series():
    pd = pytest.importorskip("pandas")
    rows = [
        (d, m, fold, 0.5 + 0.1 * i - 0.01 * fold + 0.02 * j)
        for j, d in enumerate(["iris", "wine", "glass"])
        for i, m in enumerate(["RF", "SVM", "kNN"])
        for fold in range(3)
    ]
    df = pd.DataFrame(rows, columns=["dataset", "method", "fold", "accuracy"])
    return df, df.groupby(["dataset", "method"])["accuracy"].mean()


def test_a_groupby_mean_series_is_reshaped():
    # df.groupby(["dataset", "method"]).mean() gives a Series with a (data set, method)
    # MultiIndex; it was refused (issue 29, item 6)
    df, series = _groupby_series()
    (t,) = as_score_tables(series)
    assert t.methods == ("RF", "SVM", "kNN")
    assert t.datasets == ("glass", "iris", "wine")
    assert t.metric is None or t.metric == "accuracy"
    wide = df.pivot_table(index="dataset", columns="method", values="accuracy")
    (w,) = as_score_tables(wide)
    for m in t.methods:
        for d in t.datasets:
            assert t.values[t.datasets.index(d), t.methods.index(m)] == pytest.approx(
                w.values[w.datasets.index(d), w.methods.index(m)]
            )
    # the levels in the other order, and unnamed levels (data set first, then method)
    swapped = df.groupby(["method", "dataset"])["accuracy"].mean()
    assert as_score_tables(swapped)[0].methods == t.methods
    bare = series.copy()
    bare.index.names = [None, None]
    bare.name = None
    assert as_score_tables(bare)[0].methods == t.methods
    assert cdplot.compare(series).n_methods == 3


def test_a_series_whose_levels_are_not_recognised_says_how_to_name_them():
    _, series = _groupby_series()
    odd = series.copy()
    odd.index.names = ["ds", "algo"]
    with pytest.raises(CdplotError, match=r"pandas Series: .*'ds', 'algo'.*dataset_col="):
        as_score_tables(odd)
    (t,) = as_score_tables(odd, dataset_col="ds", method_col="algo")
    assert t.methods == ("RF", "SVM", "kNN")
    with pytest.raises(CdplotError, match="one index level"):
        as_score_tables(series.droplevel(0))
