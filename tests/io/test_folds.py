"""Tests of cdplot.io._folds: per-fold scores read without averaging.

The scores are made up; what is checked is where messages point (the line an
editor shows, comment lines counted) and the ``repetition_col`` option.
"""

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest

from cdplot.errors import CdplotError
from cdplot.io import fold_scores, read_fold_scores, read_scores
from cdplot.io._folds import tied_means


def error_of(fn, *args, **kwargs):
    with pytest.raises(CdplotError) as e:
        fn(*args, **kwargs)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


FOLDS = "fold,A,B\n1,0.8,0.7\n2,0.9,x\n3,0.85,0.8\n"


@pytest.mark.parametrize(
    ("head", "line"),
    [
        pytest.param("", 3, id="no-comments"),
        pytest.param("# AUC of two methods\n# on one data set\n", 5, id="two-comment-lines"),
        pytest.param("# a comment\n\n", 5, id="comment-and-blank-line"),
    ],
)
def test_bad_cell_names_the_line_of_the_file(tmp_path, head, line):
    # issue 11: the row was counted from the first record, ignoring header and comments
    p = tmp_path / "folds.csv"
    p.write_text(head + FOLDS, encoding="utf-8")
    msg = error_of(read_fold_scores, p)
    assert msg == f"{p}, row {line}, column 'B': 'x' is not a finite score"


def test_repeated_fold_names_the_line_of_the_file(tmp_path):
    p = tmp_path / "folds.csv"
    p.write_text("# seeds x folds\nseed,fold,A,B\n1,1,0.8,0.7\n1,1,0.9,0.6\n", encoding="utf-8")
    msg = error_of(read_fold_scores, p)
    assert msg.startswith(f"{p}, row 4: method 'A', repetition '1', fold '1' appears twice")


def test_records_in_memory_are_counted_from_one():
    rows = [{"fold": 1, "A": 0.8, "B": 0.7}, {"fold": 2, "A": "n/a", "B": 0.6}]
    msg = error_of(fold_scores, rows)
    assert msg == "records, row 2, column 'A': 'n/a' is not a finite score"


def test_json_records_are_named_by_index(tmp_path):
    p = tmp_path / "folds.json"
    p.write_text('[{"fold": 1, "A": 0.8, "B": 0.7}, {"fold": 2, "A": null, "B": 0.6}]')
    msg = error_of(read_fold_scores, p)
    assert msg == f"{p}, record 1, column 'A': None is not a finite score"


def test_repetition_col_names_an_unrecognised_column(tmp_path):
    p = tmp_path / "folds.csv"
    p.write_text(
        "attempt,fold,A,B\n1,1,0.8,0.7\n1,2,0.9,0.6\n2,1,0.7,0.7\n2,2,0.8,0.5\n", encoding="utf-8"
    )
    f = read_fold_scores(p, repetition_col="attempt")
    assert (f.repeats, f.folds) == (("1", "2"), ("1", "2"))
    assert f.scores("A").tolist() == [[0.8, 0.9], [0.7, 0.8]]
    # without it, 'attempt' is read as a third method, and fold 1 then appears twice
    assert "row 4: method 'attempt', repetition '1', fold '1' appears twice" in error_of(
        read_fold_scores, p
    )


def test_repeat_col_is_not_a_second_spelling(tmp_path):
    p = tmp_path / "folds.csv"
    p.write_text(FOLDS, encoding="utf-8")
    with pytest.raises(TypeError, match="repeat_col"):
        read_fold_scores(p, repeat_col="fold")


# --- issue 26's shapes, read per fold as read_scores reads them averaged -----------------

SHAPES = Path(__file__).parent / "data" / "shapes"


def _as_json(tmp_path, name):
    """The shape file as a JSON list of records (the other format read_fold_scores reads)."""
    with open(SHAPES / name, newline="", encoding="utf-8") as fh:
        records = list(csv.DictReader(fh))
    path = tmp_path / (Path(name).stem + ".json")
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


@pytest.fixture(params=["csv", "json"])
def shape(request, tmp_path):
    """The path of a shape file, as written or as JSON records."""
    return lambda name: SHAPES / name if request.param == "csv" else _as_json(tmp_path, name)


