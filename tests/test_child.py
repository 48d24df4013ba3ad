"""Bounded children and children that die with their parent (cdplot/_child.py)."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from cdplot._child import BoundExceeded, run_bounded


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
