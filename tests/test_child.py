"""Bounded children that die with their parent, and refuse where there is no fork (_child.py)."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from cdplot._child import BoundExceeded, NoFork, run_bounded


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


def test_nothing_runs_without_fork(monkeypatch):
    # Windows has no os.fork: the work is refused, not run without its bounds
    ran = []
    monkeypatch.delattr(os, "fork")
    with pytest.raises(NoFork, match=r"^this system \(\w+\) cannot fork"):
        run_bounded(lambda: ran.append(1), seconds=10, memory=1 << 28)
    assert ran == []


def test_an_exception_that_does_not_unpickle_comes_back_as_text():
    def odd():
        raise _Odd(1, 2)

    with pytest.raises(RuntimeError, match=r"^_Odd: 1/2$"):
        run_bounded(odd, seconds=10, memory=1 << 28)


class _Odd(Exception):
    def __init__(self, a, b):
        super().__init__(f"{a}/{b}")


def test_a_child_killed_outright_is_bound_exceeded():
    with pytest.raises(BoundExceeded, match=r"^stopped without an answer \(exit status -9\)"):
        run_bounded(lambda: os.kill(os.getpid(), signal.SIGKILL), seconds=10, memory=1 << 28)


def test_answers_come_back_when_children_are_reaped_for_us():
    # a program that ignores SIGCHLD has its children reaped by the kernel: waitpid finds none
    old = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        assert run_bounded(lambda: 2, seconds=10, memory=1 << 28) == 2
        with pytest.raises(BoundExceeded, match="^stopped without an answer, likely"):
            run_bounded(lambda: os._exit(0), seconds=10, memory=1 << 28)
    finally:
        signal.signal(signal.SIGCHLD, old)


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")


@linux_only
def test_a_bounded_child_dies_with_a_killed_parent(tmp_path):
    pid_file = tmp_path / "pid"
    script = textwrap.dedent(
        f"""
        import os, time
        from cdplot._child import run_bounded

        def work():
            with open({str(pid_file)!r} + ".tmp", "w") as fh:
                fh.write(str(os.getpid()))
            os.rename({str(pid_file)!r} + ".tmp", {str(pid_file)!r})
            time.sleep(120)

        run_bounded(work, seconds=120, memory=1 << 28)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 60
    while not pid_file.exists():
        assert time.monotonic() < deadline, "the child never started"
        time.sleep(0.05)
    child = int(pid_file.read_text())
    assert _alive(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), f"child {child} outlived its killed parent"


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


SIGTERM_AT_FORK = """
import os, signal, sys, time
from cdplot._child import run_bounded

class Terminated(BaseException):
    pass

def terminate(signum, frame):
    raise Terminated

signal.signal(signal.SIGTERM, terminate)
# SIGTERM arrives while os.fork() runs its hooks, as when `kill` follows a fork closely
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGTERM))
before = set(os.listdir("/proc"))
try:
    run_bounded(lambda: time.sleep(60), seconds=120, memory=1 << 28)
    print("ran to the end")
except Terminated:
    print("terminated")
print("children left", [p for p in set(os.listdir("/proc")) - before if p.isdigit()
                        and os.path.exists(f"/proc/{p}/stat")
                        and open(f"/proc/{p}/stat").read().split()[3] == str(os.getpid())])
"""


@linux_only
def test_a_sigterm_during_the_fork_is_not_lost():
    # an exception raised in an at-fork hook is printed and dropped by Python: the signal
    # waits until run_bounded can raise it, and the child it forked is ended
    proc = subprocess.run(
        [sys.executable, "-c", SIGTERM_AT_FORK], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["terminated", "children left []"]
    assert "Exception ignored" not in proc.stderr
