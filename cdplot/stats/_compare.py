"""``compare``: the whole of Demsar's procedure in one call."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._docstrings import share
from .._options import (
    ALL_PAIRS_ONLY,
    CORRECTIONS,
    NAN_POLICIES,
    NULL_METHODS,
    RANK_TESTS,
    TESTS,
    ZERO_METHODS,
    Correction,
    NanPolicy,
    NullMethod,
    Test,
    ZeroMethod,
    check_alpha,
    check_bool,
    check_option,
)
from ..errors import CdplotError, opt
from ..io import ScoreTable, as_score_tables, resolve_direction
from ..io._types import ScoresLike
from ._cliques import Bridges, find_cliques, unjoined_pairs
from ._corrections import adjust, adjust_pairwise
from ._critical import critical_value, rank_standard_error
from ._friedman import friedman_from_ranks
from ._posthoc import nemenyi_arrays, rank_z
from ._ranks import ranks_and_ties
from ._results import ComparisonResult
from ._sign_test import sign_test_pairs
from ._validate import check_pairwise_size
from ._wilcoxon import wilcoxon_pairs

__all__ = ["compare", "TESTS", "CORRECTIONS", "single_table"]


def single_table(tables):
    """The one table of ``tables``, or an error that lists the metrics to choose from."""
    if len(tables) != 1:
        names = ", ".join(str(t.metric) for t in tables)
        raise CdplotError(
            f"the data hold {len(tables)} metrics ({names}); choose one with {opt('metric')} or "
            "analyse all with compare_metrics",
            option="metric",
        )
    return tables[0]


def check_control_correction(control, correction) -> None:
    """Refuse a correction that needs all pairs together with a control (one message everywhere)."""
    if control is not None and correction in ALL_PAIRS_ONLY:
        raise CdplotError(
            f"option {opt('correction', correction)} needs all pairwise comparisons and cannot be "
            f"used with {opt('control', control)}; use 'holm', 'hochberg' or 'hommel'",
            option="correction",
        )


def _validate_options(test, correction, control, methods, alpha, zero_method, method):
    if test == "auto":
        raise CdplotError(
            f"option {opt('test', 'auto')} is not a test of compare, which always returns a "
            "ComparisonResult; use compare_auto to choose between ANOVA and the rank tests",
            option="test",
        )
    test = check_option("test", test, TESTS)
    alpha = check_alpha(alpha)
    check_option("zero_method", zero_method, ZERO_METHODS)
    check_option("method", method, NULL_METHODS)
    correction = check_option("correction", correction, CORRECTIONS, allow_none=True)
    if test == "nemenyi":
        if correction is not None:
            raise CdplotError(
                f"option {opt('correction', correction)} does not apply to "
                f"{opt('test', 'nemenyi')}, whose critical value already covers all pairs; use "
                f"{opt('test', 'friedman-z')} to correct rank z-tests",
                option="correction",
            )
        if control is not None:
            raise CdplotError(
                f"option {opt('control', control)} does not apply to {opt('test', 'nemenyi')}, "
                f"which compares all pairs; use {opt('test', 'bonferroni-dunn')} to compare with a "
                "control",
                option="control",
            )
    elif test == "bonferroni-dunn":
        if correction not in (None, "bonferroni"):
            raise CdplotError(
                f"option {opt('correction', correction)} does not apply to "
                f"{opt('test', 'bonferroni-dunn')}, which is the Bonferroni correction; use "
                f"{opt('test', 'friedman-z')} with {opt('correction', correction)} and a control",
                option="correction",
            )
        correction = "bonferroni"
    else:
        if correction is None:
            correction = "holm"
        check_control_correction(control, correction)
    if control is not None and control not in methods:
        raise CdplotError(
            f"option {opt('control', control)} is not a method; methods are {', '.join(methods)}",
            option="control",
        )
    return test, correction, alpha


@share
def compare(
    scores: ScoresLike,
    *,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    test: Test = "nemenyi",
    correction: Correction | None = None,
    control: str | None = None,
    tie_correction: bool = True,
    zero_method: ZeroMethod = "demsar",
    method: NullMethod = "auto",
    nan_policy: NanPolicy = "raise",
    metric: str | None = None,
    methods: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> ComparisonResult:
    """Compare methods over data sets: ranks, Friedman test, post-hoc test and groups.

    Parameters
    ----------
    %(scores)s
    %(higher_is_better)s
    %(alpha)s
    %(test)s
        To let assumption checks choose between repeated-measures ANOVA and this
        analysis, call :func:`cdplot.stats.compare_auto`.
    %(correction)s
    %(control)s
    %(tie_correction)s
    %(zero_method)s
    %(null_method)s
    %(nan_policy)s
    %(metric)s
    %(methods_datasets)s

    Returns
    -------
    ComparisonResult
        Ranks, tests, p-values, critical difference and groups; ``print`` it
        for the conclusion in words.

    Raises
    ------
    CdplotError
        For invalid options or data, with a one-line message naming them.

    Notes
    -----
    Assumes the scores of each data set are comparable across methods (the
    same resamples) and that data sets are independent.  Two methods differ
    significantly under the CD-based tests when their average ranks differ
    by at least the critical difference (Demsar 2006).

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30.
    .. [2] S. Garcia and F. Herrera, "An extension on 'Statistical comparisons
           of classifiers over multiple data sets' for all pairwise
           comparisons", JMLR 9 (2008) 2677-2694.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.load_example("demsar2006"))
    >>> [round(float(r), 3) for r in res.average_ranks]
    [3.143, 2.0, 2.929, 1.929]
    >>> round(res.critical_difference, 3)
    1.254
    """  # noqa: E501
    check_option("nan_policy", nan_policy, NAN_POLICIES)
    check_bool("tie_correction", tie_correction)
    if higher_is_better is not None:
        check_bool("higher_is_better", higher_is_better)
    tables = as_score_tables(
        scores, methods=methods, datasets=datasets, nan_policy=nan_policy, metric=metric
    )
    table = single_table(tables)
    return compare_table(
        table,
        higher_is_better=higher_is_better,
        alpha=alpha,
        test=test,
        correction=correction,
        control=control,
        tie_correction=tie_correction,
        zero_method=zero_method,
        method=method,
        nan_policy=nan_policy,
    )


def compare_table(
    table: ScoreTable,
    *,
    higher_is_better=None,
    alpha=0.05,
    test="nemenyi",
    correction=None,
    control=None,
    tie_correction=True,
    zero_method="demsar",
    method="auto",
    nan_policy="raise",
) -> ComparisonResult:
    """:func:`compare` for one validated :class:`ScoreTable`."""
    names = table.methods
    test, correction, alpha = _validate_options(
        test, correction, control, names, alpha, zero_method, method
    )
    decided = resolve_direction(table, higher_is_better)
    higher_is_better = decided.higher_is_better
    x = table.values
    n, k = x.shape
    check_pairwise_size(k)
    ranks, ties = ranks_and_ties(x, higher_is_better=higher_is_better)
    avg = ranks.mean(axis=0)
    fr, idr = friedman_from_ranks(ranks, ties, tie_correction=tie_correction)

    if test == "bonferroni-dunn" and control is None:
        control = names[int(np.argmin(avg))]
    ctrl = None if control is None else names.index(control)

    direction = None  # the rank tests take the side of the better average rank
    if test in RANK_TESTS:
        stats, p_raw, p_adj = rank_statistics(avg, n, test)
    else:
        p_adj = np.full((k, k), np.nan)
        # orient the scores so that the pairwise tests see "higher is better"
        oriented = x if higher_is_better else -x
        stats, p_raw, direction = _pairwise_tests(oriented, test, ctrl, zero_method, method)
    stats = _own(stats)
    p_raw = _own(p_raw)
    np.fill_diagonal(stats, np.nan)
    undefined = _untestable_pairs(p_raw, names, ctrl) if test == "wilcoxon" else []

    stats, p_raw, p_adj, cv, cd, significant = decide(
        avg, n, stats, p_raw, p_adj, test=test, correction=correction, ctrl=ctrl, alpha=alpha
    )
    cliques, unjoined, bridge_names = groups(names, avg, significant, ctrl)

    notes = list(table.notes)
    notes.append(decided.note)  # the direction and why, in every output
    notes += omnibus_notes(idr.pvalue, alpha, n)
    if undefined:
        notes.append(_untestable_note(undefined, zero_method))

    options = {
        "tie_correction": tie_correction,
        "nan_policy": nan_policy,
    }
    if test == "wilcoxon":
        options.update(zero_method=zero_method, method=method)
    return ComparisonResult(
        scores=table,
        methods=names,
        datasets=table.datasets,
        n_methods=k,
        n_datasets=n,
        higher_is_better=higher_is_better,
        alpha=alpha,
        test=test,
        correction=None if test == "nemenyi" else correction,
        control=control,
        ranks=ranks,
        average_ranks=avg,
        friedman=fr,
        iman_davenport=idr,
        critical_value=cv,
        critical_difference=cd,
        statistics=stats,
        pvalues_unadjusted=p_raw,
        pvalues=p_adj,
        significant=significant,
        cliques=cliques,
        unjoined=unjoined,
        bridges=bridge_names,
        options=options,
        notes=tuple(notes),
        direction=direction,
        direction_reason=decided.reason,
    )


def _pairwise_tests(oriented, test, ctrl, zero_method, method):
    """``(statistics, p-values, direction)`` of the Wilcoxon or sign test of each pair.

    ``oriented`` scores are higher-is-better; with a control only its pairs are tested.
    """
    k = oriented.shape[1]
    pairs = None if ctrl is None else [(min(ctrl, j), max(ctrl, j)) for j in range(k) if j != ctrl]
    # the side each test favours (for the sign test, the one with more wins,
    # ties split), not the better average rank
    pairwise = (
        wilcoxon_pairs(oriented, pairs=pairs, zero_method=zero_method, method=method)
        if test == "wilcoxon"
        else sign_test_pairs(oriented, pairs=pairs)
    )
    return pairwise.statistic, pairwise.pvalue, pairwise.direction()


def _untestable_pairs(p_raw, names, ctrl) -> list[tuple[str, str]]:
    """Set p = 1 for the tested pairs whose Wilcoxon p-value is NaN; return their names.

    With no nonzero difference (identical columns, zero_method 'wilcox' or
    'pratt') the normal approximation has no variance and the p-value is
    NaN.  Such a pair shows no difference at all: give it p = 1 so that it
    stays in every correction's family instead of dropping out of Holm's
    silently while Shaffer and Bergmann-Hommel refuse it.
    """
    a, b = np.triu_indices(len(names), 1)
    hit = np.isnan(p_raw[a, b])
    if ctrl is not None:
        hit &= (a == ctrl) | (b == ctrl)
    a, b = a[hit], b[hit]
    p_raw[a, b] = p_raw[b, a] = 1.0
    return [(names[i], names[j]) for i, j in zip(a.tolist(), b.tolist(), strict=True)]


def _untestable_note(undefined, zero_method) -> str:
    """The note naming the pairs :func:`_untestable_pairs` gave p = 1."""
    listed = "; ".join(f"{a} and {b}" for a, b in undefined[:5])
    more = f" and {len(undefined) - 5} more pairs" if len(undefined) > 5 else ""
    # the note starts with a word, not a name: notes are printed as sentences,
    # and a method's name must never be capitalised
    return (
        f"The pairs {listed}{more} have no nonzero score difference on any data set "
        f"(zero_method={zero_method!r} leaves nothing to rank), so the Wilcoxon test "
        "is given p = 1 (no difference) for them."
    )


def rank_statistics(avg: np.ndarray, n: int, test: str):
    """``(z, unadjusted p, adjusted p)`` of a rank test; only Nemenyi's p are adjusted here."""
    if test == "nemenyi":
        # the arrays themselves, not a RankTestResult's read-only copies (k x k each)
        z, p = nemenyi_arrays(avg, n)
        return z, p, p
    rz = rank_z(avg, n)
    return rz.statistics, rz.pvalues, np.full(rz.pvalues.shape, np.nan)


