"""Distribution functions built on the standard library, numpy and (lazily) scipy.special.

``import scipy.stats`` costs more than a second on a small machine, and even
``import scipy.special`` about 0.3 s, which is most of what a whole
``cdplot stats`` run may take.  The distributions of the default analysis
(normal, chi-square, F and the studentized range) are therefore computed
from the C library's ``erfc``, ``lgamma`` and :class:`statistics.NormalDist`
for the small arrays a typical table gives; large arrays, and the t and
binomial distributions of the other tests, use :mod:`scipy.special`.  Each
path is tested against :mod:`scipy.stats` (``tests/stats/test_distributions.py``).

The studentized range distribution with infinitely many degrees of freedom
(the distribution behind the Nemenyi test) is the range of ``k`` independent
standard normal variables, whose distribution function is

.. math:: F(q; k) = k \\int \\varphi(z) [\\Phi(z) - \\Phi(z - q)]^{k-1} dz.

It is integrated with Gauss-Legendre quadrature; the survival function is
written so that small p-values keep their relative precision.
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

import numpy as np

__all__ = [
    "norm_cdf",
    "norm_sf",
    "norm_ppf",
    "norm_isf",
    "log_ndtr",
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
_SQRT_HALF = math.sqrt(0.5)
# Up to this many values, the normal distribution is computed with the C
# library's erfc (exact to the last bit or two) one value at a time; larger
# arrays go to scipy.special, whose import (~0.3 s) then pays for itself.
_SMALL = 20_000
# The normal distribution costs ~0.2 us a value through the C library's erfc, so
# up to a million values (the Nemenyi p-values of 100 methods evaluate 792,000)
# that is faster than importing scipy.special.  Fixed sizes, never "whether
# scipy is loaded", so that the same input always gives the same bits.
_SMALL_NORMAL = 1_000_000
_erfc = np.frompyfunc(math.erfc, 1, 1)
_STANDARD_NORMAL = NormalDist()


def _special():
    from scipy import special

    return special


def _erfc_array(x: np.ndarray) -> np.ndarray:
    return _erfc(x).astype(float) if x.size else x.astype(float)


def norm_cdf(x):
    """Standard normal distribution function."""
    x = np.asarray(x, dtype=float)
    if x.size > _SMALL_NORMAL:
        return _special().ndtr(x)
    return 0.5 * _erfc_array(-x * _SQRT_HALF)


def norm_sf(x):
    """Standard normal survival function, ``1 - Phi(x)`` without cancellation."""
    return norm_cdf(-np.asarray(x, dtype=float))


def log_ndtr(x):
    """Logarithm of the standard normal distribution function, accurate in both tails."""
    x = np.asarray(x, dtype=float)
    if x.size > _SMALL_NORMAL:
        return _special().log_ndtr(x)
    out = np.empty_like(x)
    far = x < -37.0  # erfc underflows below here: use the asymptotic series
    right = x > 0.0
    mid = ~far & ~right
    out[mid] = np.log(0.5 * _erfc_array(-x[mid] * _SQRT_HALF))
    # log(1 - sf) keeps full precision where Phi(x) is close to 1
    out[right] = np.log1p(-0.5 * _erfc_array(x[right] * _SQRT_HALF))
    xf = x[far]
    inv2 = 1.0 / (xf * xf)
    series = 1.0 - inv2 + 3.0 * inv2**2 - 15.0 * inv2**3
    out[far] = -0.5 * xf * xf - _LOG_SQRT_2PI - np.log(-xf) + np.log(series)
    return out[()] if out.ndim == 0 else out


def norm_ppf(p):
    """Standard normal quantile function (Wichura's AS 241, via :class:`statistics.NormalDist`)."""
    p = np.asarray(p, dtype=float)
    out = np.array([_STANDARD_NORMAL.inv_cdf(v) if 0.0 < v < 1.0 else math.nan for v in p.ravel()])
    out = np.where(p.ravel() == 0.0, -np.inf, np.where(p.ravel() == 1.0, np.inf, out)).reshape(
        p.shape
    )
    return out[()] if out.ndim == 0 else out


def norm_isf(p):
    """Standard normal inverse survival function."""
    return -norm_ppf(p)


def _chi2_sf_integer(x: float, df: int) -> float:
    """Upper tail of chi-square with an integer df, by the finite series of
    Abramowitz and Stegun 26.4.4 (odd df) and 26.4.5 (even df)."""
    if x <= 0.0:
        return 1.0
    half = 0.5 * x
    log_half, log_x = math.log(half), math.log(x)
    # every term is formed in logs: for large df the factors alone overflow
    if df % 2 == 0:
        total = sum(math.exp(i * log_half - half - math.lgamma(i + 1.0)) for i in range(df // 2))
        return min(1.0, total)
    tail = math.erfc(math.sqrt(x) * _SQRT_HALF)  # 2 * (1 - Phi(sqrt x))
    # 2 phi(sqrt x) x^((2r-1)/2) / (1 * 3 * ... * (2r - 1)), with (2r-1)!! = (2r)! / (2^r r!)
    log_front = math.log(2.0) - half - float(_LOG_SQRT_2PI)
    total = sum(
        math.exp(
            log_front
            + (r - 0.5) * log_x
            - (math.lgamma(2.0 * r + 1.0) - r * math.log(2.0) - math.lgamma(r + 1.0))
        )
        for r in range(1, (df - 1) // 2 + 1)
    )
    return min(1.0, tail + total)


def chi2_sf(x, df):
    """Survival function of the chi-square distribution with ``df`` degrees of freedom."""
    x = np.asarray(x, dtype=float)
    df = np.asarray(df, dtype=float)
    if np.all(df == np.round(df)) and np.all(df >= 1) and x.size <= _SMALL:
        xb, dfb = np.broadcast_arrays(x, df)
        out = np.array(
            [
                _chi2_sf_integer(float(a), int(b))
                for a, b in zip(xb.ravel(), dfb.ravel(), strict=False)
            ]
        )
        out = np.where(np.isnan(xb.ravel()), np.nan, out).reshape(xb.shape)
        return out[()] if out.ndim == 0 else out
    return _special().chdtrc(df, x)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-16:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta ``I_x(a, b)``, from the side where the fraction converges."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def f_sf(x, dfn, dfd):
    """Survival function of the F distribution with ``(dfn, dfd)`` degrees of freedom."""
    x, dfn, dfd = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, dfn, dfd)))
    if x.size > _SMALL:
        return _special().fdtrc(dfn, dfd, x)
    out = []
    for xi, d1, d2 in zip(x.ravel(), dfn.ravel(), dfd.ravel(), strict=False):
        if math.isnan(xi) or d1 <= 0 or d2 <= 0:
            out.append(math.nan)
        elif math.isinf(xi):
            out.append(0.0 if xi > 0 else 1.0)
        else:
            # P(F > x) = I_{d2 / (d2 + d1 x)}(d2 / 2, d1 / 2)
            out.append(_betainc(0.5 * d2, 0.5 * d1, d2 / (d2 + d1 * max(xi, 0.0))))
    out = np.array(out).reshape(x.shape)
    return out[()] if out.ndim == 0 else out


def t_sf(x, df):
    """Survival function of Student's t distribution."""
    return _special().stdtr(df, -np.asarray(x, dtype=float))


#: Most degrees of freedom for which :func:`t_isf` stays in Python (relative error under
#: 1e-12 against scipy up to here, tested; 1e-11 at 10,000).
_T_PYTHON_MAX_DF = 1_000


def _t_tails(t: float, df: float) -> tuple[float, float]:
    """``I_x(df / 2, 1 / 2)`` and ``I_{1 - x}(1 / 2, df / 2)`` at ``x = df / (df + t^2)``.

    Half the first is ``P(T > t)``, half the second ``P(0 < T < t)``; each is
    computed where its continued fraction is precise (far tail or near 0).
    """
    root = math.sqrt(df)
    if t > root:  # t * t would overflow in the far tail
        r = root / t
        x, y = r * r / (1.0 + r * r), 1.0 / (1.0 + r * r)
    else:
        u = t / root
        x, y = 1.0 / (1.0 + u * u), u * u / (1.0 + u * u)
    return x, y


def _t_isf_scalar(p: float, df: float) -> float:
    """The ``t`` with ``P(T > t) = p``, by bisection on ``t`` (the tail is monotone).

    Below ``p = 1/4`` the tail ``P(T > t)`` is compared with ``p``; above, the
    central part ``P(0 < T < t)`` with ``1/2 - p``, which is exact there, so
    that ``t`` near 0 keeps its relative precision.
    """
    if math.isnan(p) or math.isnan(df) or df <= 0 or not 0.0 <= p <= 1.0:
        return math.nan
    if p == 0.0:
        return math.inf
    if p == 1.0:
        return -math.inf
    if p > 0.5:
        return -_t_isf_scalar(1.0 - p, df)  # exact: 1 - p has no rounding for p in [0.5, 1]
    if p == 0.5:
        return 0.0
    a, central = 0.5 * df, p >= 0.25
    q = 0.5 - p  # exact for p in [1/4, 1/2]

    def above(t: float) -> bool:  # is the quantile above t?
        x, y = _t_tails(t, df)
        if central:
            return 0.5 * _betainc(0.5, a, y) < q
        return 0.5 * _betainc(a, 0.5, x) > p

    lo, hi = 0.0, 1.0
    while above(hi):
        lo, hi = hi, hi * 2.0
        if math.isinf(hi):
            return math.inf
    while hi - lo > 4e-16 * hi:
        mid = 0.5 * (lo + hi)
        if above(mid):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def t_isf(p, df):
    """Inverse survival function of Student's t distribution.

    Up to :data:`_SMALL` values with at most :data:`_T_PYTHON_MAX_DF` degrees
    of freedom are found in Python from the incomplete beta function, so that
    a report's confidence intervals do not import ``scipy.special`` (a quarter
    of a second); beyond, ``lgamma``'s cancellation would cost digits, and
    scipy answers.
    """
    p, df = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(df, dtype=float))
    if p.size > _SMALL or np.any(df > _T_PYTHON_MAX_DF):
        return -_special().stdtrit(df, p)
    out = np.array(
        [_t_isf_scalar(float(a), float(b)) for a, b in zip(p.ravel(), df.ravel(), strict=True)]
    ).reshape(p.shape)
    return out[()] if out.ndim == 0 else out


