"""The reporting layer formats results and computes no statistics of its own (issue 25, item 2).

What cdplot/reporting/*.py may take from :mod:`cdplot.stats`, read from their import
statements:

- result types (subclasses of ``cdplot.stats._resultkit.Result``), to receive and read;
- the formatting helpers in ``FORMATTING`` (p-values, effect-size words, lists of
  names, label constants);
- the one place that obtains analyses, ``cdplot.stats._analysis``: ``analyse`` (raw
  scores and ``compare_kws``), ``relate_metrics`` (how per-metric analyses go
  together) and ``stability`` (the optional stability section), imported by
  ``cdplot.reporting._render`` alone.

Every other statistic a report shows comes from a result (its attributes and methods,
such as ``ComparisonResult.versus_best``), never from a stats function the reporting
layer calls.
"""

import ast
import importlib
from pathlib import Path

import pytest

from cdplot.stats._resultkit import Result

PACKAGE = Path(__file__).resolve().parents[2] / "cdplot"
REPORTING = PACKAGE / "reporting"

# name -> the module that defines it (so that a look-alike of another module is refused)
FORMATTING = {
    "format_p": "cdplot.stats._formatting",
    "magnitude": "cdplot.stats._effect_sizes",
    "join_names": "cdplot.stats._resultkit",
    "CORRECTION_LABELS": "cdplot.stats._results",
    "TEST_LABELS": "cdplot.stats._results",
    "JSON_MATRIX_MAX_METHODS": "cdplot.stats._results",
}
OBTAIN_MODULE = "cdplot.stats._analysis"
OBTAIN_NAMES = {"analyse", "relate_metrics", "stability"}
OBTAIN_USER = "cdplot.reporting._render"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_stats(module: str) -> bool:
    return module == "cdplot.stats" or module.startswith("cdplot.stats.")


def _allowed(module: str, name: str) -> bool:
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return False
    if isinstance(obj, type) and issubclass(obj, Result):
        return True
    if name in FORMATTING:
        home = importlib.import_module(FORMATTING[name])
        return getattr(home, name, None) is obj
    return module == OBTAIN_MODULE and name in OBTAIN_NAMES


def stats_imports(source: str, module: str, *, package: bool = False):
    """``(line, module, name)`` for every name ``source`` imports from cdplot.stats.

    ``name`` is None when a whole stats module is imported (``import cdplot.stats``,
    ``from .. import stats``): everything in it is then within reach.
    """
    me = module.split(".")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_stats(alias.name):
                    yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(me[: len(me) - node.level + (1 if package else 0)])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            for alias in node.names:
                if _is_stats(f"{target}.{alias.name}") and not _is_stats(target):
                    yield node.lineno, f"{target}.{alias.name}", None
                elif _is_stats(target):
                    yield node.lineno, target, alias.name


def refused(source: str, module: str, *, package: bool = False) -> list[str]:
    """The stats imports of ``source`` (the module ``module``) that compute statistics."""
    out = []
    for line, target, name in stats_imports(source, module, package=package):
        if name is None:
            out.append(f"{module}:{line} imports the module {target}")
        elif not _allowed(target, name):
            out.append(f"{module}:{line} imports {name} from {target}")
        elif target == OBTAIN_MODULE and name in OBTAIN_NAMES and module != OBTAIN_USER:
            out.append(f"{module}:{line} obtains analyses ({name}); only {OBTAIN_USER} does")
    return out


FILES = sorted(REPORTING.rglob("*.py"))


def test_the_reporting_package_is_read():
    # the files the checks below walk: a moved package would make them pass vacuously
    names = {str(p.relative_to(REPORTING)) for p in FILES}
    assert {"__init__.py", "_render.py", "_tables.py", "_context/_anova.py"} <= names
    found = [
        t for p in FILES for t in stats_imports(p.read_text(encoding="utf-8"), _module_name(p))
    ]
    assert len(found) >= 10


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REPORTING)) for p in FILES])
def test_reporting_takes_only_results_and_formatting_from_stats(path):
    source = path.read_text(encoding="utf-8")
    assert refused(source, _module_name(path), package=path.name == "__init__.py") == []


@pytest.mark.parametrize(
    "source",
    [
        "from ..stats._per_dataset import versus_best",
        "from ..stats._analysis import methods_differ",
        "from ..stats import compare",
        "from cdplot.stats._consistency import kendall_tau_b",
        "import cdplot.stats",
        "import cdplot.stats._per_dataset as pd",
        "from .. import stats",
        "from ..stats import _analysis",
        "def f():\n    from ..stats._effect_sizes import effect_sizes\n",
        "from ..stats._resultkit import notes_lines",
        "from ..stats._nonexistent import ComparisonResult",
    ],
)
def test_a_planted_statistic_is_caught(source):
    assert len(refused(source, "cdplot.reporting._tables")) == 1


def test_only_the_renderer_obtains_analyses():
    source = "from ..stats._analysis import analyse"
    assert refused(source, OBTAIN_USER) == []
    assert refused(source, "cdplot.reporting._context") == [
        "cdplot.reporting._context:1 obtains analyses (analyse); only cdplot.reporting._render does"
    ]


@pytest.mark.parametrize(
    "source",
    [
        "from ..stats._results import ComparisonResult, CORRECTION_LABELS",
        "from ..stats import AutoResult, MetricsComparison, format_p",
        "from cdplot.stats._effect_sizes import magnitude",
        "from ..stats._analysis import SeparateAnalyses",
    ],
)
def test_results_and_formatting_pass(source):
    assert refused(source, "cdplot.reporting._tables") == []


def test_relative_imports_resolve_as_python_does():
    # in cdplot/reporting/__init__.py "." is cdplot.reporting; in cdplot/reporting/_x.py
    # "." is cdplot.reporting too, one level fewer counted from the module itself
    init = {"module": "cdplot.reporting", "package": True}
    assert list(stats_imports("from ..stats import compare", **init)) == [
        (1, "cdplot.stats", "compare")
    ]
    assert list(stats_imports("from .stats import compare", **init)) == []
    assert list(stats_imports("from .stats import compare", "cdplot.reporting._x")) == []
    assert list(stats_imports("from .. import stats", "cdplot.reporting._x")) == [
        (1, "cdplot.stats", None)
    ]
