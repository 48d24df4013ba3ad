"""``from_posthoc``: the groups of a post-hoc test the user ran elsewhere (Conover, Dunn, ...).

scikit-posthocs draws a CD diagram from average ranks and any p-value
matrix (its ``critical_difference_diagram(ranks, sig_matrix)``, asked for in
its issue #54), so users bring the output of ``posthoc_conover`` or their own
test.  :func:`from_posthoc` takes that output as it is and builds a result
the figures and the text output draw like any other: the groups come from
the user's matrix through the same clique code as :func:`cdplot.compare`'s,
and every output says which test the user supplied and that cdplot computed
none.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike

from .._docstrings import share
from .._options import check_alpha, check_bool
from ..errors import CdplotError, opt
from ..io import AverageRanks, as_average_ranks
from ..io._checks import check_name
from ..io._pvalue_matrix import LabelledMatrix, read_pvalue_matrix
from ._compare import groups
from ._from_ranks import _validate_n, _validate_ranks
from ._resultkit import (
    Result,
    join_names,
    json_matrices,
    matrix_dict,
    num,
    result,
    wrap,
)
from ._resultkit import notes_lines as _notes_lines
from ._results import ComparisonResult, freeze_rank_fields

__all__ = ["from_posthoc", "PosthocComparison"]

# p-values written by another tool may differ between (i, j) and (j, i) in the last bits
_SYMMETRY_RTOL = 1e-9
_SYMMETRY_ATOL = 1e-12
# longest test name: it is printed in a caption line
_MAX_TEST_NAME = 80


@result
class PosthocComparison(Result):
    """Average ranks with the decisions of a post-hoc test the user supplied.

    Returned by :func:`cdplot.from_posthoc`.  cdplot computed no test: the
    p-values (or the significance decisions) are the user's, and the groups
    are drawn from them with the clique rules of :func:`cdplot.compare`.
    :func:`cdplot.cd_diagram` draws it (its caption names the test and says
    it was supplied), :func:`cdplot.significance_heatmap` draws its
    p-values (not a significance matrix, which has none), and ``print``
    gives the ranking and the groups in words.

    Attributes
    ----------
    methods : tuple of str
        Names, in the order of the average ranks given.
    n_methods : int
        ``k``.
    n_datasets : int or None
        The number of data sets, when given (printed, not used).
    average_ranks : ndarray, shape (k,)
        Average ranks, 1 = best (turned from ``k + 1 - r`` when the ranks
        were given with the highest best).
    test : str
        The name of the user's test, as given.
    alpha : float or None
        The level at which pairs were called significant: ``p <= alpha``.
        ``None`` for a significance matrix given without it.
    pvalues : ndarray, shape (k, k) or None
        The p-values as given (1 on the diagonal); ``None`` for a
        significance matrix.
    significant : ndarray of bool, shape (k, k)
        Whether each pair differs significantly.
    cliques, unjoined, bridges : tuple
        Groups that do not differ and the relations they cannot show, as
        in :class:`~cdplot.ComparisonResult`.
    direction : ndarray, shape (k, k)
        ``+1`` where the row method has the better average rank.
    direction_reason : str
        How the average ranks were read (1 = best, or flipped).
    notes : tuple of str
        That cdplot computed no test, and what it cannot check.
    source, pvalues_source : str or None
        Where the ranks and the matrix came from.
    options : mapping
        ``{"higher_is_better": ...}`` as given.
    """

    #: Marks a result whose test the user supplied: figures ask for its own caption.
    supplied: ClassVar[bool] = True

    methods: tuple[str, ...]
    n_methods: int
    n_datasets: int | None
    average_ranks: np.ndarray
    test: str
    alpha: float | None
    pvalues: np.ndarray | None
    significant: np.ndarray
    cliques: tuple[tuple[str, ...], ...]
    unjoined: tuple[tuple[str, str], ...] = ()
    bridges: Sequence[tuple[str, str, str]] = ()
    direction: np.ndarray | None = None
    direction_reason: str = "lower is better: the values are average ranks, 1 = best"
    notes: tuple[str, ...] = ()
    source: str | None = None
    pvalues_source: str | None = None
    options: Mapping[str, bool] = field(default_factory=dict)
    # what the figures and the shared sentences read from every rank result: a supplied
    # test has no critical difference, no control, no correction and no measure name
    control: None = None
    correction: None = None
    critical_value: None = None
    critical_difference: None = None
    metric: None = None
    higher_is_better: bool = False

    def __post_init__(self):
        # a significance matrix alone has no p-values: None stays None
        arrays = ("average_ranks",) if self.pvalues is None else ("average_ranks", "pvalues")
        freeze_rank_fields(self, arrays)

    # the questions every rank result answers, with ComparisonResult's own code, so that
    # the words of a figure, a terminal and a CSV are the same whatever made the result
    all_pairs_tested = ComparisonResult.all_pairs_tested
    index = ComparisonResult.index
    order = ComparisonResult.order
    average_rank = ComparisonResult.average_rank
    is_significant = ComparisonResult.is_significant
    _significant_index_pairs_cached = ComparisonResult._significant_index_pairs_cached
    _significant_index_pairs = ComparisonResult._significant_index_pairs
    significant_pairs = ComparisonResult.significant_pairs
    _first_significant_pairs = ComparisonResult._first_significant_pairs
    direction_conflicts = ComparisonResult.direction_conflicts
    posthoc_sentences = ComparisonResult.posthoc_sentences
    to_frame = ComparisonResult.to_frame  # its mean_score column is empty

    def pvalue(self, a: str, b: str) -> float:
        """The supplied p-value of ``a`` against ``b`` (NaN for a significance matrix)."""
        i, j = self.index(a), self.index(b)
        return math.nan if self.pvalues is None else float(self.pvalues[i, j])

    def pvalue_dict(self) -> dict | None:
        """``{method: {method: p}}`` as supplied, or ``None`` for a significance matrix."""
        return None if self.pvalues is None else matrix_dict(self.pvalues, self.methods)

    def procedure(self) -> str:
        """The user's test in words, e.g. ``'Conover test (supplied by the user)'``."""
        name = self.test if self.test.lower().endswith("test") else f"{self.test} test"
        return f"{name} (supplied by the user)"

    def supplied_sentence(self) -> str:
        """What cdplot did with the user's matrix, in one sentence."""
        name = self.test if self.test.lower().endswith("test") else f"{self.test} test"
        if self.pvalues is None:
            level = "" if self.alpha is None else f" at alpha = {self.alpha:g}"
            return (
                f"The significant pairs of the {name}{level} were supplied by the user; cdplot "
                "computed no test and drew the groups from them."
            )
        return (
            f"The p-values of the {name} were supplied by the user; cdplot computed no test "
            f"and calls a pair significant where p <= alpha = {self.alpha:g}."
        )

    def conclusion(self) -> str:
        """The groups in words, after the sentence saying whose test they come from."""
        return " ".join([self.supplied_sentence(), *self.posthoc_sentences()])

    def caption(self, *, extra: str = "") -> str:
        """The one-line caption of a figure: whose test, alpha, N; never a CD or Friedman test."""
        nb = "\u00a0"  # no-break spaces keep each "name = value" on one line when wrapped
        direction = self.direction_reason[0].upper() + self.direction_reason[1:]
        name = self.test if self.test.lower().endswith("test") else f"{self.test} test"
        what = "p-values" if self.pvalues is not None else "significant pairs"
        parts = [f"{name}, {what} supplied by the user (cdplot computed no test)"]
        if self.alpha is not None:
            parts.append(f"\u03b1{nb}={nb}{self.alpha:g}")
        if self.n_datasets is not None:
            parts.append(f"N{nb}={nb}{self.n_datasets} data sets")
        text = f"{direction}. " + ", ".join(parts)
        if extra:
            text += f". {extra}"
        return text + "."

    def _headline(self) -> str:
        n = "" if self.n_datasets is None else f" on {self.n_datasets} data sets"
        return (
            f"{self.n_methods} methods{n}, {self.test} (supplied), "
            f"{len(self._significant_index_pairs_cached[0])} significant pairs"
        )

    def __str__(self) -> str:
        order = self.order()
        width = max(len(m) for m in self.methods)
        n = "" if self.n_datasets is None else f" on {self.n_datasets} data sets"
        lines = [
            f"Comparison of {self.n_methods} methods{n}, from a post-hoc test supplied by "
            f"the user ({self.test})",
            "",
            f"{'rank':>4}  {'method':<{width}}  average rank",
        ]
        for pos, m in enumerate(order, start=1):
            lines.append(f"{pos:>4}  {m:<{width}}  {self.average_rank(m):.3f}")
        lines += ["", *wrap(self.conclusion())]
        lines += _notes_lines(self.notes)
        return "\n".join(lines)

    def to_dict(self, *, matrices: bool | None = None) -> dict:
        """Return a JSON-safe dictionary (see ``cdplot stats --pvalues FILE --json``).

        Parameters
        ----------
        matrices : bool, optional
            Include the ``k x k`` p-value matrix (default: up to
            :data:`~cdplot.stats._resultkit.JSON_MATRIX_MAX_METHODS` methods).
        """
        matrices, why = json_matrices(matrices, self.n_methods)
        m = self.methods
        return {
            "input": "supplied_posthoc",
            "test": self.test,
            "computed_by_cdplot": False,
            "n_datasets": self.n_datasets,
            "n_methods": self.n_methods,
            "alpha": num(self.alpha),
            "direction_reason": self.direction_reason,
            "methods": list(m),
            "average_ranks": dict(zip(m, self.average_ranks.tolist(), strict=True)),
            "rank_order": list(self.order()),
            "pvalues": matrix_dict(self.pvalues, m)
            if matrices and self.pvalues is not None
            else None,
            "matrices_omitted": None if matrices else f"the k x k p-value matrix is {why}",
            "significant_pairs": list(map(list, self.significant_pairs())),
            "cliques": [list(c) for c in self.cliques],
            "unjoined": list(map(list, self.unjoined)),
            "bridges": list(map(list, self.bridges)),
            "options": dict(self.options),
            "notes": list(self.notes),
            "source": self.source,
            "pvalues_source": self.pvalues_source,
            "conclusion": self.conclusion(),
        }


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _check_test_name(test) -> str:
    if not isinstance(test, str) or not test.strip():
        raise CdplotError(
            f"option {opt('test', test)} must name the post-hoc test that computed the matrix "
            "(e.g. 'Conover'); it is written in the caption",
            option="test",
        )
    test = " ".join(test.split())
    check_name(test, "test", f"option {opt('test')}")
    if len(test) > _MAX_TEST_NAME:
        raise CdplotError(
            f"option {opt('test')} is {len(test)} characters long; a caption holds a test name "
            f"of at most {_MAX_TEST_NAME}",
            option="test",
        )
    return test


