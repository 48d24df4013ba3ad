"""repr_html: the notebook view of every result kind (cdplot/reporting/_jupyter.py)."""

import html
import re

import numpy as np
import pytest

import cdplot
from cdplot.reporting import repr_html
from cdplot.stats._pair import compare_pair
from cdplot.stats._parametric import compare_auto


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _parametric():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 5)) + np.array([0, 0.2, 0.5, 1.0, 1.1]) + rng.normal(size=(20, 1))
    auto = compare_auto(x, methods=list("ABCDE"))
    assert auto.path == "parametric"
    return auto


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda: cdplot.compare(cdplot.load_example("demsar2006")), ["average rank", "CD = 1.254"]),
        (
            lambda: cdplot.compare_metrics(cdplot.load_example("yang-table9")),
            ["5CV", "AUC", "Kendall"],
        ),
        (
            lambda: compare_auto(cdplot.load_example("demsar2006")),
            ["The rank-based analysis was chosen", "average rank"],
        ),
        (_parametric, ["Repeated-measures ANOVA with Tukey's HSD was chosen", "mean score"]),
        (
            lambda: compare_pair(cdplot.load_example("demsar2006"), methods=("C4.5+m", "C4.5")),
            ["C4.5+m versus C4.5", "Wilcoxon signed-rank", "R+ = 93"],
        ),
    ],
    ids=["comparison", "metrics", "auto-ranks", "auto-anova", "pair"],
)
def test_every_result_shows_a_table(make, expected):
    fragment = repr_html(make())
    assert fragment.startswith('<div class="cdplot-report">')
    assert "<table>" in fragment or "<table " in fragment
    text = _text(fragment)
    for piece in expected:
        assert piece in text, piece


def test_names_are_escaped():
    x = np.array([[1.0, 2.0], [2.0, 3.0], [3.0, 3.5], [1.0, 4.0], [0.5, 1.0]])
    pr = compare_pair(x, methods=("<b>a</b>", "b&c"))
    fragment = repr_html(pr)
    assert "<b>a</b>" not in fragment
    assert "&lt;b&gt;a&lt;/b&gt;" in fragment
