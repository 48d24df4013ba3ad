"""``cdplot report`` and ``cdplot table`` end to end, in a subprocess as users run them."""

import os
import signal
import subprocess
import sys
import time

import pytest


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "cdplot", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_example_report_pdf(tmp_path):
    out = run("report", "--example", "demsar2006", "-o", str(tmp_path / "report.pdf"))
    assert out.returncode == 0, out.stderr
    assert out.stderr.startswith(f"cdplot report: wrote {tmp_path / 'report.pdf'} (PDF, ")
    assert out.stderr.count("\n") == 1
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF-")


def test_six_metric_html_with_progress_and_options(tmp_path):
    out = run(
        "report",
        "--example",
        "yang-table9",
        "-o",
        str(tmp_path / "y.html"),
        "--title",
        "Six measures",
        "--author",
        "Me",
        "--paper",
        "letter",
        "--alpha",
        "0.1",
        "--progress",
        "--date",
        "2024-05-01",
    )
    assert out.returncode == 0, out.stderr
    assert "[6/6] drawing AUC" in out.stderr
    html = (tmp_path / "y.html").read_text(encoding="utf-8")
    assert "<h1>Six measures</h1>" in html
    assert "size: letter;" in html
    assert html.count('<section class="metric"') == 6
    assert 'id="consistency"' in html
    assert "α = 0.1" in html


def test_report_of_a_file_with_template_override(tmp_path):
    data = tmp_path / "scores.csv"
    data.write_text(
        "dataset,a,b,c\nd1,0.9,0.8,0.7\nd2,0.85,0.8,0.6\nd3,0.7,0.75,0.5\nd4,0.9,0.7,0.8\n",
        encoding="utf-8",
    )
    tpl = tmp_path / "tpl"
    tpl.mkdir()
    (tpl / "summary.html.j2").write_text(
        '{% extends "cdplot/summary.html.j2" %}{% block summary %}<p id="custom">{{ '
        "section.conclusion }}</p>"
        "{% endblock %}",
        encoding="utf-8",
    )
    out = run(
        "report",
        str(data),
        "-o",
        str(tmp_path / "r.html"),
        "--template",
        str(tpl),
        "--test",
        "friedman-z",
    )
    assert out.returncode == 0, out.stderr
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<p id="custom">With 3 methods on 4 data sets' in html
    assert "scores.csv" in html  # the input file in the reproducibility footer


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--example", "demsar2006", "-o", "r.docx"],
            "the extension says no format; name it .htm, .html, .pdf or give --format",
        ),
        (["--example", "demsar2006", "-o", "r.html", "--template", "missing"], "is not a folder"),
        (
            ["--example", "demsar2006", "-o", "r.html", "--decimals", "11"],
            "option --decimals 11 is outside 0..10",
        ),
        (["--example", "nope", "-o", "r.html"], "nope"),
        (["-o", "r.html"], "no input"),
    ],
)
def test_errors_are_one_line_with_status_2(tmp_path, args, message):
    out = run("report", *args, cwd=tmp_path)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr
    assert not any(p.suffix in (".html", ".pdf") for p in tmp_path.iterdir())


def test_table_latex():
    out = run("table", "--example", "demsar2006", "--format", "latex")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("% AUC, higher is better")
    assert "\\textbf{0.798 (1)}" in out.stdout
    assert "Average rank & 3.143 & 2.000 & 2.929 & \\textbf{1.929} \\\\" in out.stdout