def _labelled(pvalues):
    """``(row names, column names, cells, source, what)``; names are ``None`` for an array."""
    if isinstance(pvalues, (str, os.PathLike)):
        pvalues = read_pvalue_matrix(pvalues)
    if isinstance(pvalues, LabelledMatrix):
        cells = np.empty((len(pvalues.rows), len(pvalues.columns)), dtype=object)
        cells[...] = [list(r) for r in pvalues.cells]
        return list(pvalues.rows), list(pvalues.columns), cells, pvalues.source, pvalues.source
    if hasattr(pvalues, "columns") and hasattr(pvalues, "index") and hasattr(pvalues, "to_numpy"):
        # a pandas DataFrame, as scikit-posthocs' posthoc_* functions return (duck typing)
        rows = [str(x).strip() for x in pvalues.index]
        cols = [str(x).strip() for x in pvalues.columns]
        return rows, cols, pvalues.to_numpy(), None, "pvalues"
    if isinstance(pvalues, Mapping):
        rows = [str(x).strip() for x in pvalues]
        cols: list[str] = []
        for inner in pvalues.values():
            if not isinstance(inner, Mapping):
                raise CdplotError(
                    f"pvalues: a mapping must be {{method: {{method: p}}}}; the value of "
                    f"{rows[0]!r} is a {type(inner).__name__}"
                )
            cols += [str(c).strip() for c in inner if str(c).strip() not in cols]
        cells = np.empty((len(rows), len(cols)), dtype=object)
        for i, inner in enumerate(pvalues.values()):
            got = {str(c).strip(): v for c, v in inner.items()}
            cells[i] = [got.get(c) for c in cols]
        return rows, cols, cells, None, "pvalues"
    if isinstance(pvalues, (bytes, bytearray)) or not hasattr(pvalues, "__len__"):
        raise CdplotError(
            "pvalues must be a square matrix: an array in the order of the average ranks, a "
            f"mapping {{method: {{method: p}}}}, a DataFrame or a CSV file; got "
            f"{type(pvalues).__name__}"
        )
    return None, None, np.asarray(pvalues), None, "pvalues"


