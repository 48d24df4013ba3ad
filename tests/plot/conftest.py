"""Fixtures of the figure tests (tests/conftest.py closes the figures)."""

import pytest


@pytest.fixture
def demsar():
    import cdplot

    return cdplot.compare(cdplot.load_example("demsar2006"))
