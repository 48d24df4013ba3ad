"""Tests of cdplot.io._folds: per-fold scores read without averaging.

The scores are made up; what is checked is where messages point (the line an
editor shows, comment lines counted) and the ``repetition_col`` option.
"""

import pytest

from cdplot.errors import CdplotError
from cdplot.io import fold_scores, read_fold_scores


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
