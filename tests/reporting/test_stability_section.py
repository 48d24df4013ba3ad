"""Tests of the report's optional stability section (reporting/_stability.py, stability.html.j2)."""

import re

import numpy as np
import pytest

import cdplot
from cdplot.cli import main
from cdplot.errors import CdplotError
from cdplot.io import as_score_tables
from cdplot.reporting import render_html

HEADING = "Stability over data sets"


@pytest.fixture(scope="module")
def demsar():
    return cdplot.compare(cdplot.load_example("demsar2006"))


@pytest.fixture(scope="module")
def html_on(demsar):
    return render_html(demsar, stability=True, embed_fonts=False)


def test_off_by_default(demsar):
    html = render_html(demsar, embed_fonts=False)
    assert HEADING not in html
    assert "-fig-stability" not in html
    assert "stability-paragraph" not in html
    assert render_html(demsar, stability=False, embed_fonts=False) == html


def test_section_says_what_was_computed(demsar, html_on):
    assert html_on.count(HEADING) == 1
    st = cdplot.stability(demsar, seed=0)
    # the paragraph of the result, escaped as text
    assert st.paragraph().replace("&", "&amp;") in html_on
    assert "sample of the population of interest" in html_on
    assert "seed 0" in html_on
    assert "Efron and R. J. Tibshirani, An Introduction to the Bootstrap" in html_on
    assert "The design and analysis of benchmark experiments" in html_on
    # one row of intervals per method, best first
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td>([\d.]+)</td>', html_on)
    stab = [(m, a) for m, a in rows if m in demsar.methods][-4:]
    assert [m for m, _ in stab] == list(st.order())
    # the figure inline, with its caption stating the direction
    block = html_on[html_on.index(HEADING) :]
    assert "<svg" in block
    assert '-fig-stability"' in html_on
    assert "1 = best, higher scores are better" in block
    # leave-one-out names the data sets (Demsar's example: nine of fourteen)
    assert "Without breast cancer: newly significant" in block


def test_a_result_given_is_shown_as_it_is(demsar):
    st = cdplot.stability(demsar, n_boot=300, seed=11)
    html = render_html(demsar, stability=st, embed_fonts=False)
    assert "300 bootstrap samples" in html
    assert "seed 11" in html


def test_true_is_reproducible(demsar, html_on):
    assert render_html(demsar, stability=True, embed_fonts=False) == html_on


def test_the_stability_of_another_analysis_is_refused(demsar):
    other = cdplot.compare(cdplot.load_example("demsar2006"), alpha=0.1)
    st = cdplot.stability(other, n_boot=50, seed=0)
    with pytest.raises(CdplotError, match="another analysis") as info:
        render_html(demsar, stability=st)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("value", ["yes", 1.5, [True]])
def test_bad_values_are_one_line_errors(demsar, value):
    with pytest.raises(CdplotError, match="stability") as info:
        render_html(demsar, stability=value)
    assert "\n" not in str(info.value)


def test_average_ranks_alone_are_refused():
    ranks = cdplot.compare_ranks({"A": 1.5, "B": 2.5, "C": 2.0}, 14)
    with pytest.raises(CdplotError, match="average ranks alone"):
        render_html(ranks, stability=True)


def test_names_are_text_not_markup():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(8, 3)) + [0, 1, 2]
    res = cdplot.compare(x, methods=["<b>bold</b>", "a&b", "plain"])
    html = render_html(res, stability=True, embed_fonts=False)
    block = html[html.index(HEADING) :]
    assert "<b>bold</b>" not in block
    assert "&lt;b&gt;bold&lt;/b&gt;" in block


def test_template_has_its_named_block():
    from cdplot._resources import templates_dir

    text = (templates_dir() / "stability.html.j2").read_text(encoding="utf-8")
    assert "{% block stability %}" in text
    base = (templates_dir() / "base.html.j2").read_text(encoding="utf-8")
    assert '{% include "stability.html.j2" %}' in base


def test_pdf_and_cli(tmp_path, capsys):
    from pypdf import PdfReader

    out = tmp_path / "report.pdf"
    assert main(["report", "--example", "demsar2006", "--stability", "-o", str(out)]) == 0
    text = " ".join(p.extract_text() for p in PdfReader(out).pages)
    text = " ".join(text.split())
    assert HEADING in text
    assert "treated as a sample of the population of interest" in text
    assert "Rank probabilities." in text
    plain = tmp_path / "plain.html"
    assert main(["report", "--example", "demsar2006", "-o", str(plain)]) == 0
    assert HEADING not in plain.read_text(encoding="utf-8")


def test_many_influential_data_sets_are_summarised_in_the_section():
    # 25 methods on 60 data sets: some pair sits at the CD and every removal moves one
    rng = np.random.default_rng(4)
    res = cdplot.compare(rng.normal(size=(60, 25)) + np.linspace(0, 1.5, 25))
    st = cdplot.stability(res, n_boot=50, seed=0)
    assert len(st.influential) == 60
    html = render_html(res, stability=st, embed_fonts=False)
    block = html[html.index(HEADING) :]
    assert st.influence_summary() in block
    named = re.findall(r"<li>Without ([^:]+):", block)
    assert named == [d.dataset for d in st.notable_influences()]
    assert len(named) < 60
    assert "pairs change significance (" in block


def test_fold_resampling_is_cited(rng):
    rows = [
        {"dataset": f"d{d}", "method": m, "fold": f, "score": mu + rng.normal(0, 0.3)}
        for d in range(8)
        for f in range(4)
        for m, mu in {"A": 0.0, "B": 0.5, "C": 1.0}.items()
    ]
    (t,) = as_score_tables(rows, keep_repetitions=True)
    res = cdplot.compare(t)
    st = cdplot.stability(res, n_boot=50, seed=0, resample="datasets-and-folds")
    html = render_html(res, stability=st, embed_fonts=False)
    block = html[html.index(HEADING) :]
    assert "two-stage bootstrap over data sets and folds" in block
    assert "No unbiased estimator of the variance of K-fold cross-validation" in block
    plain = render_html(res, stability=cdplot.stability(res, n_boot=50, seed=0), embed_fonts=False)
    assert "No unbiased estimator" not in plain


def test_a_strip_too_large_for_a_page_is_not_printed_below_6pt():
    # 100 methods with 60-character names: the strip, scaled to a page, set its names at
    # 4.3 pt (pdftotext word boxes); the PDF now says where to get it whole, the HTML shows it
    from cdplot.io import ScoreTable
    from cdplot.reporting._figures import MIN_PRINTED_PT, _printed_min
    from cdplot.reporting._stability import stability_context

    def section(k, fmt):
        rng = np.random.default_rng(k)
        stem = "gradient boosted trees (depth 6; lr 0.05), tuned" + " x" * 30
        names = [f"Model {i:03d} {stem}"[:60] for i in range(k)]
        values = 0.7 + np.linspace(0.1, 0, k)[None, :] + rng.normal(0, 0.03, (40, k))
        table = ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(40)])
        st = cdplot.stability(cdplot.compare(table), n_boot=50, seed=0, leave_one_out=False)
        return stability_context(st, prefix="s", format=fmt)

    big = section(100, "pdf")
    assert big["figure"] is None
    assert big["n_methods"] == 100
    assert section(100, "html")["figure"] is not None  # a screen zooms
    small = section(30, "pdf")["figure"]
    assert small is not None
    assert _printed_min(small) >= MIN_PRINTED_PT
