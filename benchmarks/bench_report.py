"""Speed of ``cdplot report`` (issues 4 and 9).  Run: python benchmarks/bench_report.py

Prints medians of repeated whole-process runs (``python -m cdplot report``),
never asserts: timing belongs here, not in tests.

Targets on the 2-core reference machine (issue 9), medians of whole processes:
- Demsar's example (4 methods x 14 data sets) to PDF: under 2 s;
- 30 methods x 40 data sets to PDF: under 4 s;
- 60 methods x 40 data sets to PDF: under 6 s;
- Yang's six metrics (``--example yang-table9``) to PDF: under 5 s;
- the HTML report of any of them: under 1.5 s.

The synthetic tables have long method names (as in ``gallery/make_gallery.py``), which is
what makes the tables and figures of a large report expensive.

WeasyPrint subsets the embedded fonts with HarfBuzz when ``libharfbuzz-subset0``
is installed and falls back to fontTools (about a second slower per report)
otherwise; the script says which one it found.

A report runs in one process: analysis, figures, HTML, then WeasyPrint's layout and
writing (issue 24 removed a PDF writer process forked before numpy's import, figure
worker processes, a Jinja2 bytecode cache in ``~/.cache`` and the exit through
``os._exit``; ``--compare`` against a checkout from before then measures what they
bought: Demsar's PDF, ``cdplot report --example demsar2006 -o r.pdf``, medians of 7 by
turns with 9504d5b on the shared 2-core machine at a load of 4.6-4.9, two windows: wall
1.91 / 2.18 s and 2.07 / 2.26 s, CPU of all processes 1.25 / 1.46 s and 1.45 / 1.46 s,
before / after; the PDFs are byte-identical).  Each line also gives the median CPU time
(user + system of the process and any child), which a machine shared with other work
disturbs less than the wall time; ``--compare`` times another checkout by turns with
this one.

``--phases`` also prints, per case, where one run spends its time: imports, the import
of WeasyPrint, reading and analysis, the figures (matplotlib's import and drawing), the
tables and words of the context, the fonts, the templates, and for a PDF WeasyPrint's
layout and its drawing and writing of the pages.

An HTML report draws its CD diagram and rank intervals once, whole at the text
width: the PDF's landscape CD diagram and intervals in parts are print-only (drawing the
60 methods x 40 figures on the SVG canvas: 0.54 -> 0.24 s CPU, median of 5).
``benchmarks/profile_pdf.py`` splits WeasyPrint's part further (cascade, each table,
column balancing, drawing, PDF/UA tags).

What each remaining PDF-only optimisation buys:

- A PDF report's figures reach WeasyPrint as ``<img>`` of their SVG (a
  ``data:image/svg+xml`` URL), not inline (``cdplot.reporting._render._svg_image``): the
  same pages (word boxes and 100 dpi pixels identical on all four cases), and the HTML
  parser reads each figure as one attribute.  ``profile_pdf.py`` against 8bc7636, two
  runs each by turns, CPU medians of 5, machine shared by four engineers (load 3-7):
  parsing, cascade and boxes 30 methods x 40 1.06 / 1.11 -> 0.68 / 0.80 s, 60 methods
  1.18 / 1.38 -> 0.91 / 1.06 s, Yang 0.94 / 1.07 -> 0.79 / 1.04 s, Demsar no change beyond
  the noise (small figures); WeasyPrint's whole render of the captured HTML by turns
  (medians of 5): 30 methods 4.40 -> 4.28 s, 60 methods 6.30 -> 5.83 s, Yang 4.46 ->
  4.30 s.

Removed by issue 24, measured with ``bench_pdf_transforms.py`` (whole processes,
switched off by monkeypatching by turns, CPU medians of 5 on the shared 2-core machine;
window 1 at 9ae482b, load 5-9; window 2 at 60ef281, load 3-5), as saved CPU seconds
(switched off minus as is, window 1 / window 2):

=====================================  ===============  ===============  ===============
transformation                         Demsar 4 x 14    30 methods x 40  60 methods x 40
=====================================  ===============  ===============  ===============
(CPU as is)                            1.92 / 1.74 s    3.66 / 3.46 s    4.79 / 4.73 s
figure text as HTML boxes over the     +0.03 / +0.06    -0.13 / 0.00     +0.05 / +0.12
SVG (split_svg_text, text_overlay)
SVG slimming (style attributes and     +0.04 / +0.06    +0.18 / +0.16    -0.02 / -0.07
the ``*`` rule to attributes)
measured fixed table widths            +0.02 / +0.07    +0.14 / +0.01    -0.04 / -0.04
(table_widths.py)
=====================================  ===============  ===============  ===============

(Window 1 timed the slimming with the overlay off too: the overlay moved no text out of
an SVG with a stylesheet.)  None is beyond the noise, and none showed: with WeasyPrint's
own SVG text the same words at word boxes within 0.03 pt, the same embedded fonts and
the same pixels at 80 dpi (the overlay made the PDF 14-21 % smaller: 63.6 / 73.8 KiB,
250 / 317 KiB, and put the figures' words in the tagged PDF as spans outside their
Figure); the slimming made the HTML report 1.5 % smaller; the automatic table layout
sets the tables within 7 pt of the measured widths, the same lines.  This checkout
without them against 9ae482b with them, by turns, CPU medians of 7 (load 3-5): Demsar
1.62 / 1.67 s, 30 methods x 40 3.34 / 3.27 s, 60 methods x 40 4.27 / 4.37 s.  (An
earlier measurement, with the figures inline and drawn by the removed SVG canvas, had
found the overlay worth 1.1 s at 30 methods; today it is not.)

Each checkout timed is byte-compiled first (``compileall``), as an installed cdplot
is.  Medians of 7 on 2026-11-23, machine otherwise idle, this checkout (0d8d74e) /
8bc7636 by turns (``--compare``), in three windows of the same hour (the machine's
speed drifted by about 10 % between them):

=================  ===================  ===================  ===================
case               11:37                12:11                12:52
=================  ===================  ===================  ===================
Demsar PDF         2.28 / 2.31 s        2.30 / 2.61 s        2.37 / 2.59 s
30 x 40 PDF        4.77 / 5.31 s        4.72 / 5.39 s        4.61 / 5.45 s
60 x 40 PDF        6.66 / 6.59 s        6.19 / 7.03 s        6.89 / 7.60 s
Yang PDF           4.99 / 5.26 s        5.40 / 5.50 s        5.06 / 5.85 s
=================  ===================  ===================  ===================

(11:37 is 5ec1625, before the exit without teardown; HTML at 12:58: 0.90, 1.03,
1.11, 1.07 s.)  The critical path of a PDF is WeasyPrint's writing after the hand-over
(``--paths``: Demsar 1.33 of 2.08 s, 30 x 40 2.95 of 3.87 s, Yang 3.96 of 4.49 s).

``--floor CHECKOUT`` (issue 28) measures each PDF report against its floor: WeasyPrint
alone, in its own process, rendering the exact HTML that cdplot hands it (captured once
per case, with cdplot's URL fetcher for the bundled fonts), by turns with CHECKOUT (the
previous main) and this checkout.  Cases: Demsar, 30 and 60 methods x 40 data sets, and a
TabRepo-shaped table of 104 methods x 93 data sets.  Goals: every report at most 1.25x its
floor in CPU time, the 104 x 93 one in at most 300 MiB.
"""