def _reorder(labels: list[str], names: tuple[str, ...], axis: str, what: str) -> list[int]:
    """Positions of ``names`` among ``labels``, refusing a missing, extra or repeated name."""
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        if label in seen:
            raise CdplotError(f"{what}: {axis} {label!r} appears twice")
        seen[label] = i
    known = set(names)
    extra = [x for x in labels if x not in known]
    if extra:
        raise CdplotError(
            f"{what}: {axis} {extra[0]!r} is not a method of the average ranks "
            f"({join_names(names)})"
        )
    missing = [m for m in names if m not in seen]
    if missing:
        raise CdplotError(
            f"{what}: method {missing[0]!r} of the average ranks has no {axis} "
            f"({len(missing)} missing)"
        )
    return [seen[m] for m in names]


def _kind(cells: np.ndarray, where) -> str:
    """``'bool'`` for a significance matrix, ``'float'`` for p-values."""
    if cells.dtype == bool:
        return "bool"
    if cells.dtype.kind in "iuf":
        return "float"
    if cells.dtype.kind != "O":
        i, j = 0, 1
        raise CdplotError(f"{where(i, j)} is {cells[i, j]!r}, not a p-value (a number in [0, 1])")
    k = cells.shape[0]
    off = [(i, j) for i in range(k) for j in range(k) if i != j]
    flags = [isinstance(cells[i, j], (bool, np.bool_)) for i, j in off]
    if all(flags):
        return "bool"
    if any(flags):
        i, j = off[flags.index(True)]
        raise CdplotError(
            f"{where(i, j)} is {cells[i, j]!r} among p-values; give numbers only, or True/False "
            "for every pair"
        )
    for i, j in np.ndindex(k, k):
        v = cells[i, j]
        if v is None or type(v).__name__ in ("NAType", "NaTType"):
            cells[i, j] = math.nan
        elif isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
            continue
        elif i == j and isinstance(v, (bool, np.bool_)):
            cells[i, j] = math.nan  # a boolean diagonal beside p-values says nothing
        else:
            raise CdplotError(f"{where(i, j)} is {v!r}, not a p-value (a number in [0, 1])")
    return "float"


