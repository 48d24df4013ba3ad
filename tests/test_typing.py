"""What a type checker sees of cdplot: real signatures behind the lazy imports, not ``Any``.

mypy runs with ``--strict`` and no other flag on a small user script, as a user's
project would: the correct calls pass, and ``cdplot.compare(123, alpha="high")``
(which ``Any`` used to accept) is reported for both arguments.
"""

import ast
import os
import pathlib
import subprocess
import sys

import pytest

import cdplot
import cdplot.plot

pytest.importorskip("mypy")

ROOT = pathlib.Path(cdplot.__file__).resolve().parent.parent

GOOD = """\
import numpy as np

import cdplot
import cdplot.io
import cdplot.stats

(table,) = cdplot.load_example("demsar2006")
res = cdplot.compare(table, alpha=0.1, test="bonferroni-dunn", nan_policy="omit")
best: str = res.order()[0]
rows = cdplot.compare([[0.8, 0.7, 0.6], [0.9, 0.6, 0.5]], methods=["A", "B", "C"])
pair = cdplot.compare_pair(table, methods=("C4.5", "C4.5+m"), zero_method="pratt")
ranks = cdplot.compare_ranks({"A": 1.5, "B": 1.5}, 10, test="friedman-z")
fr, idr = cdplot.stats.friedman_from_ranks(cdplot.stats.rank_data(table.values))
p: float = fr.pvalue
adjusted = cdplot.stats.adjust(np.array([0.01, 0.04]), "holm")
wins: int = cdplot.stats.critical_wins(14)
tables = cdplot.io.read_scores("scores.csv", layout="long", orient="methods")
text: str = cdplot.stats.format_p(p, prefix=True)
ax = cdplot.cd_diagram(res, style="paper-wide", highlight="C4.5", label_kws={"color": "k"})
ax.set_title("Demsar")
cdplot.rank_intervals(res, width=3.5)
cdplot.significance_heatmap(res, annotate=True)
cdplot.cd_diagram([[0.8, 0.7], [0.9, 0.6]], compare_kws={"alpha": 0.1})
tex: str = cdplot.cd_tikz(res, standalone=True)
out = cdplot.save_figure(ax, "cd.pdf", dpi=300)
written = cdplot.report(res, "report.pdf", title="Demsar", paper="letter")
latex: str = cdplot.data_table(res, format="latex")
"""

BAD = """\
import cdplot

res = cdplot.compare("scores.csv")

cdplot.compare(123, alpha="high")
cdplot.compare("scores.csv", test="tukey")
cdplot.comapre("scores.csv")
cdplot.cd_diagram(res, style="poster")
cdplot.report(res, "r.pdf", paper="a3")
"""


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("typing")
    (tmp / "good.py").write_text(GOOD)
    (tmp / "bad.py").write_text(BAD)
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp / "cache"),
            "good.py",
            "bad.py",
        ],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.stdout + proc.stderr


def _errors(output, name):
    return [
        line for line in output.splitlines() if line.startswith(f"{name}:") and " error: " in line
    ]


def test_correct_calls_pass_mypy_strict(mypy_output):
    assert _errors(mypy_output, "good.py") == [], mypy_output


def test_a_number_for_scores_and_a_word_for_alpha_are_both_reported(mypy_output):
    line3 = [e for e in _errors(mypy_output, "bad.py") if e.startswith("bad.py:5:")]
    assert any('Argument 1 to "compare" has incompatible type "int"' in e for e in line3), (
        mypy_output
    )
    assert any('Argument "alpha" to "compare" has incompatible type "str"' in e for e in line3), (
        mypy_output
    )


def test_an_unknown_choice_and_a_misspelt_name_are_reported(mypy_output):
    errors = _errors(mypy_output, "bad.py")
    assert any(e.startswith("bad.py:6:") and '"test"' in e for e in errors), mypy_output
    assert any(e.startswith("bad.py:7:") and "comapre" in e for e in errors), mypy_output


def test_figures_and_reports_are_typed_too(mypy_output):
    # issue 25: the figures' and the report's parameters are annotated, choices as Literal
    errors = _errors(mypy_output, "bad.py")
    assert any(e.startswith("bad.py:8:") and '"style" to "cd_diagram"' in e for e in errors), (
        mypy_output
    )
    assert any(e.startswith("bad.py:9:") and '"paper" to "report"' in e for e in errors), (
        mypy_output
    )


def _type_checking_imports(package):
    """``{name: module}`` imported under ``if TYPE_CHECKING:`` in ``package``'s ``__init__``."""
    tree = ast.parse(pathlib.Path(package.__file__).read_text())
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    )
    names = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.dump(node)
        module = package.__name__ + ("." + node.module if node.module else "")
        names.update({alias.name: module for alias in node.names})
    return names


@pytest.mark.parametrize("package", [cdplot, cdplot.plot], ids=["cdplot", "cdplot.plot"])
def test_checkers_see_every_lazy_name_from_the_module_that_loads_it(package):
    seen = _type_checking_imports(package)
    assert seen == package._LAZY
    assert set(package._LAZY) <= set(package.__all__)
    # the written-out __all__ (which checkers read) names nothing the package lacks
    assert all(hasattr(package, name) for name in package.__all__)
