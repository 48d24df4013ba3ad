"""What each PDF-only transformation buys.  Run: python benchmarks/bench_pdf_transforms.py

Times ``cdplot report ... -o r.pdf`` in whole processes, by turns with each
transformation switched off by monkeypatching in the child process (the
switches exist only here, never as options of cdplot).  Prints medians of
wall and CPU time (user + system of the process and its children).

Issue 24 removed the three transformations switched here (the figures' text as HTML
boxes, the SVG slimming, the measured table widths): none bought CPU time beyond the
noise, and none showed on the page.  The numbers are in ``bench_report.py``'s
docstring; to repeat them, pass ``--root`` a checkout of 60ef281 (which still has all
three), and ``--variants "as is" --against DIR`` times this checkout against another.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report import ROOT, write_named  # noqa: E402

# Each variant: code run in the child before the CLI, switching one transformation off.
VARIANTS = {
    "as is": "",
    # the figures' text stays SVG text, which WeasyPrint sets letter by letter (no line is
    # taken out while matplotlib writes the SVG); the figure is still an <img> of its SVG
    "no overlay": "import cdplot.reporting._figures as F\nF._html_line = lambda *a: None\n",
    # the SVG as matplotlib writes it (style attributes, a <style> of * rules, indentation)
    "no slim": "import cdplot.reporting._figures as F\nF._slim = lambda root: None\n",
    # WeasyPrint's automatic table layout measures every cell itself
    "no table widths": """
import cdplot.reporting._context as C
for name in ("method_table_widths", "omnibus_widths", "pvalue_widths"):
    setattr(C, name, lambda *a, **k: None)
C.footer_widths = lambda *a, **k: {"inputs": None, "options": None}
C.consistency_widths = lambda *a, **k: dict.fromkeys(
    ("summary", "average_ranks", "tau", "winners"))
""",
}


def run(args: list[str], prelude: str, root: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one report in a new process."""
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = prelude + "\nimport sys\nfrom cdplot.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, "report", *args], check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", help="cases whose label contains this text")
    parser.add_argument("--variants", help="comma-separated variant names (default: all)")
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the checkout whose cdplot the variants switch (one from before the switched "
        "code was deleted, e.g. `git worktree add /tmp/before 60ef281`); default: this one",
    )
    parser.add_argument(
        "--against", type=Path, help="also time this other checkout as it is, by turns"
    )
    args = parser.parse_args(argv)
    variants = args.variants.split(",") if args.variants else list(VARIANTS)
    runs = [(v, VARIANTS[v], args.root) for v in variants]
    if args.against:
        runs.append((f"{args.against.name} as is", "", args.against))
    for root in {r for _, _, r in runs}:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "cdplot")], check=True)
    rng = np.random.default_rng(4)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        k30, k60 = tmp / "k30.csv", tmp / "k60.csv"
        # the tables of bench_report.py: long names (30-60 characters) of graded skill
        write_named(k30, rng, 40, 30)
        write_named(k60, rng, 40, 60)
        out = ["-o", str(tmp / "r.pdf")]
        cases = {
            "Demsar 4 x 14": ["--example", "demsar2006", *out],
            "30 methods x 40": [str(k30), *out],
            "60 methods x 40": [str(k60), *out],
        }
        for _, _, root in runs:
            run(cases["Demsar 4 x 14"], "", root)  # warm the caches
        for label, cmd in cases.items():
            if args.only and args.only not in label:
                continue
            times: dict[str, list] = {name: [] for name, _, _ in runs}
            for _ in range(args.repeat):
                for name, prelude, root in runs:
                    times[name].append(run(cmd, prelude, root))
            for name, _, _ in runs:
                wall = statistics.median(w for w, _ in times[name])
                cpu = statistics.median(c for _, c in times[name])
                print(f"{label:<18} {name:<20} wall {wall:5.2f} s  CPU {cpu:5.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
