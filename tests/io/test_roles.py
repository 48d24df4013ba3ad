"""Column names of real tools, direction from names, orientation of mappings, exact means."""

import itertools

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import as_score_tables, read_scores
from cdplot.io._roles import fold_level, lower_is_better_word, role_of


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def long_text(header, rows):
    return ",".join(header) + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows)


# The first three data sets of the TSER archive's RMSE table are only names here;
# the scores are made up (lower is better), in the archive's long layout.
TSER = [
    (d, m, f, s)
    for d, base in (("AppliancesEnergy", 3.0), ("BeijingPM25Quality", 60.0), ("Covid3Month", 0.04))
    for m, k in (("ridge", 1.1), ("rocket", 1.0), ("inception", 1.05))
    for f, s in ((0, base * k), (1, base * k * 1.01))
]


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("dataset", "dataset"),
        ("Data set", "dataset"),
        ("problem", "dataset"),
        ("Task", "dataset"),
        ("instance set", "dataset"),
        ("benchmark", "dataset"),
        ("classifier", "method"),
        ("regressor", "method"),
        ("Algorithm", "method"),
        ("estimator", "method"),
        ("solver", "method"),
        ("system", "method"),
        ("resample", "repetition"),
        ("resamples", "repetition"),
        ("seed", "repetition"),
        ("fold", "repetition"),
        ("instance", "repetition"),
        ("rmse", "score"),
        ("accuracy", "score"),
        ("f1", "score"),
        ("metric", "metric"),
    ],
)
def test_role_table(name, role):
    assert role_of(name) == role


def test_instance_is_the_data_set_when_there_is_no_other():
    assert role_of("instance", has_dataset=False) == "dataset"
    assert fold_level("fold") == "fold"
    assert fold_level("resample") == "repetition"


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("rmse", "rmse"),
        ("RMSE", "rmse"),
        ("error", "error"),
        ("error rate", "error"),
        ("logloss", "loss"),
        ("log_loss", "loss"),
        ("mae", "mae"),
        ("mse", "mse"),
        ("fit_time", "time"),
        ("runtime", "time"),
        ("regret", "regret"),
        ("rank", "rank"),
        ("accuracy", None),
        ("AUC", None),
        ("neg_log_loss", None),  # scikit-learn negates errors: higher is better
        ("timeseries accuracy", None),
    ],
)
def test_direction_words(name, word):
    assert lower_is_better_word(name) == word


def test_tser_long_file_is_long_and_lower_is_better(tmp_path):
    p = write(tmp_path, "tser.csv", long_text(["dataset", "regressor", "fold", "rmse"], TSER))
    (t,) = read_scores(p)
    assert t.metric == "rmse"
    assert t.higher_is_better is False
    assert t.methods == ("ridge", "rocket", "inception")
    assert t.direction.startswith("lower is better, inferred from the column name 'rmse'")
    res = cdplot.compare(p)
    assert res.higher_is_better is False
    assert res.order()[0] == "rocket"
    assert any("inferred from the column name 'rmse'" in n for n in res.notes)
    assert "(rmse, lower is better)" in str(res)
    # an explicit direction wins, and the note says it overrode what the column name says
    res = cdplot.compare(p, higher_is_better=True)
    assert res.order()[0] == "ridge"
    assert res.direction_reason == "higher is better, as asked"
    assert (
        "Higher is better, as asked (higher_is_better=True, --higher-is-better), although the "
        "data say otherwise (lower is better, inferred from the column name 'rmse')."
    ) in res.notes


def test_direction_is_said_on_the_command_line(tmp_path):
    import subprocess
    import sys

    p = write(tmp_path, "tser.csv", long_text(["dataset", "regressor", "fold", "rmse"], TSER))
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", str(p)], capture_output=True, text=True
    )
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    assert "(rmse, lower is better)" in text
    assert "pass --higher-is-better (higher_is_better=True) to override" in text


def test_metric_column_values_set_direction():
    rows = [
        {"dataset": d, "method": m, "metric": metric, "value": v}
        for d in ("a", "b", "c")
        for m, v in (("A", 0.1), ("B", 0.2))
        for metric in ("error", "accuracy")
    ]
    err, acc = as_score_tables(rows)
    assert (err.metric, err.higher_is_better) == ("error", False)
    # issue 26: a name that says higher is better is evidence too, and is said
    assert (acc.metric, acc.higher_is_better) == ("accuracy", True)
    assert "metric name 'error'" in err.direction
    assert acc.direction.startswith("higher is better, inferred from the metric name 'accuracy'")


def test_bake_off_layout_with_resamples(tmp_path):
    rows = [
        (d, r, c, acc)
        for d in ("ArrowHead", "Beef", "Car")
        for r in range(3)
        for c, acc in (("HC2", 0.9 + r / 100), ("ROCKET", 0.85 + r / 100))
    ]
    p = write(tmp_path, "b.csv", long_text(["problem", "resample", "classifier", "accuracy"], rows))
    (t,) = read_scores(p)
    assert t.methods == ("HC2", "ROCKET")
    assert t.higher_is_better is True
    assert t.direction.startswith("higher is better, inferred from the column name 'accuracy'")
    assert t.notes == ("averaged 3 repetitions per data set and method (column 'resample')",)


