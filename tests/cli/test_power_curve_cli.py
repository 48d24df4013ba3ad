"""Tests of ``cdplot plan --n-datasets N1,N2,... -o power.png`` (the power-curve figure)."""

import pytest

import cdplot
from cdplot.cli import main


def test_curve_text_and_figure(tmp_path, capsys):
    out = tmp_path / "power.png"
    argv = ["plan", "--example", "demsar2006", "--n-datasets", "5,10,20", "--seed", "4"]
    assert main([*argv, "--n-simulations", "300", "-o", str(out), "--pair", "C4.5", "C4.5+m"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    captured = capsys.readouterr()
    assert "wrote" in captured.err
    curve = cdplot.simulate_power_curve(
        cdplot.load_example("demsar2006"), n_datasets=[5, 10, 20], n_simulations=300, rng=4
    )
    assert captured.out.strip() == str(curve).strip()


def test_several_n_without_figure_print_the_curve(capsys):
    argv = ["plan", "--shift", "0,0,1", "--n-datasets", "10,20", "--n-simulations", "200"]
    assert main(argv) == 0
    assert "Simulated power against the number of data sets" in capsys.readouterr().out


def test_one_n_keeps_the_single_simulation(capsys):
    assert main(["plan", "--shift", "0,0,1", "--n-datasets", "20", "--n-simulations", "200"]) == 0
    assert "Simulated power at N = 20 data sets" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--methods", "4", "--n-datasets", "5,10"], "--n-datasets"),
        (["--methods", "10", "--rank-difference", "1.0", "-o", "x.png"], "-o"),
        (["--shift", "0,1", "--n-datasets", "5,10", "--pair", "method 1", "method 2"], "-o OUT"),
        (["--shift", "0,1", "--n-datasets", "5,10", "-o", "x.png", "--target", "2"], "--target"),
    ],
)
def test_bad_options_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["plan", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
