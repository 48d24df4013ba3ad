"""The effect-size table (cdplot/reporting/_effect_table.py) and ``cdplot table --effect-sizes``."""

import subprocess
import sys

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.reporting._effect_table import effect_rows, effect_size_table


def _demsar(**kw):
    return cdplot.compare(cdplot.load_example("demsar2006"), **kw)


def _table_cli(*args):
    """``cdplot table --example demsar2006 --effect-sizes ARGS`` in a fresh process."""
    command = ["table", "--example", "demsar2006", "--effect-sizes", *args]
    return subprocess.run(
        [sys.executable, "-m", "cdplot", *command], capture_output=True, text=True, timeout=120
    )


def test_significant_pairs_largest_first():
    # Holm-corrected rank z-tests at alpha = 0.1 find two pairs (see tests/stats/test_compare.py)
    res = _demsar(test="friedman-z", alpha=0.1)
    model = effect_rows(res)
    assert [(r["first"], r["second"]) for r in model["rows"]] == [
        ("C4.5+m+cf", "C4.5"),
        ("C4.5+m", "C4.5"),
    ]
    # autorank 1.3.0 _cliffs_delta on the same table: 0.117347 and 0.107143
    assert [r["delta"] for r in model["rows"]] == ["0.117", "0.107"]
    assert [r["d_label"] for r in model["rows"]] == ["medium", "medium"]


def test_all_pairs_and_control():
    res = _demsar()
    assert effect_rows(res, pairs="all")["n_pairs"] == 6
    assert effect_rows(res)["n_pairs"] == 0  # Nemenyi separates no pair here
    bd = _demsar(test="bonferroni-dunn", control="C4.5")
    rows = effect_rows(bd, pairs="all")["rows"]
    assert len(rows) == 3
    assert all("C4.5" in (r["first"], r["second"]) for r in rows)


def test_formats_escape_names():
    x = np.array([[0.9, 0.5], [0.8, 0.4], [0.85, 0.45], [0.7, 0.6]] * 3)
    names = ["a_&%$#{}", "<b>|*x*"]
    res = cdplot.compare(x, methods=names, test="wilcoxon")
    latex = effect_size_table(res, pairs="all")
    assert r"a\_\&\%\$\#\{\}" in latex
    assert r"\textless{}b\textgreater{}\textbar{}*x*" in latex
    assert latex.count("\\\\") == 2  # the header row and one pair
    md = effect_size_table(res, format="markdown", pairs="all")
    assert r"\<b\>\|\*x\*" in md
    html = effect_size_table(res, format="html", pairs="all")
    assert "&lt;b&gt;|*x*" in html
    assert "<b>" not in html


def test_parametric_route_puts_cohens_d_first():
    x = np.random.default_rng(0).normal(size=(30, 4)) + np.linspace(0, 1.5, 4)
    auto = cdplot.compare_auto(x)
    assert auto.path == "parametric"
    md = effect_size_table(auto, format="markdown")
    header = md.splitlines()[0]
    assert header.index("Cohen's d") < header.index("Cliff's δ")
    assert "Tukey's HSD" in md
    first = md.splitlines()[2].split("|")
    diff = x[:, 3] - x[:, 0]
    assert first[1].strip() == "method 4"
    assert first[2].strip() == "method 1"
    assert float(first[3]) == pytest.approx(diff.mean() / diff.std(ddof=1), abs=5e-4)


def test_negative_and_infinite_values_in_latex():
    x = np.array([[1.0, 0.5, 0.2], [2.0, 1.5, 0.9], [3.0, 2.5, 0.1], [4.0, 3.5, 0.3]])
    res = cdplot.compare(x, methods=["a", "b", "c"], test="wilcoxon", correction="holm")
    latex = effect_size_table(res, pairs="all")
    assert "$\\infty$" in latex  # a - b is 0.5 on every data set


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"format": "pdf"}, "format"),
        ({"pairs": "some"}, "pairs"),
        ({"label": "tab:e"}, "needs a caption"),
        ({"format": "markdown", "caption": "E", "label": "tab:e"}, "no labels"),
        ({"caption": "E", "latex_float": False}, "needs the table float"),
        ({"format": "html", "latex_float": True}, "format='latex' only"),
        ({"caption": "  "}, "non-empty"),
        ({"caption": "E", "label": "tab e"}, "cannot"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(CdplotError, match=message):
        effect_size_table(_demsar(), **kwargs)


def test_refuses_a_metrics_comparison():
    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    with pytest.raises(CdplotError, match="pick one metric"):
        effect_size_table(mc)


def test_cli_option():
    out = _table_cli("--test", "friedman-z", "--alpha", "0.1", "--format", "markdown")
    assert out.returncode == 0, out.stderr
    assert "| C4.5+m+cf | C4.5 | 0.117 | negligible | 0.735 | medium |" in out.stdout
    assert "Romano et al. (2006)" in out.stdout


def test_caption_and_label_like_the_data_table():
    # the same float, caption and label as cdplot.data_table, the meaning of the signs
    # and magnitudes moved from a comment to a note under the table
    tex = effect_size_table(_demsar(), pairs="all", caption="Effects of 50% & more", label="tab:e")
    assert "\\begin{table}[tbp]" in tex
    assert tex.rstrip().endswith("\\end{table}")
    assert "\\caption{Effects of 50\\% \\& more}" in tex
    assert "\\label{tab:e}" in tex
    assert tex.index("\\end{tabular}") < tex.index("Romano et al. (2006)")
    assert "\\begin{table}" not in effect_size_table(_demsar(), pairs="all")
    assert "\\begin{table}" in effect_size_table(_demsar(), pairs="all", latex_float=True)
    md = effect_size_table(_demsar(), pairs="all", format="markdown", caption="Effects *now*")
    assert md.startswith("Table: Effects \\*now\\*\n")
    page = effect_size_table(_demsar(), format="html", caption="<b>E</b>", label="t1")
    assert "<table class='effect-sizes' id='t1'>" in page
    assert "<caption>&lt;b&gt;E&lt;/b&gt; Effect sizes" in page


@pytest.mark.parametrize(
    ("extra", "flag"),
    [
        (["--decimals", "2"], "--decimals"),
        (["--no-std"], "--no-std"),
        (["--marks", "none"], "--marks none"),
    ],
)
def test_cli_refuses_data_table_options(extra, flag):
    out = _table_cli(*extra)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr
    assert f"option {flag} applies to the data table, not to --effect-sizes" in out.stderr


def test_cli_caption_and_label():
    out = _table_cli("all", "--caption", "Effect sizes", "--label", "tab:effects")
    assert out.returncode == 0, out.stderr
    assert "\\caption{Effect sizes}" in out.stdout
    assert "\\label{tab:effects}" in out.stdout
