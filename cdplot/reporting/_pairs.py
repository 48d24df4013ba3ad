"""The two-method section of a report: one pair of methods compared over the data sets.

Demšar (2006, section 3.1) recommends the Wilcoxon signed-rank test for two
methods over many data sets, with the sign test on wins, ties and losses as
the weaker, assumption-free companion; the paired t-test is shown with its
caveat, or with the reason it is undefined.  The numbers come from
:class:`~cdplot.stats.PairResult` objects (made by
:func:`cdplot.stats.analyse_pairs` or :func:`cdplot.compare_pair` before the
report is asked for); this module only formats them for the template.
"""

from __future__ import annotations

import numpy as np

from ..errors import CdplotError, opt
from ..stats._pair import PairResult
from ._format import fmt_number, fmt_p

__all__ = ["check_pairs", "pair_names", "pair_context"]


def pair_names(pr: PairResult) -> tuple[str, str]:
    """The two methods of a pair result, A first."""
    return tuple(pr.methods)


def check_pairs(pairs) -> tuple:
    """Validate ``pairs``: PairResult objects, which the report formats and never computes."""
    if pairs is None:
        return ()
    if isinstance(pairs, (str, PairResult)) or not hasattr(pairs, "__iter__"):
        raise CdplotError(
            f"option {opt('pairs', pairs)} must be a list of PairResult objects",
            option="pairs",
        )
    out = []
    for p in pairs:
        if isinstance(p, PairResult):
            out.append(p)
            continue
        if not isinstance(p, str) and hasattr(p, "__len__") and len(p) == 2:
            # two names: the comparison is the statistics layer's to make
            raise CdplotError(
                f"option pairs: {tuple(p)!r} names a pair that was not compared; pass "
                f"cdplot.stats.analyse_pairs(result, [{tuple(p)!r}]) (or cdplot.compare_pair)"
            )
        raise CdplotError(f"option pairs: {p!r} is not a PairResult")
    return tuple(out)


def _ttest_row(pr: PairResult, d: dict) -> dict:
    t = d["ttest"]
    # undefined (NaN in the result, null in JSON) when the differences do not vary
    if t is not None and t["statistic"] is not None:
        return {
            "test": "Paired t-test",
            "detail": (
                f"t({t['dof']}) = {t['statistic']:.4f}, mean difference {t['mean_difference']:.4g}"
            ),
            "p": fmt_p(t["pvalue"]),
            "significant": t["pvalue"] <= d["alpha"],
        }
    # undefined: the differences have no variance (the same on every data set), so the
    # statistic would divide by zero; say so instead of printing a number
    diff = np.asarray(pr.scores_a, dtype=float) - np.asarray(pr.scores_b, dtype=float)
    if diff.size and np.all(diff == diff[0]):
        why = (
            f"undefined: the difference is {float(diff[0]):g} on every data set, so its "
            "variance is zero"
        )
    else:
        why = "undefined (see the notes)"
    return {"test": "Paired t-test", "detail": why, "p": "\u2013", "significant": False}


def pair_context(pr: PairResult, *, decimals: int) -> dict:
    """Format one pair's comparison for ``two_methods.html.j2``.

    Parameters
    ----------
    pr : PairResult
        The comparison, from :func:`cdplot.compare_pair` or
        :func:`cdplot.stats.analyse_pairs`.
    decimals : int
        Decimals of the scores, as in the section's data table.

    Returns
    -------
    dict
        Plain strings and numbers for ``two_methods.html.j2``.
    """
    a, b = pair_names(pr)
    d = pr.to_dict()
    rows = []
    for name, sa, sb in zip(d["datasets"], d["scores_a"], d["scores_b"], strict=True):
        diff = sa - sb
        better = (diff > 0) == bool(d["higher_is_better"])
        rows.append(
            {
                "dataset": name,
                "a": fmt_number(sa, decimals),
                "b": fmt_number(sb, decimals),
                "difference": fmt_number(diff, decimals),
                "winner": "" if diff == 0 else (a if better else b),
            }
        )
    w, s = d["wilcoxon"], d["sign"]
    tests = [
        {
            "test": "Wilcoxon signed-rank",
            "detail": f"R+ = {w['r_plus']:g}, R\u2212 = {w['r_minus']:g}, T = {w['statistic']:g} "
            f"({w['zero_method']}, {w['distribution']})",
            "p": fmt_p(w["pvalue"]),
            "significant": w["pvalue"] <= d["alpha"],
        },
        {
            "test": "Sign test",
            "detail": f"{s['statistic']:g} of {s['n']} wins after splitting ties; "
            f"critical count {s['critical_wins']}",
            "p": fmt_p(s["pvalue"]),
            "significant": s["pvalue"] <= d["alpha"],
        },
        _ttest_row(pr, d),
    ]
    return {
        "a": a,
        "b": b,
        "wins": d["wins"],
        "ties": d["ties"],
        "losses": d["losses"],
        "rows": rows,
        "tests": tests,
        "conclusion": d["conclusion"],
        "notes": list(d["notes"]),
    }
