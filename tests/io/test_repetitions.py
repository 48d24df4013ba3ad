"""Readers keep every repetition's score when asked (cdplot/io/_repetitions.py)."""

import statistics

import numpy as np
import pytest

from cdplot.errors import CdplotError, CdplotWarning
from cdplot.io import ScoreTable, as_score_tables, read_scores


def records(n_folds=4, seed=0, datasets=("iris", "wine", "glass"), methods=("A", "B", "C")):
    rng = np.random.default_rng(seed)
    return [
        {"dataset": d, "method": m, "fold": f, "score": round(float(rng.random()), 3)}
        for d in datasets
        for m in methods
        for f in range(n_folds)
    ]


def by_hand(rows):
    """{(dataset, method): [scores in fold order]}, the brute-force reference."""
    out = {}
    for r in rows:
        out.setdefault((r["dataset"], r["method"]), []).append(r["score"])
    return out


def test_off_by_default():
    (t,) = as_score_tables(records())
    assert t.repetition_scores is None
    assert t.std is None
    assert t.n_repetitions is None


def test_records_keep_every_fold_and_the_spread_matches_statistics_stdev():
    rows = records()
    (t,) = as_score_tables(rows, keep_repetitions=True)
    ref = by_hand(rows)
    assert t.repetition_scores.shape == (3, 3, 4)
    assert t.repetition_labels == ("0", "1", "2", "3")
    for i, d in enumerate(t.datasets):
        for j, m in enumerate(t.methods):
            assert t.repetition_scores[i, j].tolist() == ref[d, m]
            assert t.std[i, j] == pytest.approx(statistics.stdev(ref[d, m]), rel=1e-12)
    assert (t.n_repetitions == 4).all()
    # the means are the table's values, unchanged by keeping the repetitions
    (plain,) = as_score_tables(rows)
    assert np.array_equal(plain.values, t.values)


def test_csv_with_two_repetition_columns_labels_them_together(tmp_path):
    path = tmp_path / "long.csv"
    rows = ["dataset,method,seed,fold,acc"]
    for d in ("d1", "d2"):
        for m, base in (("A", 0.8), ("B", 0.7)):
            for seed in (1, 2):
                for fold in (1, 2, 3):
                    rows.append(f"{d},{m},{seed},{fold},{base + 0.01 * seed + 0.001 * fold:.3f}")
    path.write_text("\n".join(rows) + "\n")
    (t,) = read_scores(path, keep_repetitions=True)
    assert t.repetition_labels == ("1/1", "1/2", "1/3", "2/1", "2/2", "2/3")
    assert t.repetition_scores[0, 0].tolist() == [0.811, 0.812, 0.813, 0.821, 0.822, 0.823]
    (plain,) = read_scores(path)
    assert plain.repetition_scores is None


def test_rows_without_a_repetition_column_are_kept_in_order_and_not_paired():
    rows = [
        {"dataset": d, "method": m, "score": s} for d in ("x", "y") for m in "AB" for s in (1, 2, 4)
    ]
    with pytest.warns(CdplotWarning, match="no repetition column to tell the rows apart"):
        (t,) = as_score_tables(rows, keep_repetitions=True)
    assert t.repetition_labels is None
    assert t.repetition_scores[0, 0].tolist() == [1.0, 2.0, 4.0]


def test_unbalanced_repetitions_are_nan_padded():
    rows = records(n_folds=3)
    rows = [
        r for r in rows if not (r["dataset"] == "wine" and r["method"] == "B" and r["fold"] == 2)
    ]
    (t,) = as_score_tables(rows, keep_repetitions=True)
    i, j = t.datasets.index("wine"), t.methods.index("B")
    assert np.isnan(t.repetition_scores[i, j, 2])
    assert t.n_repetitions[i, j] == 2
    assert t.n_repetitions.sum() == 3 * 3 * 3 - 1


def test_selection_and_rename_carry_the_repetitions():
    rows = records()
    (full,) = as_score_tables(rows, keep_repetitions=True)
    (t,) = as_score_tables(
        rows,
        keep_repetitions=True,
        methods=["C", "A"],
        datasets=["glass", "iris"],
        rename={"A": "alpha"},
    )
    assert t.methods == ("C", "alpha")
    want = full.repetition_scores[[2, 0]][:, [2, 0]]
    assert np.array_equal(t.repetition_scores, want)
    # a ScoreTable passed on (as compare() does) keeps them too
    (again,) = as_score_tables(t)
    assert np.array_equal(again.repetition_scores, want)


def test_nan_policy_omit_drops_the_same_data_sets():
    rows = records()
    rows[0]["score"] = float("nan")  # iris / A / fold 0
    (t,) = as_score_tables(rows, keep_repetitions=True, nan_policy="omit")
    assert t.datasets == ("wine", "glass")
    assert t.repetition_scores.shape == (2, 3, 4)


def test_a_hand_built_table_with_the_wrong_shape_is_refused():
    t = ScoreTable(
        values=[[1.0, 2.0], [3.0, 4.0]],
        methods=["a", "b"],
        datasets=["x", "y"],
        repetition_scores=np.zeros((2, 3, 5)),
    )
    with pytest.raises(CdplotError, match=r"repetition_scores have shape \(2, 3, 5\)"):
        as_score_tables(t)


def test_keep_repetitions_must_be_a_bool():
    with pytest.raises(CdplotError, match="keep_repetitions='yes'"):
        as_score_tables(records(), keep_repetitions="yes")
