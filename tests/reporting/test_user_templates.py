"""User templates stay inside their folder and inside bounds (reporting/_user_templates.py)."""

import os
import subprocess
import sys
import time

import pytest

import cdplot
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.reporting import _user_templates as ut
from cdplot.reporting import render_html, report

SECRET = "secret-token-4f1c9"


@pytest.fixture(scope="module")
def result():
    return cdplot.compare(cdplot.load_example("demsar2006"))


@pytest.fixture
def secret(tmp_path):
    """A file outside the template folder whose text must never reach a report."""
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(SECRET, encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path):
    path = tmp_path / "tpl"
    path.mkdir()
    return path


def _render(result, folder):
    return render_html(result, template_dir=folder, embed_fonts=False)


def test_a_template_linked_outside_the_folder_is_refused(result, folder, secret):
    (folder / "summary.html.j2").symlink_to(secret)
    with pytest.raises(CdplotError, match=r"summary\.html\.j2 leads to .*outside the template"):
        _render(result, folder)


def test_an_include_of_a_link_outside_is_refused(result, folder, secret):
    (folder / "evil.j2").symlink_to(secret)
    (folder / "title.html.j2").write_text("{% include 'evil.j2' %}", encoding="utf-8")
    with pytest.raises(CdplotError, match="outside the template folder"):
        _render(result, folder)


def test_a_linked_subfolder_outside_is_refused(result, folder, secret):
    (folder / "sub").symlink_to(secret.parent, target_is_directory=True)
    (folder / "title.html.j2").write_text("{% include 'sub/secret.txt' %}", encoding="utf-8")
    with pytest.raises(CdplotError, match="outside the template folder"):
        _render(result, folder)


def test_a_link_inside_the_folder_is_followed(result, folder):
    (folder / "mine.j2").write_text("<p id='mine'>{{ title }}</p>", encoding="utf-8")
    (folder / "title.html.j2").symlink_to(folder / "mine.j2")
    html = render_html(result, template_dir=folder, title="T1", embed_fonts=False)
    assert "<p id='mine'>T1</p>" in html


def test_the_folder_itself_may_be_a_link(result, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "title.html.j2").write_text("<p id='via-link'>x</p>", encoding="utf-8")
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    assert "<p id='via-link'>x</p>" in _render(result, tmp_path / "link")


def test_a_fifo_is_not_read(result, folder):
    os.mkfifo(folder / "summary.html.j2")
    with pytest.raises(CdplotError, match="summary.html.j2 is not a regular file"):
        _render(result, folder)


def test_an_oversized_template_is_refused(result, folder):
    (folder / "summary.html.j2").write_bytes(b" " * (ut.MAX_TEMPLATE_BYTES + 1))
    with pytest.raises(CdplotError, match="templates are limited to"):
        _render(result, folder)


@pytest.mark.parametrize(
    ("template", "message"),
    [
        pytest.param("{{ 1 / 0 }}", r"title\.html\.j2 line 1: ZeroDivisionError", id="zero"),
        pytest.param("\n{{ 'a' + 1 }}", r"title\.html\.j2 line 2: TypeError", id="type"),
        pytest.param(
            "{% for i in range(10**9) %}{% endfor %}", "OverflowError", id="sandbox-range"
        ),
        pytest.param("{% include 'title.html.j2' %}", "without end", id="self-include"),
        pytest.param("{{ 9 ** (9 ** 9) }}", "too large to compute", id="power"),
        pytest.param("{{ 'a' * 10**11 }}", "too large for a template", id="repeat"),
        pytest.param("{{ ''.__class__.__mro__ }}", "SecurityError|undefined", id="sandbox"),
    ],
)
def test_template_failures_are_one_line_naming_template(result, folder, template, message):
    (folder / "title.html.j2").write_text(template, encoding="utf-8")
    with pytest.raises(CdplotError, match=message) as info:
        _render(result, folder)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(f"template_dir={str(folder)!r}: ")


def test_a_slow_template_is_stopped(result, folder, monkeypatch):
    monkeypatch.setattr(ut, "RENDER_SECONDS", 2.0)
    (folder / "title.html.j2").write_text(
        "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
        encoding="utf-8",
    )
    with pytest.raises(CdplotError, match="took longer than 2 s"):
        _render(result, folder)


def test_a_greedy_template_is_stopped(result, folder, monkeypatch):
    monkeypatch.setattr(ut, "RENDER_MEMORY", 256 << 20)
    # 50,000 strings of 100 kB: 5 GB, built from pieces the operator checks let through
    (folder / "title.html.j2").write_text(
        "{% set xs = [] %}{% for i in range(50000) %}"
        "{% set _ = xs.append(('%08d' % i) * 12500) %}{% endfor %}{{ xs | length }}",
        encoding="utf-8",
    )
    with pytest.raises(CdplotError, match="more than 0.25 GiB of memory|out of memory"):
        _render(result, folder)


