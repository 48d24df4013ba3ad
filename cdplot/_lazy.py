"""Names of a package imported when first used (PEP 562), so that importing it stays light."""

from __future__ import annotations

import importlib


def attach(package: str, lazy: dict[str, str], namespace: dict):
    """The ``__getattr__`` and ``__dir__`` of ``package``, loading ``lazy``'s names on first use.

    Parameters
    ----------
    package : str
        The package's name, for the error message.
    lazy : dict of str to str
        Each lazily loaded name and the module that defines it.
    namespace : dict
        The package's ``globals()``: a loaded name is kept there, so that it
        is looked up once.

    Returns
    -------
    tuple
        The module-level ``__getattr__`` and ``__dir__`` functions.
    """

    def __getattr__(name: str):
        module = lazy.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__():
        return sorted(set(namespace) | set(lazy))

    return __getattr__, __dir__
