"""The studentized range distribution, for many values at once.

With infinitely many degrees of freedom (the distribution behind the Nemenyi
test) it is the range of ``k`` independent standard normal variables, whose
survival function is

.. math:: P(Q > q) = k \\int \\varphi(z) \\Phi(z)^{k-1}
          [1 - (1 - \\Phi(z - q) / \\Phi(z))^{k-1}] dz,

integrated with a 160-point Gauss-Legendre rule over the part of ``z`` that
holds the integrand; with ``df`` degrees of freedom (Tukey's HSD) it is that
function at ``q s``, averaged over the distribution of
``s = sqrt(chi2_df / df)``.

``scipy.stats.studentized_range`` computes the same functions by adaptive
quadrature, one value at a time, and returns ``sf = 1 - cdf``.  Here all
values are one matrix product: ``benchmarks/bench_distributions.py`` measures
what that buys (half the CPU time of ``cdplot stats --example demsar2006``,
most of it scipy.stats' import; 92 % at 1,000 methods; Tukey's p-values of 30
methods 30 times faster), and small p-values keep their relative precision
where scipy's ``1 - cdf`` loses every digit below about 1e-12.
``tests/stats/test_studentized_range.py`` checks both against scipy, closed
forms (k = 2) and mpmath.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.polynomial.legendre import leggauss
from scipy import special

# The standard normal density is below 1e-17 outside this interval (see _window).
_Z_LIMIT = 9.0
_N_NODES = 160
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
# the quadrature holds a (values, nodes) matrix: this many values at a time bounds its memory
_CHUNK = 20_000


@functools.lru_cache(maxsize=1)
def _nodes():
    return leggauss(_N_NODES)


def _check_k(k):
    k = np.asarray(k)
    if np.any(k < 2) or np.any(k != np.floor(k)):
        raise ValueError(f"the studentized range needs an integer k >= 2, got {k!r}")
    return k.astype(float)


def studentized_range_sf(q, k, df=math.inf):
    """Survival function ``P(Q > q)`` of the studentized range.

    With infinite ``df`` it equals
    ``k * int phi(z) Phi(z)^(k-1) (1 - (1 - Phi(z-q)/Phi(z))^(k-1)) dz``,
    because ``k * int phi(z) Phi(z)^(k-1) dz = 1``; written so, small
    probabilities are computed with full relative precision.

    Parameters
    ----------
    q : array_like
        Values of the range; negative values give 1.
    k : int or array_like
        Number of groups, at least 2 (one number when ``df`` is finite).
    df : float, optional
        Degrees of freedom of the standard error (``math.inf``: known variance).

    Returns
    -------
    ndarray
        ``P(Q > q)``, broadcast over ``q`` and ``k``.
    """
    if not math.isinf(df):
        return _sf_finite_df(q, k, df)
    k = _check_k(k)
    q, k = np.broadcast_arrays(np.asarray(q, dtype=float), k)
    shape = q.shape
    qf = q.reshape(-1, 1)
    kf = k.reshape(-1, 1)
    x, w = _nodes()
    qpos = np.clip(np.nan_to_num(qf, nan=0.0, posinf=0.0), 0.0, None)
    lo, hi = _window(qpos, kf)
    z = lo + (hi - lo) * (0.5 * (x + 1.0))
    log_cdf = special.log_ndtr(z)
    # log of Phi(z - q) / Phi(z), which is <= 0 for q >= 0; rounding in either
    # logarithm must not make the ratio exceed 1
    log_ratio = np.minimum(special.log_ndtr(z - qpos) - log_cdf, 0.0)
    with np.errstate(divide="ignore"):  # q = 0 makes the ratio 1 and log1p(-1) = -inf
        inner = -np.expm1((kf - 1.0) * np.log1p(-np.exp(log_ratio)))
    log_front = np.log(kf) - 0.5 * z * z - _LOG_SQRT_2PI + (kf - 1.0) * log_cdf
    out = (np.exp(log_front) * inner) @ w * (0.5 * (hi - lo))[:, 0]
    out = np.where(np.isnan(qf[:, 0]), np.nan, np.where(qf[:, 0] == np.inf, 0.0, out))
    out = np.where(qf[:, 0] <= 0.0, 1.0, np.clip(out, 0.0, 1.0))
    return out.reshape(shape)[()] if shape else float(out[0])


def _window(q, k):
    """Ends ``lo, hi`` of the interval of ``z`` that holds the integrand, per value.

    Below ``z_k``, ``Phi(z)^(k-1) < e^-700``: nothing of the integral is left
    (many methods push the maximum of the normals up, to ~3.5 at k = 2,000,
    and the nodes are spent where it is).  A large ``q`` moves the integrand to
    a bump around ``z = q / 2`` (where ``phi(z) Phi(z - q)`` peaks), 1e-48 of
    its height 7 and 11 from there, so that the far tail keeps its relative
    precision; otherwise the standard normal density is below 1e-17 outside
    ``[-9, 9]``.
    """
    z_k = special.ndtri(np.exp(-700.0 / (k - 1.0)))
    lo = np.maximum(np.maximum(z_k, -_Z_LIMIT), 0.5 * q - 11.0)
    hi = np.maximum(_Z_LIMIT, 0.5 * q + 7.0)
    return lo, hi


#: Above this many distinct values, :func:`studentized_range_sf_many` interpolates.
_GRID_MIN = 20_000
#: Step of its grid: the 4-point interpolation of ``log sf`` is then within
#: about 1e-11 relative of the quadrature for k up to 2,000 (tested).
_GRID_STEP = 0.0025
#: Below this the grid's logarithm loses precision; such values are computed directly.
_GRID_TINY = 1e-250


def _sf_chunked(q: np.ndarray, k: int) -> np.ndarray:
    out = np.empty(q.size)
    for start in range(0, q.size, _CHUNK):
        out[start : start + _CHUNK] = studentized_range_sf(q[start : start + _CHUNK], k)
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


#: The integral over ``log s`` stops where the integrand is this many e-folds below its peak.
_TAIL = 42.0
#: Gauss-Legendre nodes per panel of the integral over ``log s``.
_PANEL_NODES = 10
#: Beyond this q, ``sf`` at infinite df (about ``k^2 erfc(q / 2)``) is below 1e-300.
_Q_MAX = 60.0


@functools.lru_cache(maxsize=64)
def _log_s_ends(df: float) -> tuple[float, float]:
    """Ends ``d`` of ``df (d - expm1(2 d) / 2) = -_TAIL``, below and above 0.

    ``df (u - expm1(2 u) / 2)`` is the log density of ``u = log s`` relative
    to its peak at 0, for ``s = sqrt(chi2_df / df)``; found by bisection.
    """

    def below(d):
        return df * (d - math.expm1(2.0 * d) / 2.0) < -_TAIL

    ends = []
    for step in (-1.0, 1.0):
        lo, hi = 0.0, step
        while not below(hi):
            lo, hi = hi, 2.0 * hi
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if below(mid) else (mid, hi)
        ends.append(hi)
    return ends[0], ends[1]


def _sf_finite_df(q, k, df) -> np.ndarray:
    """``P(Q > q)`` with ``df`` degrees of freedom: the infinite-df function at ``q s``
    averaged over ``s = sqrt(chi2_df / df)``, as one matrix over all ``q``.

    In ``u = log s`` the weight is ``exp(c + df (u - expm1(2 u) / 2))``, a peak
    of width ``1 / sqrt(2 df)`` at 0 with an ``exp(df u)`` tail on the left.
    For large ``q`` the integrand peaks further left, near
    ``u* = log(df / (df + q^2 / 2)) / 2`` (from ``log sf ~ -q^2 s^2 / 4``), so
    each ``q`` gets the interval from ``u* + d_lo`` to ``d_hi`` (the ends of
    :func:`_log_s_ends`), cut into panels no wider than the peak, each with a
    10-point Gauss-Legendre rule; small p-values so keep their relative
    precision.
    """
    if np.ndim(k) or np.ndim(df):
        raise ValueError("a finite df needs one k and one df")
    k = int(_check_k(k))
    df = float(df)
    if not df > 0.0:
        raise ValueError(f"the studentized range needs df > 0, got {df!r}")
    q = np.asarray(q, dtype=float)
    flat = q.ravel()
    d_lo, d_hi = _log_s_ends(df)
    log_c = math.log(2.0) + 0.5 * df * (math.log(0.5 * df) - 1.0) - math.lgamma(0.5 * df)
    qpos = np.clip(np.nan_to_num(flat, nan=0.0, posinf=0.0), 0.0, None)
    u_star = 0.5 * np.log(df / (df + 0.5 * qpos * qpos))
    lo = u_star + d_lo
    width = d_hi - lo
    panels = math.ceil(float(width.max()) / min(0.5, 1.0 / math.sqrt(2.0 * df)))
    x, w = leggauss(_PANEL_NODES)
    # the nodes of one panel of [0, 1], then `panels` panels of [0, 1], scaled per q
    unit = (np.arange(panels)[:, None] + 0.5 * (x + 1.0)[None, :]).ravel() / panels
    unit_w = np.tile(0.5 * w, panels) / panels
    out = np.empty(flat.size)
    rows = max(1, 2_000_000 // unit.size)
    for start in range(0, flat.size, rows):
        sl = slice(start, start + rows)
        u = lo[sl, None] + width[sl, None] * unit[None, :]
        t = np.minimum(qpos[sl, None] * np.exp(u), _Q_MAX)
        with np.errstate(divide="ignore"):
            # weight and sf each underflow in the far tail where their product does not
            log_term = df * (u - np.expm1(2.0 * u) / 2.0) + np.log(studentized_range_sf_many(t, k))
        top = np.max(log_term, axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        terms = width[sl, None] * unit_w * np.exp(log_term - top)
        out[sl] = np.exp(log_c + top[:, 0]) * np.sum(terms, axis=1)
    out = np.where(flat <= 0.0, 1.0, np.minimum(out, 1.0))
    out = np.where(np.isnan(flat), np.nan, np.where(flat == np.inf, 0.0, out))
    return out.reshape(q.shape)[()] if q.shape else float(out[0])


def studentized_range_isf(p, k, df=math.inf):
    """Inverse survival function (upper quantile) of the studentized range.

    Parameters
    ----------
    p : array_like
        Upper-tail probabilities in (0, 1), for example ``alpha``.
    k : int or array_like
        Number of groups, at least 2 (one number when ``df`` is finite).
    df : float, optional
        Degrees of freedom of the standard error (``math.inf``: known variance).

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
    if not math.isinf(df):
        if np.unique(kf).size > 1:
            raise ValueError("a finite df needs one k")
        kf = kf[0] if kf.size else 2.0

    def sf(q):
        return studentized_range_sf(q, kf, df)

    lo = np.zeros_like(pf)
    hi = np.full_like(pf, 4.0)
    # widen the bracket until it holds the quantile
    for _ in range(60):
        too_small = sf(hi) > pf
        if not np.any(too_small):
            break
        hi = np.where(too_small, hi * 2.0, hi)
    # g(q) = sqrt(-log p) - sqrt(-log sf(q)) is smooth, decreasing and close to linear
    # (with infinite df the tail is nearly Gaussian, -log sf ~ q^2 / 4; a finite df's
    # heavier tail makes it less so, which costs iterations, not the bracket): regula
    # falsi with the Illinois modification keeps the bracket and converges
    # superlinearly, in about ten quadratures where bisection takes about 45
    root_p = np.sqrt(-np.log(pf))

    def g(q):
        return root_p - np.sqrt(-np.log(np.maximum(sf(q), 1e-300)))

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
