"""Random sweep: does every significant claim take its side from the statistic that made it?

Issue 31's "done when": over random analyses (tests, corrections, zero methods,
distributions, directions, table shapes), count the claims "X is significantly
better than Y" and check each against its statistic, recomputed here without
cdplot's code for the side:

- ``compare`` with a rank test (Nemenyi, Bonferroni-Dunn, Friedman z): the
  better method has the strictly lower average rank (``scipy.stats.rankdata``);
- ``compare`` with the Wilcoxon test, and ``compare_pair``'s sentence: ``R+ > R-``
  for the better method, rank sums from ``scipy.stats.rankdata`` under the zero
  method used (Demšar's rule drops one of an odd number of zeros);
- ``compare`` with the sign test: more wins for the better method, ties split;
- ``cv_test``: the t-tests name the side of the sign of ``t`` (``higher_is_better``
  applied); the 5x2cv F-test names none ("differ").

Run: ``python benchmarks/sweep_claims.py [--n 2000] [--seed 31]``.  Prints the
number of analyses, checkable claims and wrong ones, and the first wrong claims.
``tests/stats/test_claims_sweep.py`` runs 100 analyses of it in the suite.

Last run (issue 31, scipy 1.17.1, numpy 2.4): 2,000 analyses (seed 31, 47 refused
combinations skipped) made 2,209 checkable claims, 0 wrong; 5,000 (seed 7) made 5,560,
0 wrong.  The same 2,000 against the code before the fix: 2,247 claims, 61 wrong (26
Dietterich t named from the means, 31 Alpaydin F with a side, 4 Pratt-exact claims
with R+ = R-).  The script prints the counts, never asserts.
"""

from __future__ import annotations

import argparse
import re
import time
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import rankdata

import cdplot
from cdplot.errors import CdplotError

TESTS = ("nemenyi", "bonferroni-dunn", "friedman-z", "wilcoxon", "sign")
CORRECTIONS = (None, "bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann")
ZERO_METHODS = ("demsar", "zsplit", "wilcox", "pratt")
NULL_METHODS = ("auto", "exact", "asymptotic")
CV = (
    ("5x2cv-t", "5x2"),
    ("5x2cv-f", "5x2"),
    ("corrected-t", "5x2"),
    ("kfold-t", "kfold"),
    ("corrected-t", "10x10"),
    ("blocked-t", "blocked-3x2"),
)
_CLAIM = re.compile(r"(\S+) is significantly better than (\S+)")


@dataclass
class Tally:
    """What a sweep counted."""

    analyses: int = 0
    refused: int = 0
    claims: int = 0
    wrong: list[str] = field(default_factory=list)


def rank_sums(d: np.ndarray, zero_method: str) -> tuple[float, float]:
    """``(R+, R-)`` of the differences ``d``, the zeros' share split evenly where it counts."""
    d = np.asarray(d, dtype=float)
    zeros = np.flatnonzero(d == 0)
    if zero_method == "wilcox":
        d = d[d != 0]
    elif zero_method == "demsar" and zeros.size % 2:
        d = np.delete(d, zeros[0])
    r = rankdata(np.abs(d))
    half = r[d == 0].sum() / 2 if zero_method in ("zsplit", "demsar") else 0.0
    return float(r[d > 0].sum() + half), float(r[d < 0].sum() + half)