from __future__ import annotations

import argparse
import ctypes.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def run_report(args: list[str], repeat: int, root: Path = ROOT) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each run; CPU is user + system of the process and its children."""
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cdplot", "report", *args], check=True, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        times.append((wall, cpu))
    return times


def _summary(times: list[tuple[float, float]]) -> str:
    walls = [w for w, _ in times]
    cpu = statistics.median(c for _, c in times)
    return (
        f"median {statistics.median(walls):6.2f} s  (min {min(walls):.2f}, max {max(walls):.2f}, "
        f"n={len(walls)}; CPU {cpu:.2f} s)"
    )


_FAMILIES = (
    "Gradient boosting (500 trees; depth 6)",
    "Random forest (1000 trees; sqrt features)",
    "Logistic regression (L2; C = 1.0)",
    "Support vector machine (RBF kernel; \u03b3 = scale)",
    "k-nearest neighbours (k = 15; distance-weighted)",
    "Na\u00efve Bayes (Gaussian)",
    "Multilayer perceptron (2 \u00d7 256 units; Adam)",
    "Extremely randomised trees (800 trees)",
    "D\u00e9cision tree (CART; min. 5 samples per leaf)",
    "Ridge classifier (\u03b1 = 0.1)",
)


def write_named(path: Path, rng, n_datasets: int, n_methods: int) -> None:
    """Methods of graded skill with long names, as real benchmark tables have them."""
    skill = np.sort(rng.normal(0.0, 1.0, n_methods))[::-1] * 0.035
    base = rng.uniform(0.6, 0.9, size=(n_datasets, 1))
    scores = np.clip(base + skill + rng.normal(0, 0.03, size=(n_datasets, n_methods)), 0, 1)
    names = [
        _FAMILIES[j % len(_FAMILIES)]
        + (f" \u00b7 variant {j // len(_FAMILIES) + 1}" if j >= len(_FAMILIES) else "")
        for j in range(n_methods)
    ]
    lines = ["dataset," + ",".join(f'"{m}"' for m in names)]
    for i, row in enumerate(scores):
        lines.append(f"dataset-{i + 1:02d}," + ",".join(f"{v:.4f}" for v in row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# One report in this process, with the time of each phase: the functions of the
# pipeline are wrapped, in the order they run.
PHASES = """
import sys, time
t0 = time.perf_counter()
marks = []
def mark(name):
    marks.append((name, time.perf_counter()))
