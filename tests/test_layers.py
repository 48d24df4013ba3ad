"""Imports point downwards only, and ``import cdplot`` stays light."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cdplot"

# layer -> top-level modules it must never import
FORBIDDEN = {
    "stats": {
        "matplotlib",
        "jinja2",
        "weasyprint",
        "pandas",
        "polars",
        "cdplot.plot",
        "cdplot.report",
    },
    "plot": {"jinja2", "weasyprint", "cdplot.report"},
}


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(
                    path.relative_to(PACKAGE.parent).with_suffix("").parts[: -node.level]
                )
                yield f"{base}.{node.module}" if node.module else base
            else:
                yield node.module


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_downwards_only(layer):
    bad = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for name in _imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert not bad, bad


def test_stats_core_avoids_scipy_stats():
    # importing scipy.stats costs over a second; the core uses scipy.special instead
    bad = [
        str(p.relative_to(PACKAGE))
        for p in (PACKAGE / "stats").rglob("*.py")
        for name in _imports(p)
        if name and name.startswith("scipy.stats")
    ]
    # modules of non-default paths import scipy.stats inside functions only
    for p in (PACKAGE / "stats").rglob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [node.module]
                    if isinstance(node, ast.ImportFrom)
                    else [a.name for a in node.names]
                )
                assert not any(n and n.startswith("scipy.stats") for n in names), p
    del bad


def test_import_and_compare_stay_light():
    code = (
        "import sys, json, cdplot\n"
        "loaded_after_import = sorted(m for m in ('matplotlib', 'jinja2', 'weasyprint', 'pandas', "
        "'polars', "
        "'scipy.stats', 'scipy.special') if m in sys.modules)\n"
        "cdplot.compare(cdplot.load_example('demsar2006'))\n"
        "loaded_after_compare = sorted(m for m in ('matplotlib', 'jinja2', 'weasyprint', 'pandas', "
        "'polars', "
        "'scipy.stats', 'scipy.special') if m in sys.modules)\n"
        "print(json.dumps([loaded_after_import, loaded_after_compare]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    after_import, after_compare = json.loads(out.stdout)
    assert after_import == []
    assert after_compare == []


def test_public_names_resolve():
    import cdplot

    for name in cdplot.__all__:
        assert getattr(cdplot, name) is not None, name
