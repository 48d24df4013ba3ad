"""Tests of cdplot.io.as_score_tables: every input form and every error.

Reference data: Demšar (2006), "Statistical Comparisons of Classifiers over
Multiple Data Sets", JMLR 7:1-30, Table 6 (first rows, AUC of C4.5 variants).
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from cdplot.errors import CdplotError
from cdplot.io import ScoreTable, as_score_tables

# Demšar 2006, Table 6, first four rows (copied data, 3 decimals as printed).
METHODS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DATASETS = ["adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc"]
AUC = [
    [0.763, 0.768, 0.771, 0.798],
    [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657],
]


def records(metric=None, reps=(1,), scores=None):
    out = []
    for i, d in enumerate(DATASETS):
        for j, m in enumerate(METHODS):
            for r in reps:
                rec = {"dataset": d, "method": m, "fold": r, "score": AUC[i][j] + 0.001 * r}
                if metric is not None:
                    rec["metric"] = metric
                out.append(rec)
    return out


def check_auc(table, atol=0.0):
    assert table.methods == tuple(METHODS)
    assert table.datasets == tuple(DATASETS)
    np.testing.assert_allclose(table.values, AUC, atol=atol)


# --- input forms -----------------------------------------------------------


def test_nested_list_with_names():
    (t,) = as_score_tables(AUC, methods=METHODS, datasets=DATASETS)
    check_auc(t)
    assert t.source == "list of scores"
    assert t.notes == ()
    assert not t.values.flags.writeable


def test_array_default_names():
    (t,) = as_score_tables(np.array(AUC))
    assert t.methods == ("method 1", "method 2", "method 3", "method 4")
    assert t.datasets == ("dataset 1", "dataset 2", "dataset 3", "dataset 4")
    assert t.source == "numpy array"


def test_string_array_cells_are_parsed():
    (t,) = as_score_tables(np.array(AUC).astype(str), methods=METHODS, datasets=DATASETS)
    check_auc(t)


def test_score_table_passes_through():
    table = ScoreTable(
        values=AUC,
        methods=METHODS,
        datasets=DATASETS,
        metric="AUC",
        higher_is_better=True,
        source="mine",
    )
    (t,) = as_score_tables(table)
    check_auc(t)
    assert (t.metric, t.higher_is_better, t.source) == ("AUC", True, "mine")


def test_list_of_score_tables():
    a = ScoreTable(values=AUC, methods=METHODS, datasets=DATASETS, metric="AUC")
    b = ScoreTable(values=1 - np.array(AUC), methods=METHODS, datasets=DATASETS, metric="err")
    tables = as_score_tables([a, b])
    assert [t.metric for t in tables] == ["AUC", "err"]
    (only,) = as_score_tables((a, b), metric="err")
    assert only.metric == "err"


def test_nested_mapping():
    data = {d: dict(zip(METHODS, row, strict=True)) for d, row in zip(DATASETS, AUC, strict=True)}
    (t,) = as_score_tables(data)
    check_auc(t)


def test_metric_nested_mapping():
    data = {
        "AUC": {
            d: dict(zip(METHODS, row, strict=True)) for d, row in zip(DATASETS, AUC, strict=True)
        },
        "error": {
            d: dict(zip(METHODS, 1 - np.array(row), strict=True))
            for d, row in zip(DATASETS, AUC, strict=True)
        },
    }
    tables = as_score_tables(data)
    assert [t.metric for t in tables] == ["AUC", "error"]
    check_auc(tables[0])


def test_table_mapping_round_trips_to_dict():
    mapping = {
        "methods": METHODS,
        "datasets": DATASETS,
        "scores": AUC,
        "metric": "AUC",
        "higher_is_better": True,
    }
    (t,) = as_score_tables(mapping)
    check_auc(t)
    assert (t.metric, t.higher_is_better) == ("AUC", True)
    (again,) = as_score_tables(json.loads(json.dumps(t.to_dict())))
    check_auc(again)
    assert again.metric == "AUC"


def test_list_of_table_mappings():
    a = {"methods": METHODS, "datasets": DATASETS, "scores": AUC, "metric": "AUC"}
    b = dict(a, metric="AUC2")
    assert [t.metric for t in as_score_tables([a, b])] == ["AUC", "AUC2"]


def test_records():
    (t,) = as_score_tables(records())
    np.testing.assert_allclose(t.values, np.array(AUC) + 0.001)
    assert t.source == "list of records"
    assert t.notes == ()


def test_records_repetitions_are_averaged_and_noted():
    (t,) = as_score_tables(records(reps=range(10)))
    np.testing.assert_allclose(t.values, np.array(AUC) + 0.0045)
    assert t.notes == ("averaged 10 repetitions per data set and method (column 'fold')",)


def test_unbalanced_repetitions_are_noted():
    recs = records(reps=(1, 2, 3))
    recs = [
        r for r in recs if not (r["dataset"] == "cmc" and r["method"] == "C4.5" and r["fold"] == 3)
    ]
    (t,) = as_score_tables(recs)
    (note,) = t.notes
    assert "averaged 2 to 3 repetitions" in note
    assert "unbalanced" in note
    assert "'cmc'/'C4.5' has 2" in note
    assert t.values[3, 0] == pytest.approx(0.628 + 0.0015)


def test_duplicates_without_repetition_column_are_averaged_and_said():
    recs = [{k: v for k, v in r.items() if k != "fold"} for r in records(reps=(1, 2))]
    (t,) = as_score_tables(recs)
    (note,) = t.notes
    assert note.startswith("averaged duplicate rows: 16 data set and method pairs appear 2 times")
    assert "no repetition column" in note
    np.testing.assert_allclose(t.values, np.array(AUC) + 0.0015)


def test_repeated_repetition_values_are_noted():
    recs = records(reps=(1, 1))
    (t,) = as_score_tables(recs)
    assert any("repeat a value of 'fold'" in n for n in t.notes)


def test_two_repetition_columns():
    recs = []
    for seed in (0, 1):
        for r in records(reps=(1, 2)):
            recs.append(dict(r, seed=seed))
    (t,) = as_score_tables(recs)
    assert t.notes == (
        "averaged 4 repetitions per data set and method (columns 'fold' and 'seed')",
    )


def test_multi_metric_records_and_metric_filter():
    recs = records(metric="AUC") + [
        dict(r, metric="error", score=1 - r["score"]) for r in records()
    ]
    tables = as_score_tables(recs)
    assert [t.metric for t in tables] == ["AUC", "error"]
    (err,) = as_score_tables(recs, metric="error")
    np.testing.assert_allclose(err.values, 1 - np.array(AUC) - 0.001)
    with pytest.raises(
        CdplotError,
        match=r"metric='F1' matches no table; the metrics are "
        r"'AUC', 'error'",
    ):
        as_score_tables(recs, metric="F1")


def test_metric_never_relabels_an_unnamed_table():
    # issue 11: metric= naming no metric of the data is an error, not a new label
    with pytest.raises(CdplotError, match="option metric='AUC' matches no table; the scores"):
        as_score_tables(AUC, metric="AUC")


def test_several_score_columns_are_metrics():
    recs = [
        {
            "dataset": r["dataset"],
            "method": r["method"],
            "accuracy": r["score"],
            "auc": 1 - r["score"],
        }
        for r in records()
    ]
    tables = as_score_tables(recs)
    assert [t.metric for t in tables] == ["accuracy", "auc"]


def test_recognised_column_names_case_insensitive():
    recs = [
        {
            "Data Set": r["dataset"],
            "ALGORITHM": r["method"],
            "Run": r["fold"],
            "Performance": r["score"],
        }
        for r in records(reps=(1, 2))
    ]
    (t,) = as_score_tables(recs)
    assert t.metric is None
    assert t.methods == tuple(METHODS)
    assert "column 'Run'" in t.notes[0]


def test_explicit_column_names():
    recs = [
        {"who": r["method"], "where": r["dataset"], "how_good": r["score"], "attempt": r["fold"]}
        for r in records(reps=(1, 2))
    ]
    (t,) = as_score_tables(
        recs, dataset_col="where", method_col="who", score_col="how_good", repetition_col="attempt"
    )
    assert t.datasets == tuple(DATASETS)
    assert "column 'attempt'" in t.notes[0]


def test_extra_columns_are_ignored_and_noted():
    recs = [dict(r, seconds=1.5) for r in records()]
    (t,) = as_score_tables(recs)
    assert "ignored 1 column 'seconds'" in t.notes


def test_missing_pair_in_long_data():
    recs = [r for r in records() if not (r["dataset"] == "cmc" and r["method"] == "C4.5")]
    with pytest.raises(CdplotError, match=r"1 missing score .*'cmc'/'C4.5' \(no row\)"):
        as_score_tables(recs)
    (t,) = as_score_tables(recs, nan_policy="omit")
    assert t.dropped_datasets == ("cmc",)


# --- nan_policy ------------------------------------------------------------


def test_nan_policy_raise_names_cells():
    data = np.array(AUC)
    data[1, 2] = np.nan
    data[3, 0] = np.nan
    with pytest.raises(CdplotError) as e:
        as_score_tables(data, methods=METHODS, datasets=DATASETS)
    msg = str(e.value)
    assert "\n" not in msg
    assert "2 missing scores" in msg
    assert "'breast cancer'/'C4.5+cf' (row 2)" in msg
    assert "'cmc'/'C4.5' (row 4)" in msg
    assert "nan_policy='omit'" in msg


def test_nan_policy_raise_lists_first_few_and_counts_rest():
    data = np.full((6, 2), np.nan)
    with pytest.raises(CdplotError, match=r"12 missing scores .* and 9 more"):
        as_score_tables(data)


def test_nan_policy_omit_drops_and_records():
    data = np.array(AUC)
    data[1, 2] = np.nan
    (t,) = as_score_tables(data, methods=METHODS, datasets=DATASETS, nan_policy="omit")
    assert t.dropped_datasets == ("breast cancer",)
    assert t.datasets == ("adult (sample)", "breast cancer wisconsin", "cmc")
    assert t.notes == (
        "dropped 1 data set with missing scores (nan_policy='omit'): 'breast cancer'",
    )


def test_nan_policy_omit_needs_two_complete_data_sets():
    data = np.array(AUC)
    data[1:, 0] = np.nan
    with pytest.raises(CdplotError, match=r"only 1 data set is complete after dropping 3"):
        as_score_tables(data, nan_policy="omit")


def test_nan_policy_omit_method_without_scores():
    data = np.array(AUC)
    data[:, 1] = np.nan
    with pytest.raises(CdplotError, match=r"method 'method 2' has no scores at all"):
        as_score_tables(data, nan_policy="omit")


def test_missing_strings_and_none_are_missing():
    data = [[0.1, None], [0.2, "NA"], [0.3, "nan"], [0.4, ""], [0.5, 0.6], [0.7, 0.8]]
    (t,) = as_score_tables(data, nan_policy="omit")
    assert t.dropped_datasets == ("dataset 1", "dataset 2", "dataset 3", "dataset 4")


# --- errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "kwargs", "match"),
    [
        pytest.param(
            [[0.1], [0.2]],
            {},
            r"found 1 method \('method 1'\); comparing needs "
            r"at least 2",
            id="one-method",
        ),
        pytest.param([[0.1, 0.2]], {}, r"found 1 data set \('dataset 1'\)", id="one-dataset"),
        pytest.param(
            [[0.1, 0.2], [0.3]], {}, r"list of scores, row 2 has 1 value, row 1 has 2", id="ragged"
        ),
        pytest.param(
            [[0.1, "abc"], [0.3, 0.4]],
            {},
            r"list of scores, row 1 \(data set 'dataset 1'\), column 'method 2': "
            r"'abc' is not a number",
            id="not-a-number",
        ),
        pytest.param(
            [[0.1, np.inf], [0.3, 0.4]], {}, r"column 'method 2': inf is not finite", id="inf"
        ),
        pytest.param([[0.1, "-inf"], [0.3, 0.4]], {}, r"'-inf' is not finite", id="inf-str"),
        pytest.param([[0.1, True], [0.3, 0.4]], {}, r"True is not a number", id="bool"),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"methods": ["A", "A"]},
            r"column 2: method 'A' appears twice \(also column 1\)",
            id="dup-method",
        ),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"datasets": ["x", "x"]},
            r"row 2: data set 'x' appears twice \(also row 1\)",
            id="dup-dataset",
        ),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"methods": ["A", " "]},
            r"column 2: the method name is empty",
            id="empty-method",
        ),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"methods": ["A"]},
            r"option methods= has 1 name but the table has 2 columns",
            id="n-methods",
        ),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"datasets": ["a", "b", "c"]},
            r"option datasets= has 3 names but the table has 2 rows",
            id="n-datasets",
        ),
        pytest.param(np.zeros(3), {}, r"expected a 2-D table", id="1-d"),
        pytest.param([], {}, r"there are no scores", id="empty-list"),
        pytest.param({}, {}, r"the mapping is empty", id="empty-mapping"),
        pytest.param(42, {}, r"scores of type 'int' are not understood", id="int"),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"nan_policy": "drop"},
            r"option nan_policy='drop' is not valid",
            id="nan-policy",
        ),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"layout": "tidy"},
            r"option layout='tidy' is not valid",
            id="layout",
        ),
        pytest.param(
            [[0.1, 0.2], [0.3, 0.4]],
            {"score_col": "auc"},
            r"option score_col= applies to long data; list of scores is wide",
            id="col-on-array",
        ),
        pytest.param(
            {"a": {"x": 1, "y": 2}, "b": {"x": 1, "y": 2}},
            {"methods": ["p", "q"]},
            r"option methods= names 'p', which is not one of the methods; the methods are 'x', "
            r"'y'",
            id="unknown-method-selected",
        ),
        pytest.param(
            {"a": {"x": 1, "y": 2}, "b": 3},
            {},
            r"mapping, data set 'b': expected a mapping of method to score, got 3",
            id="bad-mapping",
        ),
        pytest.param(
            {"methods": ["A", "B", "C"], "scores": [[1, 2], [3, 4]]},
            {},
            r"'methods' has 3 names but 'scores' has 2 columns",
            id="table-mapping",
        ),
        pytest.param(
            {"scores": [[1, 2], [3, 4]], "colour": "red"},
            {},
            r"unknown key 'colour' in a table mapping",
            id="table-mapping-key",
        ),
        pytest.param(
            {"scores": [[1, 2], [3, 4]], "higher_is_better": "yes"},
            {},
            r"'higher_is_better' must be true, false or null, got 'yes'",
            id="table-mapping-direction",
        ),
        pytest.param([[0.1, 0.2], {"a": 1}], {}, r"mixes items of types dict, list", id="mixed"),
    ],
)
def test_errors(data, kwargs, match):
    with pytest.raises(CdplotError, match=match) as e:
        as_score_tables(data, **kwargs)
    assert "\n" not in str(e.value)


def test_error_is_value_error():
    with pytest.raises(ValueError, match="not a number"):
        as_score_tables([[0.1, "x"], [0.2, 0.3]])


def test_source_names_the_input_in_errors():
    with pytest.raises(CdplotError, match=r"^my run, row 2 \(data set 'dataset 2'\)"):
        as_score_tables([[0.1, 0.2], [0.3, "?"]], source="my run")


def test_score_table_with_nan_follows_nan_policy():
    table = ScoreTable(
        values=[[1, np.nan], [2, 3], [4, 5]],
        methods=["a", "b"],
        datasets=["x", "y", "z"],
        source="made by hand",
    )
    with pytest.raises(CdplotError, match=r"^made by hand: 1 missing score .*'x'/'b'"):
        as_score_tables(table)
    (t,) = as_score_tables(table, nan_policy="omit")
    assert t.dropped_datasets == ("x",)


def test_records_errors_name_the_record():
    recs = records()
    recs[5]["score"] = "high"
    with pytest.raises(
        CdplotError,
        match=r"list of records, records\[5\] \(data set "
        r"'breast cancer'\), column 'score': 'high' is not",
    ):
        as_score_tables(recs)
    recs = records()
    recs[2]["dataset"] = ""
    with pytest.raises(
        CdplotError,
        match=r"records\[2\], column 'dataset': the data set name "
        r"is empty",
    ):
        as_score_tables(recs)


def test_records_ambiguous_and_unknown_columns():
    recs = [dict(r, task=r["dataset"]) for r in records()]
    with pytest.raises(
        CdplotError,
        match=r"columns 'dataset' and 'task' could each be the "
        r"dataset; pass dataset_col=",
    ):
        as_score_tables(recs)
    (t,) = as_score_tables(recs, dataset_col="task")
    assert "ignored 1 column 'dataset'" in t.notes
    with pytest.raises(CdplotError, match=r"option score_col='acc' is not a column"):
        as_score_tables(records(), score_col="acc")
    recs = [{"dataset": r["dataset"], "method": r["method"], "a": 1, "b": 2} for r in records()]
    with pytest.raises(CdplotError, match=r"cannot tell which column holds the scores"):
        as_score_tables(recs)


# --- DataFrames (optional test-only dependencies) --------------------------


def test_pandas_wide_index_names_datasets():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(AUC, index=DATASETS, columns=METHODS)
    (t,) = as_score_tables(df)
    check_auc(t)
    assert t.source == "pandas DataFrame"


def test_pandas_wide_first_text_column_names_datasets():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(AUC, columns=METHODS)
    df.insert(0, "name", DATASETS)
    (t,) = as_score_tables(df)
    check_auc(t)
    assert t.notes == ("took the data-set names from the first column 'name'",)


def test_pandas_wide_without_names():
    pd = pytest.importorskip("pandas")
    (t,) = as_score_tables(pd.DataFrame(AUC, columns=METHODS))
    assert t.datasets[0] == "dataset 1"
    assert "no data-set names" in t.notes[0]


def test_pandas_wide_errors():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(AUC, index=DATASETS, columns=METHODS).astype(object)
    df.iloc[2, 1] = "n/a?"
    with pytest.raises(
        CdplotError,
        match=r"pandas DataFrame, data set 'breast cancer "
        r"wisconsin', column 'C4.5\+m': 'n/a\?' is not",
    ):
        as_score_tables(df)
    df = pd.DataFrame(AUC, index=DATASETS, columns=METHODS)
    df.iloc[0, 0] = np.nan
    with pytest.raises(CdplotError, match=r"1 missing score .*'adult \(sample\)'/'C4.5'"):
        as_score_tables(df)


def test_pandas_long_with_repetitions():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(records(reps=range(10)))
    (t,) = as_score_tables(df)
    np.testing.assert_allclose(t.values, np.array(AUC) + 0.0045)
    assert t.notes == ("averaged 10 repetitions per data set and method (column 'fold')",)
    # the data-set column may be the index
    (t2,) = as_score_tables(df.set_index("dataset"))
    np.testing.assert_allclose(t2.values, t.values)


def test_pandas_long_error_names_row_label():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(records()).astype({"score": object})
    df.loc[7, "score"] = "oops"
    with pytest.raises(
        CdplotError,
        match=r"pandas DataFrame, row 7 \(data set 'breast "
        r"cancer'\), column 'score': 'oops' is not",
    ):
        as_score_tables(df)


def test_pandas_layout_wide_forced():
    pd = pytest.importorskip("pandas")
    # a wide table whose methods happen to be called "model" and "task" is still wide
    df = pd.DataFrame({"model": [1.0, 2.0], "task": [2.0, 1.0]}, index=["x", "y"])
    (t,) = as_score_tables(df, layout="wide")
    assert t.methods == ("model", "task")


def test_polars_wide_and_long():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({m: [row[j] for row in AUC] for j, m in enumerate(METHODS)})
    df = df.with_columns(pl.Series("dataset", DATASETS))
    (t,) = as_score_tables(df)
    check_auc(t)
    assert t.source == "polars DataFrame"
    assert t.notes == ("took the data-set names from column 'dataset'",)
    long = pl.DataFrame(records(reps=(1, 2)))
    (t,) = as_score_tables(long)
    np.testing.assert_allclose(t.values, np.array(AUC) + 0.0015)
    assert "averaged 2 repetitions" in t.notes[0]


def test_polars_lazy_frame_is_refused():
    pl = pytest.importorskip("polars")
    with pytest.raises(CdplotError, match=r"call .collect\(\) first"):
        as_score_tables(pl.DataFrame({"a": [1.0], "b": [2.0]}).lazy())


def test_path_is_delegated_to_read_scores(tmp_path):
    p = tmp_path / "auc.csv"
    p.write_text(
        "dataset,"
        + ",".join(METHODS)
        + "\n"
        + "".join(f"{d},{','.join(map(str, r))}\n" for d, r in zip(DATASETS, AUC, strict=True))
    )
    for arg in (p, str(p)):
        (t,) = as_score_tables(arg)
        check_auc(t)
        assert t.source == str(p)
        assert len(t.sha256) == 64


def test_importing_scores_does_not_import_pandas():
    code = (
        "import sys, cdplot.io\n"
        "bad = [m for m in ('pandas', 'polars') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# --- options are checked once, with the same message for every input --------------------

WRONG_OPTIONS = [
    pytest.param({"nan_policy": "drop"}, id="nan_policy"),
    pytest.param({"layout": "tall"}, id="layout"),
    pytest.param({"metric": " "}, id="metric"),
    pytest.param({"source": 3}, id="source"),
    pytest.param({"metric_col": 3}, id="metric_col"),
    pytest.param({"repetition_col": []}, id="repetition_col"),
    pytest.param({"orient": "rows"}, id="orient"),
    pytest.param({"keep_repetitions": "yes"}, id="keep_repetitions"),
    pytest.param({"max_bytes": 0}, id="max_bytes"),
    pytest.param({"methods": "C4.5"}, id="methods"),
    pytest.param({"rename": ["C4.5"]}, id="rename"),
]


@pytest.mark.parametrize("option", WRONG_OPTIONS)
def test_a_wrong_option_says_the_same_for_a_file_and_an_array(option, tmp_path):
    p = tmp_path / "auc.csv"
    p.write_text("dataset,A,B\nd1,0.1,0.2\nd2,0.3,0.4\n", "utf-8")
    messages = []
    for data in (np.array(AUC), p, str(p)):
        with pytest.raises(CdplotError) as e:
            as_score_tables(data, **option)
        messages.append(str(e.value))
    assert "\n" not in messages[0]
    assert messages == [messages[0]] * 3


def test_a_file_name_has_its_options_checked_once(tmp_path, monkeypatch):
    # as_score_tables checked every option, then read_scores checked them all again
    from cdplot.io import _api, _files

    calls = []
    for module in (_api, _files):
        real = module._validate_options

        def counted(*args, real=real):
            calls.append(args)
            return real(*args)

        monkeypatch.setattr(module, "_validate_options", counted)
    p = tmp_path / "auc.csv"
    p.write_text("dataset,A,B\nd1,0.1,0.2\nd2,0.3,0.4\n", "utf-8")
    (t,) = as_score_tables(p, methods=["B", "A"], source="mine")
    assert (t.methods, t.source) == (("B", "A"), "mine")
    assert len(calls) == 1
