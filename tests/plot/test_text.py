"""Laid-out text is measured and drawn unhinted wherever the figure is drawn."""

import matplotlib as mpl
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

import cdplot
from cdplot.plot._text import LayoutText


def _widths(cls, texts):
    # a fresh figure and renderer each time: matplotlib caches text metrics per renderer
    # without the hinting in the key
    fig = Figure(dpi=100)
    FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    return [
        cls(0, 0, t.get_text(), fontproperties=t.get_fontproperties(), figure=fig)
        .get_window_extent(renderer)
        .width
        for t in texts
    ]


def test_layout_text_ignores_the_global_hinting(demsar):
    ax = cdplot.cd_diagram(demsar)
    names = [t for t in ax.texts if t.get_gid().startswith("cd-name-")]
    assert names
    assert all(isinstance(t, LayoutText) for t in ax.texts)
    with mpl.rc_context({"text.hinting": "no_hinting"}):
        unhinted = _widths(Text, names)
    with mpl.rc_context({"text.hinting": "force_autohint"}):
        hinted = _widths(Text, names)
        ours = _widths(LayoutText, names)
        assert mpl.rcParams["text.hinting"] == "force_autohint"
    assert hinted != unhinted  # the auto-hinter snaps advances: the check can fail
    assert ours == unhinted


def test_drawing_leaves_rcparams_as_they_were(demsar, monkeypatch):
    ax = cdplot.cd_diagram(demsar)
    with mpl.rc_context({"text.hinting": "force_autohint"}):
        before = dict(mpl.rcParams)
        ax.figure.canvas.draw()
        assert dict(mpl.rcParams) == before

        class Broken(Exception):
            pass

        def fail(*args, **kwargs):
            assert mpl.rcParams["text.hinting"] == "no_hinting"
            raise Broken

        renderer = ax.figure.canvas.get_renderer()
        monkeypatch.setattr(renderer, "draw_text", fail)  # drawing fails half-way
        with pytest.raises(Broken):
            ax.texts[0].draw(renderer)
        assert mpl.rcParams["text.hinting"] == "force_autohint"


def test_missing_glyphs_are_one_warning_not_one_per_character(tmp_path):
    # issue 27, 9: matplotlib warned once per missing character and drawing (27 lines
    # for one CJK table); U+0378 to U+0383 are unassigned, so no font on any machine
    # has them
    import warnings

    import numpy as np

    from cdplot.io import ScoreTable

    names = ["A\u0378\u0379", "B\u0380\u0381", "C\u0382\u0383", "D"]
    rng = np.random.default_rng(0)
    table = ScoreTable(
        values=rng.normal(0, 1, (10, 4)), methods=names, datasets=[f"d{j}" for j in range(10)]
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ax = cdplot.cd_diagram(cdplot.compare(table))
        cdplot.save_figure(ax, tmp_path / "cd.png", dpi=50)
        cdplot.save_figure(ax, tmp_path / "cd.pdf")
        ax.figure.savefig(tmp_path / "plain.png", dpi=50)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1, messages
    assert "6 characters" in messages[0]
