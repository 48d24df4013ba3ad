"""Significance heatmaps: lower triangle in rank order, discrete p-value classes, legend."""

import numpy as np
import pytest
from svg_checks import svg_groups, svg_root, synthetic_table
from test_critical_difference import assert_no_overlap

import cdplot
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.plot._heatmap import significance_levels


def test_levels_follow_alpha():
    assert significance_levels(0.05) == [0.001, 0.01, 0.05]
    assert significance_levels(0.005) == [0.001, 0.005]
    assert significance_levels(0.0005) == [0.0005]


def test_lower_triangle_in_rank_order(demsar):
    ax = cdplot.significance_heatmap(demsar)
    cells = next(c for c in ax.collections if c.get_gid() == "hm-cells")
    k = demsar.n_methods
    assert len(cells.get_paths()) == k * (k - 1) // 2
    rows = [t.get_text() for t in ax.texts if t.get_gid() == "hm-row-label"]
    cols = [t.get_text() for t in ax.texts if t.get_gid() == "hm-col-label"]
    order = list(demsar.order())
    assert rows == order[1:]
    assert cols == order[:-1]
    values = [t.get_text() for t in ax.texts if t.get_gid() == "hm-value"]
    assert len(values) == k * (k - 1) // 2  # annotated: four methods leave room


def test_legend_and_untested_cells():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    ax = cdplot.significance_heatmap(res)
    legend = [t.get_text() for t in ax.texts if t.get_gid() == "hm-legend"]
    assert legend[-1] == "not tested"
    assert "p \u2264 0.05" in legend
    root = svg_root(ax)
    assert svg_groups(root, "hm-untested")
    assert np.isnan(res.pvalues).any()


@pytest.mark.parametrize("k", [2, 5, 20, 50])
def test_no_overlap(k):
    res = cdplot.compare(synthetic_table(k, seed=k))
    assert_no_overlap(cdplot.significance_heatmap(res, style="paper-wide"))


def test_reverse_puts_worst_first(demsar):
    ax = cdplot.significance_heatmap(demsar, reverse=True)
    cols = [t.get_text() for t in ax.texts if t.get_gid() == "hm-col-label"]
    assert cols[0] == demsar.order()[-1]


@pytest.mark.parametrize(
    ("p", "text"),
    [
        # issue 8: was "0.001" in a "p > 0.001" cell; issue 31: half away from zero on the
        # decimal as written (the binary 0.00145 is a hair below ...45)
        (0.00145, "0.0015"),
        (0.00149, "0.0015"),
        (0.0004, "<0.001"),
        (0.003, "0.003"),
        (0.0501, "0.0501"),  # "0.050" would read as significant at 0.05
        (0.0499, "0.050"),
        (0.01, "0.010"),
        (0.0100004, "0.0100004"),  # just above a bound: as many digits as it takes
        (0.2, "0.200"),
    ],
)
def test_cell_labels_agree_with_their_colour_class(p, text):
    from cdplot.plot._heatmap import format_p

    assert format_p(p, significance_levels(0.05)) == text


def test_heatmap_keeps_paper_width(demsar):
    ax = cdplot.significance_heatmap(demsar)
    assert ax.figure.get_size_inches()[0] == pytest.approx(3.5)
    values = [t.get_text() for t in ax.texts if t.get_gid() == "hm-value"]
    assert all(v.startswith(("0.", "<0.", "1.")) for v in values)


def test_a_heatmap_larger_than_any_page_is_refused_in_one_line():
    # issue 27, 2: slides at k = 100 asked for a 186 x 105 in canvas and ended in
    # MemoryError (std::bad_alloc) with a traceback; now one CdplotError, before any canvas
    import matplotlib.pyplot as plt

    from cdplot.io import ScoreTable

    k = 100
    rng = np.random.default_rng(k)
    values = 0.7 + np.linspace(0.08, 0.0, k)[None, :] + rng.normal(0, 0.03, (30, k))
    res = cdplot.compare(
        ScoreTable(
            values=values,
            methods=[f"M{i}" for i in range(k)],
            datasets=[f"d{j}" for j in range(30)],
        )
    )
    before = plt.get_fignums()
    with pytest.raises(CdplotError, match=r"186\.0 x 104\.6 in .* larger than the 50 in") as info:
        cdplot.significance_heatmap(res, style="slides")
    assert "\n" not in str(info.value)
    assert plt.get_fignums() == before


def test_an_unfit_heatmap_says_its_cells_are_squeezed():
    # the warning read "so its rank axis is squeezed", the words of the CD diagram: a
    # heatmap has no rank axis, its cells shrink below the type
    import warnings

    rng = np.random.default_rng(1)
    res = cdplot.compare(rng.normal(size=(20, 100)) + np.linspace(0, 2, 100))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        cdplot.significance_heatmap(res)
    (message,) = [str(w.message) for w in caught if issubclass(w.category, CdplotWarning)]
    assert message.startswith("a heatmap of 100 methods cannot be drawn legibly with style=")
    assert "so its cells are squeezed): use style='paper-wide'" in message
    assert "rank axis" not in message
