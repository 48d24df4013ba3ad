"""Functions a person can hold in their head (issue 25, item 6).

Every function body under ``cdplot/`` (its docstring aside) is at most 80
lines, unless a ``# Long:`` comment right under the docstring says why (an
argparse ``register`` that is one ``add_argument`` per option, read top to
bottom like ``--help``).  Branching is ruff's C901 at ``max-complexity = 25``
(pyproject.toml), checked by tests/test_lint.py.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cdplot"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_BODY_LINES = 80
EXEMPT = "# Long:"


def _body_start(node: ast.FunctionDef) -> int:
    """The line of the first statement after the docstring (the docstring's, if alone)."""
    first = node.body[0]
    doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    return node.body[1].lineno if doc and len(node.body) > 1 else first.lineno


def _body_lines(node: ast.FunctionDef) -> int:
    return node.end_lineno - _body_start(node) + 1


def _says_why(node: ast.FunctionDef, lines: list[str]) -> bool:
    """A ``# Long:`` comment directly above the body's first statement (line numbers from 1)."""
    return lines[_body_start(node) - 2].strip().startswith(EXEMPT)


def _long_functions(source: str) -> list[str]:
    lines = source.splitlines()
    return [
        f"{node.name} ({_body_lines(node)} lines, line {node.lineno})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and _body_lines(node) > MAX_BODY_LINES
        and not _says_why(node, lines)
    ]


def test_the_package_has_modules():
    # a wrong PACKAGE path would make the next test vacuous
    assert len(MODULES) > 50
    assert PACKAGE / "plot" / "_critical_difference.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_function_bodies_are_short(path):
    assert _long_functions(path.read_text(encoding="utf-8")) == []


def _long_source(comment: str = "") -> str:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_BODY_LINES + 1))
    return f'def f():\n    """doc"""\n{comment}{body}\n'


def test_the_rule_sees_a_long_function():
    source = _long_source()
    node = ast.parse(source).body[0]
    assert _body_lines(node) == MAX_BODY_LINES + 1
    assert _long_functions(source) == [f"f ({MAX_BODY_LINES + 1} lines, line 1)"]


def test_a_long_comment_exempts_it():
    assert _long_functions(_long_source("    # Long: one statement per option\n")) == []
    # the comment must sit directly under the docstring, not anywhere in the body
    late = _long_source().replace("    x5 = 5\n", "    # Long: too late\n    x5 = 5\n")
    assert _long_functions(late) != []
