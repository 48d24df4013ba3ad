"""Every public function documents exactly the parameters it takes (numpydoc)."""

import importlib
import inspect
import re

import pytest

import cdplot

# every layer's package: its __all__ lists public functions (the statistics one at a time
# live in cdplot.stats, not at the top level)
SUBPACKAGES = ("io", "stats", "plot", "reporting")


def _public_functions():
    seen = {}
    for name in sorted(cdplot.__all__):
        obj = getattr(cdplot, name)
        if inspect.isfunction(obj):
            seen[obj] = f"cdplot.{name}"
    for sub in SUBPACKAGES:
        package = importlib.import_module(f"cdplot.{sub}")
        for name in getattr(package, "__all__", ()):
            obj = getattr(package, name)
            if inspect.isfunction(obj):
                seen.setdefault(obj, f"cdplot.{sub}.{name}")
    for obj, name in sorted(seen.items(), key=lambda item: item[1]):
        yield pytest.param(obj, id=name)


def _documented(doc: str) -> list[str]:
    lines = inspect.cleandoc(doc).splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Parameters") + 2
    except StopIteration:
        return []
    names = []
    for line in lines[start:]:
        if (
            line
            and not line.startswith(" ")
            and re.match(
                r"^-{3,}$",
                lines[lines.index(line) + 1] if lines.index(line) + 1 < len(lines) else "",
            )
        ):
            break
        if not line or line.startswith(" "):
            continue
        if re.match(r"^[A-Z][a-z]+$", line.strip()):
            break
        head = line.split(" : ")[0]
        names += [n.strip().lstrip("*") for n in head.split(",")]
    return names


@pytest.mark.parametrize("func", list(_public_functions()))
def test_parameters_section_matches_signature(func):
    doc = func.__doc__
    assert doc, f"{func.__name__} has no docstring"
    # numpydoc documents *args and **kwargs too (as "*groups")
    params = [p.name for p in inspect.signature(func).parameters.values()]
    if not params:
        return
    documented = _documented(doc)
    # order may follow shared docstring fragments; the sets must agree
    assert sorted(documented) == sorted(params), (
        f"{func.__module__}.{func.__name__}: documented {documented}, signature {params}"
    )