def _table(rng) -> np.ndarray:
    """Scores with method effects, in one of three kinds (ties and zeros, rounded, skewed)."""
    n = int(rng.integers(5, 61))
    k = int(rng.integers(2, 7))
    effect = rng.normal(0, rng.choice([0.0, 0.2, 0.6]), size=k)
    base = rng.normal(0, 1, size=(n, 1))
    kind = rng.integers(4)
    if kind == 3:  # mostly identical methods, a few symmetric differences: many zeros
        x = np.repeat(np.round(base * 10), k, axis=1)
        hit = rng.random((n, k)) < 0.15
        x = x + hit * rng.choice([-2.0, -1.0, 1.0, 2.0], size=(n, k))
        if rng.random() < 0.5:  # issue 31's R+ = R-: the second method mirrors the first
            m = int(rng.integers(1, max(2, n // 4)))
            rows = rng.choice(n, size=2 * m, replace=False)
            size = rng.choice([1.0, 2.0], size=m)
            x[:, 1] = x[:, 0]
            x[rows[:m], 1] += size
            x[rows[m:], 1] -= size
        return x
    if kind == 0:  # few distinct values: many ties and zero differences
        return np.round(base + effect + rng.normal(0, 0.5, size=(n, k)))
    if kind == 1:
        return np.round(base + effect + rng.normal(0, 0.5, size=(n, k)), 1)
    # small wins and rare large losses: the sign test and the means can disagree
    x = base + effect + rng.normal(0, 0.05, size=(n, k))
    hit = rng.random((n, k)) < 0.1
    return np.round(x - hit * rng.exponential(2.0, size=(n, k)), 2)


def _check_compare(tally, res, x, test, zero_method, higher_is_better):
    xo = x if higher_is_better else -x
    ranks = rankdata(-xo, axis=1)
    avg = ranks.mean(axis=0)
    idx = {m: i for i, m in enumerate(res.methods)}
    for better, worse in res.significant_pairs():
        i, j = idx[better], idx[worse]
        tally.claims += 1
        if test == "wilcoxon":
            plus, minus = rank_sums(xo[:, i] - xo[:, j], zero_method)
            ok, stat = plus > minus, f"R+ = {plus:g}, R- = {minus:g}"
        elif test == "sign":
            wins = np.sum(xo[:, i] > xo[:, j]) + np.sum(xo[:, i] == xo[:, j]) / 2
            losses = np.sum(xo[:, i] < xo[:, j]) + np.sum(xo[:, i] == xo[:, j]) / 2
            ok, stat = wins > losses, f"wins {wins:g} against {losses:g}"
        else:
            ok, stat = avg[i] < avg[j], f"average ranks {avg[i]:.4f} and {avg[j]:.4f}"
        if not ok:
            tally.wrong.append(
                f"compare test={test} zero_method={zero_method}: {better} > {worse} ({stat})"
            )


def _check_pair(tally, res, x, zero_method, higher_is_better):
    xo = x if higher_is_better else -x
    for better, worse in _CLAIM.findall(" ".join(res.conclusion().split())):
        tally.claims += 1
        i, j = (0, 1) if better == "A" else (1, 0)
        plus, minus = rank_sums(xo[:, i] - xo[:, j], zero_method)
        if not plus > minus:
            tally.wrong.append(
                f"compare_pair zero_method={zero_method}: {better} > {worse} "
                f"(R+ = {plus:g}, R- = {minus:g})"
            )


def _check_cv(tally, res, test):
    text = " ".join(str(res).split())
    claimed = _CLAIM.findall(text)
    if test == "5x2cv-f":
        tally.claims += int(res.significant)
        if claimed or res.better() is not None:
            tally.wrong.append(f"cv_test {test}: the F-test named a side: {text[:120]}")
        return
    if not claimed:
        return
    tally.claims += 1
    a_ahead = (res.statistic > 0) == res.higher_is_better
    side = res.method_a if a_ahead else res.method_b
    if res.statistic == 0 or claimed[0][0] != side:
        tally.wrong.append(f"cv_test {test}: t = {res.statistic:.4f}, claim {claimed[0]}")


def _one(rng, tally):
    what = rng.random()
    hib = bool(rng.integers(2))
    alpha = float(rng.choice([0.05, 0.1]))
    if what < 0.15:  # per-fold tests
        test, scheme = CV[int(rng.integers(len(CV)))]
        r, k = {"5x2": (5, 2), "kfold": (1, 10), "10x10": (10, 10), "blocked-3x2": (3, 2)}[scheme]
        b = rng.normal(0.8, 0.02, size=(r, k))
        a = b + rng.normal(rng.choice([0.0, 0.01, -0.02]), 0.02, size=(r, k))
        if test.startswith("5x2cv") and rng.random() < 0.5:
            # the first replication against the rest, folds of a replication alike (the
            # shape of issue 31's example): Dietterich's t follows p_1^(1), the mean the rest
            shift = rng.choice([-1, 1]) * rng.uniform(0.005, 0.03)
            a = b - shift + rng.normal(0, 0.002, size=(r, k))
            a[0] = b[0] + 2 * shift + rng.normal(0, 0.002, size=k)
        res = cdplot.cv_test(
            a, b, test=test, scheme=scheme, methods=("A", "B"), higher_is_better=hib, alpha=alpha
        )
        _check_cv(tally, res, test)
        return
    x = _table(rng)
    zero_method = str(rng.choice(ZERO_METHODS))
    distribution = str(rng.choice(NULL_METHODS))
    if what < 0.3:  # two methods through compare_pair
        res = cdplot.compare_pair(
            x[:, :2] if x.shape[1] > 2 else np.column_stack([x[:, 0], x[:, -1]]),
            methods=("A", "B"),
            higher_is_better=hib,
            alpha=alpha,
            zero_method=zero_method,
            method=distribution,
        )
        pair = x[:, :2] if x.shape[1] > 2 else np.column_stack([x[:, 0], x[:, -1]])
        _check_pair(tally, res, pair, zero_method, hib)
        return
    test = str(rng.choice(TESTS))
    correction = CORRECTIONS[int(rng.integers(len(CORRECTIONS)))]
    kw = {}
    if test == "wilcoxon":
        kw = {"zero_method": zero_method, "method": distribution}
    if test == "bonferroni-dunn" or (test != "nemenyi" and rng.random() < 0.2):
        kw["control"] = f"m{int(rng.integers(x.shape[1]))}"
    if test in ("nemenyi", "bonferroni-dunn"):
        correction = None
    res = cdplot.compare(
        x,
        methods=[f"m{j}" for j in range(x.shape[1])],
        test=test,
        correction=correction,
        alpha=alpha,
        higher_is_better=hib,
        **kw,
    )
    _check_compare(tally, res, x, test, kw.get("zero_method", "demsar"), hib)


def sweep(n: int = 2000, seed: int = 31) -> Tally:
    """Run ``n`` random analyses; combinations cdplot refuses are counted apart."""
    rng = np.random.default_rng(seed)
    tally = Tally()
    while tally.analyses < n:
        try:
            _one(rng, tally)
        except CdplotError:
            tally.refused += 1
            continue
        tally.analyses += 1
    return tally


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    t = sweep(args.n, args.seed)
    print(
        f"{t.analyses} analyses ({t.refused} refused combinations skipped), {t.claims} checkable "
        f"claims, {len(t.wrong)} whose side disagrees with the statistic that made it "
        f"({time.perf_counter() - start:.1f} s)"
    )
    for line in t.wrong[:20]:
        print("  " + line)


if __name__ == "__main__":
    main()
