"""Bundled fonts: present with licences, TrueType outlines, registered without touching rcParams."""

import matplotlib as mpl
import pytest

import cdplot
from cdplot._resources import fonts_dir
from cdplot.errors import CdplotError
from cdplot.plot._fonts import FONTS, font_family, register_fonts


def test_files_and_licences_present():
    folder = fonts_dir()
    for _family, files in FONTS.values():
        for name in files:
            assert (folder / name).is_file()
    assert (folder / "README.md").is_file()
    assert (folder / "lato" / "COPYRIGHT.debian").is_file()
    assert (folder / "cmu-serif" / "OFL.txt").is_file()
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert total < 3_000_000


def test_fonts_are_truetype_outlines():
    # matplotlib embeds only glyf-based fonts as Type 42
    from fontTools.ttLib import TTFont

    for _family, files in FONTS.values():
        for name in files:
            with TTFont(fonts_dir() / name, lazy=True) as tt:
                assert "glyf" in tt
                assert "CFF " not in tt
                assert tt["OS/2"].fsType & 0x2 == 0  # embedding not restricted


@pytest.mark.parametrize("font", ["sans", "serif"])
def test_registered_fonts_are_found_by_name(font):
    from matplotlib.font_manager import FontProperties, findfont

    register_fonts()
    family = font_family(font)[0]
    path = findfont(FontProperties(family=family), fallback_to_default=False)
    assert str(fonts_dir()) in path


def test_text_uses_the_bundled_family_and_rcparams_are_untouched(demsar):
    before = dict(mpl.rcParams)
    ax = cdplot.cd_diagram(demsar, font="serif")
    assert dict(mpl.rcParams) == before
    name = next(t for t in ax.texts if t.get_gid().startswith("cd-name"))
    assert name.get_fontfamily()[0] == "CMU Serif"


def test_unknown_font_is_an_error(demsar):
    with pytest.raises(CdplotError, match="font='helvetica'"):
        cdplot.cd_diagram(demsar, font="helvetica")


def _result_with(names):
    import numpy as np

    from cdplot.io import ScoreTable

    rng = np.random.default_rng(3)
    k = len(names)
    values = 0.7 + np.linspace(0.05, 0, k)[None, :] + rng.normal(0, 0.03, (12, k))
    return cdplot.compare(
        ScoreTable(values=values, methods=names, datasets=[f"d{i}" for i in range(12)])
    )


def test_font_file_path_and_installed_family(demsar):
    lato_bold = str(fonts_dir() / "lato" / "Lato-Bold.ttf")
    ax = cdplot.cd_diagram(demsar, font=lato_bold)
    name = next(t for t in ax.texts if t.get_gid() == "cd-name-0")
    assert name.get_fontfamily()[0] == "Lato"
    ax = cdplot.cd_diagram(demsar, font="DejaVu Sans")  # ships with matplotlib
    name = next(t for t in ax.texts if t.get_gid() == "cd-name-0")
    assert name.get_fontfamily()[0] == "DejaVu Sans"
    with pytest.raises(CdplotError, match="no such font file"):
        cdplot.cd_diagram(demsar, font="/nonexistent/font.ttf")


def test_names_no_font_can_draw_are_warned_about(monkeypatch):
    from cdplot.errors import CdplotWarning
    from cdplot.plot import _fonts as fonts

    # a machine without fallback fonts: the warning names the characters and the fix
    monkeypatch.setattr(fonts, "_candidates", lambda: ())
    monkeypatch.setattr(fonts, "_extra_fallbacks", [])
    res = _result_with(["alpha", "\U0001f642 smiley", "gamma"])
    with pytest.warns(CdplotWarning, match="\U0001f642.*font=") as info:
        cdplot.cd_diagram(res)
    assert "empty boxes" in str(info[0].message)


ARABIC = "\u0627\u0644\u063a\u0627\u0628\u0629"  # "the forest"


def test_right_to_left_is_shaped_from_matplotlib_3_11_and_warned_about_before():
    # issue 27, 9: matplotlib 3.11's libraqm joins Arabic letters in PNG and PDF, so the
    # warning that they are drawn unjoined holds only for older matplotlib (the floor, 3.10)
    import warnings

    import matplotlib
    from packaging.version import Version

    from cdplot.errors import CdplotWarning
    from cdplot.plot._fonts import shapes_right_to_left

    shaped = shapes_right_to_left()
    assert shaped == (Version(matplotlib.__version__) >= Version("3.11"))
    res = _result_with([ARABIC, "beta", "gamma"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        cdplot.cd_diagram(res)
    said = [str(w.message) for w in caught if "right-to-left" in str(w.message)]
    assert len(said) == (0 if shaped else 1)
    if said:
        assert "matplotlib 3.11" in said[0]


def test_lines_mixing_right_to_left_and_latin_read_left_to_right():
    # issue 27, 9: a note line starting with an Arabic name took a right-to-left base
    # direction and moved its closing punctuation to the front
    from cdplot.plot._fonts import LRM, shapes_right_to_left

    res = _result_with([f"{ARABIC} (tuned)", "beta", f"{ARABIC} 2", "delta"])
    ax = cdplot.cd_diagram(res)  # the key and the notes name the methods too
    mixed = [t.get_text() for t in ax.texts if any(ch in t.get_text() for ch in ARABIC)]
    assert mixed
    latin = [t for t in mixed if any(c.isascii() and c.isalnum() for c in t)]
    assert latin
    if shapes_right_to_left():
        assert all(t.startswith(LRM) for t in latin)
    else:  # nothing is reordered there, and the mark would be a missing glyph
        assert not any(LRM in t for t in mixed)
    # text that is Arabic alone keeps its own direction
    assert all(not t.startswith(LRM) for t in mixed if t not in latin)


def test_cjk_names_get_real_glyphs_when_the_machine_has_a_font():
    import warnings

    from matplotlib.font_manager import findSystemFonts, get_font

    from cdplot.errors import CdplotWarning
    from cdplot.plot import _fonts as fonts

    if not any("cjk" in p.lower() for p in findSystemFonts()):
        pytest.skip("no CJK font on this machine (Debian package fonts-noto-cjk)")
    res = _result_with(["随机森林", "勾配ブースティング", "서포트 벡터 머신"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", CdplotWarning)
        ax = cdplot.cd_diagram(res)
    families = next(t for t in ax.texts if t.get_gid() == "cd-name-0").get_fontfamily()
    cjk = [f for f in families if "CJK" in f]
    assert cjk
    assert any(
        get_font(p).get_char_index(ord("随")) for p in fonts._candidates() if "CJK" in p.upper()
    )
