"""The lowest supported versions of the dependencies (the floors in pyproject.toml) work.

The test installs exactly the floor of every runtime dependency into a fresh
virtual environment (wheels from the package index, no system packages),
runs the main commands there with this checkout, and checks that the
statistics are the same as with the versions the suite runs on.
"""

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib (Python 3.11+) reads pyproject.toml")

ROOT = Path(__file__).resolve().parent.parent


def floors() -> list[str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    pins = []
    for dep in deps:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)(,<[0-9.]+)?", dep.replace(" ", ""))
        assert m, f"dependency {dep!r} has no floor (name>=X.Y.Z) that this test can install"
        pins.append(f"{m[1]}=={m[2]}")
    return pins


def test_every_dependency_has_an_exact_floor():
    names = [p.split("==")[0] for p in floors()]
    assert names == ["numpy", "scipy", "matplotlib", "jinja2", "weasyprint", "fonttools"]
    # a release, not a series: "3.10.0", "68.0", never "3.10" standing for the newest 3.10.x
    versions = [p.split("==")[1] for p in floors()]
    assert versions == ["1.23.5", "1.10.1", "3.10.0", "3.1.6", "70.0", "4.60.2"]


@pytest.fixture(scope="module")
def floor_python(tmp_path_factory):
    if sys.version_info >= (3, 12):
        pytest.skip("numpy 1.23 has no wheels for Python 3.12+: the floors are for 3.10-3.11")
    where = tmp_path_factory.mktemp("floors")
    venv.EnvBuilder(with_pip=True).create(where)
    python = where / "bin" / "python"
    proc = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--only-binary=:all:", *floors()],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return python


def _run(python, *args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [str(python), "-m", "cdplot", *args], capture_output=True, text=True, cwd=cwd, env=env
    )


def test_floors_are_what_is_installed(floor_python):
    code = "import numpy, scipy, matplotlib, jinja2, weasyprint as w, fontTools; " + (
        "print(numpy.__version__, scipy.__version__, matplotlib.__version__, "
        "jinja2.__version__, w.__version__, fontTools.version)"
    )
    out = subprocess.run([str(floor_python), "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == [p.split("==")[1] for p in floors()], out.stderr


def test_floors_run_every_output(floor_python, tmp_path):
    for args in (
        ["plot", "--example", "demsar2006", "-o", "cd.svg"],
        ["plot", "--example", "demsar2006", "-o", "cd.png"],
        ["plot", "--example", "demsar2006", "--kind", "intervals", "-o", "iv.pdf"],
        ["report", "--example", "demsar2006", "-o", "r.pdf"],
        ["report", "--example", "yang-table9", "-o", "r.html"],
    ):
        proc = _run(floor_python, *args, cwd=tmp_path)
        assert proc.returncode == 0, (args, proc.stderr)
        assert (tmp_path / args[-1]).stat().st_size > 1000
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    "args",
    [
        ["--example", "demsar2006"],
        ["--example", "demsar2006", "--test", "wilcoxon", "--correction", "holm"],
        ["--example", "yang-table9"],
    ],
    ids=["nemenyi", "wilcoxon-holm", "six-metrics"],
)
def test_floors_compute_the_same_numbers(floor_python, tmp_path, args):
    old = _run(floor_python, "stats", "--json", *args, cwd=tmp_path)
    assert old.returncode == 0, old.stderr
    new = _run(sys.executable, "stats", "--json", *args, cwd=tmp_path)
    assert new.returncode == 0, new.stderr
    _assert_close(json.loads(old.stdout), json.loads(new.stdout), "$")


def _assert_close(a, b, where):
    """Same structure and text; numbers equal to 1e-12 relative (library versions round apart)."""
    if isinstance(a, dict):
        assert isinstance(b, dict), where
        assert sorted(a) == sorted(b), where
        for key in a:
            _assert_close(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list), where
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _assert_close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert b == pytest.approx(a, rel=1e-12, abs=1e-15, nan_ok=True), where
    else:
        assert a == b, where
