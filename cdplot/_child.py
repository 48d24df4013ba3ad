"""Run untrusted work in a forked child bounded in time and memory, and tie children to us.

A user's report template runs in Jinja2's sandbox, which stops it from reaching
Python's internals but not from looping for hours or asking for 100 GB
(``range(99999)`` nested, ``'a' * 10**11``).  Rendering it in a forked child
with an address-space limit and a deadline turns both into a one-line error.
Forked children (these and the report's drawing workers) also ask the kernel
to end them when the parent dies, so that a killed ``cdplot`` leaves nothing
running.

A :class:`Helper` is a child forked early that prepares itself (imports a
heavy library) while the parent works, then answers one request: the PDF
report's writer imports WeasyPrint while the parent analyses and draws.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time

__all__ = [
    "BoundExceeded",
    "ChildDied",
    "Helper",
    "die_with_parent",
    "forking_allowed",
    "run_bounded",
    "usable_cpus",
]


class BoundExceeded(Exception):
    """The child ran out of time or memory (the message says which)."""


class ChildDied(Exception):
    """A helper process ended without an answer (killed, out of memory); the message says how."""


def forking_allowed() -> bool:
    """Whether this process may fork helpers that run Python beside it.

    Forking is only safe from a process with a single thread (a Jupyter
    kernel has several: a fork copies locks other threads may hold), is only
    offered here on Linux, and ``CDPLOT_NO_WORKERS=1`` asks for everything
    in one process.
    """
    return (
        sys.platform.startswith("linux")
        and hasattr(os, "fork")
        and threading.active_count() == 1
        and not os.environ.get("CDPLOT_NO_WORKERS")
    )


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity mask, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


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


# the signals that stop a command, held back while a Helper or the figure workers are forked
STOPS = {signal.SIGINT, signal.SIGTERM}

# a request to a Helper: its length (8 bytes, little-endian), then its pickle
_LENGTH = struct.Struct("<Q")


def _read_exactly(fd: int, n: int) -> bytes | None:
    chunks, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _ended_how(wait_status: int | None) -> str:
    if wait_status is None:
        return "it ended without an answer"
    code = os.waitstatus_to_exitcode(wait_status)
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class Helper:
    """A forked process that prepares itself while this one works, then answers one request.

    Start it with :meth:`start`, ask it with :meth:`ask` and always
    :meth:`stop` it (``finally``): a helper not asked yet is killed there.
    The helper dies with its parent (:func:`die_with_parent`), leaves
    SIGINT to the parent (which stops it) and ends on SIGTERM.
    """

    # (parent pid, helper pid) -> helper, of the helpers started and not yet stopped or heard from
    _live: dict = {}

    def __init__(self, pid: int, to_child: int, from_child: int):
        self.pid = pid
        self._to_child = to_child
        self._from_child = from_child
        self._running = True
        # whether the byte the helper writes when its prepare() is done was read (by preparing())
        self._prepared = False
        Helper._live[(os.getpid(), pid)] = self

    @staticmethod
    def _mine() -> list[Helper]:
        # a process forked from this one inherits the table, not the helpers
        me = os.getpid()
        return [helper for (parent, _), helper in Helper._live.items() if parent == me]

    @staticmethod
    def running() -> int:
        """How many helpers this process started still run (waiting or working)."""
        return len(Helper._mine())

    @staticmethod
    def preparing() -> int:
        """How many helpers this process started are still in their ``prepare()`` (CPUs they use).

        A helper done preparing waits for its request without using a CPU:
        it says so with a byte on its answer pipe, read here without waiting.
        """
        return sum(1 for helper in Helper._mine() if not helper._done_preparing())

    def _done_preparing(self) -> bool:
        if not self._prepared and self._from_child >= 0:
            ready, _, _ = select.select([self._from_child], [], [], 0)
            if ready:
                # the byte, or the end of a helper that died: either way it uses no CPU
                os.read(self._from_child, 1)
                self._prepared = True
        return self._prepared

    def _ended(self) -> None:
        self._running = False
        Helper._live.pop((os.getpid(), self.pid), None)

    @classmethod
    def start(cls, prepare, serve) -> Helper | None:
        """Fork a helper that calls ``prepare()`` at once and ``serve(request)`` when asked.

        Parameters
        ----------
        prepare : callable
            Takes no argument; its work (imports) overlaps the parent's.  An
            exception it raises is the answer to the request.
        serve : callable
            Takes the request; returns a picklable value.

        Returns
        -------
        Helper or None
            None when no process can be forked (a limit, a sandbox).
        """
        # what this process printed must not be printed again by the child
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                stream.flush()
        request_r, request_w = os.pipe()
        answer_r, answer_w = os.pipe()
        # SIGTERM or Ctrl-C during the fork would raise in an at-fork hook (logging's), where
        # Python prints the exception and drops it: they wait until both sides can act on them
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        try:
            pid = os.fork()
        except OSError:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            for fd in (request_r, request_w, answer_r, answer_w):
                os.close(fd)
            return None
        if pid == 0:  # child
            status = 0
            try:
                os.close(request_w)
                os.close(answer_r)
                _serve(prepare, serve, request_r, answer_w, mask)
            except BaseException:  # noqa: BLE001 - never return into the parent's code
                status = 1
            finally:
                for stream in (sys.stdout, sys.stderr):
                    with contextlib.suppress(Exception):
                        stream.flush()
                os._exit(status)
        os.close(request_r)
        os.close(answer_w)
        helper = cls(pid, request_w, answer_r)
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        except BaseException:
            # the signal that waited ends the helper too
            helper.stop()
            raise
        return helper

    def ask(self, request):
        """Send ``request``, wait for the answer and return it (or raise what was raised).

        Raises
        ------
        ChildDied
            When the helper ended without an answer.
        Exception
            What ``prepare`` or ``serve`` raised, when it pickles (its
            traceback stays in the helper); otherwise a RuntimeError with its
            text.
        """
        if not self._running:
            raise ChildDied("it was stopped already")
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            try:
                with os.fdopen(self._to_child, "wb", closefd=True) as fh:
                    self._to_child = -1
                    fh.write(_LENGTH.pack(len(data)))
                    fh.write(data)
            except BrokenPipeError:
                pass  # the helper is gone: its exit status says how
            with os.fdopen(self._from_child, "rb", closefd=True) as fh:
                self._from_child = -1
                answer = fh.read()
            if not self._prepared:
                # the byte that said prepare() was done, not read by preparing()
                answer = answer[1:]
            try:
                _, wait_status = os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped already (SIGCHLD ignored): no status to tell
                wait_status = None
            self._ended()
        except BaseException:
            self.stop()
            raise
        if not answer:
            raise ChildDied(_ended_how(wait_status))
        return _unpack(answer)

    def stop(self) -> None:
        """End the helper if it still runs, and close the pipes (idempotent)."""
        for name in ("_to_child", "_from_child"):
            fd = getattr(self, name)
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, -1)
        if self._running:
            self._ended()
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)


def _serve(prepare, serve, request_fd: int, answer_fd: int, mask) -> None:
    """The helper's life: prepare, wait for the request, answer it."""
    die_with_parent()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Ctrl-C reaches the whole process group: the parent decides, and stops this process
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    failed = None
    try:
        prepare()
    except BaseException as exc:  # noqa: BLE001 - it is the answer to the request
        failed = exc
    # the parent may use the CPU this process leaves now (Helper.preparing)
    os.write(answer_fd, b"\x01")
    head = _read_exactly(request_fd, _LENGTH.size)
    if head is None:
        return  # the parent went on without asking
    body = _read_exactly(request_fd, _LENGTH.unpack(head)[0])
    if body is None:
        return
    os.close(request_fd)
    if failed is not None:
        outcome = ("error", failed)
    else:
        try:
            outcome = ("ok", serve(pickle.loads(body)))
        except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
            outcome = ("error", exc)
    with os.fdopen(answer_fd, "wb") as fh:
        fh.write(_pack(outcome))
