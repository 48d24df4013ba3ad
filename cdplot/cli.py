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
import shlex
import signal
import sys
import warnings

from ._version import __version__
from .errors import CdplotError, bounded, spoken_as

__all__ = ["main", "run", "build_parser", "terminal_safe", "flag_voice", "command_flags"]

SUBCOMMANDS = ("stats", "plot", "report", "table", "pair", "plan", "stability", "completion")
# commands that print one short answer at once: no files to mention, nothing to wait for
_INSTANT = ("completion",)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit with status 2.

    Abbreviations are off: with them ``--a C4.5`` silently meant ``--alpha C4.5``,
    and an option added later would change what an abbreviation means.
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        # argparse quotes what the user typed ("unrecognized arguments: ...", "invalid
        # choice: ..."): printed before the command's safe streams exist, so made safe here
        message = terminal_safe(bounded(message))
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


# writes longer than this go to the file descriptor directly (see _SafeStream.write)
_DIRECT_WRITE = 1 << 14


class _SafeStream:
    """A text stream that escapes what :func:`terminal_safe` escapes before writing."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        text = terminal_safe(text)
        if len(text) > _DIRECT_WRITE:
            try:
                fd = self._stream.fileno()
            except (AttributeError, OSError, ValueError):  # StringIO and the like
                fd = None
            if fd is not None:
                # CPython's buffered writer drops the rest of a large write without an error
                # when the reader of a pipe leaves after a partial write; os.write reports it
                # (BrokenPipeError), so ``cdplot stats big.csv | head -1`` ends with status 141
                self._stream.flush()
                encoding = getattr(self._stream, "encoding", None) or "utf-8"
                data = memoryview(text.encode(encoding, "backslashreplace"))
                while data:
                    data = data[os.write(fd, data) :]
                return len(text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def _guarded_output(command: str, flags=None):
    """Safe stdout/stderr and one-line warnings for the duration of a command."""
    saved = sys.stdout, sys.stderr, warnings.showwarning
    for stream in saved[:2]:
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")
    sys.stdout, sys.stderr = _SafeStream(saved[0]), _SafeStream(saved[1])

    def show(message, category, filename, lineno, file=None, line=None):
        # cdplot's warnings name options with opt(), written with the command's flags
        text = bounded(" ".join(str(message).split()))
        print(f"cdplot {command}: warning: {text}", file=sys.stderr)

    warnings.showwarning = show
    # SIGTERM unwinds like an exception, so that half-written outputs are removed
    # (cdplot._atomic) instead of being left beside the output
    old_term = None
    with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
        old_term = signal.signal(signal.SIGTERM, _terminate)
    try:
        # every option a message names (cdplot.errors.opt) is written as this command's flag
        with spoken_as(flag_voice(flags or {})):
            yield
    finally:
        sys.stdout, sys.stderr, warnings.showwarning = saved
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)


# Python keywords whose command-line option has another name, used when the command has no
# option of the keyword's own name; every other keyword ``foo_bar`` is the option whose dest is
# ``foo_bar``, read from the parser itself
_KEYWORD_DESTS = {
    "max_bytes": "max_input_size",
    "template_dir": "template",
    "n_samples": "samples",
    "rng": "seed",
    "pairs": "pair",
    "path": "output",
    "correction": "continuity",  # McNemar's, where no multiple-testing correction is offered
}


def command_flags(parser: argparse.ArgumentParser) -> dict:
    """``{dest: [actions]}`` of the options of one (sub)command, read from the parser."""
    flags: dict = {}
    for action in parser._actions:  # read only: argparse lists its actions nowhere else
        if action.option_strings and action.dest != "help":
            flags.setdefault(action.dest, []).append(action)
    return flags


def _value_word(value) -> str:
    """A value as a shell user types it; text that is not printable stays a Python literal."""
    if isinstance(value, str):
        return shlex.quote(value) if value.isprintable() else repr(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return _value_word(",".join(value))
    return str(value)


def _flag(actions, value, given: bool) -> str:
    """The command-line spelling of ``keyword=value`` for the actions of one dest."""
    first = actions[0]
    flag = max(first.option_strings, key=len)
    if first.nargs == 0:
        if isinstance(first, argparse.BooleanOptionalAction) and isinstance(value, bool):
            return first.option_strings[0 if value else 1]  # --name, --no-name
        for action in actions:
            if given and getattr(action, "const", None) == value and value is not None:
                return max(action.option_strings, key=len)
        return flag if not given else f"no {flag}"
    if not given:
        return flag
    if value is None:
        return f"no {flag}"
    return f"{flag} {_value_word(value)}"


def flag_voice(flags: dict):
    """The voice (:func:`cdplot.errors.spoken_as`) of a command whose options are ``flags``.

    The one place a Python keyword becomes a flag: ``opt('test', 'friedman-z')`` is
    written ``--test friedman-z``, ``opt('score_col')`` ``--score-col``.  A keyword
    the command has no option for stays as Python writes it.
    """

    def speak(name: str, value, given: bool) -> str | None:
        dest = name if name in flags else _KEYWORD_DESTS.get(name, name)
        if dest not in flags:
            return None
        return _flag(flags[dest], value, given)

    return speak


class _Terminated(BaseException):
    """SIGTERM arrived; unwinds through ``finally`` and ``except BaseException`` blocks."""


# the signal that interrupted the running command, if any: an import interrupted inside C
# code (numpy's) comes back as an ImportError, which then is the signal's doing
_received: list = []


def _terminate(signum, frame):
    _received.append(signum)
    raise _Terminated


def _interrupt(signum, frame):
    _received.append(signum)
    raise KeyboardInterrupt


def _again(signum, frame):
    """SIGALRM set by :func:`_unraisable`: raise the signal that was lost, here."""
    lost = _received[-1]
    (_interrupt if lost == signal.SIGINT else _terminate)(lost, frame)


# SIGALRM's handler before _unraisable first set it, restored when main() ends
_alarm_saved: list = []


def _unraisable(hook_args) -> None:
    """``sys.unraisablehook`` while a command runs: a signal is not lost in a callback.

    A signal whose handler runs inside a callback (a weak reference's, importlib's
    module locks', a ``__del__``) raises where Python cannot propagate: it prints
    "Exception ignored" with a traceback and the command goes on.  Instead the
    signal is raised again a millisecond later from SIGALRM, once the callback has
    returned, where it ends the command.  (Raising it from this hook, or pending it
    with ``_thread.interrupt_main``, runs the handler inside the hook again.)
    """
    lost = issubclass(hook_args.exc_type, (KeyboardInterrupt, _Terminated)) and _received
    if lost and hasattr(signal, "setitimer"):
        old = signal.signal(signal.SIGALRM, _again)
        if not _alarm_saved:
            _alarm_saved.append(old)
        signal.setitimer(signal.ITIMER_REAL, 0.001)
        return
    (_saved_hook or sys.__unraisablehook__)(hook_args)


# the unraisable hook that was in place before main() installed _unraisable
_saved_hook = None


# options that name files the command writes
_OUTPUT_OPTIONS = {"output": "-o/--output", "plot": "--plot"}
# options that may name a folder the command reads: a results folder, a template folder
_INPUT_FOLDERS = {"files": "FILE", "file": "FILE", "template": "--template"}


def _check_outputs_are_not_inputs(args) -> None:
    """Refuse an output that is one of the command's input files or lies in an input folder.

    The first would be overwritten; a new file in a results folder would be read
    as a result by the next run (and an existing one overwritten).  Paths are
    compared after following links.
    """
    given = {k: v for k, v in vars(args).items() if k != "func"}
    for dest, flag in _OUTPUT_OPTIONS.items():
        out = given.get(dest)
        if not isinstance(out, str) or out == "-":  # "-": standard output
            continue
        if os.path.isfile(out):
            _check_not_an_input_file(out, flag, given)
        real_out = os.path.realpath(out)
        for name, what in _INPUT_FOLDERS.items():
            value = given.get(name)
            for folder in value if isinstance(value, list) else [value]:
                if not isinstance(folder, str) or not os.path.isdir(folder):
                    continue
                real = os.path.realpath(folder)
                if os.path.commonpath([real, real_out]) == real:
                    raise CdplotError(
                        f"option {flag} {out!r} lies inside the input folder {folder!r} "
                        f"({what}); writing there would change what the command reads: "
                        "choose an output outside it"
                    )


# the commands that print to standard output when no -o is given (in their default format)
_PRINTING = ("stats", "table")


def _standard_output(args) -> None:
    """``-o -``: write to standard output, in the format ``--format`` names.

    As for ``sort -o -``.  ``-`` has no extension to tell the format, so the
    commands without a default one need ``--format``.  The output goes through
    ``/dev/stdout``, which :func:`cdplot._atomic.atomic_write` writes in place
    (through the descriptor, after what was printed before); nothing says
    "wrote", since the output itself is on the terminal or in the pipe.
    """
    if getattr(args, "output", None) != "-":
        return
    if args.command in _PRINTING:
        args.output = None
        return
    if getattr(args, "format", None) is None:
        raise CdplotError(
            "option -o - writes to standard output, which has no extension to tell the "
            "format: give --format"
        )
    if not os.path.exists("/dev/stdout"):
        raise CdplotError("option -o -: this system has no /dev/stdout; give a file name")
    args.output = "/dev/stdout"
    args.quiet = True


def _check_not_an_input_file(out: str, flag: str, given: dict) -> None:
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
        epilog="FILE may be a score table (CSV, TSV, JSON or a whitespace-aligned text table) "
        "or an aeon/tsml-eval results folder. Run 'cdplot COMMAND --help' for the options of a "
        "command.",
    )
    parser.add_argument("--version", action="version", version=f"cdplot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS:
        importlib.import_module(f"cdplot._cli.{name}").register(sub)
        if name in _INSTANT:
            continue
        sub.choices[name].add_argument(
            "-q", "--quiet", action="store_true", help="do not say which files were written"
        )
        if "--progress" not in sub.choices[name]._option_string_actions:
            sub.choices[name].add_argument(
                "--progress",
                action=argparse.BooleanOptionalAction,
                default=None,
                help="say on stderr what the command is doing once it has run 2 s (default: "
                "when stderr is a terminal and --quiet is not given)",
            )
    # the subcommands' parsers, to speak of their options in messages
    parser.commands = dict(sub.choices)
    return parser


# options whose values are file names: any bytes the system allows are fine there (Python
# carries undecodable bytes as lone surrogates, which os functions turn back into the bytes)
_PATH_DESTS = frozenset({"files", "file", "output", "plot", "template", "font", "pvalues"})


def _check_text_options(args, flags: dict) -> None:
    """Refuse text options holding bytes that are not UTF-8 (they reach no output intact).

    Python decodes the command line with the locale's encoding and keeps each byte it
    cannot decode as a lone surrogate; such a title or name cannot be written to a
    UTF-8 file or matched with the names of the data, so it is refused with the bytes.
    """
    for dest, value in vars(args).items():
        if dest in _PATH_DESTS or dest not in flags:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for item in values:
            for text in item if isinstance(item, tuple) else [item]:
                if isinstance(text, str) and _SURROGATE.search(text):
                    flag = max(flags[dest][0].option_strings, key=len)
                    raw = text.encode("utf-8", "surrogateescape")
                    raise CdplotError(
                        f"option {flag} {raw!r} is not UTF-8 text; give it in UTF-8 (the "
                        "terminal's or the script's encoding may be Latin-1 or another)"
                    )


_SURROGATE = re.compile("[\ud800-\udfff]")


def _catch_signals():
    """SIGINT raises KeyboardInterrupt and SIGTERM :class:`_Terminated`; returns the old handlers.

    Installed first thing in :func:`main`, before the subcommands are imported, so
    that a signal arriving while the command starts ends it quietly as well.
    """
    global _saved_hook
    saved = []
    if sys.unraisablehook is not _unraisable:
        _saved_hook = sys.unraisablehook
        sys.unraisablehook = _unraisable
    with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
        for signum, handler in (
            (signal.SIGINT, _interrupt),
            (signal.SIGTERM, _terminate),
        ):
            old = signal.getsignal(signum)
            if old is signal.SIG_IGN:  # ``nohup``, a background job: keep it ignored
                continue
            signal.signal(signum, handler)
            saved.append((signum, old))
    return saved


def main(argv=None) -> int:
    """Run the command line; return the exit status.

    A signal at any moment, also while the command starts, ends it with status 130
    (SIGINT) or 143 (SIGTERM) and one line, never a traceback.
    """
    saved = _catch_signals()
    _received.clear()
    command = "cdplot"
    try:
        # cdplot's matrix products are small (k x k, k x N); OpenBLAS runs them on several
        # threads that spin while they wait, which on a busy 2-core machine cost 0.1 to 0.5 s
        # of CPU time per run (benchmarks/bench_stats.py).  Set before numpy loads; a value
        # the user exported wins.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        if list(sys.argv[1:] if argv is None else argv) == ["--version"]:
            # the answer needs none of the subcommands' parsers (and their imports)
            print(f"cdplot {__version__}")
            return 0
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
        command = f"cdplot {args.command}"
        return _run_command(args, command_flags(parser.commands[args.command]))
    except KeyboardInterrupt:
        _quiet_signals()
        print(f"{command}: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    except _Terminated:
        _quiet_signals()
        print(f"{command}: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except Exception:
        if not _received:
            raise
        # the signal arrived inside code that turned it into another error (an import
        # in C): the command ends as the signal asks
        _quiet_signals()
        word = "interrupted" if _received[0] == signal.SIGINT else "terminated"
        print(f"{command}: {word}", file=sys.stderr)
        return 128 + _received[0]
    finally:
        for signum, old in saved:
            signal.signal(signum, old if old is not None else signal.SIG_DFL)
        if sys.unraisablehook is _unraisable and _saved_hook is not None:
            sys.unraisablehook = _saved_hook
        if _alarm_saved:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, _alarm_saved.pop() or signal.SIG_DFL)


def _quiet_signals() -> None:
    """Ignore further signals while the command reports the first one and ends."""
    with contextlib.suppress(ValueError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _run_command(args, flags: dict) -> int:
    """Run the subcommand of ``args``; map its errors to one line and an exit status."""
    with _guarded_output(args.command, flags):
        try:
            _check_text_options(args, flags)
            _check_outputs_are_not_inputs(args)
            _standard_output(args)
            # loaded with the command, not with --version (which must stay cheap)
            from ._cli import progress

            with progress.running(args):
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
            # written inside _guarded_output: its options already read as this command's flags
            print(f"cdplot {args.command}: error: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            where = f" {exc.filename!r}" if getattr(exc, "filename", None) else ""
            message = bounded(f"{where} {exc.strerror or exc}")
            print(f"cdplot {args.command}: error:{message}", file=sys.stderr)
            return 2
        except MemoryError:
            # the library refuses the sizes it can foresee (k x k matrices); this is the rest
            print(
                f"cdplot {args.command}: error: out of memory; give a smaller input",
                file=sys.stderr,
            )
            return 2


def run() -> None:
    """Run the command line as a program (``cdplot``, ``python -m cdplot``) and exit.

    Exits with :func:`main`'s status, through Python's ordinary exit.
    """
    sys.exit(main())
