"""TikZ output, compiled with pdflatex and measured in the PDF.

Every picture is compiled (inside a minimal ``article`` and as the complete
``standalone=True`` document) and read back: pypdf for the text (every
method name present, escaped names printed as written), ``pdftotext
-bbox-layout`` for the word boxes (no two words overlap, every word inside
the picture) at k in {2, 4, 10, 30, 50} with 60-character names, in the
paper and paper-wide styles.
"""

import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.io import ScoreTable
from cdplot.plot._tikz import cd_tikz, intervals_tikz, latex_escape

PDFLATEX = shutil.which("pdflatex")


def _tikz_installed() -> bool:
    kpsewhich = shutil.which("kpsewhich")
    if PDFLATEX is None or kpsewhich is None:
        return False
    found = subprocess.run([kpsewhich, "tikz.sty"], capture_output=True, text=True)
    return bool(found.stdout.strip())


needs_latex = pytest.mark.skipif(
    not _tikz_installed() or shutil.which("pdftotext") is None,
    reason="pdflatex or pdftotext is missing (Debian packages texlive-latex-base, "
    "texlive-pictures, poppler-utils); TikZ output is not compiled",
)

ARTICLE = r"""\documentclass{article}
\usepackage{tikz}
\pagestyle{empty}
\begin{document}
\input{cd.tex}
\end{document}
"""


def long_name(i: int) -> str:
    """60 characters with natural break points, as in tests/plot/test_sweep.py."""
    base = f"Model {i:03d} gradient boosted trees (depth 6; lr 0.05), tuned"
    return (base + " x" * 30)[:60]


def table(k, names, n=30, seed=0):
    rng = np.random.default_rng(seed + k)
    values = 0.7 + np.linspace(0.08, 0.0, k)[None, :] + rng.normal(0, 0.03, (n, k))
    return ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(n)])


