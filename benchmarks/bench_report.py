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

The figures of an HTML report are drawn in forked worker processes while the main
process imports fontTools' subsetter, compiles the templates and builds the tables
(see ``cdplot.reporting.figures.figure_svgs_many``); a PDF report has its writer
process (below); ``--no-workers`` sets ``CDPLOT_NO_WORKERS=1`` to time everything
in one process.  Each line also gives
the median CPU time (user + system of the process and its workers), which a
machine shared with other work disturbs less than the wall time; ``--compare``
times another checkout by turns with this one.

``--phases`` also prints, per case, where one run spends its time, in one process
(no workers and no writer process, so that the phases add up): imports, the import
of WeasyPrint that the writer process (below) overlaps with everything up to the
templates, reading and analysis, what a worker run overlaps with drawing the
figures -- (*) compiling the templates (and for HTML importing fontTools'
subsetter), then the tables and words of the context --, the figures
(matplotlib's import and drawing), the fonts, the templates, and for a PDF
WeasyPrint's layout and its drawing and writing of the pages.

A PDF report has a writer process (``cdplot.reporting.pdf_writer``,
``cdplot._child.Helper``): it imports WeasyPrint (0.5-0.65 s of CPU) while the main
process analyses, draws and renders the HTML, then receives the HTML through a pipe,
lays it out and writes the file.  ``cdplot report`` forks it first thing, 0.15 s into
the process, before numpy, scipy and cdplot are imported (``report()`` called from
Python forks it when it starts, 0.55-0.65 s in); the writer says with a byte on its
pipe when its import is done.  The figures are drawn by a worker while the main
process gathers the tables and words, one worker beside a writer still importing and
one per CPU once it waits (before: drawn in the main process after that work).
``--paths`` estimates each run's critical path on an idle 2-CPU machine from each
process's own CPU time (``time.process_time``): the main process's work until the
fork (fork), then the longer of its work until it hands over the HTML (parent, plus
any wait for a worker that drew longer than it worked) and the writer's import
(import), then the writer's layout and writing (write); ``path`` is that chain or half
of all the CPU (cpu), whichever is longer.  It counts a worker beside the writer as
having a CPU of its own.  Medians of 5 runs by turns with main (8bc7636), the 2-core
machine shared by four engineers (load 5-11; wall times ran 3-12 times the quiet ones),
hand-over (fork + the longer of parent and import), main -> the writer forked first
-> plus the figure workers: Demsar 1.41 -> 1.35 -> 1.18 s (each run faster than main: 5/5),
30 methods x 40 1.63 -> 1.46 -> 1.34 s (5/5), 60 methods x 40 2.25 -> 1.81 -> 1.48 s
(5/5), Yang 1.51 -> 1.69 -> 1.27 s (4/5); the writing (1.4, 4.5, 6, 4.5-5 s) is the
same work and its noise (+-0.6 s) hides the gain in ``path`` (Demsar 2.78 -> 2.59 s,
60 methods 8.31 -> 6.93 s).  CPU of all the processes, main / both: Demsar 3.37 /
3.36 s, 30 methods 6.75 / 6.80, 60 methods 8.98 / 8.16, Yang 6.40 / 7.17 (the writing
alone varied by +-0.6 s).  Through
``report()`` (the figure workers only; medians of 4): hand-over Demsar 1.47 -> 1.37 s,
Yang 1.63 -> 1.40 s, 60 methods 2.23 -> 1.68 s, CPU 0.1-0.45 s more (a worker's first
figure loads its fonts again).

WeasyPrint sets the text of an SVG one letter at a time (a Pango layout per
letter), so a PDF report sets each line of figure text as an HTML box over its
SVG instead (``cdplot.reporting.render._print_figure``).  Measured on the shared
2-core machine, in one process, ``_write_pdf`` of the same report by turns with
the figures' text as SVG / as HTML / left out (CPU medians of 5): 30 methods x 40
5.68 / 4.58 / 4.24 s, 60 methods x 40 6.08 / 5.49 / 4.90 s; Demsar's example
(1.42 / 1.39 / 1.42 s) and Yang's six metrics (5.10 / 5.37 / 4.60 s, within
the noise) gain nothing: their figure texts are short, and below about four
letters an SVG text costs no more than an HTML box.  Whole processes against
main by turns (``--compare``, CPU medians of 6): Demsar 3.90 / 4.01 s, 30 methods
7.33 / 7.78 s, 60 methods 9.82 / 10.05 s, Yang 6.89 / 7.01 s; other runs of 5-8
ranged from 0.9 s faster to 0.9 s slower at 30 methods: the load of the shared
machine is as large as the gain.  An HTML report draws its
CD diagram and rank intervals once, whole at the text width: the PDF's
landscape CD diagram and intervals in parts are print-only (drawing the 60
methods x 40 figures on the SVG canvas: 0.54 -> 0.24 s CPU, median of 5).
``benchmarks/profile_pdf.py`` splits WeasyPrint's part further (cascade, each
table, column balancing, drawing, PDF/UA tags).

