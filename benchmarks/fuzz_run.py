"""A large fuzz run outside the test suite (issue 32): generated files through every reader.

The suite's own fuzz (``tests/test_fuzz.py``) sends 250 command lines through the
CLI, which takes about a minute.  This script sends many more generated files
(the same generators: wide, long and JSON tables, hostile documents, random
text and bytes) through every reader and the analyses and exports behind them,
in this process, and counts what ended otherwise than in a result or a one-line
:class:`~cdplot.errors.CdplotError`.

Usage::

    python benchmarks/fuzz_run.py --files 20000 [--seed 1]

It prints the counts (inputs, results, one-line errors, tracebacks, messages of
more than one line) and the first tracebacks, and exits with status 1 if any
input ended in a traceback.  Run the command-line fuzz at a larger size with
``CDPLOT_FUZZ_EXAMPLES=2000 pytest tests/test_fuzz.py``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from test_fuzz import files  # noqa: E402

import cdplot  # noqa: E402
from cdplot.errors import CdplotError  # noqa: E402
from cdplot.io import read_average_ranks, read_records, read_scores  # noqa: E402
from cdplot.io._export import to_csv  # noqa: E402
from cdplot.reporting import data_table  # noqa: E402


def _one(path: Path, counts: collections.Counter, failures: list) -> None:
    """Every reader on ``path``, and the analyses and exports of what it reads."""

    def attempt(what, call):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = call()
        except CdplotError as exc:
            counts["one-line errors"] += 1
            if "\n" in str(exc):
                counts["messages of more than one line"] += 1
                failures.append((what, path.read_bytes()[:300], str(exc)[:300]))
            return None
        except Exception:  # noqa: BLE001 - what this script counts
            counts["tracebacks"] += 1
            failures.append((what, path.read_bytes()[:300], traceback.format_exc()))
            return None
        counts["results"] += 1
        return value

    tables = attempt("read_scores", lambda: read_scores(path))
    attempt("read_records", lambda: read_records(path))
    attempt("read_average_ranks", lambda: read_average_ranks(path))
    for table in (tables or ())[:3]:
        result = attempt("compare", lambda t=table: cdplot.compare(t))
        if result is None:
            continue
        attempt("str", lambda r=result: str(r))
        attempt("to_dict", lambda r=result: json.dumps(r.to_dict()))
        attempt("to_csv", lambda r=result: to_csv([r]))
        if table.n_methods <= 12 and table.n_datasets <= 12:
            attempt("latex table", lambda r=result: data_table(r, format="latex"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000, help="number of generated files")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    counts: collections.Counter = collections.Counter()
    failures: list = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        @seed(args.seed)
        @settings(
            max_examples=args.files,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(files())
        def run(file):
            suffix, data = file
            path = folder / f"input{suffix}"
            path.write_bytes(data)
            counts["inputs"] += 1
            with contextlib.redirect_stderr(io.StringIO()):
                _one(path, counts, failures)
            path.unlink()

        run()
    for key in ("inputs", "results", "one-line errors", "tracebacks"):
        print(f"{key}: {counts[key]:,}")
    print(f"messages of more than one line: {counts['messages of more than one line']:,}")
    for what, data, text in failures[:5]:
        print(f"--- {what} on {data!r}\n{text}")
    return 1 if counts["tracebacks"] else 0


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    sys.exit(main())
