"""Bayesian comparison of two methods (Benavoli, Corani, Demšar and Zaffalon 2017).

Instead of a p-value, each test returns the posterior probabilities that A
is practically better than B, that the two are practically equivalent (the
difference lies in the region of practical equivalence, ``[-rope, rope]``),
and that B is practically better.  The rope is the user's statement of how
large a difference matters; there is no default.

* :func:`bayesian_correlated_ttest`: two methods on one data set, from the
  folds of (repeated) cross-validation.  The posterior of the mean
  difference is a Student t with ``n - 1`` degrees of freedom, location
  ``mean(d)`` and scale ``sqrt(s^2 (1/n + rho / (1 - rho)))``, the
  Bayesian counterpart of Nadeau and Bengio's correction.  Exact, no
  sampling.
* :func:`bayesian_signed_rank`: two methods over many data sets, from one
  score per data set.  A Dirichlet process with a prior pseudo-observation
  at difference 0 gives posterior weights; each sampled weight vector gives
  the probabilities of the three regions, and the posterior probability of
  each region is the fraction of samples in which it is the most probable.
  Sampling uses a seeded numpy Generator, so results are reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import field

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from .._options import check_bool
from ..errors import CdplotError, opt
from ._cv_tests import arrange, check_variance, parse_scheme, validate_pair_names, validate_sizes
from ._resultkit import Result, notes_lines, num, readonly, result, wrap

__all__ = [
    "BayesianTTestResult",
    "BayesianSignedRankResult",
    "bayesian_correlated_ttest",
    "bayesian_signed_rank",
]

# Benavoli et al. (2017) call a decision when a posterior probability exceeds 0.95.
DECISION_LEVEL = 0.95


def _validate_rope(rope):
    if rope is None:
        raise CdplotError(
            "option rope is required: give the largest difference you consider practically "
            f"irrelevant (e.g. {opt('rope', 0.01)} for accuracies), or 0 for no region of "
            "equivalence",
            option="rope",
        )
    try:
        r = float(rope)
    except (TypeError, ValueError):
        raise CdplotError(f"option {opt('rope', rope)} is not a number", option="rope") from None
    if not math.isfinite(r) or r < 0:
        raise CdplotError(
            f"option {opt('rope', rope)} must be a finite number >= 0 (a half-width)", option="rope"
        )
    return r


def _validate_level(level):
    try:
        v = float(level)
    except (TypeError, ValueError):
        raise CdplotError(f"option {opt('level', level)} is not a number", option="level") from None
    if not 0.5 < v < 1:
        raise CdplotError(f"option {opt('level', level)} must lie in (0.5, 1)", option="level")
    return v


def _decision_text(names, probs, rope, level):
    a, b = names
    pa, pe, pb = probs
    labels = (
        f"{a} is practically better than {b}",
        "the two are practically equivalent",
        f"{b} is practically better than {a}",
    )
    best = int(np.argmax(probs))
    if probs[best] >= level:
        return f"With posterior probability {probs[best]:.3f}, {labels[best]}."
    if rope == 0:
        return (
            f"Neither method is better with probability {level:g} or more "
            f"(P({a} better) = {pa:.3f})."
        )
    return f"No region reaches posterior probability {level:g}; the data do not decide."


def _probs_text(names, probs, rope):
    a, b = names
    pa, pe, pb = probs
    if rope == 0:
        return f"P({a} better) = {pa:.3f}, P({b} better) = {pb:.3f}"
    return f"P({a} better) = {pa:.3f}, P(rope) = {pe:.3f}, P({b} better) = {pb:.3f}"


@result
class BayesianTTestResult(Result):
    """Posterior of the Bayesian correlated t-test.

    The mean difference ``theta`` (A minus B, oriented so that positive
    means A is better) has a Student t posterior.

    Attributes
    ----------
    p_a_better, p_rope, p_b_better : float
        ``P(theta > rope)``, ``P(-rope <= theta <= rope)``, ``P(theta < -rope)``.
    rope : float
    df : int
        ``n - 1``.
    loc, scale : float
        Location (mean of the oriented differences) and scale of the posterior.
    rho : float
        ``n_test / (n_train + n_test)``.
    method_a, method_b : str
    mean_a, mean_b : float
    n_folds : int
        Number of differences ``n``.
    scheme : str
    higher_is_better : bool
    dataset : str or None
    notes : tuple of str
    """

    p_a_better: float
    p_rope: float
    p_b_better: float
    rope: float
    df: int
    loc: float
    scale: float
    rho: float
    method_a: str
    method_b: str
    mean_a: float
    mean_b: float
    n_folds: int
    scheme: str
    higher_is_better: bool = True
    dataset: str | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def methods(self) -> tuple[str, str]:
        """``(method_a, method_b)``."""
        return (self.method_a, self.method_b)

    @property
    def probabilities(self) -> tuple[float, float, float]:
        """``(P(A better), P(rope), P(B better))``."""
        return (self.p_a_better, self.p_rope, self.p_b_better)

    def pdf(self, x) -> np.ndarray:
        """Posterior density of the (oriented) mean difference at ``x``."""
        z = (np.asarray(x, dtype=float) - self.loc) / self.scale
        nu = float(self.df)
        logc = (
            special.gammaln((nu + 1) / 2)
            - special.gammaln(nu / 2)
            - 0.5 * math.log(nu * math.pi)
            - math.log(self.scale)
        )
        return np.exp(logc - (nu + 1) / 2 * np.log1p(z * z / nu))

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Central credible interval of the mean difference.

        The numbers are returned as a pair because they are one interval
        (as ``scipy.stats`` distributions' ``interval`` does).
        """
        level = _validate_level(level)
        q = -float(special.stdtrit(self.df, (1 - level) / 2))
        return (self.loc - q * self.scale, self.loc + q * self.scale)

    def decision(self, level: float = DECISION_LEVEL) -> str:
        """The decision in words at posterior probability ``level``."""
        return _decision_text(
            (self.method_a, self.method_b), self.probabilities, self.rope, _validate_level(level)
        )

    def conclusion(self) -> str:
        """The conclusion in words, with the numbers."""
        where = f" on {self.dataset}" if self.dataset else ""
        lo, hi = self.interval(0.95)
        text = (
            f"Bayesian correlated t-test{where} (rope = {self.rope:g}, {self.n_folds} folds, "
            f"{self.scheme}, rho = {self.rho:.3g}): "
            f"{_probs_text((self.method_a, self.method_b), self.probabilities, self.rope)}; "
            f"mean difference {self.loc:.4f}, 95% credible interval [{lo:.4f}, {hi:.4f}]. "
            + self.decision()
        )
        return text

    def _headline(self) -> str:
        return f"{self.method_a} vs {self.method_b}, rope = {self.rope:g}, {self._probs()}"

    def _probs(self) -> str:
        pa, pe, pb = self.probabilities
        return f"P(A better) = {pa:.3f}, P(rope) = {pe:.3f}, P(B better) = {pb:.3f}"

    def __str__(self) -> str:
        return "\n".join([*wrap(self.conclusion()), *notes_lines(self.notes)])

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        lo, hi = self.interval(0.95)
        return {
            "test": "bayes-correlated-t",
            "p_a_better": num(self.p_a_better),
            "p_rope": num(self.p_rope),
            "p_b_better": num(self.p_b_better),
            "rope": self.rope,
            "df": int(self.df),
            "loc": num(self.loc),
            "scale": num(self.scale),
            "credible_interval_95": [num(lo), num(hi)],
            "rho": num(self.rho),
            "method_a": self.method_a,
            "method_b": self.method_b,
            "mean_a": num(self.mean_a),
            "mean_b": num(self.mean_b),
            "n_folds": int(self.n_folds),
            "scheme": self.scheme,
            "higher_is_better": self.higher_is_better,
            "dataset": self.dataset,
            "decision": self.decision(),
            "notes": list(self.notes),
            "conclusion": self.conclusion(),
        }