def decide(avg, n, stats, p_raw, p_adj, *, test, correction, ctrl, alpha):
    """Keep the pairs tested, correct their p-values and decide which differ.

    Returns ``(statistics, unadjusted p, adjusted p, critical value, CD,
    significant)``; the CD-based tests decide by ``|R_i - R_j| >= CD``, the
    others by the adjusted p-value.
    """
    k = len(avg)
    shared = p_adj is p_raw  # Nemenyi's p-values are adjusted already
    stats = _own(stats)
    p_raw = _own(p_raw)
    np.fill_diagonal(stats, np.nan)
    if ctrl is not None:
        mask = np.zeros((k, k), dtype=bool)
        mask[ctrl, :] = mask[:, ctrl] = True
        np.fill_diagonal(mask, True)
        stats[~mask] = np.nan
        p_raw[~mask] = np.nan

    if test != "nemenyi":
        if ctrl is None:
            p_adj = adjust_pairwise(p_raw, correction)
        else:
            others = [j for j in range(k) if j != ctrl]
            adjusted = adjust(p_raw[ctrl, others], correction)
            p_adj = np.full((k, k), np.nan)
            p_adj[ctrl, others] = adjusted
            p_adj[others, ctrl] = adjusted
    np.fill_diagonal(p_raw, 1.0)
    if shared and ctrl is None:
        # the same values: one read-only matrix for both fields (200 MB at 5,000 methods)
        p_adj = p_raw
    else:
        p_adj = np.array(p_adj, dtype=float)
        np.fill_diagonal(p_adj, 1.0)

    cv = cd = None
    if test in ("nemenyi", "bonferroni-dunn"):
        cv = critical_value(k, alpha=alpha, test=test)
        # critical_difference(k, n) is this product; computing q_alpha (a root of the
        # studentized range, ~90 quadratures) once instead of twice halves its cost
        cd = cv * rank_standard_error(k, n)
        diff = avg[:, None] - avg[None, :]
        significant = np.abs(diff, out=diff) >= cd
        if ctrl is not None:
            significant &= np.isfinite(p_adj)
    else:
        significant = np.nan_to_num(p_adj, nan=1.0) <= alpha
    np.fill_diagonal(significant, False)
    # fresh arrays owned here: the result keeps them read-only instead of copying them
    for a in (stats, p_raw, p_adj, significant):
        a.setflags(write=False)
    return stats, p_raw, p_adj, cv, cd, significant


