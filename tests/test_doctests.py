"""The Examples sections of the docstrings run and print what they say."""

import doctest
import importlib
import pkgutil

import pytest

import cdplot


def _modules():
    for info in pkgutil.walk_packages(cdplot.__path__, prefix="cdplot."):
        if info.name.startswith("cdplot._cli") or info.name == "cdplot.__main__":
            continue
        yield pytest.param(info.name, id=info.name)


@pytest.mark.parametrize("name", list(_modules()))
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0
