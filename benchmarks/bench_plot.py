"""Speed of the figures (issues 3 and 8).  Run: python benchmarks/bench_plot.py [--repeat N]

``--compare CHECKOUT`` times ``cdplot plot`` 30 x 10 -> SVG of another checkout (e.g.
``git worktree add --detach /tmp/base 281abae``) by turns with this one, whole
processes, and prints both medians (wall and CPU); run it from outside either tree.

Prints medians of repeated runs, never asserts: timing belongs here, not in tests.

Targets on the 2-core reference machine:
- ``cdplot plot`` of a 30 x 10 table to SVG, whole process: median under 1.0 s, and no
  slower than a script drawing the same diagram with scikit-posthocs'
  ``critical_difference_diagram`` (the ratio is printed); issue 8 adds: no slower than
  the code of when it was filed (commit 281abae), which ``--compare`` runs
  interleaved with this tree;
- a 50-method CD diagram in-process, drawn and rendered (Agg): under 0.3 s;
- a 100-method CD diagram with 60-character names in-process (issue 8): layout and
  artists, and drawn and rendered (Agg), each under 0.5 s.

Sessions 5-9 wrote ``cdplot plot -o x.svg`` and the reports' figures with a private SVG
recording canvas that skipped ``matplotlib.figure`` (50 methods in-process: 0.112 s
against matplotlib's 0.250 s CPU).  It broke when matplotlib 3.11 moved a baseline by a
point and was removed (issue 24): every SVG is written by matplotlib's backend again.

No speed tricks are left (STYLE.md, "Habits to stop").  What the two that were
removed bought, measured on the shared 2-core machine (CPU-time medians of 7 runs,
which load inflates less than wall time; load average 6-9 at the time):

- ``cdplot plot`` imported matplotlib with ``matplotlib.artist.kwdoc`` stubbed, so
  that the property tables matplotlib writes into docstrings were left empty:
  importing ``matplotlib.figure`` took 0.75 s of CPU instead of 0.91 s (3.10.9)
  and 0.76 s instead of 0.97 s (3.11.2).  Every ``cdplot plot`` now pays those
  0.16-0.21 s.
- pyproject.toml pinned ``matplotlib<3.11``.  matplotlib 3.11 shapes text with
  libraqm and draws it on Agg glyph by glyph from Python (``RendererAgg.
  _draw_text_glyphs_and_boxes``: FreeType render, numpy transform and compositing
  per glyph, where 3.10 made one bitmap per string in C++); the 100-method
  diagram has about 7,300 glyphs.  In-process, 100 methods: layout and artists
  0.18 / 0.20 s CPU (3.10 / 3.11), rendered to SVG 0.54 / 0.43 s, rendered on
  Agg 0.67 / 1.62 s.  Whole process: ``cdplot plot`` 30 x 10 to SVG 1.00 /
  0.97 s CPU, to PNG 0.91 / 1.23 s, 100 methods to PNG 1.96 / 2.30 s.  The glyph
  count is the figure's content (names, and the key to shortened ones), so
  nothing on cdplot's side makes Agg text cheaper; SVG, PDF and the reports'
  figures are not affected.  The pin is gone: with 3.11 the Agg targets above are
  not met for 100 methods.

Issue 8's speed items (matplotlib 3.10.9; the machine shared by four engineers, load
average 3-5, so every figure below is inflated by the load; interleaved runs):

- Whole process, 30 x 10 to SVG, CPU medians of 15 interleaved runs (281abae / this
  branch before the work / after it): 1.02 / 1.25 / 1.11 s at load 4.3, then 0.93 /
  1.02 / 0.93 s and 0.88 / 1.01 / 0.94 s at load 3; cmp_plot.py, 9 runs: 0.80 s for
  281abae, 0.78 s now. So it is at parity or up to 9 % slower, depending on the
  round. What is left is matplotlib's own docstring tables: valgrind (callgrind,
  instruction counts, which load does not change) counts 1.976e9 instructions for
  281abae and 2.633e9 now, and importing ``matplotlib.figure`` with its backends
  takes 2.208e9 with ``kwdoc`` and 1.568e9 with it stubbed: 0.640e9 of the 0.657e9
  difference. What cdplot does after matplotlib is imported (parsing, modules,
  analysis, drawing, saving) took 0.185 s of CPU at 281abae and 0.14 s now, measured
  by phase in one process. Where the time went: Nemenyi's critical value by
  bisection, twice (92 quadratures each) and quadrature nodes from numpy's
  eigensolver (whose BLAS threads spun): 65 ms, now 10 ms; ``Figure.findobj`` making
  every tick of the hidden axis to find the SVG's texts: 14 ms, now 1 ms; the legacy
  kerning pairs read with one struct call each while subsetting Lato: 4 of 6 ms; a
  font lookup per new text size for line heights: 3 ms per size; the other charts'
  modules and the parametric and compare_ranks analyses imported though not used.
- 100 methods, paper-wide, drawn and rendered on Agg, in-process (minimum of 9,
  3 interleaved rounds): 0.41-0.49 s before, 0.36-0.38 s now; 50 methods
  0.30-0.32 s before, 0.26-0.29 s now (medians here: 0.39 s and 0.28 s CPU).
  Most of it is FreeType laying out each line twice (matplotlib measures, then
  draws).  Text was drawn with matplotlib's default auto-hinter outside
  ``save_figure`` (``text.hinting`` is read at draw time), which doubled
  FreeType's cost per glyph and set names at other widths than the layout
  measured; cdplot's text is now a ``LayoutText`` that is measured and drawn
  unhinted wherever the figure is drawn (``save_figure`` output is unchanged).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

PEER_SCRIPT = """
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import scikit_posthocs as sp
df = pd.read_csv(sys.argv[1], index_col=0)
ranks = df.rank(axis=1, ascending=False).mean()
p = sp.posthoc_nemenyi_friedman(df.to_numpy())
p.index = p.columns = df.columns
plt.figure(figsize=(7, 2.5))
sp.critical_difference_diagram(ranks, p)
plt.savefig(sys.argv[2], format="svg")
"""


def median_time(fn, repeat: int) -> float:
    """Median wall time of ``fn``; its median CPU time is kept in ``CPU[fn.__name__]``.

    CPU time (this process's, plus its children's for the whole-process runs)
    counts only the work done, so it says more than wall time when other jobs
    share the machine; both are printed.
    """
    times, cpus = [], []
    for _ in range(repeat):
        c0 = _cpu()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
    CPU[fn.__name__] = statistics.median(cpus)
    return statistics.median(times)


CPU: dict[str, float] = {}


def _cpu() -> float:
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cpu(fn) -> str:
    return f"; CPU {CPU[fn.__name__]:.3f} s"


def write_table(path: Path, n: int, k: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    values = 0.7 + np.linspace(0.1, 0.0, k)[None, :] + rng.normal(0, 0.03, (n, k))
    lines = ["dataset," + ",".join(f"method {j}" for j in range(k))]
    lines += [f"d{i}," + ",".join(f"{v:.4f}" for v in row) for i, row in enumerate(values)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def use_bytecode() -> None:
    """Let every measured process load cdplot from compiled bytecode, as an install does.

    pip compiles a wheel's modules when it installs them, and the peers' packages
    are installed that way; a checkout run with ``PYTHONDONTWRITEBYTECODE`` (set in
    some sandboxes and CI images) would otherwise recompile cdplot's modules on
    every start, about 0.2 s that no user pays.
    """
    import compileall

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    package = Path(__file__).resolve().parents[1] / "cdplot"
    compileall.compile_dir(str(package), quiet=1)


def compare(other: Path, table: Path, tmp: Path, repeat: int) -> int:
    """Whole-process ``cdplot plot`` to SVG of this tree and ``other``, run by turns."""
    import compileall
    import resource

    compileall.compile_dir(str(other / "cdplot"), quiet=1)
    roots = {"this tree": ROOT, str(other): other}
    walls: dict[str, list[float]] = {name: [] for name in roots}
    cpus: dict[str, list[float]] = {name: [] for name in roots}
    for _ in range(repeat):
        for name, root in roots.items():
            # the checkout's own cdplot: first on the path, and the working directory
            # (python -m puts the working directory ahead of PYTHONPATH)
            env = dict(os.environ, PYTHONPATH=str(root))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "cdplot", "plot", str(table), "-o", str(tmp / "c.svg")],
                check=True,
                cwd=root,
                env=env,
                capture_output=True,
            )
            walls[name].append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    for name in roots:
        print(
            f"cdplot plot 30x10 -> SVG, {name}: wall median {statistics.median(walls[name]):.3f} s,"
            f" CPU median {statistics.median(cpus[name]):.3f} s (n={repeat})"
        )
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per measurement (default: 7)")
    parser.add_argument(
        "--compare",
        metavar="CHECKOUT",
        help="only time `cdplot plot` 30x10 -> SVG of this other checkout by turns with this one",
    )
    args = parser.parse_args(argv)
    use_bytecode()
    tmp = Path(tempfile.mkdtemp(prefix="cdplot-bench-"))
    table = tmp / "scores-30x10.csv"
    write_table(table, 30, 10)
    if args.compare:
        return compare(Path(args.compare).resolve(), table, tmp, args.repeat)

    def cdplot_cli():
        subprocess.run(
            [sys.executable, "-m", "cdplot", "plot", str(table), "-o", str(tmp / "cd.svg")],
            check=True,
            cwd=ROOT,
        )

    peer = tmp / "peer.py"
    peer.write_text(PEER_SCRIPT, encoding="utf-8")

    def peer_cli():
        subprocess.run(
            [sys.executable, str(peer), str(table), str(tmp / "peer.svg")],
            check=True,
            capture_output=True,
        )

    def stats_cli():
        # the same reading and analysis with no figure: what the statistics core
        # (numpy, scipy.special) costs, so the rest is what the figure costs
        subprocess.run(
            [sys.executable, "-m", "cdplot", "stats", str(table)],
            check=True,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )

    ours = median_time(cdplot_cli, args.repeat)
    print(
        f"cdplot plot 30x10 -> SVG, whole process: median {ours:.3f} s (target < 1.0 s)"
        + cpu(cdplot_cli)
    )
    no_figure = median_time(stats_cli, args.repeat)
    print(
        f"  cdplot stats on the same table (no figure): median {no_figure:.3f} s; "
        f"left to the figure (matplotlib import, drawing, saving): {ours - no_figure:.3f} s"
        + f" (cdplot stats alone: CPU {CPU[stats_cli.__name__]:.3f} s)"
    )
    try:
        theirs = median_time(peer_cli, args.repeat)
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        print(f"scikit-posthocs script could not run: {exc}")
    else:
        print(
            f"scikit-posthocs critical_difference_diagram script: median {theirs:.3f} s"
            + cpu(peer_cli)
        )
        print(f"ratio cdplot / scikit-posthocs: {ours / theirs:.2f} (target <= 1.0)")

    sys.path.insert(0, str(ROOT))
    import cdplot
    import cdplot.plot
    from cdplot.io import ScoreTable

    rng = np.random.default_rng(50)
    k = 50
    values = 0.7 + np.linspace(0.1, 0.0, k)[None, :] + rng.normal(0, 0.03, (40, k))
    names = [f"Method number {j:02d} with a fairly long descriptive name" for j in range(k)]
    result = cdplot.compare(
        ScoreTable(values=values, methods=names, datasets=[f"d{i}" for i in range(40)])
    )

    def draw_and_render():
        ax = cdplot.cd_diagram(result)
        ax.figure.canvas.draw()

    def draw_only():
        cdplot.cd_diagram(result)

    def draw_svg():
        cdplot.plot.render_svg(cdplot.cd_diagram(result))

    draw_and_render()  # first call registers fonts and warms caches
    print(
        "50-method CD diagram in-process, layout + artists: median "
        f"{median_time(draw_only, args.repeat):.3f} s" + cpu(draw_only)
    )
    print(
        "50-method CD diagram in-process, drawn and rendered to SVG: median "
        f"{median_time(draw_svg, args.repeat):.3f} s" + cpu(draw_svg)
    )
    print(
        f"50-method CD diagram in-process, drawn and rendered (Agg): median "
        f"{median_time(draw_and_render, args.repeat):.3f} s (target < 0.3 s)" + cpu(draw_and_render)
    )

    # 100 methods with 60-character names: the layout wraps or shortens them with a key
    k = 100
    values = 0.7 + np.linspace(0.1, 0.0, k)[None, :] + rng.normal(0, 0.03, (30, k))
    names = [
        (f"Model {j:03d} gradient boosted trees (depth 6; lr 0.05), tuned" + " x" * 30)[:60]
        for j in range(k)
    ]
    big = cdplot.compare(
        ScoreTable(values=values, methods=names, datasets=[f"d{i}" for i in range(30)])
    )

    def draw_100():
        return cdplot.cd_diagram(big, style="paper-wide")

    def draw_100_rendered():
        draw_100().figure.canvas.draw()

    def draw_100_svg():
        cdplot.plot.render_svg(draw_100())

    draw_100()
    print(
        "100-method CD diagram (60-character names, paper-wide) in-process, layout + artists: "
        f"median {median_time(draw_100, args.repeat):.3f} s (target < 0.5 s)" + cpu(draw_100)
    )
    print(
        "100-method CD diagram in-process, drawn and rendered (Agg): median "
        f"{median_time(draw_100_rendered, args.repeat):.3f} s (target < 0.5 s)"
        + cpu(draw_100_rendered)
    )
    print(
        "100-method CD diagram in-process, drawn and rendered to SVG (matplotlib): median "
        f"{median_time(draw_100_svg, args.repeat):.3f} s" + cpu(draw_100_svg)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
