"""Tests of ``cdplot plan`` (cdplot/_cli/plan.py)."""

import json
import math
import subprocess
import sys

import pytest

from cdplot.cli import main
from cdplot.stats import critical_difference, critical_value


def test_done_when_command_prints_n_and_its_derivation():
    # issue 30's done-when command, run as a user runs it
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "cdplot",
            "plan",
            "--methods",
            "10",
            "--rank-difference",
            "1.0",
            "--alpha",
            "0.05",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    q = critical_value(10, alpha=0.05)
    n = math.ceil(q * q * 10 * 11 / (6 * 1.0**2))  # Demsar (2006), section 3.2.2, solved for N
    out = proc.stdout
    assert f"from N = {n} data sets on" in out
    assert "CD = q_alpha * sqrt(k (k + 1) / (6 N))" in out
    assert f"q_alpha = {q:.6f}" in out
    assert f"N >= {q:.6f}^2 * 10 * 11 / (6 * 1^2) = " in out
    assert f"CD at N = {n} is {critical_difference(10, n):.6f} <= 1" in out
    assert "For a methods section:" in out


def test_json_and_n_datasets(capsys):
    assert main(["plan", "--methods", "4", "--n-datasets", "14", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["solved_for"] == "rank_difference"
    assert d["critical_difference"] == pytest.approx(critical_difference(4, 14), rel=1e-14)


def test_bonferroni_dunn_and_alpha(capsys):
    argv = ["plan", "--methods", "5", "--rank-difference", "1", "--alpha", "0.1"]
    assert main([*argv, "--test", "bonferroni-dunn", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    q = critical_value(5, alpha=0.1, test="bonferroni-dunn")
    assert d["n_datasets"] == math.ceil(q * q * 5 * 6 / 6)
    assert d["test"] == "bonferroni-dunn"
    assert d["alpha"] == 0.1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--methods", "4"], "one of the arguments --rank-difference --n-datasets is required"),
        (["--methods", "4", "--rank-difference", "1", "--n-datasets", "9"], "not allowed with"),
        (["--methods", "4", "--rank-difference", "5"], "option --rank-difference 5.0 is outside"),
        (["--methods", "1", "--n-datasets", "9"], "option --methods 1: there must be at least 2"),
        (["--methods", "4", "--n-datasets", "1"], "option --n-datasets 1: a comparison"),
        (["--methods", "four", "--n-datasets", "9"], "'four' is not a whole number"),
        (["--methods", "4", "--rank-difference", "inf"], "'inf' is not a finite number"),
        (["--methods", "4", "--n-datasets", "9", "--alpha", "2"], "--alpha"),
    ],
)
def test_bad_options_are_one_line_with_status_2(capsys, argv, message):
    try:
        status = main(["plan", *argv])
    except SystemExit as exc:  # argparse's own errors exit from parse_args
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
