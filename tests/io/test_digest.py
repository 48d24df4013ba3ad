"""The SHA-256 of an input file, hashed at once or beside the parse (io/_text.py)."""

import hashlib

import numpy as np
import pytest

import cdplot
from cdplot.io import _text as text


@pytest.mark.parametrize("rows", [20, 60_000], ids=["small-at-once", "large-in-thread"])
def test_the_digest_is_the_sha256_of_the_file_bytes(tmp_path, rows):
    values = np.random.default_rng(0).random((rows, 10))
    lines = ["dataset," + ",".join(f"m{j}" for j in range(10))]
    lines += [f"d{i}," + ",".join(f"{v:.6f}" for v in row) for i, row in enumerate(values)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    raw = path.read_bytes()
    assert (len(raw) >= text._HASH_IN_THREAD) == (rows > 1000)
    (table,) = cdplot.read_scores(path)
    assert table.sha256 == hashlib.sha256(raw).hexdigest()
    _, _, later = text.read_bytes(path, hash_later=True)
    assert later.result() == later.result() == table.sha256
