"""The wheel works outside the checkout: templates, fonts and examples are inside it."""

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: hatchling comes with the test extra, so no download is needed
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    (path,) = out.glob("cdplot-*.whl")
    return path


@pytest.fixture(scope="module")
def env(wheel, tmp_path_factory):
    where = tmp_path_factory.mktemp("venv")
    # system site-packages provide numpy, scipy, ...; the venv's own cdplot comes first
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(where)
    python = where / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return where, python


def test_wheel_contains_package_data(wheel):
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("cdplot/_data/templates/") for n in names)
    assert any(n.startswith("cdplot/_data/fonts/") for n in names)
    assert any(n.startswith("cdplot/datasets/") and n.endswith(".csv") for n in names)


def test_installed_wheel_runs_outside_checkout(env, tmp_path):
    where, python = env
    bindir = python.parent
    cdplot_exe = bindir / ("cdplot.exe" if os.name == "nt" else "cdplot")
    run = {"cwd": tmp_path, "capture_output": True, "text": True, "timeout": 300}
    version = subprocess.run([str(cdplot_exe), "--version"], **run)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("cdplot ")
    stats = subprocess.run([str(cdplot_exe), "stats", "--example", "demsar2006"], **run)
    assert stats.returncode == 0, stats.stderr
    assert "C4.5+m+cf" in stats.stdout
    where_from = subprocess.run(
        [
            str(python),
            "-c",
            "import cdplot, cdplot._resources as r; print(cdplot.__file__); print(r.data_dir())",
        ],
        **run,
    )
    module_file, data = where_from.stdout.split()
    assert Path(module_file).resolve().is_relative_to(where.resolve())
    assert Path(data).resolve().is_relative_to(where.resolve())
    assert (Path(data) / "templates").is_dir()
    assert (Path(data) / "fonts").is_dir()
