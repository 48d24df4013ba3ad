"""The SVG canvas (cdplot/plot/_svg.py) writes what matplotlib's SVG backend writes.

Each case draws one chart twice: with matplotlib (``render_svg`` of the Axes)
and recorded on the canvas (inside ``_svg.recording()``).  Both documents
are parsed and compared element by element: the same tags in the same order
with the same ``<g id>`` (the charts' stable gids), the same text content and
styles (size, family, weight, stretch, fill, opacity, text-anchor), and every
coordinate (text anchors and transforms, path vertices, marker centres,
rectangles, patterns) within 0.01 pt.
"""

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from svg_checks import synthetic_table

import cdplot
from cdplot.plot import _svg, cd_diagram, rank_intervals, render_svg, significance_heatmap

_NUM = re.compile(r"-?\d+(?:\.\d*)?(?:e-?\d+)?")
# attributes whose numbers are compared with a tolerance; all others must be equal
_GEOMETRY = {"d", "x", "y", "width", "height", "transform", "viewBox"}
TOL = 0.01


def _elements(svg: str):
    root = ET.fromstring(svg)
    return [e for e in root.iter() if "metadata" not in e.tag and "RDF" not in e.tag]


def _style(value: str) -> dict:
    return dict(part.split(": ", 1) for part in value.split("; ")) if value else {}


def assert_same_svg(want: str, got: str) -> int:
    """Compare two SVG documents element by element; return the number of elements."""
    a, b = _elements(want), _elements(got)
    assert [e.tag for e in a] == [e.tag for e in b]
    for ea, eb in zip(a, b, strict=True):
        where = f"<{ea.tag.split('}')[1]} id={ea.get('id')!r}> / text {ea.text!r}"
        assert set(ea.attrib) == set(eb.attrib), where
        for key, va in ea.attrib.items():
            vb = eb.attrib[key]
            if key in _GEOMETRY:
                assert _NUM.sub("#", va) == _NUM.sub("#", vb), (where, key, va, vb)
                na = [float(v) for v in _NUM.findall(va)]
                nb = [float(v) for v in _NUM.findall(vb)]
                assert np.allclose(na, nb, rtol=0, atol=TOL), (where, key, va, vb)
            elif key == "style":
                sa, sb = _style(va), _style(vb)
                assert sa.keys() == sb.keys(), (where, va, vb)
                for k in sa:
                    if k in ("stroke-width", "opacity", "fill-opacity", "stroke-opacity"):
                        assert float(sa[k]) == pytest.approx(float(sb[k]), abs=1e-6), where
                    else:
                        assert sa[k] == sb[k], (where, k, sa[k], sb[k])
            else:
                assert va == vb, (where, key, va, vb)
        assert (ea.text or "").strip() == (eb.text or "").strip(), where
    return len(a)


def _both(draw, data, **kws):
    want = render_svg(draw(data, **kws))
    with _svg.recording():
        canvas = draw(data, **kws)
    assert _svg.is_canvas(canvas)
    return want, render_svg(canvas)


def _cjk_font() -> bool:
    from matplotlib.font_manager import findSystemFonts

    return any("cjk" in p.lower() for p in findSystemFonts())


def _table(k, *, long=True, ties=False, n=30, seed=0):
    return synthetic_table(k, n=n, seed=seed, long=long, ties=ties)


