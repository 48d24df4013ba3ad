"""Figures drawn in forked workers: the same report, a clean failure (figure_svgs_many)."""

import os
import subprocess
import sys
import time

import pytest

import cdplot
from cdplot import _child
from cdplot._child import Helper
from cdplot.errors import CdplotError
from cdplot.reporting import figures, render_html, report

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="workers are forked on Linux only"
)


@pytest.fixture
def yang():
    return cdplot.load_example("yang-table9")


def test_worker_count():
    assert figures._worker_count(0, True) == 0
    # one analysis and nothing else to do: forking would only add work
    assert figures._worker_count(1, False) == 0


def test_a_pdf_writer_takes_a_cpu_from_the_workers_while_it_prepares(two_cpus, yang, monkeypatch):
    assert figures._worker_count(len(yang), False) == 2
    writer = Helper.start(lambda: time.sleep(60), lambda r: r)
    try:
        # the other CPU imports WeasyPrint: the figures are drawn in this process, or in one
        # worker while this process gathers the tables and words
        assert figures._worker_count(len(yang), False) == 0
        assert figures._worker_count(len(yang), True) == 1
        assert figures._worker_count(1, True) == 1
        monkeypatch.setattr(_child, "usable_cpus", lambda: 4)
        assert figures._worker_count(len(yang), False) == 3
    finally:
        writer.stop()
    assert figures._worker_count(len(yang), False) == 4


def test_a_pdf_writer_done_preparing_leaves_its_cpu_to_the_workers(two_cpus, yang):
    go_r, go_w = os.pipe()
    # prepare() (WeasyPrint's import) blocks until this process writes to the pipe
    writer = Helper.start(lambda: os.read(go_r, 1), lambda r: r)
    try:
        assert figures._worker_count(len(yang), False) == 0
        os.write(go_w, b"x")
        deadline = time.monotonic() + 30
        while Helper.preparing() and time.monotonic() < deadline:
            time.sleep(0.01)
        # it waits for the HTML on no CPU: the figures are drawn beside it
        assert figures._worker_count(len(yang), False) == 2
        assert figures._worker_count(1, True) == 1
        assert writer.ask(5) == 5
    finally:
        writer.stop()
        os.close(go_r)
        os.close(go_w)


def test_workers_draw_the_same_report(two_cpus, yang, monkeypatch):
    assert figures._worker_count(len(yang), False) == 2
    parallel = render_html(yang, date="2024-01-01")
    monkeypatch.setenv("CDPLOT_NO_WORKERS", "1")
    assert figures._worker_count(len(yang), False) == 0
    serial = render_html(yang, date="2024-01-01")
    assert parallel == serial


def test_context_gathered_while_a_worker_draws_is_the_same(two_cpus, tmp_path, monkeypatch):
    # report() gathers the tables and words while a worker draws, then puts the figures in;
    # render_html() in one process does it all in turn: the same page either way
    demsar = cdplot.load_example("demsar2006")
    out = report(demsar, tmp_path / "r.html", date="2024-01-01")
    monkeypatch.setenv("CDPLOT_NO_WORKERS", "1")
    assert out.read_text(encoding="utf-8") == render_html(demsar, date="2024-01-01")


def test_while_drawing_runs_once_either_way(two_cpus, yang, monkeypatch):
    results = [cdplot.compare(t) for t in yang[:2]]
    calls = []
    for env in (None, "1"):
        if env:
            monkeypatch.setenv("CDPLOT_NO_WORKERS", env)
        out = figures.figure_svgs_many(
            results, ["m1", "m2"], while_drawing=lambda: calls.append(os.getpid())
        )
        assert [len(f) for f in out] == [3, 3]
    assert calls == [os.getpid(), os.getpid()]


def test_an_error_in_a_worker_is_raised_and_nothing_is_written(
    two_cpus, yang, tmp_path, monkeypatch
):
    def fail(result, *, prefix, font=None, order=None, format="pdf"):
        raise CdplotError(f"cannot draw {prefix}")

    # the forked workers inherit the patched module
    monkeypatch.setattr(figures, "figure_svgs", fail)
    out = tmp_path / "r.html"
    with pytest.raises(CdplotError, match="cannot draw m1"):
        report(yang, out)
    assert not out.exists()


def test_a_dead_worker_is_a_clean_error(two_cpus, yang, tmp_path, monkeypatch):
    def die(result, *, prefix, font=None, order=None, format="pdf"):
        os._exit(3)

    monkeypatch.setattr(figures, "figure_svgs", die)
    # a PDF report's writer process takes a CPU: with three, two are left for workers
    monkeypatch.setattr(_child, "usable_cpus", lambda: 3)
    out = tmp_path / "r.pdf"
    with pytest.raises(CdplotError, match="worker process ended unexpectedly"):
        report(yang, out)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


SIGTERM_AT_FORK = """
import os, signal, sys
import cdplot
from cdplot import _child
from cdplot.reporting import figures

class Terminated(BaseException):
    pass

def terminate(signum, frame):
    raise Terminated

_child.usable_cpus = lambda: 2
results = cdplot.load_example("yang-table9")
analyses = [cdplot.compare(table) for table in results[:2]]
signal.signal(signal.SIGTERM, terminate)
# SIGTERM arrives while os.fork() runs its hooks, as when `kill` follows a fork closely
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGTERM))
try:
    figures.figure_svgs_many(analyses, ["a", "b"])
    print("drawn")
except Terminated:
    print("terminated")
"""


def test_a_sigterm_while_the_workers_fork_is_not_lost():
    # as for the PDF writer (tests/test_child.py): an exception raised in an at-fork hook is
    # printed and dropped by Python, so the signal waits until the workers are forked
    proc = subprocess.run(
        [sys.executable, "-c", SIGTERM_AT_FORK], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["terminated"]
    assert "Exception ignored" not in proc.stderr


WORKER_SIGNALS = """
import signal
from cdplot.reporting import figures

signal.signal(signal.SIGINT, lambda *a: None)  # as the command line's handlers, inherited
signal.signal(signal.SIGTERM, lambda *a: None)
figures._worker_start(signal.pthread_sigmask(signal.SIG_BLOCK, []))
print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
"""


def test_a_worker_leaves_ctrl_c_to_its_parent():
    # found by benchmarks/signal_run.py (issue 32): Ctrl-C reaches the whole process group,
    # and a figure worker with the parent's handler printed its own KeyboardInterrupt
    # traceback ("Process ForkProcess-1: ...") beside the parent's "interrupted"
    proc = subprocess.run(
        [sys.executable, "-c", WORKER_SIGNALS], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "True"]
