"""Tests of ``cdplot stability`` (cdplot/_cli/stability.py)."""

import json
import subprocess
import sys

import pytest

import cdplot
from cdplot.cli import main


def test_done_when_example_prints_intervals_and_p_best(tmp_path):
    # issue 30's done-when command, run as a user runs it, with the figure
    out = tmp_path / "stability.png"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "cdplot",
            "stability",
            "--example",
            "demsar2006",
            "--seed",
            "1",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wrote" in proc.stderr
    text = proc.stdout
    assert "95% interval" in text
    assert "P(best)" in text
    assert "seed 1" in text
    assert "sample of the population of interest" in text
    # the same as the library gives
    st = cdplot.stability(cdplot.compare(cdplot.load_example("demsar2006")), seed=1)
    assert text.strip() == str(st).strip()


def test_options_reach_the_library(capsys):
    code = main(
        [
            "stability",
            "--example",
            "demsar2006",
            "--test",
            "bonferroni-dunn",
            "--alpha",
            "0.1",
            "--n-boot",
            "300",
            "--seed",
            "5",
            "--confidence",
            "0.9",
            "--n-boot-pairs",
            "100",
            "--no-leave-one-out",
            "--json",
        ]
    )
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", alpha=0.1)
    st = cdplot.stability(
        res, n_boot=300, seed=5, confidence=0.9, n_boot_pairs=100, leave_one_out=False
    )
    assert d == json.loads(st.to_json())
    assert d["test"] == "bonferroni-dunn"
    assert d["alpha"] == 0.1
    assert d["n_boot_pairs"] == 100
    assert d["leave_one_out"] is False


@pytest.mark.parametrize("ext", ["png", "svg", "pdf"])
def test_figure_formats(tmp_path, ext, capsys):
    out = tmp_path / f"fig.{ext}"
    assert main(["stability", "--example", "demsar2006", "--seed", "0", "-o", str(out)]) == 0
    assert out.stat().st_size > 1000
    assert f"wrote {out}" in capsys.readouterr().err


def test_reads_a_file(tmp_path, capsys):
    f = tmp_path / "scores.csv"
    f.write_text("dataset,a,b,c\nd1,1,2,3\nd2,1,3,2\nd3,2,1,3\nd4,1,2,3\n")
    assert main(["stability", str(f), "--seed", "3", "--n-boot", "50"]) == 0
    assert "50 bootstrap samples of the 4 data sets" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "-1"], "--seed"),
        (["--confidence", "2"], "--confidence"),
        (["--n-boot", "0"], "--n-boot"),
        (["--n-boot", "10", "--n-boot-pairs", "20"], "--n-boot-pairs"),
        (["--format", "png"], "--format"),
        (["-o", "x.txt"], "-o"),
        (["--ranks", "--n-datasets", "14"], "--ranks"),
    ],
)
def test_bad_options_exit_2_with_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["stability", "--example", "demsar2006", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_several_metrics_are_refused(capsys):
    assert main(["stability", "--example", "yang-table9", "--n-boot", "10"]) == 2
    assert "--metric" in capsys.readouterr().err


def _fold_csv(tmp_path):
    """A long table: 6 data sets x 3 methods x 4 folds, the fold in its own column."""
    import numpy as np

    rng = np.random.default_rng(2)
    lines = ["dataset,method,fold,score"]
    for d in range(6):
        for f in range(4):
            for m, mu in {"a": 0.0, "b": 0.5, "c": 1.0}.items():
                lines.append(f"d{d},{m},{f},{mu + rng.normal(0, 0.4):.4f}")
    path = tmp_path / "folds.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_resample_folds_reads_the_folds_and_matches_the_library(tmp_path, capsys):
    path = _fold_csv(tmp_path)
    argv = ["stability", str(path), "--repetition-col", "fold", "--n-boot", "200", "--seed", "4"]
    assert main([*argv, "--resample", "datasets-and-folds", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    (t,) = cdplot.read_scores(path, repetition_col="fold", keep_repetitions=True)
    st = cdplot.stability(cdplot.compare(t), n_boot=200, seed=4, resample="datasets-and-folds")
    assert d == json.loads(st.to_json())
    assert d["resample"] == "datasets-and-folds"
    assert main([*argv, "--resample", "datasets-and-folds"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "200 bootstrap samples of the 6 data sets and, within each, of its folds" in out
    # the default draws the data sets alone, and says so
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "200 bootstrap samples of the 6 data sets (k = 3" in out


def test_resample_folds_without_folds_is_one_line(capsys):
    argv = ["stability", "--example", "demsar2006", "--resample", "datasets-and-folds"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--resample datasets-and-folds" in err
    assert "--repetition-col" in err
    assert err.count("\n") == 1
