"""The documentation site builds without a warning, and its code runs.

The user guide and the migration page are doctests (run here with or without Sphinx);
the build itself needs the ``docs`` extra (``pip install -e ".[docs]"``) and is skipped,
saying so, without it.  One build serves the checks on its output: every public name of
the flat namespaces has an entry, and the CLI page holds every command's options.
"""

import doctest
import html as html_lib
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
NAMESPACES = ("cdplot.stats", "cdplot.io", "cdplot.plot", "cdplot.reporting")


@pytest.mark.parametrize("page", ["guide.rst", "migration.rst"])
def test_the_pages_code_runs(page, tmp_path, monkeypatch):
    if page == "migration.rst":
        pytest.importorskip("pandas", reason="the migration page's examples use a DataFrame")
    monkeypatch.chdir(tmp_path)  # the examples write files into an empty folder
    try:
        result = doctest.testfile(
            str(DOCS / page),
            module_relative=False,
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        )
    finally:
        plt.close("all")
    assert result.attempted >= 15, "the page lost its examples"
    assert result.failed == 0


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    for module in ("sphinx", "numpydoc"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (the docs extra: pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("html")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(out / ".doctrees"), str(DOCS), str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600,
    )  # fmt: skip
    # -W makes any warning (a broken reference, a malformed docstring, a missing gallery
    # picture) an error; the output is shown so that the failure names it
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    assert "ERROR" not in proc.stderr, proc.stderr
    return out


def test_every_public_name_has_an_entry(html):
    text = "".join(p.read_text(encoding="utf-8") for p in (html / "api").glob("*.html"))
    missing = [
        f"{ns}.{name}"
        for ns in NAMESPACES
        for name in importlib.import_module(ns).__all__
        if f'id="{ns}.{name}"' not in text
    ]
    assert not missing
    top = (html / "api" / "cdplot.html").read_text(encoding="utf-8")
    import cdplot

    unlisted = [n for n in cdplot.__all__ if n != "__version__" and f"cdplot.{n}<" not in top]
    assert not unlisted


def test_the_cli_page_holds_every_command(html):
    from cdplot.cli import build_parser, command_flags

    page = (html / "cli.html").read_text(encoding="utf-8")
    parser = build_parser()
    for name, sub in parser.commands.items():
        assert f'id="cdplot-{name}"' in page
        for actions in command_flags(sub).values():
            for action in actions:
                for flag in action.option_strings:
                    assert flag in page, (name, flag)


def test_the_gallery_page_shows_every_picture(html):
    page = (html / "gallery.html").read_text(encoding="utf-8")
    pictures = sorted(p.name for p in (ROOT / "gallery").glob("*.png"))
    readme = (ROOT / "gallery" / "README.md").read_text(encoding="utf-8")
    shown = [p for p in pictures if f"]({p})" in readme]
    assert len(shown) >= 20
    for picture in shown:
        assert f'src="_images/{picture}"' in page, picture
        assert (html / "_images" / picture).is_file()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# Writes, into the page, every table cell whose content reaches past the cell's right edge
# (with table-layout: fixed a long name does not widen its column: it runs over the next).
MEASURE_CELLS = """
<script>
window.addEventListener("load", () => document.fonts.ready.then(() => {
  const out = [];
  for (const td of document.querySelectorAll("table.docutils td, table.docutils th")) {
    const right = td.getBoundingClientRect().right;
    for (const el of td.querySelectorAll("*")) {
      const over = el.getBoundingClientRect().right - right;
      if (over > 0.5) {
        out.push(el.textContent.trim().slice(0, 60) + " +" + over.toFixed(1));
        break;
      }
    }
  }
  const pre = document.createElement("pre");
  pre.id = "cdplot-cells";
  pre.textContent = JSON.stringify({cells: document.querySelectorAll("table.docutils td").length,
                                    over: out});
  document.body.appendChild(pre);
}));
</script>
"""


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is missing (Debian package chromium)")
@pytest.mark.parametrize("page", ["api/cdplot.html", "migration.html"])
def test_no_table_cell_runs_into_the_next(html, page, tmp_path):
    # the top level's table of names had its widest names (cdplot.bayesian_correlated_ttest)
    # running over their summaries: the first column held 30 % of the width
    probe = html / page.replace(".html", "-cells.html")
    text = (html / page).read_text("utf-8")
    probe.write_text(text.replace("</body>", MEASURE_CELLS + "</body>"), "utf-8")
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--hide-scrollbars", "--window-size=1280,1000",
         f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000",
         "--dump-dom", probe.as_uri()],
        capture_output=True, timeout=120, check=True,
    ).stdout.decode("utf-8")  # fmt: skip
    found = re.search(r'<pre id="cdplot-cells">(.*?)</pre>', dom, re.S)
    assert found, "the measuring script did not run"
    m = json.loads(html_lib.unescape(found.group(1)))
    assert m["cells"] >= 8  # four peers side by side on the migration page
    assert m["over"] == []