def _cases():
    out = []
    for k in (2, 5, 20, 50, 100):
        out.append(pytest.param(cd_diagram, k, {}, {}, id=f"cd-nemenyi-long-k{k}"))
    out += [
        pytest.param(cd_diagram, 5, {"ties": True}, {"reverse": True}, id="cd-ties-reverse"),
        pytest.param(
            cd_diagram,
            20,
            {"long": False},
            {"test": "wilcoxon", "correction": "holm"},
            id="cd-wilcoxon-holm-k20",
        ),
        pytest.param(
            cd_diagram,
            30,
            {},
            {"test": "bonferroni-dunn", "control": "CTRL", "highlight": "CTRL"},
            id="cd-bonferroni-dunn-control-k30",
        ),
        pytest.param(cd_diagram, 50, {}, {"style": "paper-wide"}, id="cd-paper-wide-k50"),
        pytest.param(cd_diagram, 30, {}, {"style": "slides"}, id="cd-slides-k30"),
        pytest.param(
            cd_diagram, 20, {}, {"font": "serif", "highlight": "HL"}, id="cd-serif-highlight"
        ),
        pytest.param(cd_diagram, 10, {}, {"width": 5.0, "full_axis": True}, id="cd-width-full"),
        pytest.param(rank_intervals, 5, {}, {"highlight": "HL"}, id="ri-band-k5"),
        pytest.param(rank_intervals, 50, {}, {"reverse": True}, id="ri-reverse-k50"),
        pytest.param(
            rank_intervals,
            20,
            {},
            {"test": "bonferroni-dunn", "control": "CTRL"},
            id="ri-control-k20",
        ),
        pytest.param(rank_intervals, 100, {}, {"style": "paper-wide"}, id="ri-k100"),
        pytest.param(significance_heatmap, 5, {"long": False}, {}, id="hm-annotated-k5"),
        pytest.param(
            significance_heatmap,
            8,
            {},
            {"test": "bonferroni-dunn", "control": "CTRL", "highlight": "CTRL"},
            id="hm-hatch-control-k8",
        ),
        pytest.param(significance_heatmap, 30, {}, {"style": "slides"}, id="hm-slides-k30"),
        pytest.param(
            significance_heatmap, 100, {"long": False}, {"style": "paper-wide"}, id="hm-k100"
        ),
    ]
    return out