def test_several_repetition_columns(tmp_path):
    rows = [
        (d, m, s, f, 0.5 + 0.01 * s + 0.001 * f + (0.1 if m == "A" else 0))
        for d in ("x", "y")
        for m in ("A", "B")
        for s in range(2)
        for f in range(3)
    ]
    p = write(tmp_path, "r.csv", long_text(["dataset", "method", "run_id", "cv", "score"], rows))
    (t,) = read_scores(p, repetition_col=["run_id", "cv"])
    assert "averaged 6 repetitions per data set and method (columns 'run_id' and 'cv')" in t.notes
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", str(p), "--json"]
        + ["--repetition-col", "run_id", "--repetition-col", "cv"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "columns 'run_id' and 'cv'" in out.stdout


@pytest.mark.parametrize("name", ["Model", "Method", "algorithm"])
def test_wide_file_with_a_method_called_like_a_role(tmp_path, name):
    p = write(tmp_path, "w.csv", f"dataset,{name},Other\nd1,0.5,0.6\nd2,0.4,0.3\nd3,0.2,0.1\n")
    (t,) = read_scores(p)
    assert t.methods == (name, "Other")


def test_failure_lists_columns_and_the_option(tmp_path):
    p = write(tmp_path, "f.csv", "dataset,thing,score\nd1,A,1\n")
    with pytest.raises(CdplotError, match=r"columns are|among 'dataset', 'thing', 'score'"):
        read_scores(p, layout="long")
    # the keyword in Python, the flag on the command line (tests/cli/test_voice.py)
    with pytest.raises(CdplotError, match=r"or pass method_col=$") as info:
        read_scores(p, layout="long")
    assert info.value.option == "method_col"


# --- orientation of mappings ---------------------------------------------------------


def method_outer():
    # what DataFrame.to_dict() gives for a table of 6 data sets x 3 methods
    rng = np.random.default_rng(3)
    x = rng.random((6, 3))
    return {m: {f"d{i}": float(x[i, j]) for i in range(6)} for j, m in enumerate("ABC")}, x


def test_ambiguous_mapping_asks_for_orient():
    data, _ = method_outer()
    with pytest.raises(CdplotError, match=r"pass orient='methods', else orient='datasets'"):
        as_score_tables(data)


def test_orient_methods_reads_to_dict_output():
    data, x = method_outer()
    (t,) = as_score_tables(data, orient="methods")
    assert t.methods == ("A", "B", "C")
    assert t.datasets == tuple(f"d{i}" for i in range(6))
    assert np.array_equal(t.values, x)
    (t2,) = as_score_tables(data, orient="datasets")
    assert t2.methods == tuple(f"d{i}" for i in range(6))


def test_documented_orientation_still_reads():
    data = {f"d{i}": {"A": 0.1 * i, "B": 0.2} for i in range(4)}
    (t,) = as_score_tables(data)
    assert t.methods == ("A", "B")


def test_orient_on_a_json_file(tmp_path):
    import json

    data, x = method_outer()
    p = write(tmp_path, "m.json", json.dumps(data))
    with pytest.raises(CdplotError, match="orient"):
        read_scores(p)
    (t,) = read_scores(p, orient="methods")
    assert np.array_equal(t.values, x)


# --- exact means ---------------------------------------------------------------------


def test_equal_multisets_give_equal_means_and_tied_ranks():
    # 0.1 + 0.2 + 0.3 rounds differently from 0.3 + 0.2 + 0.1 when summed in order
    vals = [0.1, 0.2, 0.3]
    assert sum(vals) != sum(reversed(vals))
    rows = []
    for d in ("x", "y", "z", "w"):
        for m, order in (("A", vals), ("B", vals[::-1]), ("C", [0.9] * 3), ("D", [0.05] * 3)):
            rows += [
                {"dataset": d, "method": m, "fold": f, "score": v} for f, v in enumerate(order)
            ]
    (t,) = as_score_tables(rows)
    assert t.values[0, 0] == t.values[0, 1]
    res = cdplot.compare(t)
    assert res.average_rank("A") == res.average_rank("B") == 2.5


def test_shuffled_files_give_bit_identical_results(tmp_path):
    rng = np.random.default_rng(7)
    rows = [
        (f"d{d}", m, f, round(float(rng.random()), 6))
        for d in range(12)
        for m in ("alpha", "beta", "gamma", "delta")
        for f in range(5)
    ]
    header = ["dataset", "method", "fold", "score"]

    def result(rows, cols=(0, 1, 2, 3)):
        h = [header[c] for c in cols]
        text = long_text(h, [[r[c] for c in cols] for r in rows])
        res = cdplot.compare(write(tmp_path, "x.csv", text))
        order = sorted(res.methods)
        ranks = [res.average_rank(m) for m in order]
        # p-values bit for bit too (see tests/io/test_invariance.py for the property)
        pvals = [res.pvalue(a, b) for a, b in itertools.combinations(order, 2)]
        table = res.scores.values[
            np.ix_(np.argsort(res.scores.datasets), np.argsort(res.scores.methods))
        ]
        return ranks, pvals, res.friedman.statistic, table.tobytes()

    base = result(rows)
    shuffled = [rows[i] for i in rng.permutation(len(rows))]
    assert result(shuffled) == base
    assert result(rows, cols=(3, 2, 0, 1)) == base
    # repetitions renumbered and reordered within each data set and method
    relabeled = [(d, m, (f * 3 + 1) % 5, s) for d, m, f, s in rows[::-1]]
    assert result(relabeled) == base


def test_wide_column_shuffle_is_bit_identical(tmp_path):
    rng = np.random.default_rng(8)
    x = rng.random((15, 5))
    names = ["m0", "m1", "m2", "m3", "m4"]

    def run(perm_rows, perm_cols):
        text = "dataset," + ",".join(names[j] for j in perm_cols) + "\n"
        text += "".join(
            f"d{i}," + ",".join(repr(float(x[i, j])) for j in perm_cols) + "\n" for i in perm_rows
        )
        res = cdplot.compare(write(tmp_path, "w.csv", text))
        return [res.average_rank(m) for m in names], res.friedman.statistic

    base = run(range(15), range(5))
    assert run(rng.permutation(15), rng.permutation(5)) == base
