"""The two-method section: Wilcoxon, sign test and paired t for chosen pairs."""

import html
import subprocess
import sys

import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.reporting import render_html
from cdplot.stats import analyse_pairs


@pytest.fixture(scope="module")
def page():
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    return render_html(res, pairs=analyse_pairs(res, [("C4.5+m", "C4.5")]), embed_fonts=False)


def test_section_shows_the_pair_and_demsar_numbers(page):
    text = html.unescape(page)
    assert "C4.5+m versus C4.5" in text
    # Demšar (2006) section 3.1.3: R+ = 93, R- = 12; scipy 1.17.1
    # wilcoxon(C4.5+m, C4.5, zero_method="zsplit").pvalue = 0.010968
    assert "R+ = 93, R\u2212 = 12" in text
    assert "0.0110" in text
    assert "Wins/ties/losses of C4.5+m: 10/2/2" in text
    assert "C4.5+m is significantly better than C4.5" in text


def test_no_pairs_no_section():
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    assert "versus" not in render_html(res, embed_fonts=False)


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([("C4.5", "J48")], "'J48' is not in the data"),
        ([("C4.5", "C4.5")], "compares a method with itself"),
        (["C4.5"], "is not a pair"),
        ("C4.5", "must be a list"),
    ],
)
def test_bad_pairs(pairs, message):
    # the pairs are compared by the statistics layer, which names what is wrong
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    with pytest.raises(CdplotError, match=message) as info:
        analyse_pairs(res, pairs)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([("C4.5", "C4.5+m")], r"names a pair that was not compared; pass cdplot.stats.analyse"),
        (["C4.5"], "'C4.5' is not a PairResult"),
        ("C4.5", "must be a list of PairResult"),
    ],
)
def test_the_report_takes_compared_pairs_only(pairs, message):
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    with pytest.raises(CdplotError, match=message):
        render_html(res, pairs=pairs, embed_fonts=False)


def test_cli_pair_option(tmp_path):
    out = tmp_path / "r.html"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cdplot",
            "report",
            "--example",
            "demsar2006",
            "--pair",
            "C4.5+m",
            "C4.5",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "C4.5+m versus C4.5" in html.unescape(out.read_text(encoding="utf-8"))
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "cdplot",
            "report",
            "--example",
            "demsar2006",
            "--pair",
            "C4.5",
            "J48",
            "-o",
            str(tmp_path / "x.html"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2
    assert "J48" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert not (tmp_path / "x.html").exists()


def test_undefined_paired_t_is_shown_not_raised():
    # constant differences leave the paired t-test undefined (zero variance): the section
    # says so and the rank tests still answer, instead of a TypeError on a missing t
    data = {f"d{i}": {"a": 0.25 + i / 8, "b": i / 8} for i in range(6)}  # exact in binary
    res = cdplot.compare(data, test="wilcoxon", correction="holm")
    page = render_html(res, pairs=analyse_pairs(res, [("a", "b")]), embed_fonts=False)
    text = html.unescape(page)
    assert "undefined: the difference is 0.25 on every data set, so its variance is zero" in text
    assert "The paired t-test is undefined" in text
