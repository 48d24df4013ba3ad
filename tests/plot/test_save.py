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

    monkeypatch.setattr(ax.figure, "savefig", boom)
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
