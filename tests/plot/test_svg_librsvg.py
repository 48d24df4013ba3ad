"""SVGs as librsvg draws them (issue 27, 4).

librsvg (``rsvg-convert``; GNOME, ImageMagick and pandoc use it) and Inkscape
ignore ``@font-face``: an SVG whose text relies on embedded fonts is drawn
in a substitute font, wider than Lato, and "C4.5+m+cf" ran past the edge.
The default SVG draws glyph outlines, so librsvg's picture must match
matplotlib's own PNG of the same figure, pixel for pixel up to antialiasing.
"""

import shutil
import subprocess

import numpy as np
import pytest
from matplotlib.image import imread

import cdplot

pytestmark = pytest.mark.skipif(
    shutil.which("rsvg-convert") is None,
    reason="rsvg-convert missing (Debian librsvg2-bin; .ci/run installs it)",
)

DPI = 150


def _dark(path):
    """How dark each pixel is, from 0 (white) to 1 (black)."""
    img = imread(path)
    rgb = img[..., :3] if img.ndim == 3 else img[..., None].repeat(3, axis=2)
    if img.ndim == 3 and img.shape[2] == 4:  # librsvg leaves the background transparent
        alpha = img[..., 3:4]
        rgb = rgb * alpha + (1 - alpha)
    return 1.0 - rgb.mean(axis=2)


def _blocks(dark, size=8):
    h, w = dark.shape[0] // size * size, dark.shape[1] // size * size
    return dark[:h, :w].reshape(h // size, size, w // size, size).mean(axis=(1, 3))


def _both(ax, tmp_path, name):
    svg, png = tmp_path / f"{name}.svg", tmp_path / f"{name}.png"
    cdplot.save_figure(ax, svg)
    cdplot.save_figure(ax, png, dpi=DPI)
    drawn = tmp_path / f"{name}-rsvg.png"
    # the SVG's size is in points: at the PNG's pixels per inch both canvases match
    subprocess.run(
        ["rsvg-convert", "--dpi-x", str(DPI), "--dpi-y", str(DPI), "-o", str(drawn), str(svg)],
        check=True,
        timeout=60,
    )
    return _dark(png), _dark(drawn)


@pytest.mark.parametrize(
    "names",
    [
        None,  # Demsar's own: "C4.5+m+cf" was cut at the right edge
        ["A much longer method name, tuned", "Baseline (default settings)", "C", "D"],
    ],
    ids=["demsar", "long-names"],
)
def test_librsvg_draws_the_default_svg_as_matplotlib_does(tmp_path, names):
    result = cdplot.compare(cdplot.load_example("demsar2006"))
    if names is not None:
        t = result.scores
        result = cdplot.compare(
            cdplot.ScoreTable(values=t.values, methods=names, datasets=t.datasets)
        )
    ax = cdplot.cd_diagram(result)
    ref_dark, got_dark = _both(ax, tmp_path, "cd")
    ref, got = ref_dark > 0.5, got_dark > 0.5
    # same canvas, within a pixel of rounding
    assert abs(ref.shape[0] - got.shape[0]) <= 1
    assert abs(ref.shape[1] - got.shape[1]) <= 1
    h, w = min(ref.shape[0], got.shape[0]), min(ref.shape[1], got.shape[1])
    ref, got = ref[:h, :w], got[:h, :w]
    # the ink spans the same columns and rows, to a pixel or two: nothing runs further
    for axis in (0, 1):
        cols_ref, cols_got = np.flatnonzero(ref.any(axis=axis)), np.flatnonzero(got.any(axis=axis))
        assert abs(cols_got[0] - cols_ref[0]) <= 2
        assert abs(cols_got[-1] - cols_ref[-1]) <= 2
    # and the ink agrees over 8-pixel blocks (the renderers antialias small text
    # differently): outlines differ by 4 % (Demsar) and 16 % (long names) of matplotlib's
    # ink, editable text set by librsvg in a substitute font by 32 % and 38 %
    dark_ref, dark_got = _blocks(ref_dark[:h, :w]), _blocks(got_dark[:h, :w])
    differ = np.abs(dark_ref - dark_got).sum() / dark_ref.sum()
    assert differ < 0.25, differ