A PDF report's figures reach WeasyPrint as ``<img>`` of their text-less SVG (a
``data:image/svg+xml`` URL) under the text overlay, not inline
(``cdplot.reporting.render._svg_image``): same pages (word boxes and 100 dpi pixels
identical on all four cases).  ``profile_pdf.py`` against main (8bc7636), two runs each
by turns, CPU medians of 5, machine shared by four engineers (load 3-7): parsing,
cascade and boxes 30 methods x 40 1.06 / 1.11 -> 0.68 / 0.80 s, 60 methods 1.18 / 1.38
-> 0.91 / 1.06 s, Yang 0.94 / 1.07 -> 0.79 / 1.04 s, Demsar no change beyond the noise (small
figures).  WeasyPrint's whole render of the captured HTML by turns (medians of 5): 30
methods 4.40 -> 4.28 s, 60 methods 6.30 -> 5.83 s, Yang 4.46 -> 4.30 s.

The PDF's statistics tables have measured column widths and ``table-layout: fixed``
(``cdplot.reporting.table_widths``), so WeasyPrint skips their preferred widths (0.12 s
of Demsar's render, 0.32-0.41 s of Yang's; part of it, the first use of each font
style, moves to the tables' layout). WeasyPrint's render of the captured HTML by
turns with the automatic layout, CPU medians, machine shared at a load of 6-11:
Demsar 1.21 / 1.39 s (11 runs), Yang 3.50 / 3.53 s (7), 30 methods x 40 4.16 / 3.90 s
(5) and 5.21 / 5.62 s (7, another load); instructions of a whole process
rendering Demsar's HTML once (callgrind): 7.64 / 7.79 G. Whole processes with
``--compare`` (CPU medians of 7 at that load): Demsar 3.42 / 3.33 s, Yang 7.50 / 8.01 s:
the gain is below the noise.

The medians are with a warm template cache: the first, uncounted run compiles
the bundled Jinja2 templates and keeps their code in the user's cache folder
(``$CDPLOT_CACHE_DIR``, else ``$XDG_CACHE_HOME/cdplot`` or ``~/.cache/cdplot``;
``cdplot.reporting.templating``), which every later run loads instead of
compiling (0.22-0.27 s -> 0.01 s of the main process).  A cold first run, as a
user's first report after installing or upgrading cdplot, Jinja2 or Python, costs
that compiling again plus writing 16 small files (~200 KB): the main process's CPU
until it hands the HTML to the PDF writer, Demsar's example, cold / warm, medians
of 5 by turns on the shared 2-core machine: 1.07 / 0.75 s (a cold run points
``CDPLOT_CACHE_DIR`` at a new empty folder).

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


def run_report(
    args: list[str], repeat: int, no_workers: bool = False, root: Path = ROOT
) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each run; CPU is user + system of the process and its workers."""
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if no_workers:
        env["CDPLOT_NO_WORKERS"] = "1"
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
# pipeline are wrapped, in the order they run (no workers: nothing overlaps).
PHASES = """
import sys, time
t0 = time.perf_counter()
marks = []
def mark(name):
    marks.append((name, time.perf_counter()))
import cdplot.reporting.render as R
pdf = sys.argv[-1].lower().endswith(".pdf")
mark("start, imports of cdplot")
if pdf:  # an HTML report never imports WeasyPrint
    import weasyprint.document as D
    R.pdf_writer._import_weasyprint()
    mark("import of WeasyPrint (writer overlaps it)")
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
timed(R, "figure_svgs_many", "figures: matplotlib, drawing", "reading and analysis")
timed(R, "section_context", "context: tables and words", "imports that overlap figures (*)",
      "context: tables and words")
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


# One report through the command line in this process, with each process's own CPU time
# (``time.process_time``) at the points of the schedule: the parent when it forks the writer,
# enters and leaves the figures and hands the HTML over; the writer after its import and
# its writing; each figure worker after each figure job.
PATHS = """
import importlib.abc, json, os, sys, time
record = sys.argv[1]
def mark(what):
    with open(record, "a") as fh:
        fh.write(json.dumps([os.getpid(), what, time.process_time()]) + "\\n")
from cdplot import _child
real_start, real_ask = _child.Helper.start, _child.Helper.ask
def start(cls, prepare, serve):
    mark("fork")
    def prepared():
        try:
            prepare()
        finally:
            mark("prepared")
    def served(request):
        mark("serve")
        try:
            return serve(request)
        finally:
            mark("served")
    return real_start(prepared, served)
def ask(self, request):
    mark("ask")
    return real_ask(self, request)
_child.Helper.start, _child.Helper.ask = classmethod(start), ask
def patch_render(R):
    import cdplot.reporting.figures as F
    many, job = R.figure_svgs_many, F._draw_job
    def figures(*args, while_drawing=None, **kwargs):
        mark("figures")
        def overlap():
            try:
                while_drawing()
            finally:
                mark("overlap done")
        try:
            return many(*args, while_drawing=overlap if while_drawing else None, **kwargs)
        finally:
            mark("figures done")
    def draw_job(index):
        try:
            return job(index)
        finally:
            mark("job")
    draw_job.__qualname__ = draw_job.__name__ = "_draw_job"
    draw_job.__module__ = F.__name__
    R.figure_svgs_many, F._draw_job = figures, draw_job
class Hook(importlib.abc.MetaPathFinder):
    # patch the render module as it is imported, without importing it earlier than cdplot does
    def find_spec(self, name, path, target=None):
        if name != "cdplot.reporting.render":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            patch_render(module)
        spec.loader.exec_module = exec_module
        return spec
import importlib.util
sys.meta_path.insert(0, Hook())
from cdplot.cli import main
status = main(["report", "-q", *sys.argv[2:]])
mark("end")
sys.exit(status)
"""


def critical_path(record: Path) -> dict[str, float]:
    """The wall time of one run on an idle 2-CPU machine, estimated from each process's CPU.

    The parent's work until it forks the writer (``fork``); then the writer's
    import (``import``) beside the parent's work until it hands over the HTML
    (``parent``: its own CPU, plus the wait for figure workers that drew
    longer than it worked meanwhile); then the writer's layout and writing
    (``write``).  ``path`` is the longer of that chain and half the CPU of all
    processes (``cpu``; two CPUs cannot do more), so it still counts the
    contention of a third process.
    """
    import json

    marks: dict[int, list] = {}
    for line in record.read_text().splitlines():
        pid, what, cpu = json.loads(line)
        marks.setdefault(pid, []).append((what, cpu))
    parent = next(pid for pid, m in marks.items() if m[-1][0] == "end")
    own = dict(marks[parent])
    workers = [m[-1][1] for pid, m in marks.items() if m[-1][0] == "job"]
    writer = next((dict(m) for pid, m in marks.items() if m[0][0] in ("prepared", "serve")), None)
    handover = own.get("ask", own["end"])
    if workers and "overlap done" in own:
        # a worker forked at "figures" draws while the parent works until "overlap done"
        handover += max(0.0, max(workers) - (own["overlap done"] - own["figures"]))
    cpu = own["end"] + sum(workers)
    if writer is None:
        chain = handover
        out = {"fork": 0.0, "import": 0.0, "parent": handover, "write": 0.0}
    else:
        fork = own["fork"]
        write = writer["served"] - writer["serve"]
        chain = max(handover, fork + writer["prepared"]) + write
        cpu += writer["served"]
        out = {"fork": fork, "import": writer["prepared"], "parent": handover - fork}
        out["write"] = write
    return {"path": max(chain, cpu / 2), **out, "cpu": cpu}


def run_paths(args: list[str], root: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "marks"
        subprocess.run([sys.executable, "-c", PATHS, str(record), *args], check=True, env=env)
        return critical_path(record)


def _paths_summary(runs: list[dict[str, float]]) -> str:
    return "  ".join(f"{k} {statistics.median(r[k] for r in runs):.2f}" for k in runs[0])


def print_phases(args: list[str]) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env["CDPLOT_NO_WORKERS"] = "1"
    subprocess.run([sys.executable, "-c", PHASES, *args], check=True, env=env)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (default: 5)")
    parser.add_argument(
        "--no-workers", action="store_true", help="draw the figures in the main process"
    )
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
        "--paths",
        action="store_true",
        help="estimate each run's critical path from its processes' own CPU times (medians)",
    )
    args = parser.parse_args(argv)
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
            times, other, paths, other_paths = [], [], [], []
            for _ in range(args.repeat):
                times += run_report(cmd, 1, args.no_workers)
                if args.paths:
                    paths.append(run_paths(cmd, ROOT))
                if args.compare:
                    other += run_report(cmd, 1, args.no_workers, root=Path(args.compare))
                    if args.paths:
                        other_paths.append(run_paths(cmd, Path(args.compare)))
            med = statistics.median(w for w, _ in times)
            verdict = "ok" if med < target else "SLOW"
            print(f"{label:<26} {_summary(times)}  target < {target:g} s  {verdict}", flush=True)
            if args.paths:
                print(f"{'  critical path (CPU)':<26} {_paths_summary(paths)}", flush=True)
            if args.compare:
                print(f"{'  ' + args.compare:<26} {_summary(other)}", flush=True)
                if args.paths:
                    print(
                        f"{'  critical path (CPU)':<26} {_paths_summary(other_paths)}", flush=True
                    )
            if args.phases:
                print_phases(cmd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