def binom_cdf(k, n, p):
    """``P(X <= k)`` for ``X ~ Binomial(n, p)``; 0 for ``k < 0``."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=np.int64)  # scipy.special wants integer trial counts
    kk = np.floor(k)
    out = _special().bdtr(np.clip(kk, 0, n), n, p)
    return np.where(kk < 0, 0.0, np.where(kk >= n, 1.0, out))


def binom_sf(k, n, p):
    """``P(X > k)`` for ``X ~ Binomial(n, p)``; 1 for ``k < 0``."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=np.int64)
    kk = np.floor(k)
    out = _special().bdtrc(np.clip(kk, 0, n), n, p)
    return np.where(kk < 0, 1.0, np.where(kk >= n, 0.0, out))


def _gauss_legendre(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes (ascending) and weights on [-1, 1], ``n`` even.

    Newton's method on ``P_n`` from Tricomi's estimates of its roots, with
    ``P_n`` and ``P_n'`` from the three-term recurrence, as in Numerical
    Recipes' ``gauleg``: the same values as ``numpy.polynomial.legendre.
    leggauss`` to within 1e-15 (tested), without importing
    ``numpy.polynomial`` or running its dense eigensolver, whose BLAS threads
    made this 8-38 ms of CPU time, the largest part of a ``cdplot plot`` run's
    analysis.
    """
    i = np.arange(1, n // 2 + 1)
    x = np.cos(np.pi * (i - 0.25) / (n + 0.5))  # the positive roots, descending

    def legendre(x):
        p0, p1 = np.ones_like(x), x
        for j in range(2, n + 1):
            p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
        return p1, n * (x * p1 - p0) / (x * x - 1.0)

    for _ in range(20):
        p, dp = legendre(x)
        step = p / dp
        x = x - step
        if np.max(np.abs(step)) < 1e-15:
            break
    _p, dp = legendre(x)
    w = 2.0 / ((1.0 - x * x) * dp * dp)
    return np.concatenate([-x, x[::-1]]), np.concatenate([w, w[::-1]])


@functools.lru_cache(maxsize=1)
def _nodes():
    x, w = _gauss_legendre(_N_NODES)
    z = _Z_LIMIT * x
    w = _Z_LIMIT * w
    log_phi = -0.5 * z * z - _LOG_SQRT_2PI
    return z, w, log_phi, log_ndtr(z)


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
    # Phi(z - q) <= Phi(z); rounding in either logarithm must not make the ratio exceed 1
    log_ratio = np.minimum(log_ndtr(z - np.clip(qf, 0.0, None)) - log_cdf, 0.0)
    with np.errstate(divide="ignore"):  # q = 0 makes the ratio 1 and log1p(-1) = -inf
        inner = -np.expm1((kf - 1.0) * np.log1p(-np.exp(log_ratio)))
    integrand = np.exp(np.log(kf) + log_phi + (kf - 1.0) * log_cdf) * inner
    out = integrand @ w
    out = np.where(qf[:, 0] <= 0.0, 1.0, np.clip(out, 0.0, 1.0))
    return out.reshape(shape)[()] if shape else float(out[0])


#: Above this many distinct values, :func:`studentized_range_sf_many` interpolates.
_GRID_MIN = 20_000
#: Step of its grid: the 4-point interpolation of ``log sf`` is then within
#: about 1e-11 relative of the quadrature for k up to 2,000 (tested).
_GRID_STEP = 0.0025
#: Below this the grid's logarithm loses precision; such values are computed directly.
_GRID_TINY = 1e-250


def _sf_chunked(q: np.ndarray, k: int) -> np.ndarray:
    # the quadrature holds a (len(q), nodes) matrix: bound its memory
    out = np.empty(q.size)
    for start in range(0, q.size, _SMALL):
        out[start : start + _SMALL] = studentized_range_sf(q[start : start + _SMALL], k)
    return out


def studentized_range_sf_many(q, k: int) -> np.ndarray:
    """:func:`studentized_range_sf` for many values and one ``k``, in O(distinct values).

    The Nemenyi p-values of ``k`` methods are ``k (k - 1) / 2`` values of
    the same function (4 million for 2,000 methods).  Each distinct value
    is computed once; beyond ``_GRID_MIN`` distinct values, ``log P(Q > q)``
    is computed on a grid of step ``_GRID_STEP`` and interpolated with
    4-point Lagrange polynomials (the function is smooth in ``q > 0``),
    except close to 0 and in the far tail (below ``_GRID_TINY``), which are
    computed directly.

    Parameters
    ----------
    q : array_like
        Values of the range.
    k : int
        Number of groups, at least 2.

    Returns
    -------
    ndarray
        ``P(Q > q)``, the shape of ``q``.
    """
    q = np.asarray(q, dtype=float)
    uq, inv = np.unique(q.ravel(), return_inverse=True)
    if uq.size <= _GRID_MIN:
        vals = _sf_chunked(uq, k)
    else:
        h = _GRID_STEP
        top = int(np.ceil(max(uq[-1], 0.0) / h)) + 3
        grid_sf = _sf_chunked(np.arange(top + 1) * h, k)
        with np.errstate(divide="ignore"):
            log_f = np.log(grid_sf)
        vals = np.empty(uq.size)
        pos = np.where(np.isfinite(uq), uq, 0.0) / h
        i = np.clip(np.floor(pos).astype(np.int64), 1, top - 2)
        t = pos - i
        ok = (uq >= 2 * h) & np.isfinite(uq)
        ok[ok] = grid_sf[i[ok] + 2] > _GRID_TINY
        i, t = i[ok], t[ok]
        vals[ok] = np.exp(
            log_f[i - 1] * (-t * (t - 1) * (t - 2) / 6)
            + log_f[i] * ((t + 1) * (t - 1) * (t - 2) / 2)
            + log_f[i + 1] * (-(t + 1) * t * (t - 2) / 2)
            + log_f[i + 2] * ((t + 1) * t * (t - 1) / 6)
        )
        vals[~ok] = _sf_chunked(uq[~ok], k)
        vals = np.minimum(vals, 1.0)
    return vals[inv].reshape(q.shape)


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
    # g(q) = sqrt(-log p) - sqrt(-log sf(q)) is smooth, decreasing and close to linear
    # (the tail is nearly Gaussian, -log sf ~ q^2 / 4): regula falsi with the Illinois
    # modification keeps the bracket and converges superlinearly, in about ten
    # quadratures where bisection to the same width takes about 45
    root_p = np.sqrt(-np.log(pf))

    def g(q):
        return root_p - np.sqrt(-np.log(np.maximum(studentized_range_sf(q, kf), 1e-300)))

    g_lo = root_p  # sf(0) = 1
    g_hi = g(hi)
    # the ends' own values (g_lo, g_hi are halved by the Illinois rule)
    true_lo, true_hi = g_lo, g_hi
    last = np.zeros(pf.shape, dtype=np.int8)  # which end moved last: -1 lo, 1 hi
    for _ in range(200):
        done = hi - lo <= 1e-13 * np.maximum(1.0, hi)
        if np.all(done):
            break
        q = hi - g_hi * (hi - lo) / (g_hi - g_lo)
        # rounding can put the secant's root on an end: bisect instead
        q = np.where((q > lo) & (q < hi), q, 0.5 * (lo + hi))
        g_q = g(q)
        above = g_q > 0  # the root lies above q
        move_lo = above & ~done
        move_hi = ~above & ~done
        # Illinois: an end kept twice in a row has its value halved, so that the next
        # secant point falls on its side and the bracket shrinks from both ends
        g_hi = np.where(move_lo & (last == -1), 0.5 * g_hi, g_hi)
        g_lo = np.where(move_hi & (last == 1), 0.5 * g_lo, g_lo)
        lo = np.where(move_lo, q, lo)
        g_lo = np.where(move_lo, g_q, g_lo)
        true_lo = np.where(move_lo, g_q, true_lo)
        hi = np.where(move_hi, q, hi)
        g_hi = np.where(move_hi, g_q, g_hi)
        true_hi = np.where(move_hi, g_q, true_hi)
        last = np.where(move_lo, -1, np.where(move_hi, 1, last)).astype(np.int8)
    # across a bracket this narrow g is linear to far below rounding: one secant step
    # with the ends' own values lands on the root itself, not just within the bracket
    with np.errstate(invalid="ignore", divide="ignore"):
        out = lo - true_lo * (hi - lo) / (true_hi - true_lo)
    out = np.where((out >= lo) & (out <= hi), out, 0.5 * (lo + hi))
    return out.reshape(shape)[()] if shape else float(out[0])