import cdplot.reporting._render as R
pdf = sys.argv[-1].lower().endswith(".pdf")
mark("start, imports of cdplot")
if pdf:  # an HTML report never imports WeasyPrint
    import weasyprint.document as D
    mark("import of WeasyPrint")
def timed(owner, attr, name, gap, later_gap=None):
    f = getattr(owner, attr)
    calls = []
    def g(*a, **k):
        mark(later_gap if calls and later_gap else gap)
        calls.append(1)
        try:
            return f(*a, **k)
        finally:
            mark(name)
    setattr(owner, attr, g)
timed(R, "figure_svgs", "figures: matplotlib, drawing", "reading and analysis",
      "context: tables and words")
timed(R, "section_context", "context: tables and words", "context: tables and words")
timed(R, "document_context", "context: tables and words", "context: tables and words")
timed(R, "finish_context", "fonts (HTML: subset, embedded)", "context: placing the figures")
timed(R, "render_template", "templates", "other")
if pdf:
    timed(D.Document, "_render", "WeasyPrint: styles and layout", "other")
    timed(D.Document, "write_pdf", "WeasyPrint: drawing, writing the PDF", "other")
from cdplot.cli import main
main(["report", *sys.argv[1:]])
mark("other")
last, spent = t0, {}
for name, t in marks:
    spent[name] = spent.get(name, 0.0) + t - last
    last = t
for name, t in spent.items():
    print(f"    {name:<44} {t:6.2f} s")
