"""The distributions on scipy (issue 24, item 4) and Tukey's p-values (issue 28).

Run: python benchmarks/bench_distributions.py [--compare DIR] [--repeat 7]

Prints medians, never asserts.  Three parts, each interleaved in one run:

1. ``--compare DIR``: whole commands of this checkout against the checkout in DIR
   (``PYTHONPATH`` first on the path), CPU (user + system, children included) and wall:
   ``cdplot stats --example demsar2006``, ``cdplot stats`` on 100 methods x 100 data
   sets, and ``cdplot stats --test auto`` on 30 methods x 40 data sets (issue 28's
   ``compare_auto`` row).
2. What the one hand-written distribution left, the studentized range of
   ``cdplot/stats/_studentized_range.py``, buys: the same ``cdplot stats`` runs of this
   checkout with the Nemenyi p-values and critical value taken from
   ``scipy.stats.studentized_range`` instead (its ``sf`` is ``1 - cdf`` by adaptive
   quadrature, one value at a time).  Issue 24 keeps a hand-written distribution only
   where it earns more than 20 % of a user's whole command.
3. Tukey's p-values and critical value of 30 methods with 1,131 degrees of freedom, in
   process: ``scipy.stats.studentized_range`` (the old path of ``stats/_parametric.py``)
   against this checkout.

Last measured 2026-11-27 (2-core machine shared with other agents, load average 5-12;
medians of 7, CPU user + system with children / wall, in s), before = main at 9ae482b,
after = this branch at dab4941:

==========================================  ===========  ===========
part 1: whole command                       before       after
==========================================  ===========  ===========
``stats --example demsar2006``              0.17 / 0.64  0.31 / 1.00
``stats`` 100 methods x 100 data sets       0.22 / 0.68  0.33 / 0.99
``stats --test auto`` 30 x 40 (Tukey runs)  7.79 / 19.5  0.89 / 2.27
==========================================  ===========  ===========

The +0.11-0.14 s CPU of the first two rows is ``import scipy.special``, which the
hand-written normal, chi-square and F functions avoided; issue 24 accepts that cost.
The studentized range kept (part 2; the command run through ``cli.main`` and a normal
interpreter exit, so each row is slower than in part 1):

==========================================  ======================  ===========
part 2: Nemenyi from                        scipy.stats             this module
==========================================  ======================  ===========
``stats --example demsar2006``              0.91 / 3.08             0.44 / 1.40
``stats`` 100 methods x 100 data sets       1.08 / 3.20             0.52 / 1.91
``stats`` 1,000 methods x 100 data sets     10.17 / 28.8            0.83 / 2.39
==========================================  ======================  ===========

It saves 52 %, 52 % and 92 % of the command's CPU time (on Demsar's table mostly
``import scipy.stats``, 0.4-0.5 s; at 1,000 methods the 100,000 quadratures).
Part 3, Tukey's p-values of 30 methods with 1,131 df and ``q_alpha``: scipy.stats
6.86 s, this module 0.21 s CPU, largest difference 1.2e-12.
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

HERE = Path(__file__).resolve().parents[1]

# cdplot's command line with the Nemenyi distribution taken from scipy.stats (part 2);
# argv[1] is "scipy" or "ours", the rest is the command line
PATCHED = """
import sys
import numpy as np
import cdplot.cli
if sys.argv[1] == "scipy":
    from scipy.stats import studentized_range
    import cdplot.stats._critical as critical
    import cdplot.stats._posthoc as posthoc
    def sf_many(q, k):  # each distinct value once, as the quadrature does
        u, inv = np.unique(q, return_inverse=True)
        return studentized_range.sf(u, k, np.inf)[inv]
    posthoc.studentized_range_sf_many = sf_many
    critical.studentized_range_isf = lambda p, k: studentized_range.isf(p, k, np.inf)
sys.exit(cdplot.cli.main(sys.argv[2:]))
"""


def run_measured(argv, env, cwd) -> tuple[float, float]:
    """(CPU seconds of the process and its children, wall seconds) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    # run from a neutral folder: ``python -m`` and ``-c`` put the current one first on
    # the path, ahead of PYTHONPATH's checkout
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def interleaved(label, variants, repeat, cwd) -> dict[str, tuple[float, float]]:
    """Run each ``(name, argv, env)`` in turn ``repeat`` times; print CPU and wall medians."""
    times = {name: [] for name, _, _ in variants}
    for _ in range(repeat):
        for name, argv, env in variants:
            times[name].append(run_measured(argv, env, cwd))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{label} [{repeat} runs each, load average {load}]")
    medians = {}
    for name, runs in times.items():
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        medians[name] = (cpu, wall)
        print(f"  {name:<28} CPU {cpu:6.2f} s   wall {wall:6.2f} s")
    return medians


