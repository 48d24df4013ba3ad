"""Functions a person can hold in their head (issue 25, item 6).

The modules split so far keep every function body (its docstring aside) within
80 lines; ``ruff check --select C901`` with ``lint.mccabe.max-complexity=25``
checks their branching.  Add a module here once it is split.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cdplot"
SPLIT = [
    *sorted((PACKAGE / "plot" / "_layout").glob("*.py")),
    PACKAGE / "io" / "_build.py",
    PACKAGE / "stats" / "_parametric.py",
]
MAX_BODY_LINES = 80


def _body_lines(node: ast.FunctionDef) -> int:
    first = node.body[0]
    doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    start = node.body[1].lineno if doc and len(node.body) > 1 else first.lineno
    return node.end_lineno - start + 1


@pytest.mark.parametrize("path", SPLIT, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_function_bodies_are_short(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [
        f"{node.name} ({_body_lines(node)} lines, line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and _body_lines(node) > MAX_BODY_LINES
    ]
    assert long == []


def test_the_rule_sees_a_long_function():
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_BODY_LINES + 1))
    node = ast.parse(f'def f():\n    """doc"""\n{body}\n').body[0]
    assert _body_lines(node) == MAX_BODY_LINES + 1
