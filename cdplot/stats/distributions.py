"""Distribution functions built on :mod:`scipy.special` and numpy only.

``import scipy.stats`` costs more than a second on a small machine, which is
more than a whole ``cdplot stats`` run may take, so the few distributions the
analysis needs are written here from the special functions.  Each one is
tested against :mod:`scipy.stats` (see ``tests/stats/test_distributions.py``).

The studentized range distribution with infinitely many degrees of freedom
(the distribution behind the Nemenyi test) is the range of ``k`` independent
standard normal variables, whose distribution function is

.. math:: F(q; k) = k \\int \\varphi(z) [\\Phi(z) - \\Phi(z - q)]^{k-1} dz.

It is integrated with Gauss-Legendre quadrature; the survival function is
written so that small p-values keep their relative precision.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import special

__all__ = [
    "norm_cdf",
    "norm_sf",
    "norm_ppf",
    "norm_isf",
    "chi2_sf",
    "f_sf",
    "t_sf",
    "t_isf",
    "binom_cdf",
    "binom_sf",
    "studentized_range_cdf",
    "studentized_range_sf",
    "studentized_range_isf",
]

# The standard normal density is below 1e-17 outside this interval, so the
# integrals over z lose nothing by stopping there.
_Z_LIMIT = 9.0
_N_NODES = 160
_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)


def norm_cdf(x):
    """Standard normal distribution function."""
    return special.ndtr(x)


def norm_sf(x):
    """Standard normal survival function, ``1 - Phi(x)`` without cancellation."""
    return special.ndtr(-np.asarray(x, dtype=float))


def norm_ppf(p):
    """Standard normal quantile function."""
    return special.ndtri(p)


def norm_isf(p):
    """Standard normal inverse survival function."""
    return -special.ndtri(p)


def chi2_sf(x, df):
    """Survival function of the chi-square distribution with ``df`` degrees of freedom."""
    return special.chdtrc(df, x)


def f_sf(x, dfn, dfd):
    """Survival function of the F distribution with ``(dfn, dfd)`` degrees of freedom."""
    return special.fdtrc(dfn, dfd, x)


def t_sf(x, df):
    """Survival function of Student's t distribution."""
    return special.stdtr(df, -np.asarray(x, dtype=float))


def t_isf(p, df):
    """Inverse survival function of Student's t distribution."""
    return -special.stdtrit(df, p)


def binom_cdf(k, n, p):
    """``P(X <= k)`` for ``X ~ Binomial(n, p)``; 0 for ``k < 0``."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=np.int64)  # scipy.special wants integer trial counts
    kk = np.floor(k)
    out = special.bdtr(np.clip(kk, 0, n), n, p)
    return np.where(kk < 0, 0.0, np.where(kk >= n, 1.0, out))


def binom_sf(k, n, p):
    """``P(X > k)`` for ``X ~ Binomial(n, p)``; 1 for ``k < 0``."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=np.int64)
    kk = np.floor(k)
    out = special.bdtrc(np.clip(kk, 0, n), n, p)
    return np.where(kk < 0, 1.0, np.where(kk >= n, 0.0, out))


@functools.lru_cache(maxsize=1)
def _nodes():
    x, w = np.polynomial.legendre.leggauss(_N_NODES)
    z = _Z_LIMIT * x
    w = _Z_LIMIT * w
    log_phi = -0.5 * z * z - _LOG_SQRT_2PI
    return z, w, log_phi, special.log_ndtr(z)


def _check_k(k):
    k = np.asarray(k)
    if np.any(k < 2) or np.any(k != np.floor(k)):
        raise ValueError(f"the studentized range needs an integer k >= 2, got {k!r}")
    return k.astype(float)


def studentized_range_cdf(q, k):
    """Distribution function of the studentized range for ``k`` groups and infinite df.

    Parameters
    ----------
    q : array_like
        Values of the range (in units of the standard deviation).
    k : int or array_like
        Number of groups, at least 2.

    Returns
    -------
    ndarray
        ``P(Q <= q)``, broadcast over ``q`` and ``k``.
    """
    return 1.0 - studentized_range_sf(q, k)


def studentized_range_sf(q, k):
    """Survival function ``P(Q > q)`` of the studentized range with infinite df.

    It equals ``k * int phi(z) Phi(z)^(k-1) (1 - (1 - Phi(z-q)/Phi(z))^(k-1)) dz``,
    because ``k * int phi(z) Phi(z)^(k-1) dz = 1``; written so, small
    probabilities are computed with full relative precision.

    Parameters
    ----------
    q : array_like
        Values of the range; negative values give 1.
    k : int or array_like
        Number of groups, at least 2.

    Returns
    -------
    ndarray
        ``P(Q > q)``, broadcast over ``q`` and ``k``.
    """
    k = _check_k(k)
    q, k = np.broadcast_arrays(np.asarray(q, dtype=float), k)
    shape = q.shape
    qf = q.reshape(-1, 1)
    kf = k.reshape(-1, 1)
    z, w, log_phi, log_cdf = _nodes()
    # log of Phi(z - q) / Phi(z), which is <= 0 for q >= 0
    log_ratio = special.log_ndtr(z - np.clip(qf, 0.0, None)) - log_cdf
    with np.errstate(divide="ignore"):  # q = 0 makes the ratio 1 and log1p(-1) = -inf
        inner = -np.expm1((kf - 1.0) * np.log1p(-np.exp(log_ratio)))
    integrand = np.exp(np.log(kf) + log_phi + (kf - 1.0) * log_cdf) * inner
    out = integrand @ w
    out = np.where(qf[:, 0] <= 0.0, 1.0, np.clip(out, 0.0, 1.0))
    return out.reshape(shape)[()] if shape else float(out[0])


def studentized_range_isf(p, k):
    """Inverse survival function (upper quantile) of the studentized range, infinite df.

    Parameters
    ----------
    p : array_like
        Upper-tail probabilities in (0, 1), for example ``alpha``.
    k : int or array_like
        Number of groups, at least 2.

    Returns
    -------
    ndarray
        ``q`` such that ``P(Q > q) = p``; accurate to about 1e-12.
    """
    k = _check_k(k)
    p, k = np.broadcast_arrays(np.asarray(p, dtype=float), k)
    shape = p.shape
    pf = p.ravel()
    kf = k.ravel()
    if np.any((pf <= 0) | (pf >= 1)):
        raise ValueError(f"probabilities must lie in (0, 1), got {p!r}")
    lo = np.zeros_like(pf)
    hi = np.full_like(pf, 4.0)
    # widen the bracket until it holds the quantile
    for _ in range(60):
        too_small = studentized_range_sf(hi, kf) > pf
        if not np.any(too_small):
            break
        hi = np.where(too_small, hi * 2.0, hi)
    # bisection on log(sf), which is smooth and monotone in q
    log_p = np.log(pf)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        above = np.log(np.maximum(studentized_range_sf(mid, kf), 1e-300)) > log_p
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
        if np.all(hi - lo <= 1e-13 * np.maximum(1.0, hi)):
            break
    out = 0.5 * (lo + hi)
    return out.reshape(shape)[()] if shape else float(out[0])
