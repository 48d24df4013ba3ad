"""The planning figure: simulated power against the number of data sets.

Draws a :class:`~cdplot.stats.PowerCurveResult` (never recomputes it): the
power of the Iman-Davenport test and of Nemenyi's test for the pairs of
interest at each ``N``, with 95% Monte-Carlo error bars, and a dashed line
at the target power.  Like the other figures, it changes rcParams only
inside :func:`matplotlib.rc_context` and uses the bundled type and the
Okabe-Ito palette.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import matplotlib as mpl
import numpy as np

from .._docstrings import share
from ..errors import CdplotError, opt
from ._bayesian import _check_kws, _new_axes, _rc
from ._fonts import check_font, register_fonts
from ._styles import PALETTE, get_style

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._options import Style
    from ..stats import PowerCurveResult
    from ._types import Axes, FontLike, Kws

__all__ = ["power_curve"]

# z of the 95% Monte-Carlo band drawn as error bars
_Z95 = 1.959963984540054
# Okabe-Ito colours after the two accents, for the pairs
_PAIR_COLOURS = ("#0072B2", "#B34F00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00")
_MARKERS = ("o", "s", "^", "D", "v", "P")


def _check(result, pairs, target):
    from ..stats._power_curve import PowerCurveResult

    if not isinstance(result, PowerCurveResult):
        raise CdplotError(
            f"power_curve draws the PowerCurveResult of cdplot.simulate_power_curve, got "
            f"{type(result).__name__}",
            option="result",
        )
    if pairs is None:
        pairs = result.strongest_pairs(min(4, result.n_methods * (result.n_methods - 1) // 2))
    pairs = [tuple(p) for p in pairs]
    if len(pairs) > len(_PAIR_COLOURS) or any(len(p) != 2 for p in pairs):
        raise CdplotError(
            f"option {opt('pairs', pairs)} must hold at most {len(_PAIR_COLOURS)} pairs of "
            "method names",
            option="pairs",
        )
    for a, b in pairs:
        result.power(a, b)  # an unknown name: the one-line error naming the methods
    if target is not None and not (isinstance(target, int | float) and 0.0 < target < 1.0):
        raise CdplotError(
            f"option {opt('target', target)} must be a power in (0, 1) or None", option="target"
        )
    return pairs


@share
def power_curve(
    result: PowerCurveResult,
    *,
    pairs: Sequence[tuple[str, str]] | None = None,
    ax: Axes | None = None,
    style: Style = "paper",
    font: FontLike = None,
    label_kws: Kws = None,
    line_kws: Kws = None,
    target: float | None = 0.8,
) -> Axes:
    """Draw simulated power against the number of data sets, with Monte-Carlo error bars.

    Parameters
    ----------
    result : PowerCurveResult
        From :func:`cdplot.simulate_power_curve`.
    pairs : sequence of (str, str), optional
        The pairs of methods whose Nemenyi power to draw (at most six);
        by default the four with the highest power over the curve.
    %(ax_plain)s
    %(style_plain)s
    %(font_bundled)s
    label_kws : dict, optional
        Extra :class:`matplotlib.text.Text` properties for the axis labels.
    line_kws : dict, optional
        Extra :meth:`matplotlib.axes.Axes.errorbar` properties for every line.
    target : float or None, default 0.8
        Power to mark with a dashed line (None: no line).

    Returns
    -------
    matplotlib.axes.Axes
        Lines carry ids: ``pc-omnibus`` (Iman-Davenport), ``pc-pair-0``,
        ``pc-pair-1``, ... (the pairs in order), ``pc-target``.

    Raises
    ------
    CdplotError
        If ``result`` is not a :class:`~cdplot.stats.PowerCurveResult`, a
        pair names an unknown method, or an option is invalid.

    Notes
    -----
    Error bars are ``1.96`` Monte-Carlo standard errors,
    ``sqrt(p (1 - p) / n_simulations)``: the uncertainty of the simulation,
    not of the model.  The values at different ``N`` share their simulated
    data sets, so the curve's shape is estimated better than its bars say.

    Examples
    --------
    >>> import cdplot
    >>> curve = cdplot.simulate_power_curve(shift=[0, 0, 1], n_datasets=[5, 10, 20],
    ...                                     n_simulations=300)
    >>> ax = cdplot.power_curve(curve)
    >>> ax.get_xlabel()
    'number of data sets N'
    """
    pairs = _check(result, pairs, target)
    st = get_style(style)
    font = check_font(font)
    label_kws = _check_kws("label_kws", label_kws)
    line_kws = _check_kws("line_kws", line_kws)
    ns = np.asarray(result.n_datasets, dtype=float)
    register_fonts()
    with mpl.rc_context(_rc(font, st)):
        ax = _new_axes(ax, st.width, st.width * 0.7 if st.height is None else st.height)
        base = {"linewidth": st.axis_width, "capsize": 2.0, "elinewidth": st.line_width}
        series = [
            (
                "Iman-Davenport (omnibus)",
                result.iman_davenport_power,
                result.iman_davenport_se,
                PALETTE["ink"],
                "o",
                "pc-omnibus",
            )
        ]
        for t, (a, b) in enumerate(pairs):
            series.append(
                (
                    f"Nemenyi: {a} vs {b}",
                    result.power(a, b),
                    result.se(a, b),
                    _PAIR_COLOURS[t],
                    _MARKERS[t],
                    f"pc-pair-{t}",
                )
            )
        for label, p, se, colour, marker, gid in series:
            kws = {**base, "color": colour, "marker": marker, "markersize": 3.0, **line_kws}
            bars = ax.errorbar(ns, p, yerr=_Z95 * se, label=label, **kws)
            bars.lines[0].set_gid(gid)
        if target is not None:
            line = ax.axhline(
                target, color=PALETTE["muted"], linestyle="--", linewidth=st.line_width
            )
            line.set_gid("pc-target")
        ax.set_ylim(0.0, 1.04)
        pad = 0.04 * (ns[-1] - ns[0]) if ns.size > 1 else 1.0
        ax.set_xlim(ns[0] - pad, ns[-1] + pad)
        ax.set_xlabel("number of data sets N", **label_kws)
        ax.set_ylabel(f"power at alpha = {result.alpha:g}", **label_kws)
        for side in ("right", "top"):
            ax.spines[side].set_visible(False)
        leg = ax.legend(
            loc="lower left",
            bbox_to_anchor=(0.0, 1.0),
            frameon=False,
            handlelength=1.6,
            borderaxespad=0.2,
            ncols=1,
            title=(
                f"{result.n_simulations} simulations per N; bars: 95% Monte-Carlo error"
                + (f"; dashed: power {target:g}" if target is not None else "")
            ),
            title_fontsize=st.small_size,
            alignment="left",
        )
        for t in leg.get_texts():
            t.set(**label_kws)
    return ax
