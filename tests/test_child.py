"""Bounded children and children that die with their parent (cdplot/_child.py)."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from cdplot._child import BoundExceeded, ChildDied, Helper, forking_allowed, run_bounded


def test_returns_the_value():
    assert run_bounded(lambda: "x" * 10, seconds=10, memory=1 << 28) == "x" * 10


def test_reraises_the_exception():
    def boom():
        raise KeyError("k")

    with pytest.raises(KeyError, match="k"):
        run_bounded(boom, seconds=10, memory=1 << 28)


def test_time_limit():
    start = time.monotonic()
    with pytest.raises(BoundExceeded, match="longer than 1 s"):
        run_bounded(lambda: time.sleep(30), seconds=1, memory=1 << 28)
    assert time.monotonic() - start < 10


def test_memory_limit():
    with pytest.raises(BoundExceeded, match="memory"):
        run_bounded(lambda: len(bytearray(1 << 31)), seconds=30, memory=1 << 28)


def test_large_answers_come_back_whole():
    text = "é" * 5_000_000
    assert run_bounded(lambda: text, seconds=30, memory=1 << 29) == text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_pool_workers_die_with_a_killed_parent(tmp_path):
    pids = tmp_path / "pids"
    script = textwrap.dedent(
        f"""
        import concurrent.futures as cf, multiprocessing, os, time
        from cdplot._child import die_with_parent

        def work(i):
            with open({str(pids)!r}, "a") as fh:
                fh.write(f"{{os.getpid()}}\\n")
            time.sleep(120)

        pool = cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"),
                                      initializer=die_with_parent)
        futures = [pool.submit(work, i) for i in range(2)]
        time.sleep(120)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 60
    while not pids.exists() or len(pids.read_text().split()) < 2:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    workers = [int(p) for p in pids.read_text().split()]
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        alive = [p for p in workers if _alive(p)]
        time.sleep(0.05)
    assert not alive, f"workers {alive} outlived their killed parent"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie has died; it only waits to be reaped by init
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


# --- Helper: a child forked early that answers one request -------------------------------
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux")


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@linux_only
def test_helper_prepares_then_answers():
    prepared = []
    helper = Helper.start(lambda: prepared.append(os.getpid()), lambda r: (r * 2, prepared))
    try:
        value, seen = helper.ask("ab" * 300_000)
    finally:
        helper.stop()
    assert value == "ab" * 600_000
    # prepare() ran in the helper, before the request, and not here
    assert seen == [helper.pid]
    assert prepared == []
    assert _reaped(helper.pid)


@linux_only
def test_helper_raises_what_prepare_or_serve_raised():
    def no_import():
        raise ImportError("no module named 'weasyprint'")

    helper = Helper.start(no_import, lambda r: r)
    with pytest.raises(ImportError, match="weasyprint"):
        helper.ask(1)
    helper.stop()

    def serve(request):
        raise KeyError(request)

    helper = Helper.start(lambda: None, serve)
    with pytest.raises(KeyError, match="k"):
        helper.ask("k")
    helper.stop()


class _Odd(Exception):
    def __init__(self, a, b):
        super().__init__(f"{a}/{b}")


@linux_only
def test_an_exception_that_does_not_unpickle_comes_back_as_text():
    def serve(request):
        raise _Odd(1, 2)

    helper = Helper.start(lambda: None, serve)
    with pytest.raises(RuntimeError, match=r"^_Odd: 1/2$"):
        helper.ask(None)
    helper.stop()


