"""Effect sizes in reports: the Effect sizes section, the method table's delta column,
the parametric route's Cohen's d and the references (issue 12, item 1)."""

import numpy as np
import pytest

import cdplot
from cdplot.reporting import render_html
from cdplot.reporting._context._methods import MAX_EFFECT_COLUMN_METHODS, MAX_EFFECT_ROWS


def _words(html: str) -> str:
    return " ".join(html.split())


@pytest.fixture(scope="module")
def demsar_html():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="friedman-z", alpha=0.1)
    return render_html(res, date="2024-05-01", embed_fonts=False)


def test_effect_section_names_measures_and_sources(demsar_html):
    text = _words(demsar_html)
    assert 'id="metric-1-effects"' in demsar_html
    assert "Cliff&rsquo;s &delta; (Cliff, 1993)" in text
    assert "Romano et al. (2006)" in text
    assert "Cohen (1988)" in text
    # Holm-corrected rank z-tests at alpha 0.1 find two pairs; autorank 1.3.0's
    # _cliffs_delta gives 0.117347 for the first (tests/stats/test_effect_sizes.py)
    assert "0.117" in text
    assert "Every significant pair, largest |&delta;| first" in text


def test_method_table_has_delta_against_the_best(demsar_html):
    assert '<th scope="col">&delta; vs 1</th>' in demsar_html


def test_references_cite_the_effect_size_sources(demsar_html):
    for key in ("cliff1993", "romano2006", "cohen1988"):
        assert f'id="ref-{key}"' in demsar_html
        assert f"{{{key}," in demsar_html  # its BibTeX entry


def test_many_methods_cap_the_pairs_and_drop_the_column():
    rng = np.random.default_rng(5)
    k = MAX_EFFECT_COLUMN_METHODS + 10
    x = rng.normal(size=(30, k)) + np.linspace(0, 6, k)
    res = cdplot.compare(x)
    n_sig = len(res.significant_pairs())
    assert n_sig > MAX_EFFECT_ROWS
    html = render_html(res, date="2024-05-01", embed_fonts=False)
    text = _words(html)
    assert f"The {MAX_EFFECT_ROWS} largest |&delta;| of the {n_sig} significant pairs" in text
    assert "key <code>effect_sizes</code>" in text
    assert "vs 1</th>" not in html


def test_no_significant_pair_names_the_largest_effect():
    res = cdplot.compare(cdplot.load_example("demsar2006"))  # Nemenyi: none significant
    text = _words(render_html(res, date="2024-05-01", embed_fonts=False))
    assert "No pair differs significantly; the largest effect is C4.5+m+cf against C4.5" in text


def test_names_in_the_effect_section_are_escaped():
    x = np.array([[0.9, 0.5, 0.1], [0.8, 0.4, 0.2], [0.85, 0.45, 0.3], [0.7, 0.6, 0.2]] * 4)
    res = cdplot.compare(x, methods=["<script>a", "b&c", "d"], test="wilcoxon")
    html = render_html(res, date="2024-05-01", embed_fonts=False)
    section = html[html.index('id="metric-1-effects"') :]
    assert "<script>a" not in section
    assert "&lt;script&gt;a" in section


def test_parametric_report_shows_cohens_d():
    x = np.random.default_rng(0).normal(size=(30, 4)) + np.linspace(0, 1.5, 4)
    auto = cdplot.compare_auto(x)
    assert auto.path == "parametric"
    html = render_html(auto, date="2024-05-01", embed_fonts=False)
    assert "<i>d</i> vs 1</th>" in html
    assert "Cohen&rsquo;s <i>d</i></th>" in html
    diff = x[:, 3] - x[:, 0]
    assert f"{diff.mean() / diff.std(ddof=1):.2f}" in html
    assert 'id="ref-cohen1988"' in html
