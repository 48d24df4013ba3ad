"""Portable SVG: text stays <text>, and the subset of each font it uses is embedded.

In a browser without Lato, an SVG that only names it is drawn in another font:
names ran past the figure's edge (issue 8).  The check in headless Chromium
compares the widths the browser lays out with matplotlib's.
"""

import base64
import io
import json
import os
import re
import shutil
import subprocess

import matplotlib as mpl
import pytest

import cdplot
from cdplot.plot import render_svg
from cdplot.plot._fontembed import _subset
from cdplot.plot._save import _rc

FACES = re.compile(
    r"@font-face \{font-family: '([^']+)'; font-weight: (\d+); "
    r"src: url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\)"
)


def test_svg_keeps_text_and_embeds_the_fonts_it_uses(demsar):
    from fontTools.ttLib import TTFont

    ax = cdplot.cd_diagram(demsar, highlight="C4.5")
    svg = render_svg(ax)
    assert "<text" in svg  # editable text, not paths
    faces = {(fam, int(w)): data for fam, w, data in FACES.findall(svg)}
    assert set(faces) == {("Lato", 400), ("Lato", 700)}
    font = TTFont(io.BytesIO(base64.b64decode(faces[("Lato", 400)])))
    cmap = font.getBestCmap()
    glyf = font["glyf"]
    # glyphs of characters on the figure keep their outlines; others are left out
    assert glyf[cmap[ord("C")]].numberOfContours > 0
    assert ord("Z") not in cmap
    assert len(font.getGlyphOrder()) < 150
    assert render_svg(cdplot.cd_diagram(demsar, highlight="C4.5")) == svg  # byte-identical


def test_svg_embeds_only_the_glyphs_of_drawn_text(demsar):
    # a user's Axes turned off by the diagram keeps tick labels ("0.0" ... "1.0" once drawn)
    # that are never drawn: their glyphs are not embedded, and finding the texts makes no
    # ticks (matplotlib would create them one by one for Figure.findobj)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 2.5))
    ax = fig.add_subplot()
    fig.canvas.draw()  # the axis is drawn once, so its tick labels hold text
    labels = "".join(t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels())
    assert "0" in labels
    cdplot.cd_diagram(demsar, ax=ax, caption=False, note=False, ranks=False)
    ticks = len(ax.xaxis.majorTicks) + len(ax.yaxis.majorTicks)
    svg = render_svg(fig)
    assert len(ax.xaxis.majorTicks) + len(ax.yaxis.majorTicks) == ticks
    faces = {fam: data for fam, _w, data in FACES.findall(svg)}
    # only Lato: the tick labels would have added DejaVu Sans, matplotlib's default font
    assert set(faces) == {"Lato"}


def test_subsets_keep_composite_components_and_legacy_kerning():
    # a browser draws an embedded subset as matplotlib drew the text: accented letters
    # (composites of a base letter and an accent) keep their parts, and the legacy kern
    # table FreeType kerns with keeps the pairs among the characters kept
    from fontTools.ttLib import TTFont

    from cdplot._resources import fonts_dir

    path = fonts_dir() / "lato" / "Lato-Regular.ttf"
    small = _subset(str(path), "éAV")
    assert len(small) < path.stat().st_size / 4
    with TTFont(io.BytesIO(small)) as font:
        cmap = font.getBestCmap()
        assert set(cmap) == {ord("é"), ord("A"), ord("V")}
        e_acute = font["glyf"][cmap[ord("é")]]
        assert e_acute.isComposite()
        for comp in e_acute.components:
            assert font["glyf"][comp.glyphName].numberOfContours > 0
        (kern,) = font["kern"].kernTables
        assert kern[(cmap[ord("A")], cmap[ord("V")])] < 0
        assert "GPOS" not in font
        assert "GSUB" not in font


def _browser_widths(svg, tmp_path):
    html = (
        "<!doctype html><html><body>"
        + svg[svg.index("<svg") :]
        + '<pre id="out"></pre><script>document.fonts.ready.then(() => {const o = {};'
        "for (const g of document.querySelectorAll('g[id^=\"cd-name-\"]')) {"
        "o[g.id] = g.querySelector('text').getBBox().width;}"
        "document.getElementById('out').textContent = JSON.stringify(o);});</script>"
        "</body></html>"
    )
    page = tmp_path / "figure.html"
    page.write_text(html, encoding="utf-8")
    out = subprocess.run(
        [
            shutil.which("chromium"),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=90,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    found = re.search(r'<pre id="out">(.*?)</pre>', out.stdout)
    assert found, out.stderr[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"'))


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium")
def test_browser_draws_names_as_wide_as_matplotlib(tmp_path):
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    ax = cdplot.cd_diagram(res, highlight="C4.5")
    svg = render_svg(ax)
    fig = ax.figure
    with mpl.rc_context(_rc()):
        fig.set_dpi(72)  # one SVG user unit is one point
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ours = {
            t.get_gid(): t.get_window_extent(renderer).width
            for t in ax.texts
            if t.get_gid().startswith("cd-name-")
        }
    theirs = _browser_widths(svg, tmp_path)
    assert set(theirs) == set(ours)
    for gid, width in ours.items():
        assert theirs[gid] == pytest.approx(width, rel=0.02), gid
    # without the embedded fonts the browser falls back to another font: the check can fail
    bare = _browser_widths(re.sub(r"@font-face \{[^}]*\}", "", svg), tmp_path)
    assert any(abs(bare[g] / w - 1) > 0.02 for g, w in ours.items())
