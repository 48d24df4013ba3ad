"""The ``cdplot`` command: a thin layer that parses arguments and maps errors to exit codes.

Every subcommand lives in ``cdplot/_cli/<name>.py`` and defines
``register(subparsers)``, which adds its parser and sets ``func``.  Errors
in the input or options are printed as one line on stderr with exit
status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import signal
import sys
import warnings

from ._version import __version__
from .errors import CdplotError

__all__ = ["main", "build_parser", "terminal_safe"]

SUBCOMMANDS = ("stats", "plot", "report", "table", "pair")


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit with status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


# characters that a terminal acts on instead of showing: C0 and C1 controls (ESC starts colour,
# cursor and OSC title/hyperlink sequences), DEL, bidirectional overrides that reorder what is
# shown, line and paragraph separators, and lone surrogates (not encodable)
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2066-\u2069\ud800-\udfff]"
)


def terminal_safe(text: str) -> str:
    """``text`` with every character a terminal would act on written as ``\\uXXXX``.

    The escape is also valid inside a JSON string, so JSON output stays JSON
    and reads back to the same text.
    """
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _SafeStream:
    """A text stream that escapes what :func:`terminal_safe` escapes before writing."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(terminal_safe(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def _guarded_output(command: str):
    """Safe stdout/stderr and one-line warnings for the duration of a command."""
    saved = sys.stdout, sys.stderr, warnings.showwarning
    for stream in saved[:2]:
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")
    sys.stdout, sys.stderr = _SafeStream(saved[0]), _SafeStream(saved[1])

    def show(message, category, filename, lineno, file=None, line=None):
        text = " ".join(str(message).split())
        print(f"cdplot {command}: warning: {text}", file=sys.stderr)

    warnings.showwarning = show
    # SIGTERM unwinds like an exception, so that half-written outputs are removed
    # (cdplot._atomic) instead of being left beside the output
    old_term = None
    with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
        old_term = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        sys.stdout, sys.stderr, warnings.showwarning = saved
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)


class _Terminated(BaseException):
    """SIGTERM arrived; unwinds through ``finally`` and ``except BaseException`` blocks."""


def _terminate(signum, frame):
    raise _Terminated


# options that name files the command writes
_OUTPUT_OPTIONS = {"output": "-o/--output", "plot": "--plot"}


def _check_outputs_are_not_inputs(args) -> None:
    """Refuse an output that is one of the command's input files (it would be overwritten)."""
    given = {k: v for k, v in vars(args).items() if k != "func"}
    for dest, flag in _OUTPUT_OPTIONS.items():
        out = given.get(dest)
        if not isinstance(out, str) or not os.path.isfile(out):
            continue
        for name, value in given.items():
            if name in _OUTPUT_OPTIONS:
                continue
            for candidate in value if isinstance(value, list) else [value]:
                if isinstance(candidate, str) and os.path.isfile(candidate):
                    with contextlib.suppress(OSError):
                        if os.path.samefile(out, candidate):
                            raise CdplotError(
                                f"option {flag} {out!r} is also an input file; writing it "
                                "would destroy the input: choose another output name"
                            )


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``cdplot`` command."""
    parser = _Parser(
        prog="cdplot",
        description=(
            "Compare methods over many data sets the way Demsar (2006) describes: average ranks, "
            "the Friedman and Iman-Davenport tests, Nemenyi and Bonferroni-Dunn critical "
            "differences, pairwise post-hoc tests, critical-difference diagrams and reports."
        ),
        epilog="Run 'cdplot COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"cdplot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS:
        importlib.import_module(f"cdplot._cli.{name}").register(sub)
    return parser


def main(argv=None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    with _guarded_output(args.command):
        try:
            _check_outputs_are_not_inputs(args)
            status = int(args.func(args) or 0)
            sys.stdout.flush()
            return status
        except BrokenPipeError:
            # the reader (``| head``) has gone: stop quietly with the status of SIGPIPE, and
            # keep Python from complaining while it flushes stdout on the way out
            with contextlib.suppress(OSError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.__stdout__.fileno())
            return 128 + 13
        except CdplotError as exc:
            print(f"cdplot {args.command}: error: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            where = f" {exc.filename!r}" if getattr(exc, "filename", None) else ""
            print(f"cdplot {args.command}: error:{where} {exc.strerror or exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(f"cdplot {args.command}: interrupted", file=sys.stderr)
            return 130
        except _Terminated:
            print(f"cdplot {args.command}: terminated", file=sys.stderr)
            return 128 + signal.SIGTERM
