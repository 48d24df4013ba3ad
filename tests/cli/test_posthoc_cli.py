"""``--pvalues MATRIX --test-name NAME``: stats and plot from a post-hoc test run elsewhere.

The matrix is scikit-posthocs 0.17.1's ``posthoc_conover_friedman`` of
Demšar's C4.5 scores (``load_example("demsar2006")``), written as its
``DataFrame.to_csv`` writes it; the exact command is in
tests/stats/test_from_posthoc.py.  SP_GROUPS are scikit-posthocs' crossbars
of ``critical_difference_diagram`` for it at alpha = 0.05.
"""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from cdplot.cli import main

NAMES = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
CONOVER = [
    [1.0, 0.008605028569980435, 0.6068195207234452, 0.005493562959825505],
    [0.008605028569980435, 1.0, 0.030289182911854857, 0.8635936275942139],
    [0.6068195207234452, 0.030289182911854857, 1.0, 0.02022493998418204],
    [0.005493562959825505, 0.8635936275942139, 0.02022493998418204, 1.0],
]
SP_GROUPS = (("C4.5+m+cf", "C4.5+m"), ("C4.5+cf", "C4.5"))


@pytest.fixture
def matrix(tmp_path):
    p = tmp_path / "conover.csv"
    lines = [",".join(["", *NAMES])]
    lines += [",".join([n, *map(repr, CONOVER[i])]) for i, n in enumerate(NAMES)]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


@pytest.fixture
def ranks_file(tmp_path):
    p = tmp_path / "ranks.csv"
    # Demšar (2006), Table 6, to three decimals (these sum to 10 within the rounding)
    p.write_text("method,average rank\nC4.5,3.143\nC4.5+m,2.000\nC4.5+cf,2.929\nC4.5+m+cf,1.929\n")
    return p


def test_stats_from_scores_in_a_subprocess(matrix):
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", "--example", "demsar2006"]
        + ["--pvalues", str(matrix), "--test-name", "Conover"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "from a post-hoc test supplied by the user (Conover)" in text
    assert "cdplot computed no test" in text
    assert "{C4.5+m+cf, C4.5+m}; {C4.5+cf, C4.5}" in text
    assert "Iman-Davenport" not in text


def test_stats_json_from_a_ranks_file(matrix, ranks_file, capsys):
    argv = ["stats", str(ranks_file), "--ranks", "--pvalues", str(matrix)]
    assert main([*argv, "--test-name", "Conover", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["computed_by_cdplot"] is False
    assert d["test"] == "Conover"
    assert d["n_datasets"] is None
    assert d["cliques"] == [list(c) for c in SP_GROUPS]


def test_plot_svg_caption_names_the_test(matrix, tmp_path):
    out = tmp_path / "cd.svg"
    argv = ["plot", "--example", "demsar2006", "--pvalues", str(matrix), "--svg-text", "text"]
    assert main([*argv, "--test-name", "Conover–Friedman", "-o", str(out)]) == 0
    text = " ".join("".join(ET.parse(out).getroot().itertext()).split())
    assert "Conover–Friedman test, p-values supplied by the user (cdplot computed no test)" in text
    assert "N = 14 data sets" in text


def test_plot_heatmap_png(matrix, tmp_path):
    out = tmp_path / "hm.png"
    argv = ["plot", "--example", "demsar2006", "--pvalues", str(matrix), "--test-name", "C"]
    assert main([*argv, "--kind", "heatmap", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "needs --test-name NAME"),
        (["--test-name", "C", "--test", "friedman-z"], "with --pvalues the test is yours"),
        (["--test-name", "C", "--kind", "intervals"], "supplied by the user) does not give"),
        (["--test-name", "C", "--kind", "profile"], "--kind profile needs several metrics"),
    ],
    ids=["no-name", "own-test", "intervals", "profile"],
)
def test_plot_refusals_are_one_line(matrix, tmp_path, capsys, extra, message):
    argv = ["plot", "--example", "demsar2006", "--pvalues", str(matrix), *extra]
    assert main([*argv, "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert not (tmp_path / "x.png").exists()


def test_test_name_alone_and_a_bad_matrix(matrix, tmp_path, capsys):
    assert main(["stats", "--example", "demsar2006", "--test-name", "C"]) == 2
    assert "give both" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text(matrix.read_text().replace("0.6068195207234452", "nan", 1))
    assert (
        main(["stats", "--example", "demsar2006", "--pvalues", str(bad), "--test-name", "C"]) == 2
    )
    err = capsys.readouterr().err
    assert "bad.csv, row 'C4.5', column 'C4.5+cf' is empty or NaN" in err