def _check_pvalues(p: np.ndarray, where) -> np.ndarray:
    k = p.shape[0]
    off = ~np.eye(k, dtype=bool)
    bad = np.argwhere(np.isnan(p) & off)
    if bad.size:
        i, j = bad[0]
        raise CdplotError(
            f"{where(i, j)} is empty or NaN; every pair needs a p-value to draw groups (a "
            "test against a control leaves pairs untested)"
        )
    bad = np.argwhere(~((p >= 0.0) & (p <= 1.0)) & ~np.isnan(p))
    if bad.size:
        i, j = bad[0]
        raise CdplotError(f"{where(i, j)} is {p[i, j]:g}, outside [0, 1]; a p-value lies in [0, 1]")
    diag = np.diagonal(p)
    bad = np.flatnonzero(~np.isnan(diag) & (diag != 1.0))
    if bad.size:
        i = int(bad[0])
        raise CdplotError(
            f"{where(i, i)} is {diag[i]:g}; a method against itself has p = 1 (or leave the "
            "diagonal empty): is this a matrix of p-values?"
        )
    close = np.isclose(p, p.T, rtol=_SYMMETRY_RTOL, atol=_SYMMETRY_ATOL) | ~off
    if not close.all():
        i, j = np.argwhere(~close)[0]
        raise CdplotError(
            f"{where(i, j)} is {p[i, j]:g} but {where(j, i)} is {p[j, i]:g}; the matrix must be "
            "symmetric (one two-sided p-value per pair)"
        )
    p = p.copy()
    np.fill_diagonal(p, 1.0)
    return p