def compile_tex(tmp_path, tex, *, standalone):
    src = tmp_path / ("doc.tex" if not standalone else "cd.tex")
    if standalone:
        src.write_text(tex, encoding="utf-8")
    else:
        (tmp_path / "cd.tex").write_text(tex, encoding="utf-8")
        src.write_text(ARTICLE, encoding="utf-8")
    run = subprocess.run(
        [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", src.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    return src.with_suffix(".pdf")


def words(pdf):
    """(text, x0, y0, x1, y1) of every word, and the page size, from pdftotext -bbox-layout."""
    out = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    page = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
    found = [
        (m.group(5), *(float(m.group(i)) for i in range(1, 5)))
        for m in re.finditer(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
            out,
        )
    ]
    return found, (float(page.group(1)), float(page.group(2)))


# Glyphs pdflatex takes from the maths symbol fonts (cmsy, cmmi): pdftotext gives such a
# word the font's ascent and descent, about 2.5 times the text's height (a "±" at 7.5 bp
# measured 17 bp tall), so its box says nothing about where the glyph is.
MATH_GLYPHS = set("\u00b1\u2192\u2190\u2020\u00d7\u2212") | {chr(c) for c in range(0x3B1, 0x3CA)}


def overlaps(found, tol=0.3):
    bad = []
    found = [w for w in found if not set(w[0]) <= MATH_GLYPHS]
    items = sorted(found, key=lambda w: w[1])
    for n, a in enumerate(items):
        for b in items[n + 1 :]:
            if b[1] >= a[3] - tol:
                break
            if min(a[4], b[4]) - max(a[2], b[2]) > tol and min(a[3], b[3]) - max(a[1], b[1]) > tol:
                bad.append((a[0], b[0]))
    return bad


def pdf_text(pdf):
    from pypdf import PdfReader

    return "".join(page.extract_text() for page in PdfReader(str(pdf)).pages)


def squash(text):
    return "".join(text.split())


@needs_latex
@pytest.mark.parametrize(
    ("k", "style"),
    [(k, s) for k in (2, 4, 10, 30, 50) for s in ("paper", "paper-wide")] + [(100, "paper-wide")],
)
def test_compiled_words_never_overlap(tmp_path, k, style):
    res = cdplot.compare(table(k, [long_name(i) for i in range(k)]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        tex = cd_tikz(res, style=style, standalone=True)
    warned = [str(w.message) for w in caught if issubclass(w.category, CdplotWarning)]
    pdf = compile_tex(tmp_path, tex, standalone=True)
    found, (w, h) = words(pdf)
    # exactly the style's width: 3.5 in or 7 in, in big points
    assert w == pytest.approx(cdplot.plot.STYLES[style].width * 72, abs=0.01)
    outside = [t for t, x0, y0, x1, y1 in found if x0 < -0.01 or y0 < -0.01 or x1 > w or y1 > h]
    assert outside == []
    if not warned:
        assert overlaps(found) == []
    text = squash(pdf_text(pdf))
    for name in res.methods:
        # shortened names are listed in full in the key (wrapped names in two pieces)
        assert squash(name) in text


@needs_latex
def test_article_and_standalone_compile_to_the_same_words(tmp_path, demsar):
    tex = cd_tikz(demsar)
    assert tex.lstrip().startswith("%")
    assert r"\begin{tikzpicture}" in tex
    assert r"\documentclass" not in tex
    a = tmp_path / "a"
    s = tmp_path / "s"
    a.mkdir()
    s.mkdir()
    in_article = pdf_text(compile_tex(a, tex, standalone=False))
    alone = pdf_text(compile_tex(s, cd_tikz(demsar, standalone=True), standalone=True))
    for name in demsar.methods:
        assert name in in_article
        assert name in alone
    # Demsar (2006), Figure 1: CD = 1.25 for k = 4, N = 14, Nemenyi at alpha = 0.05
    assert "CD = 1.25" in " ".join(alone.split())


ESCAPED = [
    "A&B",
    "50% trim",
    "cost $1",
    "#3 model",
    "k_NN",
    "{set}",
    "approx~1",
    "x^2 boost",
    r"back\slash",
    "a<b>c|d",
    "double--dash",
    "Méthode été",
]


def test_latex_escape_reference():
    # each special character of LaTeX (The LaTeX Companion, 2nd ed., section 7.1.1)
    assert latex_escape("& % $ # _ { } ~ ^ \\") == (
        r"\& \% \$ \# \_ \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )
    assert latex_escape("a--b") == r"a-\kern0pt -b"
    assert latex_escape("Méthode") == "Méthode"  # non-ASCII passed through as UTF-8


def test_bidi_controls_print_as_the_terminal_shows_them():
    # issue 32: U+202E in a name stopped pdflatex ("Unicode character U+202E not set up")
    assert latex_escape("A\u202eB") == r"A\textbackslash{}u202eB"
    for ch in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
        assert ch not in latex_escape(f"x{ch}y")


@needs_latex
def test_a_name_with_a_right_to_left_override_compiles(tmp_path):
    names = ["A\u202eB", "C\u2066D\u2069", "E"]
    res = cdplot.compare(table(len(names), names))
    tex = cd_tikz(res, standalone=True)
    text = squash(pdf_text(compile_tex(tmp_path, tex, standalone=True)))
    assert "\\u202eB" in text


@needs_latex
def test_escaped_names_print_as_written(tmp_path):
    res = cdplot.compare(table(len(ESCAPED), ESCAPED))
    tex = cd_tikz(res, style="paper-wide", standalone=True)
    text = squash(pdf_text(compile_tex(tmp_path, tex, standalone=True)))
    # what Computer Modern in LaTeX's default OT1 encoding prints for these: the
    # underscore is a rule (no glyph to extract), tilde and circumflex are accents, and
    # accented letters are built from an accent and a letter
    ot1 = str.maketrans({"_": "", "~": "\u02dc", "^": "\u02c6"})
    text = text.replace("\u00b4e", "\u00e9")
    for name in ESCAPED:
        assert squash(name.translate(ot1)) in text, name


@needs_latex
def test_control_mode_says_only_pairs_with_the_control(tmp_path):
    data = cdplot.load_example("demsar2006")
    res = cdplot.compare(data, test="bonferroni-dunn", control="C4.5")
    tex = cd_tikz(res, standalone=True, highlight="C4.5")
    # no groups against a control: only the CD interval, no clique bars of bar width
    assert "line width=2.2bp" not in tex
    text = " ".join(pdf_text(compile_tex(tmp_path, tex, standalone=True)).split())
    assert "only pairs with the control C4.5 were tested" in text
    with pytest.raises(CdplotError, match="highlight='C4.5\\+m'"):
        cd_tikz(res, highlight="C4.5+m")


def test_save_figure_writes_the_drawn_chart_as_tikz(tmp_path, demsar):
    # issue 12: save_figure(ax, "cd.tex") gives what cd_tikz gives for the options drawn with
    ax = cdplot.cd_diagram(demsar, reverse=True, style="paper-wide", highlight="C4.5")
    out = cdplot.save_figure(ax, tmp_path / "cd.tex")
    assert out.read_text(encoding="utf-8") == cd_tikz(
        demsar, reverse=True, style="paper-wide", highlight="C4.5"
    )
    ax = cdplot.rank_intervals(demsar, highlight="C4.5")
    cdplot.save_figure(ax.figure, tmp_path / "iv.tex", standalone=True)
    assert (tmp_path / "iv.tex").read_text(encoding="utf-8") == intervals_tikz(
        demsar, highlight="C4.5", standalone=True
    )


def test_save_figure_tex_refuses_what_it_cannot_write(tmp_path, demsar):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2)
    cdplot.cd_diagram(demsar, ax=axes[0])
    cdplot.cd_diagram(demsar, ax=axes[1])
    with pytest.raises(CdplotError, match="holds 2"):
        cdplot.save_figure(fig, tmp_path / "cd.tex")
    with pytest.raises(CdplotError, match="holds 0"):
        cdplot.save_figure(cdplot.significance_heatmap(demsar), tmp_path / "cd.tex")
    with pytest.raises(CdplotError, match="standalone=True applies to .tex"):
        cdplot.save_figure(axes[0], tmp_path / "cd.svg", standalone=True)
    assert list(tmp_path.iterdir()) == []
    plt.close(fig)


@needs_latex
def test_save_figure_tex_compiles(tmp_path, demsar):
    ax = cdplot.cd_diagram(demsar)
    cdplot.save_figure(ax, tmp_path / "cd.tex")
    pdf = compile_tex(tmp_path, (tmp_path / "cd.tex").read_text(encoding="utf-8"), standalone=False)
    assert "C4.5+m+cf" in pdf_text(pdf)


def test_writes_atomically_and_validates(tmp_path, demsar):
    out = tmp_path / "cd.tex"
    tex = cd_tikz(demsar, path=out)
    assert out.read_text(encoding="utf-8") == tex
    assert [p.name for p in tmp_path.iterdir()] == ["cd.tex"]
    assert cd_tikz(demsar) == tex  # the same bytes on every run
    with pytest.raises(CdplotError, match="standalone='yes'"):
        cd_tikz(demsar, standalone="yes")
    with pytest.raises(CdplotError, match="style="):
        cd_tikz(demsar, style="poster")


def test_same_layout_as_the_figure(demsar):
    """The picture is placed by cd_layout: its clique bar is where the layout puts it."""
    from cdplot.plot._common import measurer
    from cdplot.plot._layout import cd_layout
    from cdplot.plot._styles import STYLES
    from cdplot.plot._tikz import _num, _tex_measure

    names = list(demsar.methods)
    lay = cd_layout(
        names,
        list(demsar.average_ranks),
        measure=_tex_measure(measurer("serif")),
        style=STYLES["paper"],
        cliques=[tuple(names.index(m) for m in c) for c in demsar.cliques],
        cd=demsar.critical_difference,
        notes=[],
        caption=cdplot.plot._common.caption_text(demsar),
    )
    tex = cd_tikz(demsar)
    bars = [b for b in lay.bars if b.role == "clique"]
    assert bars
    for bar in bars:
        path = f"({_num(bar.x0)},{_num(bar.y)}) -- ({_num(bar.x1)},{_num(bar.y)});"
        assert path in tex
    assert f"rectangle ({_num(lay.width)},{_num(lay.height)});" in tex


@needs_latex
def test_tied_outsider_crossing_drawn_and_said(tmp_path):
    """The gallery's Wilcoxon case: a method tied with a member crosses its bar with a gap."""
    data = Path(__file__).resolve().parents[2] / "gallery" / "data" / "tied-outsider.csv"
    res = cdplot.compare(data, test="wilcoxon")
    tex = cd_tikz(res, standalone=True)
    # the white gap under the outsider's line, as cd_diagram draws it (cd-crossing-*)
    assert re.search(r"\\draw\[white, line width=[\d.]+bp", tex)
    text = " ".join(pdf_text(compile_tex(tmp_path, tex, standalone=True)).split())
    assert "has the same average rank as" in text
    assert "with a white gap" in text


@needs_latex
@pytest.mark.parametrize(
    ("k", "style", "opts"),
    [
        (2, "paper", {}),
        (10, "paper", {"highlight": 0}),
        (30, "paper-wide", {"test": "bonferroni-dunn", "control": 15}),
        (50, "paper-wide", {}),
    ],
)
def test_intervals_compiled_words_never_overlap(tmp_path, k, style, opts):
    names = [long_name(i) for i in range(k)]
    opts = {key: names[v] if key in ("highlight", "control") else v for key, v in opts.items()}
    highlight = opts.pop("highlight", None)
    res = cdplot.compare(table(k, names), **opts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        tex = intervals_tikz(res, style=style, highlight=highlight, standalone=True)
    warned = [w for w in caught if issubclass(w.category, CdplotWarning)]
    pdf = compile_tex(tmp_path, tex, standalone=True)
    found, (w, h) = words(pdf)
    assert w == pytest.approx(cdplot.plot.STYLES[style].width * 72, abs=0.01)
    assert [t for t, x0, y0, x1, y1 in found if x0 < -0.01 or y0 < -0.01 or x1 > w or y1 > h] == []
    if not warned:
        assert overlaps(found) == []
    text = " ".join(pdf_text(pdf).split())
    for name in res.methods:
        assert squash(name) in squash(text)
    if res.control is not None:
        assert "only pairs with the control were tested" in text
    with pytest.raises(CdplotError, match="critical difference"):
        intervals_tikz(cdplot.compare(table(3, ["a", "b", "c"]), test="wilcoxon"))


def test_intervals_axis_break_as_the_figure():
    """The TikZ chart draws the axis and break mark of the layout, from the same function."""
    from cdplot.plot._common import measurer
    from cdplot.plot._intervals import _interval_axis
    from cdplot.plot._layout import interval_layout
    from cdplot.plot._styles import STYLES
    from cdplot.plot._tikz import _num, _tex_measure

    names = [f"M{i}" for i in range(100)]
    res = cdplot.compare(table(100, names, n=300))
    tex = intervals_tikz(res, style="paper-wide", caption=False)
    lay = interval_layout(
        names,
        [float(r) for r in res.average_ranks],
        res.critical_difference / 2,
        measure=_tex_measure(measurer("serif")),
        style=STYLES["paper-wide"],
    )
    assert lay.rank_lo > 1
    assert lay.axis_break
    (_ax, _ay), (mx, my) = _interval_axis(lay)
    first_stroke = f"({_num(mx[0])},{_num(my[0])}) -- ({_num(mx[1])},{_num(my[1])})"
    assert first_stroke in tex
    full = intervals_tikz(res, style="paper-wide", caption=False, full_axis=True)
    assert full.count(r"\draw") == tex.count(r"\draw") - 1


def test_intervals_tikz_draws_the_parts_the_figure_draws(tmp_path, demsar):
    ax = cdplot.rank_intervals(demsar, methods=["C4.5", "C4.5+m"])
    cdplot.save_figure(ax, tmp_path / "part.tex")
    tex = (tmp_path / "part.tex").read_text(encoding="utf-8")
    assert tex == intervals_tikz(demsar, methods=["C4.5", "C4.5+m"])
    assert "C4.5+m" in tex
    assert "C4.5+cf" not in tex


def _node_texts(tex, color):
    """The texts of the one-line nodes set flush left below the diagram in ``color`` (notes:
    cdplotmuted; the key: cdplotink), in order."""
    return re.findall(
        rf"\\node\[anchor=north west, [^\]]*text={color}, [^\]]*\] at \([^)]*\) \{{(.*)\}};", tex
    )


def test_notes_agree_with_the_figure_and_name_keyed_methods_by_tag():
    # issue 27, 6: the picture's notes are formatted from the same templates, once its own
    # labels are decided: tags for shortened names, and the pointer when a list is cut
    k = 45
    res = cdplot.compare(
        table(k, [long_name(i) for i in range(k)]), test="wilcoxon", correction="holm"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CdplotWarning)
        tex = cd_tikz(res)
        ax = cdplot.cd_diagram(res)
    notes = " ".join(_node_texts(tex, "cdplotmuted"))
    assert "boosted" not in notes
    assert "No bar joins [" in notes
    assert "(cdplot~plot~-o~view.html)." in notes
    key = [t.get_text() for t in ax.texts if t.get_gid() == "cd-key"]
    tex_key = [t for t in _node_texts(tex, "cdplotink") if re.match(r"\[\d+\]~", t)]
    # both placed the same names in the key: then their notes read the same
    assert tex_key == [latex_escape(e) for e in key]
    figure_notes = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-note")
    assert squash(notes) == squash(latex_escape(figure_notes))
