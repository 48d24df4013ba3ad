"""Every public function documents exactly the parameters it takes (numpydoc)."""

import importlib
import inspect
import pathlib
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


def _release(text):
    return tuple(int(part) for part in re.match(r"\d+(?:\.\d+)*", text).group(0).split("."))


def test_no_docstring_dates_a_change_after_the_package_version():
    # issue 25 item 7: "added in 0.2.0" in a 0.1.0 package; in the first release nothing
    # is added or changed, so the directives start with the next version
    package = pathlib.Path(cdplot.__file__).parent
    current = _release(cdplot.__version__)
    found = [
        f"{path.relative_to(package)}:{number}: {line.strip()}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (m := re.search(r"\.\. version(?:added|changed|deprecated):: *(\S+)", line))
        and _release(m.group(1)) > current
    ]
    assert found == []
