"""The two-method section of a report: one pair of methods compared over the data sets.

Demšar (2006, section 3.1) recommends the Wilcoxon signed-rank test for two
methods over many data sets, with the sign test on wins, ties and losses as
the weaker, assumption-free companion; the paired t-test is shown with its
caveat.  The numbers come from :func:`cdplot.stats.pair.compare_pair`; this
module only formats them for the template.
"""

from __future__ import annotations

from ..errors import CdplotError
from ._format import fmt_number, fmt_p

__all__ = ["check_pairs", "pair_context"]


def check_pairs(pairs) -> tuple[tuple[str, str], ...]:
    """Validate ``pairs`` (a sequence of two-name sequences) and return it as tuples."""
    if pairs is None:
        return ()
    if isinstance(pairs, str) or not hasattr(pairs, "__iter__"):
        raise CdplotError(f"option pairs={pairs!r} must be a list of (method, method) pairs")
    out = []
    for p in pairs:
        if isinstance(p, str) or len(p) != 2:
            raise CdplotError(f"option pairs: {p!r} is not a pair of two method names")
        a, b = str(p[0]), str(p[1])
        if a == b:
            raise CdplotError(f"option pairs: ({a!r}, {b!r}) compares a method with itself")
        out.append((a, b))
    return tuple(out)


def pair_context(result, a: str, b: str, *, decimals: int) -> dict:
    """Compare ``a`` with ``b`` on the scores of ``result`` and format the outcome.

    Parameters
    ----------
    result : ComparisonResult
        The analysis of the section; its scores, direction, alpha and
        Wilcoxon options are reused so the section agrees with the rest.
    a, b : str
        The two methods.
    decimals : int
        Decimals of the scores, as in the section's data table.

    Returns
    -------
    dict
        Plain strings and numbers for ``two_methods.html.j2``.
    """
    from ..stats.pair import compare_pair

    for name in (a, b):
        if name not in result.methods:
            raise CdplotError(
                f"option pairs: method {name!r} is not in the data; methods are "
                f"{', '.join(result.methods)}"
            )
    pr = compare_pair(
        result.scores,
        methods=(a, b),
        higher_is_better=result.higher_is_better,
        alpha=result.alpha,
        zero_method=result.options.get("zero_method", "demsar"),
        distribution=result.options.get("distribution", "auto"),
    )
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
    t, w, s = d["ttest"], d["wilcoxon"], d["sign"]
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
        {
            "test": "Paired t-test",
            # undefined (NaN, null in JSON) when the differences do not vary; the notes say why
            "detail": (
                f"t({t['dof']}) = {t['statistic']:.4f}, mean difference {t['mean_difference']:.4g}"
                if t["statistic"] is not None
                else f"t({t['dof']}) undefined: the differences do not vary"
            ),
            "p": fmt_p(t["pvalue"]),
            "significant": t["pvalue"] is not None and t["pvalue"] <= d["alpha"],
        },
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
