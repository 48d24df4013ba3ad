"""The PDF writer process of report(): the same PDF, clean failures, nothing left behind."""

import os
import signal
import subprocess
import sys
import time
import warnings

import pytest

import cdplot
from cdplot import _child
from cdplot._atomic import atomic_write
from cdplot._child import Helper
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.reporting import figures, pdf_writer, render, report

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the writer process is forked on Linux only"
)


@pytest.fixture
def writers(two_cpus, monkeypatch):
    """The writer processes report() starts (the conditions for one made true by two_cpus)."""
    started = []
    real = render._start_writer

    def start():
        writer = real()
        started.append(writer)
        return writer

    monkeypatch.setattr(render, "_start_writer", start)
    return started


@pytest.fixture(scope="module")
def demsar():
    return cdplot.compare(cdplot.load_example("demsar2006"))


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_the_writer_process_writes_the_same_pdf(writers, demsar, tmp_path, monkeypatch):
    there = report(demsar, tmp_path / "writer.pdf", date="2024-01-01")
    assert len(writers) == 1
    assert isinstance(writers[0], Helper)
    assert writers[0].pid != os.getpid()
    assert _reaped(writers[0].pid)
    monkeypatch.setenv("CDPLOT_NO_WORKERS", "1")
    here = report(demsar, tmp_path / "here.pdf", date="2024-01-01")
    assert writers[1] is None
    assert there.read_bytes() == here.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here.pdf", "writer.pdf"]


def test_workers_beside_a_prepared_writer_draw_the_same_pdf(writers, tmp_path, monkeypatch):
    yang = cdplot.load_example("yang-table9")
    counts = []
    real_count, real_many = figures._worker_count, render.figure_svgs_many

    def count(n_jobs, busy_parent):
        counts.append(real_count(n_jobs, busy_parent))
        return counts[-1]

    def many(*args, **kwargs):
        # the writer done importing WeasyPrint, as it usually is when cdplot report forked it
        deadline = time.monotonic() + 60
        while Helper.preparing() and time.monotonic() < deadline:
            time.sleep(0.01)
        return real_many(*args, **kwargs)

    monkeypatch.setattr(figures, "_worker_count", count)
    monkeypatch.setattr(render, "figure_svgs_many", many)
    there = report(yang, tmp_path / "beside.pdf", date="2024-01-01")
    assert counts == [2]
    monkeypatch.setenv("CDPLOT_NO_WORKERS", "1")
    here = report(yang, tmp_path / "here.pdf", date="2024-01-01")
    assert counts == [2, 0]
    assert there.read_bytes() == here.read_bytes()
    assert all(_reaped(w.pid) for w in writers if w is not None)


def test_no_writer_process_when_forking_is_not_wanted(writers, monkeypatch):
    monkeypatch.setenv("CDPLOT_NO_WORKERS", "1")
    assert render._start_writer() is None
    monkeypatch.delenv("CDPLOT_NO_WORKERS")
    monkeypatch.setattr(_child, "usable_cpus", lambda: 1)
    assert render._start_writer() is None


def test_an_html_report_starts_no_writer(writers, demsar, tmp_path):
    report(demsar, tmp_path / "r.html")
    assert writers == []


def test_a_writer_killed_while_writing_is_a_one_line_error(writers, demsar, tmp_path, monkeypatch):
    def killed(request):
        html, path = request
        # killed outright (as the kernel's OOM killer does) with half a file written
        with atomic_write(path, "wb") as fh:
            fh.write(b"%PDF-1.7 half")
            fh.flush()
            os.kill(os.getpid(), signal.SIGKILL)

    # the writer is forked by report(): it inherits the patched module
    monkeypatch.setattr(pdf_writer, "_serve", killed)
    out = tmp_path / "r.pdf"
    with pytest.raises(CdplotError) as info:
        report(demsar, out)
    message = str(info.value)
    assert "\n" not in message
    assert message == (
        f"writing the PDF {str(out)!r} failed: the writer process ended unexpectedly "
        "(killed by SIGKILL); set CDPLOT_NO_WORKERS=1 to write it in one process"
    )
    # neither the output nor the writer's temporary file
    assert list(tmp_path.iterdir()) == []
    assert _reaped(writers[0].pid)


def test_an_error_in_the_writer_is_raised_as_it_is(writers, demsar, tmp_path, monkeypatch):
    def fail(html, path, fetcher=None):
        # what atomic_write raises for an output it cannot put in place
        raise CdplotError(f"output {str(path)!r} cannot be replaced: Is a directory")

    monkeypatch.setattr(pdf_writer, "_render_pdf", fail)
    out = tmp_path / "r.pdf"
    with pytest.raises(
        CdplotError, match=r"^output '.*r\.pdf' cannot be replaced: Is a directory$"
    ):
        report(demsar, out)
    assert list(tmp_path.iterdir()) == []
    assert _reaped(writers[0].pid)


def test_a_weasyprint_error_keeps_its_type(writers, demsar, tmp_path, monkeypatch):
    import weasyprint

    def broken(self, *args, **kwargs):
        raise ValueError("no layout today")

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", broken)
    with pytest.raises(ValueError, match="^no layout today$"):
        report(demsar, tmp_path / "r.pdf")
    assert list(tmp_path.iterdir()) == []


