"""Shared plot helpers (cdplot/plot/_common.py)."""

import os

import pytest

from cdplot.plot import _common


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX's")
def test_forked_children_open_their_own_font_faces():
    # faces inherited through fork share a file offset with the parent and every sibling:
    # concurrent glyph loads then fail intermittently ("Could not load glyph") in the
    # report's drawing workers, so a child must not keep them
    measure = _common.measurer(None)
    measure("C4.5+m+cf", 8.0)
    assert _common._em_widths.cache_info().currsize > 0
    assert _common._metric_face.cache_info().currsize > 0
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        size = _common._em_widths.cache_info().currsize
        size += _common._metric_face.cache_info().currsize
        os.write(write_fd, str(size).encode())
        os._exit(0)
    os.close(write_fd)
    child_size = int(os.read(read_fd, 32))
    os.close(read_fd)
    os.waitpid(pid, 0)
    assert child_size == 0
    assert _common._em_widths.cache_info().currsize > 0, "the parent keeps its faces"
    assert measure("C4.5", 8.0)[0] > 0


@pytest.mark.parametrize("font", ["sans", "serif"])
@pytest.mark.parametrize("bold", [False, True])
def test_line_metrics_are_the_agg_renderers(font, bold):
    # the layout's heights come from the face directly; they must be what matplotlib's Agg
    # renderer reports for the same text properties, unhinted, at 72 dpi
    import matplotlib as mpl
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    from cdplot.plot._fonts import bold_kws, font_family, register_fonts

    register_fonts()
    renderer = RendererAgg(8, 8, 72)
    style = bold_kws(font) if bold else {"fontweight": "normal"}
    for size in (5.0, 6.0, 6.5, 7.5, 9.0, 11.0, 14.0, 20.0, 28.5):
        prop = FontProperties(
            family=font_family(font),
            size=size,
            weight=style["fontweight"],
            stretch=style.get("fontstretch", "normal"),
        )
        with mpl.rc_context({"text.hinting": "no_hinting"}):
            _w, h, d = renderer.get_text_width_height_descent("lp", prop, ismath=False)
        assert _common._line_metrics(font, size, bold) == (h, d)