def env_for(checkout: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(checkout)
    return env


def write_table(path: Path, n: int, k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) * 0.05 + np.linspace(0.6, 0.8, k)
    rows = ["dataset," + ",".join(f"m{j}" for j in range(k))]
    rows += [f"d{i}," + ",".join(f"{v:.6f}" for v in x[i]) for i in range(n)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def tukey_in_process(repeat: int) -> None:
    """Part 3: the p-values of all pairs and the critical value, old and new path."""
    sys.path.insert(0, str(HERE))
    from scipy.stats import studentized_range

    from cdplot.stats._studentized_range import studentized_range_isf, studentized_range_sf

    k, dof = 30, 29 * 39
    rng = np.random.default_rng(28)
    means = np.sort(rng.normal(size=k)) * 0.3
    q = np.abs(means[:, None] - means[None, :]) / 0.05
    iu = np.triu_indices(k, 1)

    def old():
        # parametric._tukey before: the whole (k, k) matrix, one nested quadrature each
        return studentized_range.sf(q, k, dof)[iu], studentized_range.isf(0.05, k, dof)

    def new():
        return studentized_range_sf(q[iu], k, dof), studentized_range_isf(0.05, k, dof)

    times = {"scipy.stats": [], "this checkout": []}
    for _ in range(repeat):
        for name, f in (("scipy.stats", old), ("this checkout", new)):
            t = time.process_time()
            result = f()
            times[name].append(time.process_time() - t)
            if name == "scipy.stats":
                ref = result
            else:
                diff = max(np.max(np.abs(result[0] - ref[0])), abs(result[1] - ref[1]))
    print(f"Tukey p-values and q_alpha, k = {k}, df = {dof}, in process [{repeat} runs each]")
    for name, runs in times.items():
        print(f"  {name:<28} CPU {statistics.median(runs):6.3f} s")
    print(f"  largest difference {diff:.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", type=Path, help="checkout to compare with (part 1)")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    py = sys.executable
    ours = env_for(HERE)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t100 = tmp / "t100x100.csv"
        write_table(t100, 100, 100, 24)
        t30 = tmp / "t30x40.csv"
        # seed 29: Shapiro-Wilk and Mauchly do not reject, so Tukey's HSD runs
        write_table(t30, 40, 30, 29)
        t1000 = tmp / "t1000x100.csv"
        write_table(t1000, 100, 1000, 14)
        commands = {
            "demsar2006": ["stats", "--example", "demsar2006"],
            "100 methods x 100 data sets": ["stats", str(t100)],
            "--test auto, 30 x 40": ["stats", "--test", "auto", str(t30)],
        }
        if args.compare:
            theirs = env_for(args.compare.resolve())
            for label, argv in commands.items():
                interleaved(
                    f"cdplot {label}: {args.compare} vs this checkout",
                    [
                        ("before", [py, "-m", "cdplot", *argv], theirs),
                        ("after", [py, "-m", "cdplot", *argv], ours),
                    ],
                    args.repeat,
                    tmp,
                )
        for label, argv in (
            ("demsar2006", commands["demsar2006"]),
            ("100 methods x 100 data sets", commands["100 methods x 100 data sets"]),
            ("1,000 methods x 100 data sets", ["stats", str(t1000)]),
        ):
            m = interleaved(
                f"cdplot {label}: Nemenyi from scipy.stats vs this checkout's quadrature",
                [
                    ("scipy.stats.studentized_range", [py, "-c", PATCHED, "scipy", *argv], ours),
                    ("_studentized_range", [py, "-c", PATCHED, "ours", *argv], ours),
                ],
                args.repeat,
                tmp,
            )
            s, o = m["scipy.stats.studentized_range"], m["_studentized_range"]
            print(f"  the quadrature saves {1 - o[0] / s[0]:.0%} of the command's CPU time")
    tukey_in_process(args.repeat)


if __name__ == "__main__":
    main()
