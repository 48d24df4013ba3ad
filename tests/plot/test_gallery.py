"""The gallery script runs, and makes every figure the README shows."""

import importlib.util
import shlex
import shutil
from pathlib import Path

GALLERY = Path(__file__).resolve().parents[2] / "gallery"


def _load():
    spec = importlib.util.spec_from_file_location("make_gallery", GALLERY / "make_gallery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gallery_script_makes_every_figure(tmp_path):
    gallery = _load()
    assert gallery.main(["--out", str(tmp_path), "--dpi", "30"]) == 0
    made = sorted(p.name for p in tmp_path.glob("*.png"))
    tex = [name for name, _title, _cmd in gallery.tex_figures(gallery.DATA)]
    tex += [name for name, _title, _cmd in gallery.table_figures(gallery.DATA)]
    if not (shutil.which("pdflatex") and shutil.which("pdftoppm")):
        tex = []  # the script says it skipped them (Debian texlive-latex-base, -pictures)
    if shutil.which("chromium") or shutil.which("chromium-browser"):
        tex += [name for name, _title, _cmd in gallery.explorer_figures(gallery.DATA)]
    if shutil.which("rsvg-convert"):
        tex += [name for name, _title, _code in gallery.rsvg_figures()]
    expected = sorted(
        [name for name, _title, _cmd in gallery.figures(gallery.DATA)]
        + [name for name, _title, _code in gallery.python_figures()]
        + tex
    )
    assert made == expected
    # one figure per metric of Yang's Table 9, then all six as panels and as a profile
    assert len([n for n in made if n.startswith("yang-table9-")]) == 6 + 2


def test_readme_shows_every_figure_with_its_command():
    gallery = _load()
    readme = (GALLERY / "README.md").read_text(encoding="utf-8")
    for name, _title, cmd in gallery.figures(gallery.DATA):
        assert f"]({name})" in readme
        assert f"cdplot {shlex.join(cmd)} -o gallery/{name}" in readme


def test_readme_shows_the_code_of_python_figures():
    gallery = _load()
    readme = (GALLERY / "README.md").read_text(encoding="utf-8")
    for name, _title, code in gallery.python_figures():
        assert f"]({name})" in readme
        shown = code.replace("OUT", f'"gallery/{name}"').replace("DPI", "150")
        assert shown in readme


def test_readme_shows_explorer_pages_with_their_commands():
    gallery = _load()
    readme = (GALLERY / "README.md").read_text(encoding="utf-8")
    for name, _title, cmd in gallery.explorer_figures(gallery.DATA):
        page = name.replace(".png", ".html")
        assert f"]({name})" in readme
        assert f"cdplot {shlex.join(cmd)} -o gallery/{page}" in readme
        assert f"#select={gallery.EXPLORER_SELECTED}" in readme


def test_readme_shows_tikz_figures_with_their_commands():
    gallery = _load()
    readme = (GALLERY / "README.md").read_text(encoding="utf-8")
    for name, _title, cmd in gallery.tex_figures(gallery.DATA):
        tex = name.replace(".png", ".tex")
        assert f"]({name})" in readme
        assert f"cdplot {shlex.join(cmd)} -o gallery/{tex} --standalone" in readme
        assert (GALLERY / tex).is_file()


def test_readme_shows_paper_tables_with_their_commands():
    gallery = _load()
    readme = (GALLERY / "README.md").read_text(encoding="utf-8")
    for name, _title, cmd in gallery.table_figures(gallery.DATA):
        tex = name.replace(".png", ".tex")
        assert f"]({name})" in readme
        assert f"cdplot {shlex.join(cmd)} -o gallery/{tex}" in readme
        assert (GALLERY / tex).is_file()


def test_readme_shows_rsvg_figures_with_their_code_and_command():
    gallery = _load()
    readme = (GALLERY / "README.md").read_text(encoding="utf-8")
    for name, _title, code in gallery.rsvg_figures():
        svg = name.replace("-rsvg.png", ".svg")
        assert f"]({name})" in readme
        assert code.replace("SVG", f'"gallery/{svg}"') in readme
        command = gallery.rsvg_command(f"gallery/{svg}", f"gallery/{name}", 150)
        assert shlex.join(command) in readme
        assert (GALLERY / svg).is_file()
