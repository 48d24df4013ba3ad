"""``cdplot table``'s paper options: caption, label, float, spread, marks, W/T/L (issue 12)."""

import contextlib
import io

import numpy as np
import pytest

from cdplot.cli import main


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse's own errors (usage line, then the message)
            status = exc.code
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def folds(tmp_path):
    """A long file of 10 folds: 4 methods on 5 data sets."""
    rng = np.random.default_rng(7)
    lines = ["dataset,method,fold,accuracy"]
    for d in range(5):
        off = rng.normal(0, 0.03)
        for m, mu in (("RandF", 0.85), ("SVM", 0.845), ("kNN", 0.8), ("C4.5", 0.78)):
            for f in range(10):
                lines.append(f"set{d},{m},{f},{mu + off + rng.normal(0, 0.02):.4f}")
    path = tmp_path / "folds.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_caption_label_and_float():
    status, out, _ = run(
        ["table", "--example", "demsar2006", "--caption", "AUC & more", "--label", "tab:auc"]
    )
    assert status == 0
    assert "\\caption{AUC \\& more}\n\\label{tab:auc}" in out
    status, out, _ = run(["table", "--example", "demsar2006", "--float"])
    assert status == 0
    assert out.count("\\begin{table}") == 1


def test_a_long_file_prints_mean_and_std_unless_no_std(folds):
    status, out, _ = run(["table", folds, "--format", "markdown", "--decimals", "3"])
    assert status == 0
    assert "\u00b1" in out.splitlines()[2]
    assert (
        out.splitlines()[-1] == "Mean \u00b1 standard deviation (n \u2212 1) over 10 repetitions."
    )
    status, out, _ = run(["table", folds, "--format", "markdown", "--no-std"])
    assert status == 0
    assert "\u00b1" not in out


def test_paired_marks_and_wtl(folds):
    status, out, _ = run(
        [
            *("table", folds, "--format", "markdown", "--marks", "wilcoxon"),
            *("--test", "bonferroni-dunn", "--control", "C4.5"),
        ]
    )
    assert status == 0
    assert "| *W/T/L of C4.5* |" in out
    assert "Scores marked \u2020: not significantly worse than the best of the data set" in out
    # --no-std drops the spread but the marks still read the repetitions
    status, out, _ = run(["table", folds, "--marks", "t-test", "--no-std"])
    assert status == 0
    assert "$\\pm$" not in out
    assert "paired t-test" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--label", "tab:x"], "option --label tab:x needs a caption"),
        (
            ["--format", "markdown", "--label", "t", "--caption", "c"],
            "does not apply to Markdown",
        ),
        (["--marks", "wilcoxon"], "option --marks wilcoxon tests each data set over its"),
        (["--std"], "option --std needs the score of each repetition"),
        (["--control", "C4.5"], "option --control C4.5 does not apply to --test nemenyi"),
        (["--marks", "bold"], "invalid choice: 'bold'"),
    ],
)
def test_errors_are_one_line_with_exit_2(argv, message):
    status, out, err = run(["table", "--example", "demsar2006", *argv])
    assert status == 2
    assert out == ""
    assert message in err
    lines = err.splitlines()
    assert len(lines) == 1 or lines[0].startswith("usage:")


def test_split_options(tmp_path):
    # issue 29, item 7: one tabular while it fits, --no-split / --split to force either
    rows = [
        "dataset,RandomForest,GradientBoosting,LogisticRegression,SVM-RBF,kNeighbors,NaiveBayes"
    ]
    for i in range(8):
        rows.append(f"d{i}," + ",".join(f"0.{(7 * i + 13 * j) % 90 + 10:02d}123" for j in range(6)))
    (tmp_path / "s.csv").write_text("\n".join(rows) + "\n")
    status, out, err = run(["table", str(tmp_path / "s.csv")])
    assert status == 0, err
    assert out.count("\\begin{tabular}") == 1
    assert "123 (" not in out  # three decimals, not the five typed
    status, out, _ = run(["table", str(tmp_path / "s.csv"), "--decimals", "5"])
    assert out.count("\\begin{tabular}") == 2
    status, out, _ = run(["table", str(tmp_path / "s.csv"), "--decimals", "5", "--no-split"])
    assert out.count("\\begin{tabular}") == 1
