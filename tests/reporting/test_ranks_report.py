"""Reports of compare_ranks results: what needs scores is left out, and said once.

Ranks: Demšar (2006), JMLR 7:1-30, Table 6 (last row), N = 14.
"""

import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.reporting import methods_paragraph, render_html, report
from cdplot.reporting._context._common import RANKS_ONLY_OMITTED
from cdplot.stats import analyse_pairs, compare_pair

DEMSAR = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}


@pytest.fixture(scope="module")
def result():
    return cdplot.compare_ranks(DEMSAR, 14)


@pytest.fixture(scope="module")
def html(result):
    return render_html(result, date="2024-05-01")


def test_omits_what_needs_scores_in_one_sentence(html):
    sentence = RANKS_ONLY_OMITTED.format(n=14)
    assert html.count(sentence) == 1
    assert "Scores and ranks" not in html  # the data table's heading
    assert "Mean score" not in html
    assert "W&#8202;/&#8202;T&#8202;/&#8202;L" not in html
    assert "duels" not in html


def test_keeps_what_average_ranks_give(html):
    for text in ("Omnibus tests", "Post-hoc test", "CD = 1.2536", "9.2836", "3.6889"):
        assert text in html
    # the CD diagram, the rank intervals and the heatmap
    assert html.count("<svg") >= 3
    assert "Only average ranks were given" in html
    assert "mapping of average ranks" in html  # the input, in the reproducibility footer


def test_options_name_the_input_not_a_direction_of_scores(html):
    # average ranks carry no scores: "higher_is_better False" would read as a choice made
    assert "higher_is_better" not in html
    assert "average ranks (1 = best)" in html


def test_methods_paragraph_claims_no_ranking_it_did_not_do(result):
    text = methods_paragraph(result)
    assert "were ranked on each data set" not in text
    assert "Only the methods' average ranks over the data sets were available" in text
    assert "is better" not in text  # the direction of the scores is unknown
    assert "without a correction for ties" in text


def test_options_and_pairs_are_refused(result, tmp_path):
    with pytest.raises(CdplotError, match="analysed already"):
        report(result, tmp_path / "r.html", compare_kws={"alpha": 0.1})
    with pytest.raises(CdplotError, match="option pairs: a head-to-head comparison needs"):
        analyse_pairs(result, [("C4.5", "C4.5+m")])
    scored = compare_pair(cdplot.load_example("demsar2006"), methods=("C4.5", "C4.5+m"))
    with pytest.raises(CdplotError, match="option pairs: a head-to-head comparison needs"):
        report(result, tmp_path / "r.html", pairs=[scored])
    with pytest.raises(CdplotError, match="RankComparison .* is reported on its own"):
        report([result, result], tmp_path / "r.html")
    # a table of scores needs scores
    with pytest.raises(CdplotError, match="needs a ComparisonResult"):
        cdplot.data_table(result)


def test_pdf_text(result, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    out = tmp_path / "ranks.pdf"
    report(result, out, date="2024-05-01")
    text = "".join("".join(p.extract_text() for p in pypdf.PdfReader(out).pages).split())
    assert "".join(RANKS_ONLY_OMITTED.format(n=14).split()) in text
    assert "Meanscore" not in text
    assert "Criticaldifference" in text
