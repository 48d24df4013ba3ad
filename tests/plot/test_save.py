"""save_figure and render_svg: formats, determinism, embedded TrueType fonts, atomic writes."""

import io
import os

import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.plot import render_svg, save_figure


@pytest.fixture
def ax(demsar):
    return cdplot.cd_diagram(demsar, highlight="C4.5")


@pytest.mark.parametrize("ext", ["png", "svg", "pdf"])
def test_format_by_extension(ax, tmp_path, ext):
    out = save_figure(ax, tmp_path / f"cd.{ext}", dpi=72)
    head = out.read_bytes()[:8]
    assert {
        "png": head.startswith(b"\x89PNG"),
        "svg": b"<?xml" in head,
        "pdf": head.startswith(b"%PDF"),
    }[ext]
    assert [p.name for p in tmp_path.iterdir()] == [f"cd.{ext}"]  # no temporary left behind


def test_explicit_format_and_bad_extension(ax, tmp_path):
    out = save_figure(ax, tmp_path / "figure.data", format="svg")
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    with pytest.raises(CdplotError, match=r"\.jpg"):
        save_figure(ax, tmp_path / "cd.jpg")
    with pytest.raises(CdplotError, match="format='eps'"):
        save_figure(ax, tmp_path / "cd.svg", format="eps")
    with pytest.raises(CdplotError, match="dpi=0"):
        save_figure(ax, tmp_path / "cd.png", dpi=0)
    assert not (tmp_path / "cd.jpg").exists()
    assert not (tmp_path / "cd.png").exists()


def test_failed_write_leaves_previous_file(ax, tmp_path, monkeypatch):
    out = tmp_path / "cd.svg"
    out.write_text("previous")

    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(type(ax.figure), "savefig", boom)
    with pytest.raises(RuntimeError):
        save_figure(ax, out)
    assert out.read_text() == "previous"
    assert sorted(os.listdir(tmp_path)) == ["cd.svg"]


def test_svg_and_pdf_are_byte_identical_across_renders(demsar, tmp_path):
    outputs = []
    for n in range(2):
        ax = cdplot.cd_diagram(demsar)
        save_figure(ax, tmp_path / f"a{n}.svg")
        save_figure(ax, tmp_path / f"a{n}.pdf")
        outputs.append(
            ((tmp_path / f"a{n}.svg").read_bytes(), (tmp_path / f"a{n}.pdf").read_bytes())
        )
    assert outputs[0][0] == outputs[1][0]
    assert outputs[0][1] == outputs[1][1]
    assert render_svg(cdplot.cd_diagram(demsar)) == render_svg(cdplot.cd_diagram(demsar))


def test_svg_keeps_text_as_text_unless_paths_asked(ax):
    svg = render_svg(ax)
    assert "<text" in svg
    assert "C4.5+m+cf" in svg
    assert "Lato" in svg
    paths = render_svg(ax, text_as_paths=True)
    assert "<text" not in paths


def test_svg_without_embedded_fonts_keeps_its_text(ax):
    # a report declares its fonts once for the page and takes each figure without them
    svg = render_svg(ax, embed_fonts=False)
    assert "@font-face" not in svg
    assert "C4.5+m+cf" in svg
    assert "@font-face" in render_svg(ax)


def test_user_label_and_line_properties_reach_the_svg(demsar):
    import xml.etree.ElementTree as ET

    def styles(ax, tag, prefix):
        root = ET.fromstring(render_svg(ax))
        return [
            dict(p.split(": ", 1) for p in e.get("style", "").split("; ") if p)
            for g in root.iter("{http://www.w3.org/2000/svg}g")
            if (g.get("id") or "").startswith(prefix)
            for e in g.iter(f"{{http://www.w3.org/2000/svg}}{tag}")
        ]

    ax = cdplot.cd_diagram(
        demsar, label_kws={"color": "#cc0000", "alpha": 0.5}, line_kws={"lw": 1.7}
    )
    names = styles(ax, "text", "cd-name-")
    assert names
    assert {(s["fill"], s.get("opacity")) for s in names} == {("#cc0000", "0.5")}
    assert "1.7" in {s.get("stroke-width") for s in styles(ax, "path", "cd-")}
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    hm = cdplot.significance_heatmap(res, line_kws={"edgecolor": "#00aa00", "lw": 1})
    assert "#00aa00" in {s.get("stroke") for s in styles(hm, "path", "hm-")}


def _pdf_font_subtypes(data: bytes) -> list[str]:
    """The /Subtype of every font on the PDF's first page (pypdf)."""
    pypdf = pytest.importorskip("pypdf")
    fonts = pypdf.PdfReader(io.BytesIO(data)).pages[0]["/Resources"]["/Font"]
    return [str(ref.get_object()["/Subtype"]) for ref in fonts.values()]


