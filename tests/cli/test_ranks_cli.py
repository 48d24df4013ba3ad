"""``--ranks FILE --n-datasets N``: stats, plot and report from average ranks alone.

The file holds Demšar's (2006, JMLR 7, Table 6) average ranks; the expected
numbers are section 3.2.4's (chi2_F = 9.28, F_F = 3.69, CD = 1.25).
"""

import json
import subprocess
import sys

import pytest

from cdplot.cli import main

RANKS = (
    "# Demšar (2006), JMLR 7:1-30, Table 6, average ranks\n"
    "method,average rank\nC4.5,3.143\nC4.5+m,2.000\nC4.5+cf,2.893\nC4.5+m+cf,1.964\n"
)


@pytest.fixture
def ranks_file(tmp_path):
    p = tmp_path / "ranks.csv"
    p.write_text(RANKS, encoding="utf-8")
    return p


def test_stats_text_in_a_subprocess(ranks_file):
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", str(ranks_file), "--ranks", "--n-datasets", "14"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "from their average ranks alone" in text
    assert "Friedman chi2(3) = 9.2836 (uncorrected)" in text
    assert "F(3, 39) = 3.6889" in text
    assert "CD = 1.253559" in text
    assert "no Wilcoxon or sign tests" in text


def test_stats_json(ranks_file, capsys):
    assert main(["stats", str(ranks_file), "--ranks", "--n-datasets", "14", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["input"] == "average_ranks"
    assert d["n_datasets"] == 14
    assert d["friedman"]["statistic"] == pytest.approx(9.28, abs=0.005)
    assert d["iman_davenport"]["statistic"] == pytest.approx(3.69, abs=0.005)
    assert d["critical_difference"] == pytest.approx(1.25, abs=0.005)
    assert d["source"] == str(ranks_file)


def test_stats_bonferroni_dunn_and_csv(ranks_file, capsys):
    args = ["stats", str(ranks_file), "--ranks", "--n-datasets", "14"]
    assert main([*args, "--test", "bonferroni-dunn", "--control", "C4.5", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["significant_pairs"] == [["C4.5+m+cf", "C4.5"]]
    assert main([*args, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("rank_order,method,average_rank,mean_score,groups")
    assert lines[1].startswith("1,C4.5+m+cf,1.964,,a,")  # no scores, no mean


def test_rename(ranks_file, capsys):
    args = ["stats", str(ranks_file), "--ranks", "--n-datasets", "14", "--json"]
    assert main([*args, "--rename", "C4.5=J48"]) == 0
    assert json.loads(capsys.readouterr().out)["rank_order"][-1] == "J48"
    assert main([*args, "--rename", "C5=J48"]) == 2
    assert "option --rename names 'C5'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(
            ["--n-datasets", "14"], "option --n-datasets applies only with --ranks", id="n"
        ),
        pytest.param(["--ranks"], "option --ranks needs --n-datasets N", id="ranks"),
        pytest.param(["--ranks", "--n-datasets", "1"], "at least 2 data sets", id="n1"),
        pytest.param(
            ["--ranks", "--n-datasets", "14", "--test", "wilcoxon"],
            "option --test wilcoxon: the Wilcoxon signed-rank test needs the scores",
            id="wilcoxon",
        ),
        pytest.param(
            ["--ranks", "--n-datasets", "14", "--test", "sign"],
            "option --test sign: the sign test needs the scores",
            id="sign",
        ),
        pytest.param(
            ["--ranks", "--n-datasets", "14", "--test", "auto"], "option --test auto", id="auto"
        ),
        pytest.param(
            ["--ranks", "--n-datasets", "14", "--lower-is-better"],
            "option --lower-is-better does not apply to --ranks",
            id="direction",
        ),
        pytest.param(
            ["--ranks", "--n-datasets", "14", "--no-tie-correction"],
            "option --no-tie-correction does not apply to --ranks",
            id="ties",
        ),
        pytest.param(
            ["--ranks", "--n-datasets", "14", "--exclude", "C4.5"],
            "option --exclude does not apply to --ranks",
            id="exclude",
        ),
        pytest.param(
            ["--ranks", "--n-datasets", "14", "--example", "demsar2006"],
            "option --example does not apply to --ranks",
            id="example",
        ),
    ],
)
def test_stats_errors_exit_2_with_one_line(ranks_file, capsys, extra, message):
    assert main(["stats", str(ranks_file), *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("cdplot stats: error: ")
    assert message in err


def test_bad_rank_sum_names_the_file(tmp_path, capsys):
    p = tmp_path / "short.csv"
    p.write_text("C4.5,3.5\nC4.5+m,2.000\nC4.5+cf,2.893\nC4.5+m+cf,1.964\n", encoding="utf-8")
    assert main(["stats", str(p), "--ranks", "--n-datasets", "14"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{p}: the average ranks sum to 10.357" in err
    assert "k(k+1)/2 = 10" in err
    assert "a method is missing or extra" in err
    # without one method the worst rank no longer fits [1, k], and the row says so
    p.write_text("C4.5,3.143\nC4.5+m,2.000\nC4.5+cf,2.893\n", encoding="utf-8")
    assert main(["stats", str(p), "--ranks", "--n-datasets", "14"]) == 2
    err = capsys.readouterr().err
    assert f"{p}, row 1 (method 'C4.5'): average rank 3.143 is outside [1, 3]" in err
    assert "is a method missing" in err


def test_non_integer_n_is_an_argument_error(ranks_file, capsys):
    with pytest.raises(SystemExit) as e:
        main(["stats", str(ranks_file), "--ranks", "--n-datasets", "14.5"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--n-datasets: '14.5' is not a whole number of data sets" in err


def test_table_and_pair_refuse_ranks(ranks_file, capsys):
    assert main(["table", str(ranks_file), "--ranks", "--n-datasets", "14"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "option --ranks does not apply to cdplot table" in err
    with pytest.raises(SystemExit) as e:
        main(["pair", str(ranks_file), "--ranks", "--n-datasets", "14"])
    assert e.value.code == 2
    assert "unrecognized arguments: --ranks" in capsys.readouterr().err


def test_plot_ranks_and_no_ranks_together(ranks_file, tmp_path, capsys):
    # --ranks (dest ranks_input: the input holds average ranks) and --no-ranks (dest ranks:
    # hide the rank values on the diagram) are two options that must not collide
    svg = tmp_path / "cd.svg"
    base = ["plot", str(ranks_file), "--ranks", "--n-datasets", "14", "-o"]
    assert main([*base, str(svg), "--no-ranks"]) == 0
    hidden = svg.read_text(encoding="utf-8")
    assert "C4.5+m+cf" in hidden
    assert "1.96" not in hidden
    assert main([*base, str(svg)]) == 0
    shown = svg.read_text(encoding="utf-8")
    assert "1.96" in shown
    assert "CD = 1.25" in shown


@pytest.mark.parametrize("kind", ["intervals", "heatmap"])
def test_plot_other_kinds(ranks_file, tmp_path, kind):
    out = tmp_path / f"{kind}.svg"
    assert (
        main(
            [
                "plot",
                str(ranks_file),
                "--ranks",
                "--n-datasets",
                "14",
                "--kind",
                kind,
                "-o",
                str(out),
            ]
        )
        == 0
    )
    assert out.stat().st_size > 0


def test_plot_tikz_and_profile(ranks_file, tmp_path, capsys):
    tex = tmp_path / "cd.tex"
    assert main(["plot", str(ranks_file), "--ranks", "--n-datasets", "14", "-o", str(tex)]) == 0
    assert "\\begin{tikzpicture}" in tex.read_text(encoding="utf-8")
    png = tmp_path / "p.png"
    args = ["plot", str(ranks_file), "--ranks", "--n-datasets", "14", "-o", str(png)]
    assert main([*args, "--kind", "profile"]) == 2
    assert "option --kind profile needs several metrics" in capsys.readouterr().err


def test_report_html(ranks_file, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", str(ranks_file), "--ranks", "--n-datasets", "14", "-o", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "The input held only the average ranks over 14 data sets" in html
    assert "Scores and ranks" not in html
    assert (
        main(
            [
                "report",
                str(ranks_file),
                "--ranks",
                "--n-datasets",
                "14",
                "-o",
                str(out),
                "--pair",
                "C4.5",
                "C4.5+m",
            ]
        )
        == 2
    )
    assert "option --pair does not apply to --ranks" in capsys.readouterr().err
