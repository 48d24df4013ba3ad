"""Run untrusted work in a forked child bounded in time and memory, and tie children to us.

A user's report template runs in Jinja2's sandbox, which stops it from reaching
Python's internals but not from looping for hours or asking for 100 GB
(``range(99999)`` nested, ``'a' * 10**11``).  Rendering it in a forked child
with an address-space limit and a deadline turns both into a one-line error.
Forked children (these and the report's drawing workers) also ask the kernel
to end them when the parent dies, so that a killed ``cdplot`` leaves nothing
running.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import time

__all__ = ["BoundExceeded", "die_with_parent", "run_bounded"]


class BoundExceeded(Exception):
    """The child ran out of time or memory (the message says which)."""


def die_with_parent() -> None:
    """Ask Linux to send SIGKILL to this process when its parent dies.

    Elsewhere this does nothing: other systems have no such request, and
    their children are only left running if the parent is killed outright.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    # the parent may have died before the request took effect
    if os.getppid() == 1:
        os._exit(1)


def _limit_memory(extra_bytes: int) -> None:
    import resource

    # the fork already maps what the parent had (numpy, matplotlib...): allow that much
    # plus the budget, counted as address space
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[0])
        current = pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        current = 0
    limit = current + extra_bytes
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def run_bounded(func, *, seconds: float, memory: int):
    """Call ``func()`` in a forked child and return what it returns.

    Parameters
    ----------
    func : callable
        Takes no argument; returns a picklable value.  It sees the parent's
        memory as it was at the fork, so nothing needs to be sent to it.
    seconds : float
        Wall-clock limit; past it the child is killed.
    memory : int
        Bytes of address space the child may add to what it inherited.

    Returns
    -------
    object
        ``func()``'s value.

    Raises
    ------
    BoundExceeded
        On time-out, or when the child runs out of memory or dies.
    Exception
        Whatever ``func`` raised, re-raised in the parent when it pickles
        (its traceback stays in the child); otherwise a RuntimeError with
        its text.
    """
    if not hasattr(os, "fork"):
        # no fork (Windows): the sandbox still holds, without the bounds
        return func()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        status = 0
        try:
            os.close(read_fd)
            die_with_parent()
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            _limit_memory(memory)
            try:
                outcome = ("ok", func())
            except MemoryError:
                outcome = ("memory", None)
            except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
                outcome = ("error", exc)
            try:
                data = pickle.dumps(outcome)
            except Exception:  # noqa: BLE001 - an unpicklable exception travels as text
                data = pickle.dumps(("text", f"{type(outcome[1]).__name__}: {outcome[1]}"))
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(data)
        except BaseException:  # noqa: BLE001 - never return into the parent's code
            status = 1
        finally:
            os._exit(status)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + seconds
    try:
        with os.fdopen(read_fd, "rb") as fh:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BoundExceeded(f"took longer than {seconds:g} s")
                ready, _, _ = select.select([fh], [], [], left)
                if ready:
                    chunk = os.read(fh.fileno(), 1 << 20)
                    if not chunk:
                        break
                    chunks.append(chunk)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    _, wait_status = os.waitpid(pid, 0)
    if not chunks:
        code = os.waitstatus_to_exitcode(wait_status)
        raise BoundExceeded(f"stopped without an answer (exit status {code}), likely out of memory")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "ok":
        return value
    if kind == "memory":
        raise BoundExceeded(f"needed more than {memory / 2**30:g} GiB of memory")
    if kind == "text":
        raise RuntimeError(value)
    raise value