def test_table_markdown_several_metrics_and_decimals():
    out = run("table", "--example", "yang-table9", "--format", "markdown", "--decimals", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("| Data set | LDA | C4.5 | NN |") == 6
    assert "**5CV**" in out.stdout
    assert "| Bupa | **0.33 (1)** | 0.35 (2) | 0.36 (3) |" in out.stdout


def test_table_bad_format():
    out = run("table", "--example", "demsar2006", "--format", "rst")
    assert out.returncode == 2
    assert "invalid choice" in out.stderr


def test_test_auto_reports_the_choice_and_refuses_several_metrics(tmp_path):
    # issue 11: --test auto runs compare_auto in every command that analyses
    out = run("report", "--example", "demsar2006", "-o", str(tmp_path / "r.html"), "--test", "auto")
    assert out.returncode == 0, out.stderr
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Choice of analysis" in html
    assert "Shapiro" in html
    out = run(
        "report", "--example", "yang-table9", "-o", str(tmp_path / "y.html"), "--test", "auto"
    )
    assert out.returncode == 2
    assert "--test auto analyses one metric; the data hold 6" in out.stderr
    assert not (tmp_path / "y.html").exists()


# --- stopped by a signal: no output, no process left, one quiet line ----------------------------
# the PDF is half written into its temporary file when the signal comes
HALF_WRITTEN = """
import contextlib, pathlib, sys, time
from cdplot import cli
from cdplot.reporting import _render as render

real = render.atomic_write

@contextlib.contextmanager
def slow(path, mode="wb"):
    with real(path, mode) as fh:
        fh.write(b"%PDF-1.7 half")
        fh.flush()
        pathlib.Path(sys.argv[2]).touch()
        time.sleep(60)
        yield fh

render.atomic_write = slow
sys.exit(cli.main(["report", "--example", "demsar2006", "-o", sys.argv[1], *sys.argv[3:]]))
"""

STOPS = [
    pytest.param(signal.SIGTERM, 143, "terminated", id="SIGTERM"),
    pytest.param(signal.SIGINT, 130, "interrupted", id="Ctrl-C"),
]


def _wait_for(condition, proc, what):
    deadline = time.monotonic() + 120
    while not condition():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, f"{what} never happened"
        time.sleep(0.02)


def _proc_status(pid: int) -> str:
    """State and signal masks of ``pid`` as /proc shows them, for a failure's story."""
    keys = ("State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            lines = [line.split(":", 1) for line in fh if line.startswith(keys)]
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            cmd = fh.read().replace(b"\0", b" ").decode("utf-8", "replace")[:80]
    except OSError:
        return f"{pid}: gone"
    return f"{pid} ({cmd.strip()}): " + ", ".join(
        f"{k} {_signal_names(v)}" if k.startswith(("Sig", "Shd")) else f"{k} {v.strip()}"
        for k, v in lines
    )


def _signal_names(mask: str) -> str:
    """A /proc signal mask (hex, bit n-1 for signal n) as signal names."""
    bits = int(mask, 16)
    names = []
    for n in range(1, bits.bit_length() + 1):
        if bits >> (n - 1) & 1:
            try:
                names.append(signal.Signals(n).name)
            except ValueError:
                names.append(str(n))
    return "+".join(names) or "-"


def _stop(proc, signum, started):
    """Send ``signum`` and wait for the command; returns its status, stderr and a story.

    The story (timings, the process's signal masks when the signal went, how it ended)
    goes into each assertion's message: these tests failed once in a full run on a
    loaded machine and passed in every rerun, so a failure must say what happened.
    """
    before = _proc_status(proc.pid)
    proc.send_signal(signum)
    sent = time.monotonic()
    try:
        code = proc.wait(60)
    except subprocess.TimeoutExpired:
        stuck = _proc_status(proc.pid)
        proc.kill()
        proc.wait()
        code = f"none after 60 s (then killed; it was {stuck})"
    err = proc.stderr.read()
    story = (
        f"{signal.Signals(signum).name} sent {sent - started:.2f} s after the start to "
        f"{before}; it ended {time.monotonic() - sent:.2f} s later with status {code}, "
        f"stderr {err!r}"
    )
    return code, err, story


@pytest.mark.parametrize(("signum", "status", "said"), STOPS)
@pytest.mark.parametrize("templates", ["bundled", "user"])
def test_a_signal_while_the_pdf_is_written_leaves_nothing(
    tmp_path, signum, status, said, templates
):
    out, ready = tmp_path / "out" / "r.pdf", tmp_path / "ready"
    out.parent.mkdir()
    extra = []
    if templates == "user":
        # the PDF laid out in the templates' bounded child, written here
        (tmp_path / "tpl").mkdir()
        (tmp_path / "tpl" / "title.html.j2").write_text("<h1>{{ title }}</h1>", "utf-8")
        extra = ["--template", str(tmp_path / "tpl")]
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", HALF_WRITTEN, str(out), str(ready), *extra],
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for(ready.exists, proc, "the write")
    assert [p.name.endswith(".tmp") for p in out.parent.iterdir()] == [True]
    code, err, story = _stop(proc, signum, started)
    assert code == status, story
    assert err == f"cdplot report: {said}\n", story
    assert list(out.parent.iterdir()) == [], story


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as fh:
            return [int(p) for p in fh.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(("signum", "status", "said"), STOPS)
def test_a_signal_while_user_templates_run_ends_their_child(tmp_path, signum, status, said):
    folder = tmp_path / "tpl"
    folder.mkdir()
    # a template that loops for minutes in its bounded child
    (folder / "title.html.j2").write_text(
        "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}", "utf-8"
    )
    out = tmp_path / "out" / "r.pdf"
    out.parent.mkdir()
    command = [sys.executable, "-m", "cdplot", "report", "--example", "demsar2006"]
    started = time.monotonic()
    proc = subprocess.Popen(
        [*command, "-o", str(out), "--template", str(folder)], stderr=subprocess.PIPE, text=True
    )
    _wait_for(lambda: _children(proc.pid), proc, "the templates' child")
    children = _children(proc.pid)
    code, err, story = _stop(proc, signum, started)
    story += f"; its children were {', '.join(_proc_status(c) for c in children)}"
    assert code == status, story
    assert err == f"cdplot report: {said}\n", story
    assert list(out.parent.iterdir()) == [], story
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{c}") for c in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [_proc_status(c) for c in children if os.path.exists(f"/proc/{c}")]
    assert not left, f"{story}; 10 s later still there: {left}"
