"""User templates stay inside their folder and inside bounds (reporting/user_templates.py)."""

import os
import subprocess
import sys

import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.reporting import render_html
from cdplot.reporting import user_templates as ut

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
