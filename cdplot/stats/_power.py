"""Power of the Friedman test and of Nemenyi's post-hoc test, by Monte-Carlo simulation.

Two models of new data sets: normal scores shifted per method (a location-shift
model), or data sets drawn with replacement from a user's score table.  Every
simulation is vectorised: average ranks of all simulated comparisons are
computed at once, a chunk of simulations at a time so that memory stays small.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from scipy import special

from .._docstrings import share
from .._options import check_alpha
from ..errors import CdplotError, opt
from ..io import as_score_tables, resolve_direction
from ._compare import single_table
from ._critical import critical_value
from ._ranks import ranks_and_ties
from ._resultkit import (
    Result,
    matrix_dict,
    method_index,
    notes_lines,
    readonly,
    readonly_mapping,
    result,
    wrap,
)
from ._validate import finite_vector, whole_number

__all__ = ["simulate_power", "PowerResult"]

# simulated scores held at once (a chunk of simulations x N x k), about 32 MB of floats
_CHUNK_CELLS = 1 << 22
# pairs printed by str(); to_dict() holds them all
_SHOWN_PAIRS = 15


@result
class PowerResult(Result):
    """Simulated power, as returned by :func:`cdplot.simulate_power`.

    Attributes
    ----------
    methods : tuple of str
        Names of the methods.
    n_methods, n_datasets : int
        ``k``, and the number of data sets ``N`` of each simulated comparison.
    model : {'shift', 'resample'}
        How data sets were simulated (see :func:`simulate_power`).
    alpha : float
        Significance level.
    n_simulations : int
        Number of simulated comparisons.
    friedman_power, friedman_se : float
        Share of simulations in which Friedman's chi-square test (tie-corrected)
        rejects at ``alpha``, and its Monte-Carlo standard error.
    iman_davenport_power, iman_davenport_se : float
        The same for Iman and Davenport's F, the omnibus test
        :func:`cdplot.compare` reports.
    pair_power, pair_se : ndarray, shape (k, k)
        Share of simulations in which two methods' average ranks differ by at
        least Nemenyi's critical difference, and its standard error (NaN on
        the diagonal).
    critical_difference : float
        Nemenyi's CD at ``n_datasets``.
    notes : tuple of str
        The model's assumptions and the Monte-Carlo error.
    options : mapping
        The arguments (shift, seed), read-only.
    """

    methods: tuple
    n_methods: int
    n_datasets: int
    model: str
    alpha: float
    n_simulations: int
    friedman_power: float
    friedman_se: float
    iman_davenport_power: float
    iman_davenport_se: float
    pair_power: np.ndarray
    pair_se: np.ndarray
    critical_difference: float
    notes: tuple = ()
    options: object = None

    def __post_init__(self):
        object.__setattr__(self, "methods", tuple(self.methods))
        object.__setattr__(self, "pair_power", readonly(self.pair_power))
        object.__setattr__(self, "pair_se", readonly(self.pair_se))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "options", readonly_mapping(self.options))

    def _headline(self) -> str:
        return (
            f"{self.model}, k={self.n_methods}, N={self.n_datasets}, "
            f"Friedman power={self.friedman_power:.3f}"
        )

    def power(self, a: str, b: str) -> float:
        """Simulated power of Nemenyi's test for the pair of methods ``a`` and ``b``.

        Parameters
        ----------
        a, b : str
            Names of two methods.

        Returns
        -------
        float
        """
        i, j = method_index(self.methods, a), method_index(self.methods, b)
        return float(self.pair_power[i, j])

    def _pairs(self) -> list[tuple[float, int, int]]:
        i, j = np.triu_indices(self.n_methods, 1)
        order = np.lexsort((j, i, -self.pair_power[i, j]))
        return [(float(self.pair_power[i[o], j[o]]), int(i[o]), int(j[o])) for o in order]

    def drawn_words(self) -> str:
        """How the data sets were simulated, in words (for a methods sentence)."""
        if self.model == "resample":
            return (
                f"data sets drawn with replacement from the score table of {self.n_methods} "
                "methods (treated as a sample of the data sets of interest)"
            )
        means = ", ".join(f"{m:g}" for m in self.options["shift"])
        return f"data sets of independent unit-variance normal scores with method means {means}"

    def methods_sentence(self) -> str:
        """A sentence for a paper's methods section, claiming only what was simulated."""
        drawn = self.drawn_words()
        return (
            f"Power was estimated from {self.n_simulations} simulated comparisons of "
            f"N = {self.n_datasets} {drawn}: the Friedman test rejected at alpha = "
            f"{self.alpha:g} in a share of {self.friedman_power:.3f} (Monte-Carlo standard "
            f"error {self.friedman_se:.3f}), and the Nemenyi test (CD = "
            f"{self.critical_difference:.3f}) separated each pair in the share given for it."
        )

    def to_dict(self) -> dict:
        return {
            "methods": list(self.methods),
            "n_methods": self.n_methods,
            "n_datasets": self.n_datasets,
            "model": self.model,
            "alpha": self.alpha,
            "n_simulations": self.n_simulations,
            "friedman_power": self.friedman_power,
            "friedman_se": self.friedman_se,
            "iman_davenport_power": self.iman_davenport_power,
            "iman_davenport_se": self.iman_davenport_se,
            "critical_difference": self.critical_difference,
            "pair_power": matrix_dict(self.pair_power, self.methods),
            "pair_se": matrix_dict(self.pair_se, self.methods),
            "methods_sentence": self.methods_sentence(),
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        model = {
            "shift": "normal scores shifted per method",
            "resample": "data sets drawn with replacement from the score table",
        }[self.model]
        lines = [
            f"Simulated power at N = {self.n_datasets} data sets, k = {self.n_methods} methods, "
            f"alpha = {self.alpha:g}",
            *wrap(f"Model: {model}; {self.n_simulations} simulations."),
            "",
            f"  Friedman chi-square:  {self.friedman_power:.3f} "
            f"+/- {self.friedman_se:.3f} (MC s.e.)",
            f"  Iman-Davenport F:     {self.iman_davenport_power:.3f} "
            f"+/- {self.iman_davenport_se:.3f} (MC s.e.)",
            "",
            f"Nemenyi, |average-rank difference| >= CD = {self.critical_difference:.4f}:",
        ]
        pairs = self._pairs()
        for p, i, j in pairs[:_SHOWN_PAIRS]:
            se = float(self.pair_se[i, j])
            lines.append(f"  {self.methods[i]} vs {self.methods[j]}: {p:.3f} +/- {se:.3f}")
        if len(pairs) > _SHOWN_PAIRS:
            lines.append(f"  ... {len(pairs) - _SHOWN_PAIRS} more pairs (to_dict() has all)")
        lines += ["", "For a methods section:"]
        lines += ["  " + line for line in wrap(self.methods_sentence(), 86)]
        return "\n".join(lines + notes_lines(self.notes))


def _validate_model(scores, shift, higher_is_better, metric):
    """``(model, ranks, ties, shift, names)`` of the chosen model."""
    if (scores is None) == (shift is None):
        raise CdplotError(
            f"give exactly one of scores (to resample its data sets) and {opt('shift')} (to "
            "simulate normal scores shifted per method)",
            option="shift",
        )
    if shift is not None:
        if isinstance(shift, Mapping):
            names = tuple(str(name) for name in shift)
            shift = list(shift.values())
        else:
            names = None
        mu = finite_vector(shift, "option shift")
        whole_number(mu.size, "option shift: the number of methods", minimum=2, what="methods")
        if names is None:
            names = tuple(f"method {j + 1}" for j in range(mu.size))
        # the model's scores are higher-is-better; lower-is-better means are negated
        mu = -mu if higher_is_better is False else mu
        return "shift", None, None, mu, names
    table = single_table(as_score_tables(scores, metric=metric))
    direction = resolve_direction(table, higher_is_better)
    ranks, ties = ranks_and_ties(table.values, higher_is_better=direction.higher_is_better)
    return "resample", ranks, ties, None, tuple(table.methods)


def _generator(rng) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, bool) or not isinstance(rng, (int, np.integer)) or rng < 0:
        raise CdplotError(
            f"option {opt('rng', rng)} must be an int seed >= 0 or a numpy Generator", option="rng"
        )
    return np.random.default_rng(int(rng))


