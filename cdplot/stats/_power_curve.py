"""Power at several numbers of data sets at once: :func:`simulate_power_curve`.

Each simulated comparison draws the largest ``N`` asked for; the comparison
at a smaller ``N`` is its first ``N`` data sets (common random numbers).  The
rank sums at every ``N`` are then one cumulative sum, so a whole curve costs
about one simulation at the largest ``N``, and the curve does not zigzag
from one ``N`` to the next by Monte-Carlo noise alone.
"""

from __future__ import annotations

import math

import numpy as np

from .._options import check_alpha
from ..errors import CdplotError, opt
from ._critical import critical_value
from ._power import (
    _CHUNK_CELLS,
    PowerResult,
    _generator,
    _omnibus,
    _power_notes,
    _se,
    _validate_model,
)
from ._resultkit import (
    Result,
    method_index,
    notes_lines,
    readonly_mapping,
    result,
    wrap,
)
from ._validate import whole_number

__all__ = ["simulate_power_curve", "PowerCurveResult"]

# at most this many values of N in one curve
_MAX_POINTS = 200


@result
class PowerCurveResult(Result):
    """Simulated power at several ``N``, as returned by :func:`cdplot.simulate_power_curve`.

    Attributes
    ----------
    methods : tuple of str
        Names of the methods.
    n_methods : int
        ``k``.
    n_datasets : tuple of int
        The numbers of data sets, increasing.
    model : {'shift', 'resample'}
        How data sets were simulated (see :func:`cdplot.simulate_power`).
    alpha : float
        Significance level.
    n_simulations : int
        Simulated comparisons at each ``N``.
    results : tuple of PowerResult
        The power at each ``N``, one :class:`PowerResult` each.
    notes : tuple of str
        The model's assumptions and the Monte-Carlo error.
    options : mapping
        The arguments (shift, seed), read-only.
    """

    methods: tuple
    n_methods: int
    n_datasets: tuple
    model: str
    alpha: float
    n_simulations: int
    results: tuple
    notes: tuple = ()
    options: object = None

    def __post_init__(self):
        object.__setattr__(self, "methods", tuple(self.methods))
        object.__setattr__(self, "n_datasets", tuple(int(n) for n in self.n_datasets))
        object.__setattr__(self, "results", tuple(self.results))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "options", readonly_mapping(self.options))

    def _headline(self) -> str:
        ns = self.n_datasets
        return f"{self.model}, k={self.n_methods}, N={ns[0]}..{ns[-1]} ({len(ns)} values)"

    @property
    def iman_davenport_power(self) -> np.ndarray:
        """Power of the Iman-Davenport test (the omnibus test compare reports) at each ``N``."""
        return np.array([r.iman_davenport_power for r in self.results])

    @property
    def iman_davenport_se(self) -> np.ndarray:
        """Its Monte-Carlo standard error at each ``N``."""
        return np.array([r.iman_davenport_se for r in self.results])

    @property
    def friedman_power(self) -> np.ndarray:
        """Power of Friedman's chi-square test at each ``N``."""
        return np.array([r.friedman_power for r in self.results])

    def power(self, a: str, b: str) -> np.ndarray:
        """Power of Nemenyi's test for methods ``a`` and ``b`` at each ``N``.

        Parameters
        ----------
        a, b : str
            Names of two methods.

        Returns
        -------
        ndarray, shape (len(n_datasets),)
        """
        i, j = method_index(self.methods, a), method_index(self.methods, b)
        return np.array([r.pair_power[i, j] for r in self.results])

    def se(self, a: str, b: str) -> np.ndarray:
        """Monte-Carlo standard error of :meth:`power` at each ``N``."""
        i, j = method_index(self.methods, a), method_index(self.methods, b)
        return np.array([r.pair_se[i, j] for r in self.results])

    def strongest_pairs(self, n: int = 4) -> list[tuple[str, str]]:
        """The ``n`` pairs with the highest mean power over the curve (ties in method order)."""
        i, j = np.triu_indices(self.n_methods, 1)
        mean = np.mean([r.pair_power[i, j] for r in self.results], axis=0)
        order = np.lexsort((j, i, -mean))[:n]
        return [(self.methods[i[o]], self.methods[j[o]]) for o in order]

    def smallest_n(self, power: float = 0.8, a: str | None = None, b: str | None = None):
        """The smallest ``N`` of the curve with at least ``power``, or None.

        Of the Iman-Davenport test, or of Nemenyi's test for ``a`` and ``b``.
        """
        p = self.iman_davenport_power if a is None else self.power(a, b)
        hit = np.flatnonzero(p >= power)
        return int(self.n_datasets[hit[0]]) if hit.size else None

    def methods_sentence(self, pairs=None) -> str:
        """A sentence for a paper's methods section, claiming only what was simulated.

        Parameters
        ----------
        pairs : sequence of (str, str), optional
            Pairs to state the power of (default :meth:`strongest_pairs`, 2).
        """
        first = self.results[0]
        drawn = first.drawn_words()
        ns = ", ".join(str(n) for n in self.n_datasets)
        id_power = ", ".join(f"{p:.2f}" for p in self.iman_davenport_power)
        worst = 0.5 / math.sqrt(self.n_simulations)
        text = (
            f"Power was estimated from {self.n_simulations} simulated comparisons at each of "
            f"N = {ns} {drawn} (the comparisons at a smaller N are the first data sets of those "
            f"at a larger one): the Iman-Davenport test rejected at alpha = {self.alpha:g} in "
            f"shares of {id_power}"
        )
        for a, b in pairs if pairs is not None else self.strongest_pairs(2):
            shares = ", ".join(f"{p:.2f}" for p in self.power(a, b))
            text += f"; Nemenyi's test separated {a} and {b} in {shares}"
        return text + f" (Monte-Carlo standard errors at most {worst:.3f})."

    def to_dict(self) -> dict:
        return {
            "methods": list(self.methods),
            "n_methods": self.n_methods,
            "n_datasets": list(self.n_datasets),
            "model": self.model,
            "alpha": self.alpha,
            "n_simulations": self.n_simulations,
            "results": [r.to_dict() for r in self.results],
            "methods_sentence": self.methods_sentence(),
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        pairs = self.strongest_pairs(3)
        head = ["       N", "Iman-Davenport", *(f"{a} vs {b}" for a, b in pairs)]
        widths = [max(8, len(h)) for h in head]
        lines = [
            f"Simulated power against the number of data sets (k = {self.n_methods} methods, "
            f"alpha = {self.alpha:g}, {self.n_simulations} simulations per N)",
            "",
            "  " + "  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)),
        ]
        for t, n in enumerate(self.n_datasets):
            cells = [str(n), f"{self.iman_davenport_power[t]:.3f}"]
            cells += [f"{self.power(a, b)[t]:.3f}" for a, b in pairs]
            lines.append("  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)))
        lines += ["", "For a methods section:"]
        lines += ["  " + line for line in wrap(self.methods_sentence(), 86)]
        return "\n".join(lines + notes_lines(self.notes))


def _check_ns(n_datasets) -> list[int]:
    values = np.atleast_1d(np.asarray(n_datasets, dtype=object)).tolist()
    if not values:
        raise CdplotError(
            f"option {opt('n_datasets')} is empty; give the numbers of data sets, e.g. "
            "[10, 20, 40]",
            option="n_datasets",
        )
    ns = [whole_number(v, "option n_datasets", minimum=2, what="data sets") for v in values]
    if len(set(ns)) != len(ns) or len(ns) > _MAX_POINTS:
        raise CdplotError(
            f"option {opt('n_datasets', n_datasets)} must hold at most {_MAX_POINTS} different "
            "numbers of data sets",
            option="n_datasets",
        )
    return sorted(ns)


def _prefix_sums(gen, model, ranks, ties, mu, s: int, nmax: int, ns):
    """Rank sums (s, len(ns), k) and tie sums (s, len(ns)) of the first N data sets of
    ``s`` simulated comparisons of ``nmax`` data sets, for every N of ``ns``."""
    at = np.asarray(ns) - 1
    if model == "shift":
        x = gen.standard_normal((s, nmax, mu.size)) + mu
        r = np.argsort(np.argsort(-x, axis=2), axis=2) + 1.0
        return np.cumsum(r, axis=1)[:, at], np.zeros((s, len(ns)))
    rows = gen.integers(0, ranks.shape[0], size=(s, nmax))
    return np.cumsum(ranks[rows], axis=1)[:, at], np.cumsum(ties[rows], axis=1)[:, at]


def simulate_power_curve(
    scores=None,
    *,
    shift=None,
    n_datasets,
    alpha: float = 0.05,
    n_simulations: int = 2000,
    higher_is_better: bool | None = None,
    metric: str | None = None,
    rng: int | np.random.Generator = 0,
) -> PowerCurveResult:
    """Power of the Friedman, Iman-Davenport and Nemenyi tests at several ``N``, simulated.

    :func:`cdplot.simulate_power` at every ``N`` of ``n_datasets`` for the
    cost of one: each simulated comparison has the largest ``N``, and the
    comparison at a smaller ``N`` is its first data sets.

    Parameters
    ----------
    scores, shift, alpha, n_simulations, higher_is_better, metric, rng
        As in :func:`cdplot.simulate_power`.
    n_datasets : sequence of int
        The numbers of data sets, each at least 2 (at most 200 values).

    Returns
    -------
    PowerCurveResult
        One :class:`PowerResult` per ``N``; ``str()`` prints the curve and a
        sentence for a methods section.

    Raises
    ------
    CdplotError
        As :func:`cdplot.simulate_power`, or for an empty or repeated
        ``n_datasets``.

    Notes
    -----
    The values at different ``N`` share their simulated data sets (common
    random numbers), so the differences between neighbouring ``N`` are
    estimated far better than each value; each value has the Monte-Carlo
    standard error ``sqrt(p (1 - p) / n_simulations)``.  The assumptions
    are those of :func:`cdplot.simulate_power`.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30.

    Examples
    --------
    >>> res = simulate_power_curve(shift=[0.0, 0.0, 1.0], n_datasets=[10, 20, 40],
    ...                            n_simulations=500, rng=1)
    >>> res.n_datasets
    (10, 20, 40)
    >>> bool(res.iman_davenport_power[-1] > res.iman_davenport_power[0])
    True
    """
    model, ranks, ties, mu, names = _validate_model(scores, shift, higher_is_better, metric)
    ns = _check_ns(n_datasets)
    sims = whole_number(n_simulations, "option n_simulations", minimum=1, what="simulations")
    alpha = check_alpha(alpha)
    gen = _generator(rng)
    k, nmax, m = len(names), ns[-1], len(ns)
    cds = [critical_value(k, alpha=alpha) * math.sqrt(k * (k + 1.0) / (6.0 * n)) for n in ns]
    chunk = max(1, _CHUNK_CELLS // (nmax * k))
    hits_f, hits_id = np.zeros(m), np.zeros(m)
    hits_pairs = np.zeros((m, k, k))
    for start in range(0, sims, chunk):
        s = min(chunk, sims - start)
        sums, tie_sums = _prefix_sums(gen, model, ranks, ties, mu, s, nmax, ns)
        for t, n in enumerate(ns):
            mean = sums[:, t] / n
            f, fid = _omnibus(mean, tie_sums[:, t], n, k, alpha)
            hits_f[t] += f.sum()
            hits_id[t] += fid.sum()
            # the relative slack of simulate_power: a difference equal to CD is significant
            diff = np.abs(mean[:, :, None] - mean[:, None, :])
            hits_pairs[t] += (diff >= cds[t] * (1.0 - 1e-12)).sum(axis=0)
    shift_given = None if mu is None else (-mu if higher_is_better is False else mu).tolist()
    options = {"shift": shift_given, "rng": rng if isinstance(rng, int) else None}
    notes = _power_notes(model, sims) + (
        "the comparisons at a smaller N are the first data sets of those at a larger N "
        "(common random numbers), so the curve's steps are estimated better than its values",
    )
    results = []
    for t, n in enumerate(ns):
        power = hits_pairs[t] / sims
        np.fill_diagonal(power, np.nan)
        results.append(
            PowerResult(
                methods=names,
                n_methods=k,
                n_datasets=n,
                model=model,
                alpha=alpha,
                n_simulations=sims,
                friedman_power=hits_f[t] / sims,
                friedman_se=float(_se(hits_f[t] / sims, sims)),
                iman_davenport_power=hits_id[t] / sims,
                iman_davenport_se=float(_se(hits_id[t] / sims, sims)),
                pair_power=power,
                pair_se=_se(power, sims),
                critical_difference=cds[t],
                notes=_power_notes(model, sims),
                options=options,
            )
        )
    return PowerCurveResult(
        methods=names,
        n_methods=k,
        n_datasets=ns,
        model=model,
        alpha=alpha,
        n_simulations=sims,
        results=tuple(results),
        notes=notes,
        options={**options, "n_datasets": list(ns)},
    )