def _own(a) -> np.ndarray:
    """``a`` as a float array this code may write: copied unless it is one already."""
    a = np.asarray(a, dtype=float)
    return a if a.flags.writeable and a.flags.owndata else a.copy()


def groups(names, avg, significant, ctrl):
    """``(cliques, unjoined, bridges)`` by name; empty with a control.

    The bridges are a :class:`Bridges` sequence: counted now, listed when asked
    (a text output prints their number and one example).
    """
    if ctrl is not None:
        # Tests against a control say nothing about two other methods: a group
        # would claim that untested pairs do not differ (García and Herrera's
        # 2008 data would group NaiveBayes with Kernel, which Nemenyi separates).
        return (), (), ()
    clique_idx = find_cliques(avg, significant)
    cliques = tuple(tuple(map(names.__getitem__, c)) for c in clique_idx)
    unjoined = tuple((names[i], names[j]) for i, j in unjoined_pairs(avg, significant, clique_idx))
    bridge_names = Bridges(names, avg, significant)
    return cliques, unjoined, bridge_names


def omnibus_notes(pvalue: float, alpha: float, n: int) -> list[str]:
    """The notes on a Friedman test that does not reject, and on few data sets."""
    notes = []
    if pvalue > alpha:
        notes.append(
            "Because the Iman-Davenport test of the Friedman statistic does not reject equal "
            "performance, the post-hoc results "
            "are shown for completeness only and are not evidence of any difference."
        )
    if n < 10:
        notes.append(
            f"With only {n} data sets the chi-square and F approximations of the Friedman test are "
            "rough; "
            "read p-values near alpha with care."
        )
    return notes