def _shift_chunk(gen, mu, s: int, n: int):
    """Average ranks (s, k) and tie sums (s,) of ``s`` comparisons of normal scores."""
    x = gen.standard_normal((s, n, mu.size)) + mu
    # continuous scores have no ties (with probability 1): ranks are the sort positions,
    # 1 = the highest score
    ranks = np.argsort(np.argsort(-x, axis=2), axis=2) + 1.0
    return ranks.mean(axis=1), np.zeros(s)


def _resample_chunk(gen, ranks, ties, s: int, n: int):
    """The same for ``s`` comparisons of ``n`` data sets drawn from a table's rows.

    A draw of ``n`` rows with replacement is a multinomial count per row, so the
    average ranks are one matrix product instead of ``s x n x k`` gathered ranks.
    """
    n0 = ranks.shape[0]
    counts = gen.multinomial(n, np.full(n0, 1.0 / n0), size=s).astype(float)
    return counts @ ranks / n, counts @ ties


def _omnibus(mean, tie_total, n: int, k: int, alpha: float):
    """Friedman's tie-corrected chi-square and Iman-Davenport's F reject at ``alpha``."""
    centred = mean - (k + 1.0) / 2.0
    chi2_u = 12.0 * n / (k * (k + 1.0)) * np.einsum("sk,sk->s", centred, centred)
    denom = 1.0 - tie_total / (n * k * (k * k - 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        # every data set tying all methods shows no difference (as friedman_from_ranks)
        chi2 = np.where(denom > 1e-12, chi2_u / denom, 0.0)
        friedman = special.chdtrc(k - 1, chi2) < alpha
        id_denom = n * (k - 1.0) - chi2
        # identical rankings on every data set: F is infinite and rejects
        ff = np.where(id_denom > 1e-12 * n * k, (n - 1.0) * chi2 / id_denom, np.inf)
        pf = np.where(np.isinf(ff), 0.0, special.fdtrc(k - 1, (k - 1) * (n - 1), ff))
    return friedman, pf < alpha


@share
def simulate_power(
    scores=None,
    *,
    shift=None,
    n_datasets: int,
    alpha: float = 0.05,
    n_simulations: int = 2000,
    higher_is_better: bool | None = None,
    metric: str | None = None,
    rng: int | np.random.Generator = 0,
) -> PowerResult:
    """Power of the Friedman test and of Nemenyi's test at ``N`` data sets, simulated.

    Each simulation draws ``n_datasets`` data sets, ranks the methods on
    each, and records whether Friedman's and Iman-Davenport's tests reject
    and which pairs' average ranks differ by at least Nemenyi's critical
    difference (the decision :func:`cdplot.compare` makes).

    Parameters
    ----------
    scores : ScoreTable, array_like, DataFrame or path, optional
        A score table whose data sets are drawn with replacement ("what if
        the benchmark had ``n_datasets`` data sets like these").  Give this
        or ``shift``.
    shift : array_like, shape (k,), or mapping, optional
        Mean score of each method in a location-shift model: on every data
        set the scores are independent normal with these means and unit
        variance, so ``shift[a] - shift[b]`` is the effect in standard
        deviations of the per-data-set noise.  A mapping ``{name: mean}``
        names the methods (else ``method 1``, ``method 2``, ...).
    n_datasets : int
        Number of data sets ``N`` of each simulated comparison, at least 2.
    %(alpha)s
    n_simulations : int, default 2000
        Number of simulated comparisons; the Monte-Carlo standard error of a
        power ``p`` is ``sqrt(p (1 - p) / n_simulations)``.
    higher_is_better : bool, optional
        Direction of ``scores`` (default: the table's, else True) or of
        ``shift`` (default True).
    metric : str, optional
        The metric to resample, for ``scores`` that hold several.
    %(rng)s

    Returns
    -------
    PowerResult

    Raises
    ------
    CdplotError
        If both or neither of ``scores`` and ``shift`` are given, or an
        option is out of range.

    Notes
    -----
    Resampling treats the table's data sets as a sample of the population of
    data sets of interest; the simulated power is that of comparisons drawn
    from this sample, which is only as representative as the table.  The
    shift model assumes independent, equally variable normal scores.
    Nemenyi's pairs are counted whether or not the omnibus test rejects, as
    :func:`cdplot.compare` reports them.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30.

    Examples
    --------
    A third method better by one noise standard deviation, 20 data sets:

    >>> res = simulate_power(shift=[0.0, 0.0, 1.0], n_datasets=20, n_simulations=1000, rng=1)
    >>> res.friedman_power, round(res.friedman_se, 3)
    (0.782, 0.013)
    >>> res.power("method 1", "method 3")
    0.577
    """
    model, ranks, ties, mu, names = _validate_model(scores, shift, higher_is_better, metric)
    n = whole_number(n_datasets, "option n_datasets", minimum=2, what="data sets")
    sims = whole_number(n_simulations, "option n_simulations", minimum=1, what="simulations")
    alpha = check_alpha(alpha)
    gen = _generator(rng)
    k = len(names)
    cd = critical_value(k, alpha=alpha) * math.sqrt(k * (k + 1.0) / (6.0 * n))
    chunk = max(1, _CHUNK_CELLS // (n * k))
    hits_f = hits_id = 0
    hits_pairs = np.zeros((k, k))
    for start in range(0, sims, chunk):
        s = min(chunk, sims - start)
        if model == "shift":
            mean, tie_total = _shift_chunk(gen, mu, s, n)
        else:
            mean, tie_total = _resample_chunk(gen, ranks, ties, s, n)
        f, fid = _omnibus(mean, tie_total, n, k, alpha)
        hits_f += int(f.sum())
        hits_id += int(fid.sum())
        # the small relative slack keeps a difference equal to CD significant, as
        # compare's |R_i - R_j| >= CD does with exactly computed ranks
        diff = np.abs(mean[:, :, None] - mean[:, None, :])
        hits_pairs += (diff >= cd * (1.0 - 1e-12)).sum(axis=0)
    power = hits_pairs / sims
    np.fill_diagonal(power, np.nan)
    return PowerResult(
        methods=names,
        n_methods=k,
        n_datasets=n,
        model=model,
        alpha=alpha,
        n_simulations=sims,
        friedman_power=hits_f / sims,
        friedman_se=float(_se(hits_f / sims, sims)),
        iman_davenport_power=hits_id / sims,
        iman_davenport_se=float(_se(hits_id / sims, sims)),
        pair_power=power,
        pair_se=_se(power, sims),
        critical_difference=cd,
        notes=_power_notes(model, sims),
        options={
            # as given: the model negated lower-is-better means
            "shift": None if mu is None else (-mu if higher_is_better is False else mu).tolist(),
            "rng": rng if isinstance(rng, int) else None,
        },
    )


def _se(p, sims: int):
    """Monte-Carlo standard error of a simulated proportion."""
    return np.sqrt(p * (1.0 - p) / sims)


def _power_notes(model: str, sims: int) -> tuple:
    notes = [
        f"each power is a share of {sims} simulations, shown with its Monte-Carlo "
        f"standard error sqrt(p(1-p)/{sims}) (at most {0.5 / math.sqrt(sims):.3f})",
        "Nemenyi's pairs are counted whether or not the omnibus test rejects",
    ]
    if model == "resample":
        notes.append(
            "data sets are drawn with replacement from the table: they are treated as a "
            "sample of the population of data sets of interest, and the power holds for "
            "comparisons like this table's"
        )
    else:
        notes.append(
            "scores are simulated as independent normal variables with unit variance and "
            "the given mean per method; real scores are rarely so tidy"
        )
    return tuple(notes)