def _check_significance(s: np.ndarray, where) -> np.ndarray:
    k = s.shape[0]
    cells = (
        np.array(
            [[bool(s[i, j]) if s[i, j] is not None else False for j in range(k)] for i in range(k)]
        )
        if s.dtype == object
        else s.astype(bool)
    )
    diag = np.flatnonzero(np.diagonal(cells))
    if diag.size:
        i = int(diag[0])
        raise CdplotError(f"{where(i, i)} is True; a method never differs from itself")
    if not (cells == cells.T).all():
        i, j = np.argwhere(cells != cells.T)[0]
        raise CdplotError(
            f"{where(i, j)} is {bool(cells[i, j])} but {where(j, i)} is {bool(cells[j, i])}; "
            "the matrix must be symmetric"
        )
    return cells


def _matrix(pvalues, names: tuple[str, ...]):
    """``(p-values or None, significance or None, source)`` in the order of ``names``."""
    rows, cols, cells, source, what = _labelled(pvalues)
    k = len(names)
    if cells.ndim != 2 or cells.shape != (k, k):
        raise CdplotError(
            f"{what} has shape {cells.shape}; the average ranks name {k} methods, so it must be "
            f"a ({k}, {k}) matrix"
        )
    if rows is not None:
        ri = _reorder(rows, names, "row", what)
        ci = _reorder(cols, names, "column", what)
        cells = cells[np.ix_(ri, ci)]

        def where(i, j):
            return f"{what}, row {names[i]!r}, column {names[j]!r}"

    else:

        def where(i, j):
            return f"pvalues[{i}, {j}] ({names[i]!r} against {names[j]!r})"

    cells = np.array(cells, dtype=cells.dtype, copy=True)
    if _kind(cells, where) == "bool":
        return None, _check_significance(cells, where), source
    return _check_pvalues(cells.astype(float), where), None, source


def _ranks(average_ranks, methods, higher_is_better: bool, n: int | None):
    ranks = as_average_ranks(average_ranks, methods=methods)
    k = ranks.n_methods
    values = np.asarray(ranks.values, dtype=float)
    pct = (k + 1) / (2 * k)  # the mean of pandas' rank(pct=True) over k methods
    if k >= 2 and (values > 0).all() and (values <= 1).all() and abs(values.mean() - pct) < 1e-6:
        src = f"{ranks.source}: " if ranks.source else ""
        raise CdplotError(
            f"{src}the values lie in (0, 1] and average {values.mean():.6g} = (k + 1) / 2k: these "
            f"look like percentile ranks (pandas' rank(pct=True)); multiply them by k = {k}"
        )
    avg = _validate_ranks(ranks, n)
    if higher_is_better:
        avg = (k + 1.0) - avg
    return ranks, avg


