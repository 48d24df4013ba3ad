"""Shared fixtures: a seeded random generator and Demsar's C4.5 example."""

import signal
import sys

import numpy as np
import pytest

# A shell starts background jobs (`cmd &`) and nohup commands with SIGINT ignored, and
# their children inherit that.  cdplot keeps an inherited ignore on purpose (nohup), so
# every test that sends Ctrl-C to a cdplot process would see a 60 s hang.  The test run
# takes SIGINT as Python does by default; exec resets a handler to the default in the
# processes the tests start.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

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
