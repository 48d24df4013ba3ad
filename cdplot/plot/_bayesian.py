"""Figures of the Bayesian tests: the posterior density with the rope, and the simplex of samples.

Both draw a result of :mod:`cdplot.stats._bayesian` and never recompute it:
:func:`posterior_density` evaluates the Student t posterior that
:class:`~cdplot.stats.BayesianTTestResult` describes, and
:func:`posterior_simplex` places the samples that
:class:`~cdplot.stats.BayesianSignedRankResult` holds.  They follow
the figures package: ``ax=None`` makes a figure of the style's width,
rcParams change only inside :func:`matplotlib.rc_context`, type is the
bundled font, colours are the Okabe-Ito palette of :mod:`cdplot.plot._styles`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import matplotlib as mpl
import numpy as np

from .._docstrings import share
from ..errors import CdplotError, opt
from ._fontembed import keep_fonts_on_savefig
from ._fonts import check_font, font_rc, register_fonts
from ._notebook import new_figure
from ._styles import PALETTE, get_style

if TYPE_CHECKING:
    from .._options import Style
    from ..stats import BayesianSignedRankResult, BayesianTTestResult
    from ._types import Axes, FontLike, Kws

__all__ = ["posterior_density", "posterior_simplex"]


def _check_kws(name, kws):
    if kws is not None and not isinstance(kws, dict):
        raise CdplotError(f"option {opt(name, kws)} must be a dict or None", option=name)
    return dict(kws or {})


def _new_axes(ax, width, height):
    from matplotlib.axes import Axes

    if ax is not None:
        if not isinstance(ax, Axes):
            raise CdplotError(f"option {opt('ax', ax)} is not a matplotlib Axes", option="ax")
        keep_fonts_on_savefig(ax.figure)
        return ax
    # pyplot only when the user has it already or runs a notebook (Jupyter shows the
    # figure); otherwise a bare Agg figure, so the command line never starts a GUI
    return new_figure((width, height), layout="constrained").add_subplot()


def _rc(font, st):
    rc = font_rc(font)
    rc.update(
        {
            "font.size": st.small_size,
            "axes.labelsize": st.small_size,
            "xtick.labelsize": st.small_size,
            "ytick.labelsize": st.small_size,
            "legend.fontsize": st.small_size,
            "axes.linewidth": st.line_width,
            "xtick.major.width": st.line_width,
            "axes.edgecolor": PALETTE["ink"],
            "text.color": PALETTE["ink"],
            "xtick.color": PALETTE["ink"],
        }
    )
    return rc


@share
def posterior_density(
    result: BayesianTTestResult,
    *,
    ax: Axes | None = None,
    style: Style = "paper",
    font: FontLike = None,
    label_kws: Kws = None,
    line_kws: Kws = None,
) -> Axes:
    """Posterior density of the Bayesian correlated t-test, with the rope shaded.

    Parameters
    ----------
    result : BayesianTTestResult
        From :func:`cdplot.stats.bayesian_correlated_ttest`.
    %(ax_plain)s
    %(style_plain)s
    %(font_bundled)s
    label_kws : dict, optional
        Extra :class:`matplotlib.text.Text` properties for the labels
        (colour, alpha).
    line_kws : dict, optional
        Extra :class:`matplotlib.lines.Line2D` properties for the density curve.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    CdplotError
        If ``result`` is not a Bayesian t-test result or an option is invalid.

    Notes
    -----
    The horizontal axis is the mean difference oriented so that positive
    values favour A (``A - B`` when higher is better, ``B - A`` otherwise).
    The areas right of the rope, inside it and left of it are the three
    probabilities printed in the legend.

    Examples
    --------
    >>> from cdplot.stats._bayesian import bayesian_correlated_ttest
    >>> r = bayesian_correlated_ttest([0.81, 0.84, 0.79, 0.86, 0.83],
    ...                               [0.78, 0.80, 0.80, 0.82, 0.79], rope=0.01)
    >>> ax = posterior_density(r)
    >>> ax.get_xlabel()
    'mean difference A − B'
    """
    from ..stats._bayesian import BayesianTTestResult

    if not isinstance(result, BayesianTTestResult):
        raise CdplotError(
            f"posterior_density draws a BayesianTTestResult (bayesian_correlated_ttest), got "
            f"{type(result).__name__}"
        )
    st = get_style(style)
    font = check_font(font)
    label_kws = _check_kws("label_kws", label_kws)
    line_kws = _check_kws("line_kws", line_kws)
    a, b = result.method_a, result.method_b
    register_fonts()
    with mpl.rc_context(_rc(font, st)):
        ax = _new_axes(ax, st.width, st.width * 0.62 if st.height is None else st.height)
        lo, hi = result.interval(0.998)
        lo = min(lo, -1.25 * result.rope)
        hi = max(hi, 1.25 * result.rope)
        x = np.linspace(lo, hi, 601)
        y = result.pdf(x)
        r = result.rope
        right = x >= r
        left = x <= -r
        mid = (x >= -r) & (x <= r)
        ax.fill_between(
            x[right],
            y[right],
            color=PALETTE["accent"],
            alpha=0.35,
            linewidth=0,
            label=f"{a} better: {result.p_a_better:.3f}",
        )
        if r > 0:
            ax.fill_between(
                x[mid],
                y[mid],
                color=PALETTE["muted"],
                alpha=0.45,
                linewidth=0,
                label=f"rope ±{r:g}: {result.p_rope:.3f}",
            )
            for edge in (-r, r):
                ax.axvline(edge, color=PALETTE["muted"], linewidth=st.line_width)
        ax.fill_between(
            x[left],
            y[left],
            color=PALETTE["accent2"],
            alpha=0.35,
            linewidth=0,
            label=f"{b} better: {result.p_b_better:.3f}",
        )
        kws = {"color": PALETTE["ink"], "linewidth": st.axis_width, **line_kws}
        ax.plot(x, y, **kws)
        ax.axvline(0.0, color=PALETTE["line"], linewidth=st.line_width, linestyle=":")
        ax.set_xlim(lo, hi)
        ax.set_ylim(0, float(y.max()) * 1.05)
        ax.set_yticks([])
        for side in ("left", "right", "top"):
            ax.spines[side].set_visible(False)
        first, second = (a, b) if result.higher_is_better else (b, a)
        ax.set_xlabel(f"mean difference {first} − {second}", **label_kws)
        # above the plot, so that the legend never hides the curve wherever its mass lies
        leg = ax.legend(
            loc="lower left",
            bbox_to_anchor=(0.0, 1.0),
            frameon=False,
            handlelength=1.2,
            borderaxespad=0.2,
            ncols=1,
        )
        for t in leg.get_texts():
            t.set(**label_kws)
    return ax


def _project(p_a, p_rope, p_b):
    """Barycentric coordinates -> plane: B better at (0, 0), A better at (1, 0), rope on top."""
    h = math.sqrt(3) / 2
    return p_a + 0.5 * p_rope, h * p_rope


@share
def posterior_simplex(
    result: BayesianSignedRankResult,
    *,
    ax: Axes | None = None,
    style: Style = "paper",
    font: FontLike = None,
    label_kws: Kws = None,
    scatter_kws: Kws = None,
    max_points: int = 5000,
) -> Axes:
    """Posterior samples of the Bayesian signed-rank test in the probability simplex.

    Each sample is a point in the triangle whose corners are "A better",
    "rope" and "B better"; the lines from the centre split it into the
    regions where each is the most probable, and the share of points in a
    region is that outcome's posterior probability.

    Parameters
    ----------
    result : BayesianSignedRankResult
        From :func:`cdplot.stats.bayesian_signed_rank`.
    %(ax_plain)s
    %(style_plain)s
    %(font_bundled)s
    label_kws : dict, optional
        Extra :class:`matplotlib.text.Text` properties for the corner labels.
    scatter_kws : dict, optional
        Extra properties of the points (:meth:`matplotlib.axes.Axes.scatter`).
    max_points : int, default 5000
        Draw at most this many samples (the first ones; samples are
        independent, so any subset is a fair picture).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    CdplotError
        If ``result`` is not a signed-rank result or an option is invalid.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, JMLR 18
           (2017), Figures 9-12.

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.stats._bayesian import bayesian_signed_rank
    >>> (t,) = cdplot.load_example("demsar2006")
    >>> r = bayesian_signed_rank(t.values[:, 1], t.values[:, 0], rope=0.01, n_samples=2000,
    ...                          methods=("C4.5+m", "C4.5"))
    >>> ax = posterior_simplex(r)
    >>> len(ax.collections[0].get_offsets())
    2000
    """
    from ..stats._bayesian import BayesianSignedRankResult

    if not isinstance(result, BayesianSignedRankResult):
        raise CdplotError(
            f"posterior_simplex draws a BayesianSignedRankResult (bayesian_signed_rank), got "
            f"{type(result).__name__}"
        )
    if (
        isinstance(max_points, bool)
        or not isinstance(max_points, (int, np.integer))
        or max_points < 1
    ):
        raise CdplotError(
            f"option {opt('max_points', max_points)} must be a positive whole number",
            option="max_points",
        )
    st = get_style(style)
    font = check_font(font)
    label_kws = _check_kws("label_kws", label_kws)
    scatter_kws = _check_kws("scatter_kws", scatter_kws)
    a, b = result.method_a, result.method_b
    s = result.samples[:max_points]
    px, py = _project(s[:, 0], s[:, 1], s[:, 2])
    h = math.sqrt(3) / 2
    register_fonts()
    with mpl.rc_context(_rc(font, st)):
        ax = _new_axes(ax, st.width, st.width * 0.92 if st.height is None else st.height)
        ax.set_aspect("equal")
        ax.set_axis_off()
        # region boundaries: from the centre to the midpoints of the sides
        cx, cy = _project(1 / 3, 1 / 3, 1 / 3)
        for mx, my in (_project(0.5, 0, 0.5), _project(0.5, 0.5, 0), _project(0, 0.5, 0.5)):
            ax.plot([cx, mx], [cy, my], color=PALETTE["muted"], linewidth=st.line_width, zorder=1)
        size = max(1.0, st.line_width * 3)
        kws = {
            "s": size,
            "color": PALETTE["accent"],
            "alpha": 0.25,
            "linewidths": 0,
            "rasterized": False,
            **scatter_kws,
        }
        # above the outline: samples with one probability near 0 lie on an edge
        ax.scatter(px, py, zorder=4, **kws)
        ax.plot(
            [0, 1, 0.5, 0],
            [0, 0, h, 0],
            color=PALETTE["ink"],
            linewidth=st.axis_width,
            zorder=3,
            solid_joinstyle="miter",
        )
        text = {
            "fontsize": st.small_size,
            "color": PALETTE["ink"],
            "parse_math": False,
            **label_kws,
        }
        ax.text(0, -0.04, f"{b} better\np = {result.p_b_better:.3f}", ha="center", va="top", **text)
        ax.text(1, -0.04, f"{a} better\np = {result.p_a_better:.3f}", ha="center", va="top", **text)
        ax.text(
            0.5,
            h + 0.03,
            f"rope (±{result.rope:g})\np = {result.p_rope:.3f}",
            ha="center",
            va="bottom",
            **text,
        )
        ax.set_xlim(-0.2, 1.2)
        ax.set_ylim(-0.2, h + 0.18)
    return ax