@linux_only
def test_a_killed_helper_is_child_died():
    helper = Helper.start(lambda: None, lambda r: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(ChildDied, match=r"^killed by SIGKILL$"):
        helper.ask(None)
    helper.stop()
    assert _reaped(helper.pid)
    helper = Helper.start(lambda: None, lambda r: os._exit(5))
    with pytest.raises(ChildDied, match=r"^exit status 5$"):
        helper.ask(None)
    helper.stop()


@linux_only
def test_a_helper_not_asked_is_stopped_at_once():
    helper = Helper.start(lambda: time.sleep(60), lambda r: r)
    start = time.monotonic()
    helper.stop()
    assert time.monotonic() - start < 5
    assert _reaped(helper.pid)
    helper.stop()  # again: nothing to do
    with pytest.raises(ChildDied, match="stopped already"):
        helper.ask(1)


@linux_only
def test_a_helper_dies_with_a_killed_parent(tmp_path):
    pid_file = tmp_path / "pid"
    script = textwrap.dedent(
        f"""
        import os, time
        from cdplot._child import Helper

        helper = Helper.start(lambda: time.sleep(120), lambda r: r)
        with open({str(pid_file)!r} + ".tmp", "w") as fh:
            fh.write(str(helper.pid))
        os.rename({str(pid_file)!r} + ".tmp", {str(pid_file)!r})
        time.sleep(120)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 60
    while not pid_file.exists():
        assert time.monotonic() < deadline, "the helper never started"
        time.sleep(0.05)
    helper = int(pid_file.read_text())
    assert _alive(helper)
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    while _alive(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(helper), f"helper {helper} outlived its killed parent"


def test_forking_allowed_follows_the_environment(monkeypatch):
    monkeypatch.setenv("CDPLOT_NO_WORKERS", "1")
    assert not forking_allowed()
    monkeypatch.delenv("CDPLOT_NO_WORKERS")
    expected = sys.platform.startswith("linux") and threading.active_count() == 1
    assert forking_allowed() == expected


@linux_only
def test_running_counts_the_helpers_not_yet_done():
    before = Helper.running()
    helper = Helper.start(lambda: None, lambda r: r)
    assert Helper.running() == before + 1
    assert helper.ask(3) == 3
    assert Helper.running() == before
    helper = Helper.start(lambda: time.sleep(60), lambda r: r)
    assert Helper.running() == before + 1
    helper.stop()
    assert Helper.running() == before


def _until(condition, seconds=30.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


@linux_only
def test_preparing_counts_the_helpers_still_in_prepare():
    go_r, go_w = os.pipe()
    before = Helper.preparing()
    # prepare() blocks until this process writes to the pipe
    helper = Helper.start(lambda: os.read(go_r, 1), lambda r: r * 2)
    try:
        assert Helper.preparing() == before + 1
        os.write(go_w, b"x")
        assert _until(lambda: Helper.preparing() == before)
        # done preparing, it still runs: waiting for its request on no CPU
        assert Helper.running() == before + 1
        # the byte that said so is not part of the answer
        assert helper.ask(21) == 42
    finally:
        helper.stop()
        os.close(go_r)
        os.close(go_w)
    assert _reaped(helper.pid)


@linux_only
def test_a_helper_killed_while_preparing_uses_no_cpu_and_is_child_died():
    helper = Helper.start(lambda: time.sleep(60), lambda r: r)
    try:
        assert Helper.preparing() == 1
        os.kill(helper.pid, signal.SIGKILL)
        assert _until(lambda: Helper.preparing() == 0)
        with pytest.raises(ChildDied, match="^killed by SIGKILL$"):
            helper.ask(1)
    finally:
        helper.stop()
    assert _reaped(helper.pid)


SIGTERM_AT_FORK = """
import os, signal, sys, time
from cdplot._child import Helper

class Terminated(BaseException):
    pass

def terminate(signum, frame):
    raise Terminated

signal.signal(signal.SIGTERM, terminate)
# SIGTERM arrives while os.fork() runs its hooks, as when `kill` follows a fork closely
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGTERM))
before = set(os.listdir("/proc"))
try:
    Helper.start(lambda: time.sleep(60), lambda r: r)
except Terminated:
    print("terminated in start", Helper.running())
print("children left", [p for p in set(os.listdir("/proc")) - before if p.isdigit()
                        and os.path.exists(f"/proc/{p}/stat")
                        and open(f"/proc/{p}/stat").read().split()[3] == str(os.getpid())])
"""


@linux_only
def test_a_sigterm_during_the_fork_is_not_lost():
    # an exception raised in an at-fork hook is printed and dropped by Python: the signal
    # waits until start() can raise it, and the helper it forked is ended
    proc = subprocess.run(
        [sys.executable, "-c", SIGTERM_AT_FORK], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["terminated in start 0", "children left []"]
    assert "Exception ignored" not in proc.stderr


@linux_only
def test_a_helper_answers_when_children_are_reaped_for_us():
    # a program that ignores SIGCHLD has its children reaped by the kernel: waitpid finds none
    old = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        helper = Helper.start(lambda: None, lambda r: r + 1)
        assert helper.ask(1) == 2
        helper = Helper.start(lambda: None, lambda r: os._exit(0))
        with pytest.raises(ChildDied, match="ended without an answer"):
            helper.ask(1)
    finally:
        signal.signal(signal.SIGCHLD, old)
    assert Helper.running() == 0
