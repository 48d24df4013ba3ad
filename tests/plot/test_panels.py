"""cd_diagrams: one CD panel per metric, measured as tests/plot/test_sweep.py measures one.

Yang's Table 9 (six measures, three classifiers, five data sets; bundled as
the example ``yang-table9``) and synthetic tables of up to 50 methods with
60-character names: no text overlaps or clipped text, no clique bar over
an outsider in any panel, the style's exact width, one type size, each
method on the same side and in the same colour in every panel.
"""

import re
import warnings

import pytest
from test_sweep import bars_over_outsiders, check_font_sizes, table, text_problems

import cdplot
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.io import ScoreTable
from cdplot.plot._styles import STYLES


def several(k, n_metrics, *, long, n=20):
    tables = []
    for j in range(n_metrics):
        t = table(k, n, 100 * j + k, long=long, ties=j == 1)
        tables.append(
            ScoreTable(values=t.values, methods=t.methods, datasets=t.datasets, metric=f"m{j}")
        )
    return cdplot.compare_metrics(tables)


def looks_by_method(axes, mc):
    """{method: (side, elbow colour)} per panel."""
    out = []
    for ax, res in zip(axes, mc.results, strict=True):
        panel = {}
        for t in ax.texts:
            gid = t.get_gid() or ""
            if gid.startswith("cd-name-"):
                i = int(gid.rsplit("-", 1)[1])
                panel[res.methods[i]] = [t.get_horizontalalignment()]
        for line in ax.lines:
            gid = line.get_gid() or ""
            if gid.startswith("cd-elbow-"):
                i = int(gid.rsplit("-", 1)[1])
                panel[res.methods[i]].append(line.get_color())
        out.append({m: tuple(v) for m, v in panel.items()})
    return out


def check(axes, mc, style, warned):
    fig = axes[0].figure
    assert all(ax.figure is fig for ax in axes)
    assert fig.get_size_inches()[0] == pytest.approx(STYLES[style].width, abs=1e-9)
    check_font_sizes(fig, style)
    overlaps, clipped = text_problems(fig)
    assert clipped == []
    if not warned:
        assert overlaps == []
    for ax, res in zip(axes, mc.results, strict=True):
        assert bars_over_outsiders(ax, res) == []
    # one side and one colour per method in every panel
    panels = looks_by_method(axes, mc)
    assert all(p == panels[0] for p in panels)
    # one type size for the names of every panel
    sizes = {
        t.get_fontsize()
        for ax in axes
        for t in ax.texts
        if (t.get_gid() or "").startswith("cd-name-")
    }
    assert len(sizes) == 1
    # a shortened name carries the same key number in every panel, and one key lists it
    key = " ".join(t.get_text() for ax in axes for t in ax.texts if t.get_gid() == "cd-key")
    assert all(t.get_gid() != "cd-key" for ax in axes[:-1] for t in ax.texts)
    tags = {}
    for ax, res in zip(axes, mc.results, strict=True):
        for t in ax.texts:
            gid = t.get_gid() or ""
            tag = re.search(r"\[\d+\]$", t.get_text().rstrip(" \u2020"))
            if gid.startswith("cd-name-") and tag:
                name = res.methods[int(gid.rsplit("-", 1)[1])]
                assert tags.setdefault(name, tag.group()) == tag.group()
                assert f"{tag.group()}\u00a0{name}" in key


def test_yang_six_panels():
    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    axes = cdplot.cd_diagrams(mc)
    assert len(axes) == 6
    titles = [next(t.get_text() for t in ax.texts if t.get_gid() == "cd-title") for ax in axes]
    # Yang et al., Table 9: 5CV and Boots. are error estimates, the other four scores
    assert titles == [
        "5CV, lower is better",
        "Boots., lower is better",
        "P, higher is better",
        "R, higher is better",
        "F, higher is better",
        "AUC, higher is better",
    ]
    check(axes, mc, "paper", warned=False)
    # the panels are stacked top to bottom in metric order
    tops = [ax.get_position().y1 for ax in axes]
    assert tops == sorted(tops, reverse=True)


@pytest.mark.parametrize(
    ("k", "style", "long"),
    [
        (2, "paper", False),
        (5, "paper", True),
        (10, "paper-wide", True),
        (30, "paper", False),
        (50, "paper-wide", True),
    ],
)
def test_panels_sweep(k, style, long):
    mc = several(k, 3, long=long)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        axes = cdplot.cd_diagrams(mc, style=style)
    warned = any(issubclass(w.category, CdplotWarning) for w in caught)
    check(axes, mc, style, warned)


def test_control_mode_panels_and_errors():
    data = cdplot.load_example("yang-table9")
    mc = cdplot.compare_metrics(data, test="bonferroni-dunn", control="LDA")
    axes = cdplot.cd_diagrams(mc, highlight="LDA")
    for ax in axes:
        assert not [ln for ln in ax.lines if (ln.get_gid() or "").startswith("cd-clique-")]
        caption = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-caption")
        assert "only pairs with the control LDA were tested" in " ".join(caption.split())
    with pytest.raises(CdplotError, match="compare_metrics"):
        cdplot.cd_diagrams(cdplot.compare(cdplot.load_example("demsar2006")))
    with pytest.raises(CdplotError, match="highlight='NN'"):
        cdplot.cd_diagrams(mc, highlight="NN")
