"""``python -m cdplot`` and the ``cdplot`` command: the command line, loaded when needed."""

import sys

from ._version import __version__


def run() -> None:
    """Run the ``cdplot`` command and exit with its status.

    ``cdplot --version`` answers here: loading :mod:`cdplot.cli` and argparse to print
    one line cost more than the interpreter itself (issue 28).  Everything else is
    :func:`cdplot.cli.run`.
    """
    if sys.argv[1:] == ["--version"]:
        print(f"cdplot {__version__}")
        sys.exit(0)
    try:
        from .cli import run as run_command
    except KeyboardInterrupt:
        # Ctrl-C while the command line loads, before cdplot.cli.main catches signals
        # itself: the status of SIGINT, without a traceback
        sys.exit(128 + 2)
    run_command()


if __name__ == "__main__":
    run()
