"""``python -m cdplot`` runs the command-line interface."""

import sys

try:
    from .cli import run
except KeyboardInterrupt:
    # Ctrl-C while the command line loads, before cdplot.cli.main catches signals itself:
    # the status of SIGINT, without a traceback
    sys.exit(128 + 2)

if __name__ == "__main__":
    run()
