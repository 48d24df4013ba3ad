"""Run untrusted work in a forked child bounded in time and memory.

A user's report template runs in Jinja2's sandbox, which stops it from reaching
Python's internals but not from looping for hours or asking for 100 GB
(``range(99999)`` nested, ``'a' * 10**11``), nor from producing thousands of
pages for WeasyPrint to lay out.  Rendering it (and laying out its PDF) in a
forked child with an address-space limit and a deadline turns each into a
one-line error.  The child also asks the kernel to end it when the parent
dies, so that a killed ``cdplot`` leaves nothing running.

This is a security boundary, not a speed trick: everything else a report does
runs in one process.  Where ``os.fork`` does not exist (Windows) there is no
bounded child: :func:`run_bounded` raises :class:`NoFork` instead of running
the work without its bounds.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import time

__all__ = ["BoundExceeded", "NoFork", "can_fork", "die_with_parent", "run_bounded"]


class BoundExceeded(Exception):
    """The child ran out of time or memory (the message says which)."""


class NoFork(Exception):
    """This system cannot fork, so no work can be bounded (the message says which system)."""


def can_fork() -> bool:
    """Whether :func:`run_bounded` can bound work here (it needs ``os.fork``: POSIX systems)."""
    return hasattr(os, "fork")


# the signals that stop a command (cli.py turns SIGTERM into an exception)
_STOPS = {signal.SIGINT, signal.SIGTERM}


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
    NoFork
        Where ``os.fork`` does not exist: the work is not run at all, since
        running it without its bounds is what the caller wanted to avoid.
    Exception
        Whatever ``func`` raised, re-raised in the parent when it pickles
        (its traceback stays in the child); otherwise a RuntimeError with
        its text.
    """
    if not can_fork():
        raise NoFork(f"this system ({sys.platform}) cannot fork a process to bound it in")
    for stream in (sys.stdout, sys.stderr):
        # what this process printed must not be printed again by the child
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    read_fd, write_fd = os.pipe()
    # SIGTERM or Ctrl-C during the fork would be raised in an at-fork hook (logging's), where
    # Python prints the exception and drops it, and the command would go on: they wait until
    # the fork is over, when the parent can act on them (and end the child)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(read_fd)
        os.close(write_fd)
        raise
    if pid == 0:  # child
        status = 0
        try:
            os.close(read_fd)
            die_with_parent()
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            _limit_memory(memory)
            try:
                outcome = ("ok", func())
            except MemoryError:
                outcome = (
                    "error",
                    BoundExceeded(f"needed more than {memory / 2**30:g} GiB of memory"),
                )
            except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
                outcome = ("error", exc)
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(_pack(outcome))
        except BaseException:  # noqa: BLE001 - never return into the parent's code
            status = 1
        finally:
            os._exit(status)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + seconds
    try:
        with os.fdopen(read_fd, "rb") as fh:
            # a signal that waited during the fork is raised here, and ends the child below
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
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
        # a program that ignores SIGCHLD has its children reaped by the kernel
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        raise
    try:
        _, wait_status = os.waitpid(pid, 0)
    except ChildProcessError:
        wait_status = None
    if not chunks:
        how = (
            ""
            if wait_status is None
            else f" (exit status {os.waitstatus_to_exitcode(wait_status)})"
        )
        raise BoundExceeded(f"stopped without an answer{how}, likely out of memory")
    return _unpack(b"".join(chunks))


def _pack(outcome) -> bytes:
    """A child's ``("ok", value)`` or ``("error", exception)`` as bytes for its parent.

    An exception that does not pickle, or would not load again (an
    ``__init__`` that takes other arguments), travels as its text.
    """
    try:
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        if outcome[0] == "error":
            pickle.loads(data)
    except Exception:  # noqa: BLE001 - an unpicklable answer travels as text
        data = pickle.dumps(("text", f"{type(outcome[1]).__name__}: {outcome[1]}"))
    return data


def _unpack(data: bytes):
    """The value :func:`_pack` packed, or raise its exception (a RuntimeError for a text)."""
    kind, value = pickle.loads(data)
    if kind == "ok":
        return value
    if kind == "text":
        raise RuntimeError(value)
    raise value