@share
def bayesian_correlated_ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    rope: float,
    scheme: str = "kfold",
    n_train: int | None = None,
    n_test: int | None = None,
    higher_is_better: bool = True,
    methods: tuple[str, str] | None = None,
    dataset: str | None = None,
) -> BayesianTTestResult:
    """Bayesian correlated t-test: two methods on the folds of one data set.

    Parameters
    ----------
    a, b : array_like
        Per-fold scores, paired; a vector in repetition-major order or an
        ``(R, K)`` array.
    rope : float
        Half-width of the region of practical equivalence, in the units of
        the scores (``0.01`` = one percentage point of accuracy); ``0``
        for none.  Required: only the user knows what difference matters.
    scheme : str, default 'kfold'
        ``'kfold'``, ``'RxK'``, ``'blocked-mx2'`` or ``'resampled'`` (see
        :mod:`cdplot.stats._cv_tests`).
    n_train, n_test : int, optional
        Training and test sizes for ``rho = n_test / (n_train + n_test)``;
        k-fold schemes default to ``rho = 1 / K``, as baycomp does.
    %(higher_is_better_array)s
    %(pair_names)s
    dataset : str, optional

    Returns
    -------
    BayesianTTestResult

    Raises
    ------
    CdplotError
        Missing or negative rope, a scheme that does not match the data,
        a single fold, or zero variance of the differences (the posterior
        would be a point mass: the data show no variability to weigh).

    Notes
    -----
    The posterior is Student's t with ``n - 1`` degrees of freedom, location
    ``mean(d)`` and scale ``sqrt(s^2 (1/n + rho/(1-rho)))``; the
    probabilities are exact (no sampling).

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a
           change: a tutorial for comparing multiple classifiers through
           Bayesian analysis", JMLR 18 (2017) 1-36, section 3.
    .. [2] G. Corani and A. Benavoli, "A Bayesian approach for comparing
           cross-validated algorithms on multiple data sets", Machine
           Learning 100 (2015) 285-304.

    Examples
    --------
    >>> a = [0.81, 0.84, 0.79, 0.86, 0.83, 0.80, 0.85, 0.82, 0.84, 0.81]
    >>> b = [0.78, 0.80, 0.80, 0.82, 0.79, 0.79, 0.81, 0.80, 0.81, 0.77]
    >>> r = bayesian_correlated_ttest(a, b, rope=0.01)
    >>> [round(p, 3) for p in r.probabilities]
    [0.977, 0.022, 0.0]
    """
    rope = _validate_rope(rope)
    check_bool("higher_is_better", higher_is_better)
    names = validate_pair_names(methods)
    n_train, n_test = validate_sizes(n_train, n_test)
    s = parse_scheme(scheme)
    a2, b2 = arrange(a, b, s, "bayes-correlated-t")
    d = (a2 - b2).ravel()
    if not higher_is_better:
        d = -d
    check_variance(a2 - b2, "bayes-correlated-t", names)
    notes = []
    if (n_train is None) != (n_test is None):
        raise CdplotError(
            f"give both n_train and n_test or neither (got {opt('n_train', n_train)}, "
            f"{opt('n_test', n_test)})",
            option="n_train",
        )
    if n_train is None:
        if s.kind == "resampled":
            raise CdplotError(
                f"{opt('scheme', 'resampled')} needs n_train and n_test for rho = n_test / n",
                option="scheme",
            )
        rho = 1.0 / a2.shape[1]
        notes.append(f"rho = 1/{a2.shape[1]} because n_train and n_test were not given.")
    else:
        rho = n_test / (n_train + n_test)
    n = d.size
    loc = float(d.mean())
    scale = math.sqrt(d.var(ddof=1) * (1.0 / n + rho / (1.0 - rho)))
    df = n - 1
    # P(theta > rope) and P(theta < -rope) from the t survival function
    p_a = float(special.stdtr(df, -(rope - loc) / scale))
    p_b = float(special.stdtr(df, -(loc + rope) / scale))
    p_rope = max(0.0, 1.0 - p_a - p_b)
    return BayesianTTestResult(
        p_a_better=p_a,
        p_rope=p_rope,
        p_b_better=p_b,
        rope=rope,
        df=df,
        loc=loc,
        scale=scale,
        rho=rho,
        method_a=names[0],
        method_b=names[1],
        mean_a=float(a2.mean()),
        mean_b=float(b2.mean()),
        n_folds=n,
        scheme=s.text,
        higher_is_better=higher_is_better,
        dataset=dataset,
        notes=tuple(notes),
    )


