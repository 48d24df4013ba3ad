"""Locate the bundled templates and fonts, installed or in a checkout."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

__all__ = ["data_dir", "templates_dir", "fonts_dir"]


@functools.lru_cache(maxsize=1)
def data_dir() -> Path:
    """Folder holding ``templates/`` and ``fonts/``.

    In a wheel they are package data under ``cdplot/_data``; in a source
    checkout they sit at the top level of the repository.
    """
    installed = Path(str(resources.files("cdplot"))) / "_data"
    if (installed / "templates").is_dir():
        return installed
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "templates").is_dir():
        return checkout
    raise FileNotFoundError("cdplot's templates and fonts are missing; reinstall cdplot")


def templates_dir() -> Path:
    """Folder of the bundled Jinja2 report templates."""
    return data_dir() / "templates"


def fonts_dir() -> Path:
    """Folder of the bundled fonts and their licences."""
    return data_dir() / "fonts"