def test_tabrepo_long_file_is_read_per_fold_with_no_option(shape):
    # 'framework' names the methods and 'metric_error' the scores, as for read_scores
    f = read_fold_scores(shape("tabrepo_long.csv"))
    (t,) = read_scores(SHAPES / "tabrepo_long.csv")
    assert f.methods == t.methods
    assert f.datasets == t.datasets
    assert f.folds == ("0", "1", "2")
    np.testing.assert_array_equal(f.means(), t.values)
    # the nine other columns are left, and said so in read_scores' words
    ignored = [n for n in t.notes if n.startswith("ignored 9 columns")]
    assert f.notes == tuple(ignored)
    # and 'metric_error' says lower is better, in read_scores' words
    assert (f.higher_is_better, f.direction) == (t.higher_is_better, t.direction)
    assert f.higher_is_better is False
    assert f.direction_conflict is None


def test_fold_file_name_is_weighed_for_direction_and_a_conflict_is_kept(tmp_path):
    rows = "fold,method,accuracy\n1,A,0.8\n1,B,0.7\n2,A,0.9\n2,B,0.6\n"
    (tmp_path / "rmse_folds.csv").write_text(rows.replace("accuracy", "score"))
    f = read_fold_scores(tmp_path / "rmse_folds.csv")
    assert f.higher_is_better is False
    assert "file name 'rmse_folds'" in f.direction
    (tmp_path / "error_folds.csv").write_text(rows)
    g = read_fold_scores(tmp_path / "error_folds.csv")
    assert g.higher_is_better is None
    assert "'accuracy'" in g.direction_conflict
    assert "error_folds" in g.direction_conflict


def test_unknown_method_column_names_the_option_and_the_candidate(shape):
    msg = error_of(read_fold_scores, shape("tabrepo_unknown_method.csv"))
    assert "method_col=" in msg
    assert "'tabrepo_config'" in msg
    f = read_fold_scores(shape("tabrepo_unknown_method.csv"), method_col="tabrepo_config")
    g = read_fold_scores(SHAPES / "tabrepo_long.csv")
    assert f.methods == g.methods
    np.testing.assert_array_equal(f.values, g.values)


def test_fold_means_that_agree_to_rounding_are_ties_as_in_read_scores(shape):
    # accuracies k/11 written to 17 digits: HC2's and ROCKET's true means are equal, their
    # correctly rounded means are not (tests/io/test_shapes.py, issue 26 item 6)
    f = read_fold_scores(shape("resamples_k_over_n.csv"))
    raw = np.array([[math.fsum(r.ravel()) / r.size for r in d] for d in f.values])
    hc2, rocket = f.methods.index("HC2"), f.methods.index("ROCKET")
    assert (raw[:, hc2] != raw[:, rocket]).all()
    means = f.means()
    np.testing.assert_array_equal(means[:, hc2], means[:, rocket])
    (t,) = read_scores(SHAPES / "resamples_k_over_n.csv")
    np.testing.assert_array_equal(means, t.values)
    _, notes = tied_means(f)
    assert notes == tuple(n for n in t.notes if "as ties" in n)
    assert "on 3 data sets" in notes[0]


def test_distinct_fold_means_are_left_alone():
    f = read_fold_scores(SHAPES / "tabrepo_long.csv")
    means, notes = tied_means(f)
    assert notes == ()
    expected = [[math.fsum(r.ravel()) / r.size for r in d] for d in f.values]
    np.testing.assert_array_equal(means, expected)


# --- a metric column: one metric's rows, chosen by metric= -------------------------------

# two metrics of the same folds: folds of accuracy and of log-loss paired as one method's
# scores would be neither (made-up numbers; the bad cell on line 10 is a log-loss)
TWO_METRICS = (
    "fold,method,metric,score\n"
    "1,A,accuracy,0.8\n1,B,accuracy,0.7\n1,A,log_loss,0.4\n1,B,log_loss,0.5\n"
    "2,A,accuracy,0.9\n2,B,accuracy,0.6\n2,A,log_loss,0.3\n2,B,log_loss,0.6\n"
    "3,A,log_loss,x\n3,B,log_loss,0.7\n3,A,accuracy,0.85\n3,B,accuracy,0.5\n"
)