print(f"    {'total':<44} {time.perf_counter() - t0:6.2f} s")
"""


def print_phases(args: list[str]) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-c", PHASES, *args], check=True, env=env)


# Renders the captured HTML of a report the way cdplot does (cdplot.reporting._pdf), and
# nothing else: the floor of a PDF report.  cdplot's URL fetcher (the bundled fonts) is
# loaded from its file: importing it as cdplot.reporting._fetcher would run
# cdplot/reporting/__init__.py, which imports numpy, scipy.special and matplotlib (0.4-0.5 s
# of CPU that WeasyPrint alone never pays, and which made the floor look higher than it is).
FLOOR = """
import importlib.util, sys
import cdplot  # light: its names load lazily
import weasyprint
spec = importlib.util.spec_from_file_location(
    "cdplot.reporting._fetcher", cdplot.__path__[0] + "/reporting/_fetcher.py"
)
fetcher = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fetcher)
make_fetcher = fetcher.make_fetcher
assert "numpy" not in sys.modules and "matplotlib" not in sys.modules
html = open(sys.argv[1], encoding="utf-8").read()
doc = weasyprint.HTML(string=html, base_url=None, url_fetcher=make_fetcher()).render(
    pdf_variant="pdf/ua-1"
)
open(sys.argv[2], "wb").write(doc.write_pdf(pdf_variant="pdf/ua-1"))
"""

# WeasyPrint and the libraries every PDF report needs besides it, imported and nothing
# else: with the floor, what is left of the goal for cdplot's own work.
IMPORTED = "WeasyPrint, numpy, scipy.special, matplotlib's figure and SVG backend, Jinja2"
DEPENDENCIES = (
    "import weasyprint, numpy, scipy.special, matplotlib.figure, "
    "matplotlib.backends.backend_svg, jinja2"
)

# Runs one report and saves the HTML handed to WeasyPrint.
CAPTURE = """
import sys
import cdplot.reporting._render as R
write = R._write_pdf
def capture(html, path, fetcher=None):
    open(sys.argv[1], "w", encoding="utf-8").write(html)
    return write(html, path, fetcher)
