"""Every message a command-line test produces speaks of options, never of Python keywords.

An autouse fixture reads what each ``cdplot`` run of these tests wrote on stderr,
in a subprocess (``subprocess.run``) or in this process (``cdplot.cli.main``),
and fails the test if a keyword such as ``score_col=`` or ``test=`` is left.
"""

import contextlib
import re
import subprocess

import pytest

from cdplot import cli

# quoted text holds names from the input (anything at all); keywords are outside it
QUOTED = re.compile(r"""(?<![\w])(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
KEYWORD = re.compile(r"(?<![\w.-])([a-z][a-z0-9]*(?:_[a-z0-9]+)*)=(?!=)")
PARSER = cli.build_parser()


def python_keywords(command: str, message: str) -> list:
    """The Python keywords (``score_col=``, ``test=``) left in a message of ``command``."""
    flags = cli.command_flags(PARSER.commands[command]) if command in PARSER.commands else {}
    outside = QUOTED.sub("", message)
    return [
        m[0]
        for m in KEYWORD.finditer(outside)
        if "_" in m[1] or m[1] in flags or m[1] in cli._KEYWORD_DESTS
    ]


def _command_of(argv) -> str | None:
    argv = [str(a) for a in argv] if isinstance(argv, (list, tuple)) else []
    if "cdplot" in argv:  # python -m cdplot COMMAND ...
        rest = argv[argv.index("cdplot") + 1 :]
    elif argv and argv[0].endswith("cdplot"):
        rest = argv[1:]
    else:
        return None
    return rest[0] if rest else None


@pytest.fixture(autouse=True)
def _messages_name_flags(monkeypatch):
    seen = []
    real_run = subprocess.run

    def run(args, *a, **kw):
        proc = real_run(args, *a, **kw)
        command = _command_of(args)
        if command is not None and isinstance(proc.stderr, (str, bytes)):
            err = (
                proc.stderr.decode("utf-8", "replace")
                if isinstance(proc.stderr, bytes)
                else proc.stderr
            )
            seen.append((command, err))
        return proc

    real_guard = cli._guarded_output

    @contextlib.contextmanager
    def guarded(command, flags=None):
        with real_guard(command, flags):
            stream = cli.sys.stderr
            written = []

            class Tee:
                def write(self, text):
                    written.append(text)
                    return stream.write(text)

                def __getattr__(self, name):
                    return getattr(stream, name)

            cli.sys.stderr = Tee()
            try:
                yield
            finally:
                cli.sys.stderr = stream
                seen.append((command, "".join(written)))

    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setattr(cli, "_guarded_output", guarded)
    yield
    left = [(c, m) for c, m in seen if python_keywords(c, m)]
    assert not left, f"Python keywords in command-line messages: {left}"
