"""The ``cdplot`` command: a thin layer that parses arguments and maps errors to exit codes.

Every subcommand lives in ``cdplot/_cli/<name>.py`` and defines
``register(subparsers)``, which adds its parser and sets ``func``.  Errors
in the input or options are printed as one line on stderr with exit
status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ._version import __version__
from .errors import CdplotError

__all__ = ["main", "build_parser"]

SUBCOMMANDS = ("stats", "plot", "report", "table", "pair")


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit with status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


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
    try:
        return int(args.func(args) or 0)
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
