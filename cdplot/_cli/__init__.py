"""Subcommands of the ``cdplot`` command line (argument parsing only)."""
