"""ruff's lint rules and formatting hold for the whole repository (configured in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "args", [["check", "--no-cache", "."], ["format", "--check", "--no-cache", "."]], ids=str
)
def test_ruff(args):
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