def test_refused_urls_warn_through_the_writer(writers, demsar, tmp_path):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "title.html.j2").write_text(
        '<h1>{{ title }}</h1><img src="file:///etc/passwd"><img src="http://example.com/x.png">',
        encoding="utf-8",
    )
    out = tmp_path / "r.pdf"
    with pytest.warns(CdplotWarning) as caught:
        report(demsar, out, template_dir=folder)
    assert writers[0] is not None
    assert [str(w.message) for w in caught] == [
        "the report refers to 2 outside resources that were not loaded: "
        "'file:///etc/passwd', 'http://example.com/x.png'"
    ]
    # the warning points at the caller of report(), as when written in this process
    assert caught[0].filename == __file__
    assert out.is_file()


def test_bad_input_ends_the_writer_at_once(writers, tmp_path):
    scores = cdplot.load_example("demsar2006")
    out = tmp_path / "r.pdf"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(CdplotError, match="alpha"):
            report(scores, out, alpha=2.0)
    writer = writers[0]
    assert writer is not None
    # stopped (killed and reaped) before report() returned, not left importing
    assert _reaped(writer.pid)
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_report_leaves_no_writer_and_no_file(writers, demsar, tmp_path, monkeypatch):
    def slow(request):
        html, path = request
        with atomic_write(path, "wb") as fh:
            fh.write(b"%PDF-1.7 half")
            fh.flush()
            time.sleep(60)

    monkeypatch.setattr(pdf_writer, "_serve", slow)

    def interrupt(signum, frame):
        # Ctrl-C once the writer has its temporary file open
        if any(tmp_path.glob(".*.tmp")):
            raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.1, 0.1)
    try:
        with pytest.raises(KeyboardInterrupt):
            report(demsar, tmp_path / "r.pdf")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert _reaped(writers[0].pid)
    assert list(tmp_path.iterdir()) == []


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as fh:
            return [int(p) for p in fh.read().split()]
    except OSError:
        return []


def test_a_terminated_command_leaves_no_writer_and_no_file(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "CDPLOT_NO_WORKERS"}
    out = tmp_path / "r.pdf"
    command = [sys.executable, "-m", "cdplot", "report", "--example", "demsar2006", "-o", str(out)]
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    children: list[int] = []
    while not children and proc.poll() is None and time.monotonic() < deadline:
        children = _children(proc.pid)
        time.sleep(0.01)
    if not children:
        proc.wait(60)
        pytest.skip("the command forked no writer process on this machine (one CPU?)")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert err.strip() == "cdplot report: terminated"
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{c}") for c in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [c for c in children if os.path.exists(f"/proc/{c}")]
    assert list(tmp_path.iterdir()) == []


# --- the writer forked by ``cdplot report`` before its heavy imports --------------------------
EARLY = """
import sys
from cdplot._child import Helper
from cdplot.reporting import pdf_writer

real_start, real_take = pdf_writer._start, pdf_writer.take_early
def start():
    heavy = sorted(m for m in ("numpy", "scipy", "matplotlib", "jinja2") if m in sys.modules)
    writer = real_start()
    print("forked", writer.pid if writer else None, "after", heavy, file=sys.stderr)
    return writer
def take():
    writer = real_take()
    print("taken", writer.pid if writer else None, file=sys.stderr)
    return writer
pdf_writer._start, pdf_writer.take_early = start, take
from cdplot.cli import main
sys.exit(main(["report", "--example", "demsar2006", "-o", sys.argv[1]]))
"""


def test_the_command_forks_the_writer_before_numpy_and_report_takes_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "CDPLOT_NO_WORKERS"}
    out = tmp_path / "r.pdf"
    proc = subprocess.run(
        [sys.executable, "-c", EARLY, str(out)], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    forked = [line for line in lines if line.startswith("forked")]
    assert len(forked) == 1, proc.stderr
    pid = forked[0].split()[1]
    if pid == "None":
        pytest.skip("the command forked no writer process on this machine (one CPU?)")
    # nothing heavy imported yet: the child imports WeasyPrint alone, from the start
    assert forked[0] == f"forked {pid} after []"
    # report() wrote with that writer (start_early and stop_early also look: None)
    assert [line for line in lines if line.startswith("taken") and line != "taken None"] == [
        f"taken {pid}"
    ]
    assert out.read_bytes().startswith(b"%PDF")
    assert list(tmp_path.iterdir()) == [out]


def test_bad_input_on_the_command_line_ends_the_early_writer(two_cpus, tmp_path, monkeypatch):
    from cdplot.cli import main

    started = []
    real = pdf_writer._start

    def start():
        started.append(real())
        return started[-1]

    monkeypatch.setattr(pdf_writer, "_start", start)
    data = tmp_path / "bad.csv"
    data.write_text("dataset,a,b\nd1,0.5,oops\nd2,0.4,0.6\n", encoding="utf-8")
    assert main(["report", str(data), "-o", str(tmp_path / "r.pdf")]) == 2
    assert len(started) == 1
    assert started[0] is not None
    assert _reaped(started[0].pid)
    assert pdf_writer._early is None
    assert list(tmp_path.iterdir()) == [data]


def test_an_html_command_forks_no_early_writer(two_cpus, tmp_path, monkeypatch):
    from cdplot.cli import main

    monkeypatch.setattr(pdf_writer, "_start", lambda: pytest.fail("a writer for an HTML report"))
    assert main(["report", "--example", "demsar2006", "-q", "-o", str(tmp_path / "r.html")]) == 0