@pytest.mark.parametrize("font", ["sans", "serif"])
def test_pdf_embeds_truetype_not_type3(demsar, tmp_path, font):
    pypdf = pytest.importorskip("pypdf")
    ax = cdplot.cd_diagram(demsar, font=font, highlight="C4.5")
    out = save_figure(ax, tmp_path / "cd.pdf")
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    subtypes = []
    for ref in fonts.values():
        f = ref.get_object()
        subtypes.append(f["/Subtype"])
        if f["/Subtype"] == "/Type0":
            desc = f["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        else:
            desc = f["/FontDescriptor"].get_object()
        assert "/FontFile2" in desc
    assert "/Type3" not in subtypes
    assert any(s in ("/TrueType", "/Type0") for s in subtypes)
    names = " ".join(str(ref.get_object()["/BaseFont"]) for ref in fonts.values())
    assert ("Lato" if font == "sans" else "CMU") in names


def test_bad_object_to_save(tmp_path):
    with pytest.raises(CdplotError, match="Axes or Figure"):
        save_figure("not a figure", tmp_path / "x.png")


def test_matplotlib_savefig_embeds_truetype_and_draws_svg_glyphs(demsar, tmp_path):
    # issue 27, 3: IEEE's and ACM's checkers reject the Type 3 fonts matplotlib embeds by
    # default; a user who saves with savefig, not save_figure, gets TrueType too
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    before = {k: mpl.rcParams[k] for k in ("pdf.fonttype", "svg.fonttype", "ps.fonttype")}
    ax = cdplot.cd_diagram(demsar)
    ax.figure.savefig(tmp_path / "alone.pdf")
    fig, axs = plt.subplots(1, 2)
    cdplot.cd_diagram(demsar, ax=axs[0])
    axs[1].plot([1, 2], [3, 4])
    fig.savefig(tmp_path / "grid.pdf")
    plt.savefig(tmp_path / "grid.svg")
    buf = io.BytesIO()
    fig.savefig(buf, format="svg")
    for name in ("alone.pdf", "grid.pdf"):
        subtypes = _pdf_font_subtypes((tmp_path / name).read_bytes())
        assert subtypes
        assert "/Type3" not in subtypes, name
    for svg in ((tmp_path / "grid.svg").read_text(encoding="utf-8"), buf.getvalue().decode()):
        # glyph outlines, as save_figure writes by default: exact in librsvg too (issue 27, 4)
        assert "<text" not in svg
        assert "<!-- C4.5+m+cf -->" in svg  # matplotlib names each drawn string
    # a user who asks matplotlib for SVG text gets the font subsets save_figure embeds
    with mpl.rc_context({"svg.fonttype": "none"}):
        buf = io.BytesIO()
        fig.savefig(buf, format="svg")
    assert "C4.5+m+cf" in buf.getvalue().decode()
    assert "@font-face" in buf.getvalue().decode()
    # nothing global changed, and a figure cdplot never drew keeps matplotlib's defaults
    assert {k: mpl.rcParams[k] for k in before} == before
    other = plt.figure()
    other.text(0.5, 0.5, "plain")
    other.savefig(tmp_path / "plain.pdf")
    assert _pdf_font_subtypes((tmp_path / "plain.pdf").read_bytes()) == ["/Type3"]


def test_save_figure_is_not_changed_by_the_figures_savefig(demsar):
    # save_figure calls matplotlib's savefig itself: paths stay paths, fonts are embedded once
    import pickle

    ax = cdplot.cd_diagram(demsar)
    assert "<text" not in render_svg(ax, text_as_paths=True)
    assert render_svg(ax).count("@font-face {font-family: 'Lato'; font-weight: 400") == 1
    # the figure still pickles (its savefig is a partial of a module function)
    fig = pickle.loads(pickle.dumps(ax.figure))
    assert fig.savefig.args == (fig,)


def _png_height_in(path, dpi):
    import struct

    # PNG IHDR: width and height are the big-endian words at bytes 16 and 20
    return struct.unpack(">I", path.read_bytes()[20:24])[0] / dpi


def test_a_title_set_on_the_axes_is_kept(ax, tmp_path):
    # a cdplot figure is sized to its content, so the title sits above its top edge, where
    # a plain save cut it off (issue 29, item 4)
    plain = save_figure(ax, tmp_path / "plain.png", dpi=100)
    ax.set_title("My title")
    titled = save_figure(ax, tmp_path / "titled.png", dpi=100)
    fig = ax.figure
    top = ax.title.get_window_extent(fig.canvas.get_renderer()).y1 / fig.dpi
    assert top > fig.get_figheight()  # outside the figure: the case this is about
    assert _png_height_in(plain, 100) == pytest.approx(fig.get_figheight(), abs=0.01)
    assert _png_height_in(titled, 100) >= top
    svg = save_figure(ax, tmp_path / "titled.svg")
    assert "My title" in svg.read_text(encoding="utf-8")


def test_a_figure_without_additions_is_saved_as_before(ax, tmp_path):
    from cdplot.plot._save import _kept_area

    assert _kept_area(ax.figure) is None
    ax.set_title("inside", y=0.5)  # within the figure: nothing to grow
    assert _kept_area(ax.figure) is None