@result
class BayesianSignedRankResult(Result):
    """Posterior of the Bayesian signed-rank test.

    Attributes
    ----------
    p_a_better, p_rope, p_b_better : float
        Fractions of posterior samples in which "A better", "equivalent" or
        "B better" is the most probable region.
    samples : ndarray, shape (n_samples, 3)
        Sampled probabilities of the three regions (A better, rope, B
        better), read-only; each row sums to 1.  The simplex plot draws them.
    rope : float
    prior_strength : float
        Weight of the prior pseudo-observation at difference 0.
    n_samples : int
    seed : int or None
        The seed the samples were drawn with, when an int was given.
    method_a, method_b : str
    n_datasets : int
    datasets : tuple of str
    differences : ndarray
        Oriented differences per data set (positive: A better), read-only.
    higher_is_better : bool
    notes : tuple of str
    """

    p_a_better: float
    p_rope: float
    p_b_better: float
    samples: np.ndarray
    rope: float
    prior_strength: float
    n_samples: int
    seed: int | None
    method_a: str
    method_b: str
    n_datasets: int
    datasets: tuple[str, ...] = ()
    differences: np.ndarray = field(default_factory=lambda: np.empty(0))
    higher_is_better: bool = True
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "samples", readonly(self.samples))
        object.__setattr__(self, "differences", readonly(self.differences))
        object.__setattr__(self, "datasets", tuple(self.datasets))
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def methods(self) -> tuple[str, str]:
        """``(method_a, method_b)``."""
        return (self.method_a, self.method_b)

    @property
    def probabilities(self) -> tuple[float, float, float]:
        """``(P(A better), P(rope), P(B better))``."""
        return (self.p_a_better, self.p_rope, self.p_b_better)

    def decision(self, level: float = DECISION_LEVEL) -> str:
        """The decision in words at posterior probability ``level``."""
        return _decision_text(
            (self.method_a, self.method_b), self.probabilities, self.rope, _validate_level(level)
        )

    def conclusion(self) -> str:
        """The conclusion in words, with the numbers."""
        text = (
            f"Bayesian signed-rank test over {self.n_datasets} data sets (rope = {self.rope:g}, "
            f"prior strength {self.prior_strength:g} at 0, {self.n_samples} samples, "
            f"seed {self.seed}): "
            f"{_probs_text((self.method_a, self.method_b), self.probabilities, self.rope)}. "
            + self.decision()
        )
        return text

    def _headline(self) -> str:
        return f"{self.method_a} vs {self.method_b}, rope = {self.rope:g}, {self._probs()}"

    def _probs(self) -> str:
        pa, pe, pb = self.probabilities
        return f"P(A better) = {pa:.3f}, P(rope) = {pe:.3f}, P(B better) = {pb:.3f}"

    def __str__(self) -> str:
        return "\n".join([*wrap(self.conclusion()), *notes_lines(self.notes)])

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary (without the samples)."""
        return {
            "test": "bayes-signed-rank",
            "p_a_better": num(self.p_a_better),
            "p_rope": num(self.p_rope),
            "p_b_better": num(self.p_b_better),
            "rope": self.rope,
            "prior_strength": self.prior_strength,
            "n_samples": int(self.n_samples),
            "seed": self.seed,
            "method_a": self.method_a,
            "method_b": self.method_b,
            "n_datasets": int(self.n_datasets),
            "datasets": list(self.datasets),
            "higher_is_better": self.higher_is_better,
            "decision": self.decision(),
            "notes": list(self.notes),
            "conclusion": self.conclusion(),
        }


# the most posterior samples a signed-rank result holds (3 floats each: 120 MB)
MAX_SAMPLES = 5_000_000

# Work on this many posterior samples at a time, so that memory stays at a few
# megabytes however many data sets there are.
_CHUNK_CELLS = 2_000_000


@share
def bayesian_signed_rank(
    a: ArrayLike,
    b: ArrayLike,
    *,
    rope: float,
    prior_strength: float = 0.5,
    n_samples: int = 50_000,
    rng: int | np.random.Generator = 0,
    higher_is_better: bool = True,
    methods: tuple[str, str] | None = None,
    datasets: Sequence[str] | None = None,
) -> BayesianSignedRankResult:
    """Bayesian signed-rank test: two methods over many data sets.

    Parameters
    ----------
    a, b : array_like, shape (N,)
        One score per data set for each method (e.g. the mean over folds).
    rope : float
        Half-width of the region of practical equivalence; ``0`` for none.
        Required.
    prior_strength : float, default 0.5
        Weight ``s`` of the Dirichlet process' prior pseudo-observation,
        placed at difference 0 (Benavoli et al. use 0.5, as baycomp).
    n_samples : int, default 50000
        Number of posterior samples, at most 5,000,000.
    %(rng)s
    %(higher_is_better_array)s
    %(pair_names)s
    datasets : sequence of str, optional
        Names of the data sets, kept in the result.

    Returns
    -------
    BayesianSignedRankResult

    Raises
    ------
    CdplotError
        Missing or negative rope, mismatched lengths, fewer than two data
        sets, a negative prior strength, or a bad sample count.

    Notes
    -----
    With ``z_0 = 0`` (the prior pseudo-observation) and the oriented
    differences ``z_1..z_N``, each sample draws weights ``w ~ Dirichlet(s,
    1, ..., 1)`` and computes

    .. math:: \\theta_A = \\sum_{i,j} w_i w_j\\, H(z_i + z_j - 2r), \\quad
              \\theta_B = \\sum_{i,j} w_i w_j\\, H(-z_i - z_j - 2r),

    with ``H`` the Heaviside step (1/2 at 0) and ``theta_rope = 1 - theta_A
    - theta_B``.  Sums of pairs (Walsh averages) make it the Bayesian
    counterpart of the Wilcoxon signed-rank test.  Data sets are assumed
    independent; the scores of each should be comparable across methods.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a
           change: a tutorial for comparing multiple classifiers through
           Bayesian analysis", JMLR 18 (2017) 1-36, section 4.
    .. [2] A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri,
           "A Bayesian Wilcoxon signed-rank test based on the Dirichlet
           process", ICML 2014.

    Examples
    --------
    >>> import cdplot
    >>> (t,) = cdplot.load_example("demsar2006")
    >>> r = bayesian_signed_rank(t.values[:, 1], t.values[:, 0], rope=0.01,
    ...                          methods=("C4.5+m", "C4.5"), n_samples=20000)
    >>> [round(p, 2) for p in r.probabilities]
    [0.67, 0.33, 0.0]
    """
    rope = _validate_rope(rope)
    check_bool("higher_is_better", higher_is_better)
    names = validate_pair_names(methods)
    s = _check_sampling(prior_strength, n_samples)
    x, y, datasets = _paired_scores(a, b, names, datasets)
    seed = _check_rng(rng)
    gen = np.random.default_rng(rng)

    d = x - y if higher_is_better else y - x
    out = _posterior_samples(d, rope, s, n_samples, gen)
    winners = np.argmax(out, axis=1)
    pa, pe, pb = (np.bincount(winners, minlength=3) / n_samples).tolist()
    notes = []
    if rope == 0:
        notes.append("With rope = 0 there is no region of equivalence; P(rope) is 0.")
    # samples are stored as (A better, rope, B better)
    return BayesianSignedRankResult(
        p_a_better=pa,
        p_rope=pe,
        p_b_better=pb,
        samples=out,
        rope=rope,
        prior_strength=s,
        n_samples=int(n_samples),
        seed=seed,
        method_a=names[0],
        method_b=names[1],
        n_datasets=x.size,
        datasets=datasets or (),
        differences=d,
        higher_is_better=higher_is_better,
        notes=tuple(notes),
    )


def _check_sampling(prior_strength, n_samples) -> float:
    """The prior strength as a float, after checking it and ``n_samples``."""
    try:
        s = float(prior_strength)
    except (TypeError, ValueError):
        s = math.nan
    if not math.isfinite(s) or s < 0:
        raise CdplotError(
            f"option {opt('prior_strength', prior_strength)} must be a number >= 0",
            option="prior_strength",
        )
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise CdplotError(
            f"option {opt('n_samples', n_samples)} must be a positive whole number",
            option="n_samples",
        )
    if n_samples > MAX_SAMPLES:
        # the result keeps every sample (3 floats each); past this the probabilities are
        # already exact to far more digits than they are printed with
        raise CdplotError(
            f"option {opt('n_samples', n_samples)} is more than the {MAX_SAMPLES:,} allowed",
            option="n_samples",
        )
    return s


def _paired_scores(a, b, names, datasets):
    """``(x, y, datasets)``: the two methods' finite scores, one per named data set."""
    x = np.asarray(a, dtype=float).ravel()
    y = np.asarray(b, dtype=float).ravel()
    if x.size != y.size:
        raise CdplotError(
            f"{names[0]} has {x.size} scores and {names[1]} has {y.size}; give one score per data "
            "set for each method"
        )
    if x.size < 2:
        raise CdplotError(f"the signed-rank test needs at least 2 data sets, got {x.size}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise CdplotError("every data set needs a finite score for both methods")
    if datasets is not None:
        datasets = tuple(str(d) for d in datasets)
        if len(datasets) != x.size:
            raise CdplotError(f"option datasets has {len(datasets)} names for {x.size} data sets")
    return x, y, datasets


def _check_rng(rng) -> int | None:
    """The seed (None for a Generator, whose state is its own)."""
    seed = int(rng) if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) else None
    if seed is None and not isinstance(rng, np.random.Generator):
        raise CdplotError(
            f"option {opt('rng', rng)} must be an int seed or a numpy Generator", option="rng"
        )
    if seed is not None and seed < 0:
        raise CdplotError(f"option {opt('rng', rng)} must be a seed >= 0", option="rng")
    return seed


def _posterior_samples(d, rope, s, n_samples, gen) -> np.ndarray:
    """``(n_samples, 3)`` posterior samples of (A better, rope, B better).

    Benavoli et al.'s (2014) Dirichlet process over the differences ``d``
    with a pseudo-observation of weight ``s`` at 0.
    """
    z = np.concatenate(([0.0], d))
    sums = z[:, None] + z[None, :]
    # Heaviside with 1/2 at the boundary, as in Benavoli et al. (2014)
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
    alpha_w = np.ones(z.size)
    alpha_w[0] = s if s > 0 else 1e-12  # Dirichlet needs positive weights
    out = np.empty((n_samples, 3))
    chunk = max(1, _CHUNK_CELLS // (z.size * z.size))
    for start in range(0, n_samples, chunk):
        stop = min(n_samples, start + chunk)
        w = gen.dirichlet(alpha_w, stop - start)
        out[start:stop, 0] = np.einsum("si,ij,sj->s", w, above, w)
        out[start:stop, 2] = np.einsum("si,ij,sj->s", w, below, w)
    out[:, 1] = 1.0 - out[:, 0] - out[:, 2]
    return out