def test_cli_template_errors_exit_2_in_one_line(tmp_path, secret):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "summary.html.j2").symlink_to(secret)
    proc = subprocess.run(
        [sys.executable, "-m", "cdplot", "report", "--example", "demsar2006"]
        + ["-o", str(tmp_path / "r.html"), "--template", str(folder)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "outside the template folder" in proc.stderr
    assert SECRET not in proc.stderr + proc.stdout
    assert not (tmp_path / "r.html").exists()


# --- the PDF of user templates: laid out in the same bounded child (issue 32, item 5) ---------
# each page a paragraph: rendering takes milliseconds, WeasyPrint's layout 7-13 ms a page
PAGES = (
    '<h1>{{ title }}</h1>{% for i in range(N) %}<p style="break-after: page">{{ i }}</p>'
    "{% endfor %}"
)


def _outputs(tmp_path, folder):
    return sorted(p.name for p in tmp_path.iterdir() if p != folder)


def test_a_pdf_of_too_many_pages_is_refused(result, folder, tmp_path, monkeypatch):
    # the bound of 1,000 pages, made 5 so that the test lays out a dozen pages, not thousands
    monkeypatch.setattr(ut, "MAX_PAGES", 5)
    (folder / "title.html.j2").write_text(PAGES.replace("N", "12"), encoding="utf-8")
    with pytest.raises(CdplotError) as info:
        report(result, tmp_path / "r.pdf", template_dir=folder)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(f"template_dir={str(folder)!r}: the templates make a PDF of ")
    assert text.endswith(
        " pages; a report from user templates may have at most 5: shorten the templates"
    )
    assert _outputs(tmp_path, folder) == []
    # the same templates as HTML have no pages to count
    assert report(result, tmp_path / "r.html", template_dir=folder).is_file()


def test_a_pdf_within_the_page_bound_is_written(result, folder, tmp_path, monkeypatch):
    pypdf = pytest.importorskip("pypdf")
    monkeypatch.setattr(ut, "MAX_PAGES", 40)
    (folder / "title.html.j2").write_text(PAGES.replace("N", "12"), encoding="utf-8")
    out = report(result, tmp_path / "r.pdf", template_dir=folder)
    pages = len(pypdf.PdfReader(out).pages)
    assert 12 < pages <= 40
    assert _outputs(tmp_path, folder) == ["r.pdf"]


def test_a_slow_layout_is_stopped(result, folder, tmp_path, monkeypatch):
    # 3,000 pages render in a blink and take WeasyPrint 20-40 s: the deadline (60 s, made 3 s
    # here) covers the layout, not only the rendering
    monkeypatch.setattr(ut, "RENDER_SECONDS", 3.0)
    (folder / "title.html.j2").write_text(PAGES.replace("N", "3000"), encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(
        CdplotError,
        match=r"^template_dir='.*': rendering and laying out the templates took longer than 3 s; "
        "simplify the templates$",
    ):
        report(result, tmp_path / "r.pdf", template_dir=folder)
    assert time.monotonic() - start < 30
    assert _outputs(tmp_path, folder) == []


def test_a_greedy_layout_is_stopped(result, folder, tmp_path, monkeypatch):
    pytest.importorskip("weasyprint")  # imported here, so the budget is the layout's alone
    monkeypatch.setattr(ut, "RENDER_MEMORY", 64 << 20)
    # the memory bound is under test: on a loaded machine the time bound must not come first.
    # The bound counts address space beyond the fork's, and a long-lived test process may hold
    # a heap with room to spare: pages heavy enough to need far more than that
    monkeypatch.setattr(ut, "RENDER_SECONDS", 600)
    (folder / "title.html.j2").write_text(
        PAGES.replace("N", "900").replace("{{ i }}", "{{ 'word ' * 3000 }}"), encoding="utf-8"
    )
    # a MemoryError in Python, or a C library that aborts when malloc fails (GLib)
    with pytest.raises(
        CdplotError,
        match=r"^template_dir='.*': rendering and laying out the templates (needed more than "
        r"0\.0625 GiB of memory|stopped without an answer .*likely out of memory)",
    ):
        report(result, tmp_path / "r.pdf", template_dir=folder)
    assert _outputs(tmp_path, folder) == []


def test_refused_urls_warn_from_the_bounded_child(result, folder, tmp_path):
    (folder / "title.html.j2").write_text(
        '<h1>{{ title }}</h1><img src="file:///etc/passwd"><img src="http://example.com/x.png">',
        encoding="utf-8",
    )
    with pytest.warns(CdplotWarning) as caught:
        out = report(result, tmp_path / "r.pdf", template_dir=folder)
    assert [str(w.message) for w in caught] == [
        "the report refers to 2 outside resources that were not loaded: "
        "'file:///etc/passwd', 'http://example.com/x.png'"
    ]
    # the warning points at the caller of report()
    assert caught[0].filename == __file__
    assert out.read_bytes().startswith(b"%PDF")


def test_user_templates_are_refused_where_there_is_no_fork(
    result, folder, tmp_path, monkeypatch, capsys
):
    # Windows has no os.fork: no bounded child, so a user's templates are refused in one line
    # before any analysis, instead of running without their time, memory and page limits
    (folder / "title.html.j2").write_text("<h1>{{ title }}</h1>", encoding="utf-8")
    monkeypatch.delattr(os, "fork")
    for out in ("r.pdf", "r.html"):
        with pytest.raises(CdplotError) as info:
            report(result, tmp_path / out, template_dir=folder)
        assert str(info.value) == (
            f"template_dir={str(folder)!r}: user templates run in a child process bounded in "
            f"time and memory, which this system ({sys.platform}) cannot start; leave out "
            "template_dir= to use the bundled templates"
        )
    with pytest.raises(CdplotError, match="cannot start"):
        _render(result, folder)
    assert _outputs(tmp_path, folder) == []
    # the command line names its option
    from cdplot.cli import main

    args = ["report", "--example", "demsar2006", "-o", str(tmp_path / "r.pdf")]
    assert main([*args, "--template", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"cdplot report: error: --template {folder}: user templates run")
    assert err.endswith("leave out --template to use the bundled templates\n")
    # the bundled templates need no child
    assert main([*args, "-q"]) == 0
    assert _outputs(tmp_path, folder) == ["r.pdf"]
