"""Shared fixtures: a seeded random generator and Demsar's C4.5 example."""

import sys

import numpy as np
import pytest

# Demsar (2006), JMLR 7, Table 6: AUC of four C4.5 variants, as printed (3 decimals).
C45_METHODS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")


@pytest.fixture
def rng():
    return np.random.default_rng(20061)


@pytest.fixture
def c45():
    import cdplot

    (table,) = cdplot.load_example("demsar2006")
    return table


@pytest.fixture
def c45_ranks():
    import cdplot

    (table,) = cdplot.load_example("demsar2006-ranks")
    return table


@pytest.fixture(autouse=True)
def _close_figures():
    """Close the figures a test drew, wherever it lives (reports and stats tests draw too)."""
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def pytest_configure(config):
    """Keep the report's template cache out of the real home: one private folder per session.

    ``CDPLOT_CACHE_DIR`` rather than ``XDG_CACHE_HOME``, which would also move matplotlib's
    and fontconfig's caches (matplotlib would rebuild its font list, and say so on stderr).
    """
    import os
    import tempfile

    config._cdplot_cache = tempfile.mkdtemp(prefix="cdplot-test-cache-")
    os.environ["CDPLOT_CACHE_DIR"] = config._cdplot_cache


def pytest_unconfigure(config):
    import shutil

    folder = getattr(config, "_cdplot_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
