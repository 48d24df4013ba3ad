"""Bundled fonts: present with licences, TrueType outlines, registered without touching rcParams."""

import matplotlib as mpl
import pytest

import cdplot
from cdplot._resources import fonts_dir
from cdplot.errors import CdplotError
from cdplot.plot.fonts import FONTS, font_family, register_fonts


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