@pytest.fixture
def two_metrics(tmp_path):
    p = tmp_path / "folds.csv"
    p.write_text(TWO_METRICS)
    return p


def test_a_metric_column_with_several_metrics_needs_metric(two_metrics):
    # the fold reader once knew no metric column: it said fold 1 appeared twice
    msg = error_of(read_fold_scores, two_metrics)
    assert "column 'metric' holds 2 metrics ('accuracy', 'log_loss')" in msg
    assert "choose one with metric=" in msg
    msg = error_of(read_fold_scores, two_metrics, metric="auc")
    assert "metric='auc' matches no metric" in msg
    assert "'accuracy', 'log_loss'" in msg


def test_the_metric_chosen_keeps_its_rows_and_says_the_direction(two_metrics):
    f = read_fold_scores(two_metrics, metric="accuracy")
    assert f.metric == "accuracy"
    assert f.scores("A").tolist() == [[0.8, 0.9, 0.85]]
    assert f.scores("B").tolist() == [[0.7, 0.6, 0.5]]
    assert f.higher_is_better is True
    assert "metric name 'accuracy'" in f.direction
    # the bad cell of the log-loss rows is named by its line in the file, not among the kept
    msg = error_of(read_fold_scores, two_metrics, metric="log_loss")
    assert "row 10, column 'score': 'x' is not a finite score" in msg


def test_metric_col_names_a_column_the_reader_does_not_know(two_metrics):
    text = two_metrics.read_text().replace("metric,", "quantity,", 1)
    records = list(csv.DictReader(text.splitlines()))
    # unrecognised, 'quantity' holds no scores: the reader cannot tell it from a method column
    with pytest.raises(CdplotError):
        fold_scores(records)
    f = fold_scores(records, metric_col="quantity", metric="accuracy")
    assert (f.metric, f.higher_is_better) == ("accuracy", True)
    assert f.scores("B").tolist() == [[0.7, 0.6, 0.5]]
    # record 9 (counted from 1) is the bad log-loss cell
    msg = error_of(fold_scores, records, metric_col="quantity", metric="log_loss")
    assert "records, row 9, column 'score': 'x' is not a finite score" in msg


def test_the_fold_column_given_as_the_metric_column_is_refused(two_metrics):
    # it said "no fold column among ... 'fold' ..." (the metric column had taken it)
    records = list(csv.DictReader(two_metrics.read_text().splitlines()))
    msg = error_of(fold_scores, records, metric_col="fold")
    assert msg == (
        "records: the metric column metric_col='fold' holds whole numbers ('1', '2', '3'), not "
        "metric names; pass fold_col='fold' or repetition_col='fold' if they tell repeated "
        "runs (folds, seeds) apart, else name the metrics"
    )


def test_one_metric_in_a_metric_column_is_read_and_weighed(tmp_path):
    p = tmp_path / "folds.csv"
    p.write_text(
        "fold,method,metric,score\n1,A,rmse,1.0\n1,B,rmse,2.0\n2,A,rmse,1.5\n2,B,rmse,2.5\n"
    )
    f = read_fold_scores(p)
    assert (f.metric, f.higher_is_better) == ("rmse", False)
    assert read_fold_scores(p, metric="rmse").metric == "rmse"


def test_metric_without_a_metric_column_must_be_the_score_columns_name(tmp_path):
    p = tmp_path / "folds.csv"
    p.write_text("fold,method,accuracy\n1,A,0.8\n1,B,0.7\n2,A,0.9\n2,B,0.6\n")
    assert read_fold_scores(p, metric="accuracy").metric == "accuracy"
    msg = error_of(read_fold_scores, p, metric="rmse")
    assert "metric='rmse' matches no metric; the scores' metric is 'accuracy'" in msg
    wide = tmp_path / "wide.csv"
    wide.write_text("fold,A,B\n1,0.8,0.7\n2,0.9,0.6\n")
    assert read_fold_scores(wide).metric is None
    assert "the scores name no metric" in error_of(read_fold_scores, wide, metric="auc")
