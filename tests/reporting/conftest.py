"""Fixtures shared by the tests of the report's forked processes (figure workers, PDF writer)."""

import threading

import pytest

from cdplot import _child


@pytest.fixture
def two_cpus(monkeypatch):
    """The conditions for forking made true: two usable CPUs, workers allowed, one thread."""
    monkeypatch.setattr(_child, "usable_cpus", lambda: 2)
    monkeypatch.delenv("CDPLOT_NO_WORKERS", raising=False)
    if threading.active_count() != 1:
        pytest.skip("another thread is running: cdplot forks no process then")