def _named(table, kws):
    """Put the names the options refer to (control, highlight) into the table."""
    kws = dict(kws)
    for key, tag in (("control", "CTRL"), ("highlight", "HL")):
        if kws.get(key) == tag:
            kws[key] = table.methods[len(table.methods) // 2]
    if kws.get("highlight") == "CTRL":
        kws["highlight"] = kws["control"]
    return kws


@pytest.mark.filterwarnings("ignore::cdplot.errors.CdplotWarning")
@pytest.mark.parametrize(("draw", "k", "table_kws", "kws"), _cases())
def test_canvas_writes_what_matplotlib_writes(draw, k, table_kws, kws):
    table = _table(k, **table_kws)
    kws = _named(table, kws)
    options = {o: kws.pop(o) for o in ("test", "correction", "control") if o in kws}
    result = cdplot.compare(table, **options)
    want, got = _both(draw, result, **kws)
    n = assert_same_svg(want, got)
    assert n > 3 * k
    # every stable gid is there, in the same order
    ids = [g.get("id") for g in ET.fromstring(got).iter("{http://www.w3.org/2000/svg}g")]
    assert ids == [g.get("id") for g in ET.fromstring(want).iter("{http://www.w3.org/2000/svg}g")]


def test_other_fonts_and_options():
    # a font file and an installed family (matplotlib's own DejaVu, present everywhere), and
    # the CD diagram's on/off options
    import matplotlib

    serif = f"{matplotlib.get_data_path()}/fonts/ttf/DejaVuSerif.ttf"
    result = cdplot.compare(_table(12))
    assert_same_svg(*_both(cd_diagram, result, font=serif))
    assert_same_svg(*_both(rank_intervals, result, font="DejaVu Sans", reverse=True))
    assert_same_svg(*_both(cd_diagram, result, ranks=False, note=False, caption=False))
    assert_same_svg(*_both(significance_heatmap, result, annotate=True, caption=False))


def test_fonts_are_embedded_as_matplotlib_embeds_them():
    # the whole document, fonts included: the same @font-face subsets, byte for byte
    result = cdplot.compare(_table(5, long=False))
    want, got = _both(cd_diagram, result)
    assert "@font-face" in got
    css = re.compile(r"<style type=\"text/css\">(.*?)</style>", re.S)
    assert css.search(want).group(1) == css.search(got).group(1)
    assert_same_svg(want, got)
    with _svg.recording():
        canvas = cd_diagram(result)
    assert "@font-face" not in render_svg(canvas, embed_fonts=False)
    # deterministic: the same chart gives the same bytes
    assert render_svg(canvas) == got


def test_cjk_names_are_embedded_from_the_machine_font():
    if not _cjk_font():
        pytest.skip("no CJK font on this machine (Debian package fonts-noto-cjk)")
    table = _table(5, long=False)
    names = ["随机森林", "梯度提升 (XGBoost)", "支持向量机", "M3", "M4"]
    from cdplot.stats.scores import ScoreTable

    table = ScoreTable(values=table.values, methods=names, datasets=table.datasets)
    want, got = _both(cd_diagram, cdplot.compare(table))
    assert_same_svg(want, got)
    assert got.count("@font-face") == want.count("@font-face") >= 2


def test_user_properties_the_canvas_cannot_draw_go_through_matplotlib():
    result = cdplot.compare(_table(5, long=False))
    with _svg.recording():
        assert _svg.is_canvas(cd_diagram(result, label_kws={"color": "red", "alpha": 0.5}))
        assert _svg.is_canvas(cd_diagram(result, line_kws={"lw": 2, "solid_capstyle": "round"}))
        # a dashed line, a font style, an Axes given: drawn by matplotlib as before
        assert not _svg.is_canvas(cd_diagram(result, line_kws={"linestyle": "--"}))
        assert not _svg.is_canvas(cd_diagram(result, label_kws={"fontstyle": "italic"}))
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots()
        assert cd_diagram(result, ax=ax) is ax
        plt.close(fig)
    # and what the canvas draws from them is what matplotlib draws
    kws = {"label_kws": {"color": "#cc0000", "alpha": 0.5}, "line_kws": {"lw": 1.1}}
    assert_same_svg(*_both(cd_diagram, result, **kws))
    assert_same_svg(*_both(significance_heatmap, result, line_kws={"edgecolor": "k", "lw": 1}))


def test_a_canvas_is_written_only_as_svg(tmp_path):
    from cdplot.errors import CdplotError
    from cdplot.plot import save_figure

    with _svg.recording():
        canvas = cd_diagram(cdplot.compare(_table(4, long=False)))
    for name in ("cd.png", "cd.pdf"):
        with pytest.raises(CdplotError, match="SVG output only"):
            save_figure(canvas, tmp_path / name)
        assert not (tmp_path / name).exists()
    assert save_figure(canvas, tmp_path / "cd.svg").read_text().startswith("<?xml")
    # TikZ is laid out anew from the result the chart recorded, as from an Axes
    assert "tikzpicture" in save_figure(canvas, tmp_path / "cd.tex").read_text()
    # outside recording(), a chart is a matplotlib Axes as always
    assert not _svg.is_canvas(cd_diagram(cdplot.compare(_table(4, long=False))))


# ---- pixels: both documents rendered by a real browser ----------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _screenshot(svg_path, png_path, width, height):
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=2",
            f"--window-size={width},{height}",
            f"--screenshot={png_path}",
            svg_path.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    from matplotlib.image import imread

    return imread(png_path)


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium for headless rendering")
@pytest.mark.parametrize(
    ("draw", "k", "kws"),
    [
        pytest.param(cd_diagram, 30, {}, id="cd-k30"),
        pytest.param(rank_intervals, 20, {"highlight": "HL"}, id="ri-k20"),
        pytest.param(
            significance_heatmap, 8, {"test": "bonferroni-dunn", "control": "CTRL"}, id="hm-k8"
        ),
    ],
)
def test_chromium_draws_both_documents_alike(tmp_path, draw, k, kws):
    table = _table(k)
    kws = _named(table, kws)
    options = {o: kws.pop(o) for o in ("test", "correction", "control") if o in kws}
    want, got = _both(draw, cdplot.compare(table, **options), **kws)
    w, h = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', got).groups())
    size = (int(w * 4 / 3) + 2, int(h * 4 / 3) + 2)  # pt -> CSS px
    images = []
    for name, svg in (("mpl", want), ("canvas", got)):
        path = tmp_path / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        images.append(_screenshot(path, tmp_path / f"{name}.png", *size))
    a, b = images
    assert a.shape == b.shape
    assert a[..., :3].min() < 0.5  # something was drawn
    diff = np.abs(a[..., :3] - b[..., :3]).max(axis=-1)
    # sub-pixel rounding of coordinates (6 decimals) may flip an edge pixel's shade slightly
    assert (diff > 0.1).mean() < 1e-4, (diff > 0.1).sum()