R._write_pdf = capture
from cdplot.cli import main
sys.exit(main(["report", *sys.argv[2:]]))
"""


def _child(argv: list[str], root: Path) -> tuple[float, float, float]:
    """CPU (user + system) and wall seconds and peak RSS (MiB) of one process."""
    env = dict(os.environ, PYTHONPATH=str(root))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {argv}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def write_tabrepo_like(path: Path, rng) -> None:
    """104 methods x 93 data sets, error rates (lower is better), TabRepo-like names."""
    families = ["CatBoost", "LightGBM", "XGBoost", "RandomForest", "ExtraTrees", "NeuralNet"]
    names = [f"{families[j % 6]}_r{j // 6 + 1}_BAG_L1" for j in range(104)]
    skill = np.sort(rng.normal(0.0, 1.0, 104)) * 0.02
    base = rng.uniform(0.05, 0.4, size=(93, 1))
    err = np.clip(base + skill + rng.normal(0, 0.02, size=(93, 104)), 0, 1)
    lines = ["dataset," + ",".join(names)]
    lines += [f"task_{i:03d}," + ",".join(f"{v:.5f}" for v in row) for i, row in enumerate(err)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def floor(base: Path, repeat: int, only: str | None) -> None:
    rng = np.random.default_rng(4)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        k30, k60, tab = tmp / "k30.csv", tmp / "k60.csv", tmp / "tabrepo.csv"
        write_named(k30, rng, 40, 30)
        write_named(k60, rng, 40, 60)
        write_tabrepo_like(tab, rng)
        cases = {
            "Demsar 4 x 14": ["--example", "demsar2006"],
            "30 methods x 40": [str(k30)],
            "60 methods x 40": [str(k60)],
            "TabRepo-like 104 x 93": [str(tab), "--lower-is-better"],
        }
        for label, data in cases.items():
            if only and only not in label:
                continue
            out = str(tmp / "r.pdf")
            html = tmp / "r.html"
            _child(["-c", CAPTURE, str(html), *data, "-o", out], ROOT)
            jobs = {
                "previous": (["-m", "cdplot", "report", *data, "-o", out], base),
                "now": (["-m", "cdplot", "report", *data, "-o", out], ROOT),
                "floor": (["-c", FLOOR, str(html), out], ROOT),
                # what a report must import beyond WeasyPrint before it draws anything
                "imports": (["-c", DEPENDENCIES], ROOT),
            }
            runs: dict[str, list] = {name: [] for name in jobs}
            for _ in range(repeat):
                for name, (argv, root) in jobs.items():
                    runs[name].append(_child(argv, root))
            med = {
                n: [statistics.median(r[i] for r in v) for i in range(3)] for n, v in runs.items()
            }
            print(f"{label} (medians of {repeat}, load {os.getloadavg()[0]:.1f})", flush=True)
            for name, m in med.items():
                ratio = f"  {m[0] / med['floor'][0]:.2f}x floor CPU" if name != "floor" else ""
                if name == "imports":
                    ratio = f"  {m[0] / med['floor'][0]:.2f}x floor CPU ({IMPORTED})"
                print(
                    f"  {name:<9} CPU {m[0]:6.2f} s  wall {m[1]:6.2f} s  "
                    f"peak {m[2]:5.0f} MiB{ratio}",
                    flush=True,
                )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (default: 5)")
    parser.add_argument("--only", help="run only the cases whose label contains this text")
    parser.add_argument(
        "--phases", action="store_true", help="also time the phases of one run per case"
    )
    parser.add_argument(
        "--compare",
        metavar="CHECKOUT",
        help="also time the cdplot of this other checkout (e.g. a `git worktree` of main), "
        "run by turns with this one so that both see the same load",
    )
    parser.add_argument(
        "--floor",
        metavar="CHECKOUT",
        help="only the PDF reports against WeasyPrint alone on the same HTML, by turns "
        "with this checkout of the previous code",
    )
    args = parser.parse_args(argv)
    if args.floor:
        for root in (ROOT, Path(args.floor)):
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "cdplot")])
        floor(Path(args.floor), args.repeat, args.only)
        return 0
    hb = ctypes.util.find_library("harfbuzz-subset")
    print(
        "font subsetting: "
        f"{'HarfBuzz (' + hb + ')' if hb else 'fontTools (install libharfbuzz-subset0)'}"
    )
    # an installed cdplot has its .pyc files (pip compiles them); a checkout run with
    # PYTHONDONTWRITEBYTECODE set, or edited since its last run, compiles every module it
    # imports in every run (0.3 s of the main process of Demsar's PDF: 1.12 / 0.82 s CPU,
    # medians of 5), so each checkout timed is compiled first, as an installation would be
    for root in [ROOT, *([Path(args.compare)] if args.compare else [])]:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "cdplot")], check=True)
    print("python bytecode: cdplot's modules compiled first (as installed)")
    rng = np.random.default_rng(4)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        k30, k60 = tmp / "k30.csv", tmp / "k60.csv"
        write_named(k30, rng, 40, 30)
        write_named(k60, rng, 40, 60)
        # the first run warms the file cache and matplotlib's font cache; it is not counted
        run_report(["--example", "demsar2006", "-o", str(tmp / "warm.pdf")], 1)
        inputs = {
            "Demsar 4 x 14": ["--example", "demsar2006"],
            "30 methods x 40": [str(k30)],
            "60 methods x 40": [str(k60)],
            "Yang six metrics": ["--example", "yang-table9"],
        }
        pdf_targets = {
            "Demsar 4 x 14": 2.0,
            "30 methods x 40": 4.0,
            "60 methods x 40": 6.0,
            "Yang six metrics": 5.0,
        }
        cases = []
        for label, data in inputs.items():
            cases.append((f"{label}, PDF", [*data, "-o", str(tmp / "r.pdf")], pdf_targets[label]))
            cases.append((f"{label}, HTML", [*data, "-o", str(tmp / "r.html")], 1.5))
        for label, cmd, target in cases:
            if args.only and args.only not in label:
                continue
            times, other = [], []
            for _ in range(args.repeat):
                times += run_report(cmd, 1)
                if args.compare:
                    other += run_report(cmd, 1, root=Path(args.compare))
            med = statistics.median(w for w, _ in times)
            verdict = "ok" if med < target else "SLOW"
            print(f"{label:<26} {_summary(times)}  target < {target:g} s  {verdict}", flush=True)
            if args.compare:
                print(f"{'  ' + args.compare:<26} {_summary(other)}", flush=True)
            if args.phases:
                print_phases(cmd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