@share
def from_posthoc(
    average_ranks: Mapping[str, float] | AverageRanks | str | os.PathLike[str] | ArrayLike,
    pvalues,
    *,
    test: str,
    alpha: float | None = None,
    higher_is_better: bool = False,
    n_datasets: int | None = None,
    methods: Sequence[str] | None = None,
) -> PosthocComparison:
    """A result from average ranks and the p-values of your own post-hoc test.

    For a test cdplot does not run (Conover's, Dunn's, a test of your own):
    give the average ranks and the test's p-value matrix, as
    scikit-posthocs' ``posthoc_conover`` returns it, and draw the result
    with :func:`cdplot.cd_diagram` or :func:`cdplot.significance_heatmap`.
    The groups are drawn from your matrix with the clique rules of
    :func:`cdplot.compare`; cdplot computes no test, and the caption, the
    text and the JSON say so and name ``test``.

    Parameters
    ----------
    average_ranks : mapping, str, path-like or AverageRanks
        ``{method: average rank}`` (a pandas Series works), a file of
        ``method,average_rank`` rows, or a sequence with ``methods``.
        1 = best, unless ``higher_is_better``.
    pvalues : array_like, mapping, DataFrame, str or path-like
        A square matrix of p-values: an array in the order of the average
        ranks, ``{method: {method: p}}``, a DataFrame with method names as
        index and columns (scikit-posthocs' output), or a CSV file of that
        layout.  Symmetric, in ``[0, 1]``, with 1 (or nothing) on the
        diagonal, and already adjusted for multiple comparisons.  A boolean
        matrix (``True`` where a pair differs significantly) is read as the
        test's decisions.
    test : str
        The name of the test that computed ``pvalues``, e.g.
        ``'Conover–Friedman'``; it is written in the caption and the text.
    alpha : float, optional
        Significance level: a pair differs where ``p <= alpha`` (default
        0.05).  With a boolean matrix, the level its decisions were made
        at, printed in the caption when given.
    higher_is_better : bool, default False
        Whether the best method has the highest average rank (pandas'
        ``rank()`` of scores where higher is better); the ranks are then
        drawn as ``k + 1 - r``, so that 1 = best as in every CD diagram.
    n_datasets : int, optional
        The number of data sets the ranks were averaged over, printed in
        the caption.
    %(ranks_methods)s

    Returns
    -------
    PosthocComparison
        The ranks, your p-values, the significant pairs and the groups.

    Raises
    ------
    CdplotError
        With a one-line message naming the row and column: a matrix that
        is not square, not symmetric, holds NaN off the diagonal, a value
        outside ``[0, 1]`` or anything but 1 on the diagonal; names that
        differ from the average ranks'; ranks outside ``[1, k]`` or not
        summing to ``k (k + 1) / 2`` (percentile ranks are named as such);
        an empty test name.

    Notes
    -----
    cdplot cannot check that the p-values are adjusted for the number of
    pairs, nor that an omnibus test (Friedman's before Conover's,
    Kruskal-Wallis' before Dunn's) rejected first; the result's notes say
    so.  Groups are formed as for :func:`cdplot.compare`: maximal runs of
    consecutive methods in rank order none of whose pairs differ.

    References
    ----------
    .. [1] M. Terpilowski, "scikit-posthocs: Pairwise multiple comparison
           tests in Python", JOSS 4(36) (2019) 1169; its
           ``critical_difference_diagram`` and issue #54.

    Examples
    --------
    >>> import cdplot
    >>> ranks = {"A": 1.2, "B": 2.0, "C": 2.8}
    >>> p = [[1.0, 0.30, 0.01], [0.30, 1.0, 0.20], [0.01, 0.20, 1.0]]
    >>> res = cdplot.from_posthoc(ranks, p, test="Conover")
    >>> res.significant_pairs()
    (('A', 'C'),)
    >>> res.cliques
    (('A', 'B'), ('B', 'C'))
    >>> res.procedure()
    'Conover test (supplied by the user)'
    """
    test = _check_test_name(test)
    higher_is_better = check_bool("higher_is_better", higher_is_better)
    n = None if n_datasets is None else _validate_n(n_datasets)
    if alpha is not None:
        alpha = check_alpha(alpha)
    ranks, avg = _ranks(average_ranks, methods, higher_is_better, n)
    names = ranks.methods
    p, sig, p_source = _matrix(pvalues, names)
    if p is not None:
        alpha = 0.05 if alpha is None else alpha
        sig = p <= alpha
        np.fill_diagonal(sig, False)
    cliques, unjoined, bridge_names = groups(names, avg, sig, None)
    name = test if test.lower().endswith("test") else f"{test} test"
    notes = [
        f"The {name} and its "
        + ("p-values" if p is not None else "decisions")
        + " are the user's, not computed by cdplot, which cannot check that they are "
        f"adjusted for the {len(names) * (len(names) - 1) // 2} pairs compared, nor that an "
        "omnibus test rejected first (Friedman's before Conover's, Kruskal-Wallis' before "
        "Dunn's)",
        *ranks.notes,
    ]
    reason = "lower is better: the values are average ranks, 1 = best"
    if higher_is_better:
        reason = (
            "lower is better: the average ranks were given with the highest best and are "
            f"shown as {len(names) + 1} - rank, so that 1 = best"
        )
    return PosthocComparison(
        methods=names,
        n_methods=len(names),
        n_datasets=n,
        average_ranks=avg,
        test=test,
        alpha=alpha,
        pvalues=p,
        significant=sig,
        cliques=cliques,
        unjoined=unjoined,
        bridges=bridge_names,
        direction_reason=reason,
        notes=tuple(notes),
        source=ranks.source,
        pvalues_source=p_source,
        options={"higher_is_better": higher_is_better},
    )
