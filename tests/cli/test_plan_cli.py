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


def test_simulated_power_from_a_shift(capsys):
    from cdplot.stats import simulate_power

    argv = ["plan", "--shift", "0,0,0.5", "--n-datasets", "40", "--n-simulations", "500"]
    assert main([*argv, "--seed", "3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    res = simulate_power(shift=[0, 0, 0.5], n_datasets=40, n_simulations=500, rng=3)
    assert d["friedman_power"] == res.friedman_power
    assert d["pair_power"]["method 1"]["method 3"] == res.power("method 1", "method 3")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Friedman chi-square:" in out
    assert "method means 0, 0, 0.5" in out


def test_simulated_power_from_an_example(capsys):
    import cdplot

    argv = ["plan", "--example", "demsar2006", "--n-datasets", "20", "--n-simulations", "300"]
    assert main([*argv, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    res = cdplot.simulate_power(
        cdplot.load_example("demsar2006"), n_datasets=20, n_simulations=300, rng=0
    )
    assert d["model"] == "resample"
    assert d["iman_davenport_power"] == res.iman_davenport_power
    assert main(["plan", "--example", "yang-table9", "--metric", "AUC", "--n-datasets", "9"]) == 0
    assert "drawn with replacement" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--shift", "0,1", "--rank-difference", "1"], "give --n-datasets instead of"),
        (["--n-datasets", "5"], "option --methods is needed"),
        (["--methods", "3", "--shift", "0,1", "--n-datasets", "5"], "disagrees with --shift"),
        (["--shift", "0,1", "--n-datasets", "5", "--test", "bonferroni-dunn"], "leave --test"),
        (["--shift", "0,x", "--n-datasets", "5"], "'x' is not a finite number"),
        (["--shift", "0,1", "--n-datasets", "5", "--n-simulations", "0"], "--n-simulations 0"),
        (["--methods", "3", "--n-datasets", "5", "--metric", "AUC"], "only with --example"),
        (["--shift", "0,1", "--example", "demsar2006", "--n-datasets", "5"], "not allowed"),
    ],
)
def test_bad_simulation_options(capsys, argv, message):
    try:
        status = main(["plan", *argv])
    except SystemExit as exc:
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
