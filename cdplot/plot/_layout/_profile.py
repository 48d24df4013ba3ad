"""The rank profile (several metrics), placed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .._styles import Style
from ._common import (
    SAFETY,
    Box,
    Measure,
    TypeSizes,
    fit_labels,
    key_boxes,
    text_box,
    tick_ranks,
)


@dataclass
class ProfileLayout:
    """The rank-profile chart, placed: metrics across, average rank down (1 at the top).

    ``boxes`` hold the names at the right end of the lines, ``leaders``
    the points joining each method's last rank to its name (names pushed
    apart so that they do not overlap), and ``x_points[j][i]`` the x of
    method ``i``'s point under metric ``j`` (tied methods side by side).
    """

    width: float
    height: float
    font_size: float
    small_size: float
    x_metrics: list[float]
    y_top: float  # y of rank 1
    y_bottom: float  # y of rank k
    k: int
    boxes: list[Box]
    leaders: dict[int, tuple[tuple[float, float], ...]]
    y_ticks: list[int]
    fits: bool
    key: list[tuple[str, str]] = field(default_factory=list)
    need: tuple[float, float] = (0.0, 0.0)
    # x of each method's point under each metric: the metric's x, with methods of equal
    # rank set side by side so that no marker hides another
    x_points: list[list[float]] = field(default_factory=list)

    def y(self, rank: float) -> float:
        """y of an average rank."""
        if self.k < 2:
            return (self.y_top + self.y_bottom) / 2
        return self.y_top + (rank - 1.0) * (self.y_bottom - self.y_top) / (self.k - 1)


def spread(wanted: Sequence[float], gap: float, lo: float, hi: float) -> list[float]:
    """Positions as close as possible to ``wanted``, at least ``gap`` apart, within [lo, hi].

    Pushes down from the top, then up from the bottom (the order of
    ``wanted`` is kept); when they cannot fit, they are spaced evenly
    from ``lo`` at ``gap``.
    """
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    ys = [min(max(wanted[i], lo), hi) for i in order]
    for n in range(1, len(ys)):
        ys[n] = max(ys[n], ys[n - 1] + gap)
    if ys and ys[-1] > hi:
        ys[-1] = hi
        for n in range(len(ys) - 2, -1, -1):
            ys[n] = min(ys[n], ys[n + 1] - gap)
    if ys and ys[0] < lo - 1e-9:
        ys = [lo + n * gap for n in range(len(ys))]
    out = [0.0] * len(wanted)
    for n, i in enumerate(order):
        out[i] = ys[n]
    return out


def profile_layout(
    names: Sequence[str],
    ranks: Sequence[Sequence[float]],
    metrics: Sequence[str],
    *,
    measure: Measure,
    style: Style,
    width: float | None = None,
    height: float | None = None,
    bold: Sequence[int] = (),
    marker_size: float = 4.0,
    title: str = "average rank (1 = best)",
) -> ProfileLayout:
    """Place a rank profile: one line per method across the metrics, names at the line ends.

    ``ranks[j][i]`` is method ``i``'s average rank under metric ``j``.
    The width is the style's (or ``width``); names take at most 40 % of
    it, shortened with a key at the smallest type when they need more.
    Name boxes are pushed apart vertically so that none overlap (their
    lines are joined to them by leaders); the plot is tall enough for one
    row per method.  ``fits`` is False (with the room needed in ``need``)
    when the metric labels or names cannot be set legibly.
    """
    spec = ProfileSpec(
        names=names,
        ranks=ranks,
        metrics=metrics,
        measure=measure,
        style=style,
        bold=frozenset(bold),
        marker_size=marker_size,
        title=title,
    )
    base_w = style.width_pt if width is None else float(width)
    sizes = style.font_sizes()
    attempt = None
    for mode in ("plain", "key"):
        for fs in sizes if mode == "plain" else sizes[-1:]:
            attempt = _profile_at(spec, fs, base_w, height, mode)
            if attempt.fits:
                return attempt
    return attempt


@dataclass(frozen=True)
class ProfileSpec:
    """What one rank profile shows, the same in every attempt to fit it.

    See :func:`profile_layout`; ``ranks[j][i]`` is method ``i``'s average
    rank under metric ``j``.
    """

    names: Sequence[str]
    ranks: Sequence[Sequence[float]]
    metrics: Sequence[str]
    measure: Measure
    style: Style
    bold: frozenset[int] = frozenset()
    marker_size: float = 4.0
    title: str = "average rank (1 = best)"

    @property
    def k(self) -> int:
        return len(self.names)


def _profile_at(
    spec: ProfileSpec, fs: float, width: float, height: float | None, mode: str
) -> ProfileLayout:
    """One attempt at the profile, with names of size ``fs`` in ``width`` points.

    ``mode`` is 'plain' or 'key' (names shortened with a key, as in
    :func:`fit_labels`); a ``height`` fixes the plot's height.
    """
    k, m = spec.k, len(spec.metrics)
    measure, marker_size = spec.measure, spec.marker_size
    t = TypeSizes.of(measure, spec.style, fs)
    ss, lp, lps = t.ss, t.lp, t.lps
    pad = spec.style.pad
    last = list(spec.ranks[-1])
    order = sorted(range(k), key=lambda i: (last[i], i))
    room = 0.4 * width
    labels, key, fits = fit_labels(spec.names, order, lambda i: room, fs, spec.bold, measure, mode)
    label_w = max(measure(labels[i][0], fs, i in spec.bold)[0] * SAFETY for i in range(k))
    tick_w = measure(str(k), ss, False)[0] * SAFETY
    gap = 0.5 * fs
    x0 = pad + tick_w + gap + marker_size  # first metric
    x_end = width - pad - label_w - gap  # leaders end here
    x1 = x_end - 1.6 * fs  # last metric; the leaders take the rest
    step = (x1 - x0) / (m - 1) if m > 1 else 0.0
    xs = [x0 + j * step for j in range(m)] if m > 1 else [(x0 + x1) / 2]
    n_rows, labels_fit = _metric_rows(spec, ss, step)
    fits = fits and labels_fit and x1 - x0 >= 24.0 * max(m - 1, 1) ** 0.5
    row_h = max(lp * 1.25, lp + 1.5)
    boxes: list[Box] = []
    y = pad
    boxes.append(text_box(measure, spec.title, "axis-title", pad, y, "left", "top", ss))
    y += lps + 0.8 * ss
    if height is None:
        plot_h = max((k - 1) * row_h, 0.35 * width, 4 * row_h)
    else:
        # a given height: the plot takes what the text leaves, never less than a row each
        rest = y + max(marker_size, 0.5 * row_h) + marker_size + 0.6 * ss + n_rows * lps * 1.3
        plot_h = max((k - 1) * row_h, 2 * row_h, height - rest - pad)
    y_top = y + max(marker_size, 0.5 * row_h)
    y_bottom = y_top + plot_h
    lay = ProfileLayout(width, 0.0, fs, ss, xs, y_top, y_bottom, k, boxes, {}, [], fits, key)
    _place_ticks(spec, lay, x0 - marker_size - gap, plot_h, t)
    lay.x_points = _point_xs(spec, xs)
    placed = _place_names(spec, lay, labels, (x1 + 0.6 * fs, x_end, gap), row_h, t)
    y = max(y_bottom + marker_size, max(placed) + row_h / 2) + 0.6 * ss
    for j, text in enumerate(spec.metrics):
        ty = y + (j % n_rows) * lps * 1.3
        boxes.append(text_box(measure, text, "metric", xs[j], ty, "center", "top", ss))
    y += n_rows * lps * 1.3
    if key:
        y += 0.4 * ss
        y = key_boxes(boxes, key, pad, y, max(width - 2 * pad, 20.0), ss, measure)
    lay.height = y + pad
    if height is not None and lay.height > height + 1e-6:
        lay.fits = False
    min_w = x0 + 24.0 * max(m - 1, 1) ** 0.5 + 1.6 * fs + gap + label_w + pad
    lay.need = (max(width, min_w), lay.height)
    return lay


def _metric_rows(spec: ProfileSpec, ss: float, step: float) -> tuple[int, bool]:
    """Metric labels under the axis: one row, or two staggered rows when crowded;
    and whether they fit at all."""
    m = len(spec.metrics)
    metric_w = [spec.measure(t, ss, False)[0] * SAFETY for t in spec.metrics]
    if m > 1 and max(metric_w) > step - 0.6 * ss:
        return 2, not max(metric_w) > 2 * step - 0.6 * ss
    return 1, True


def _place_ticks(spec, lay, x, plot_h, t) -> None:
    """Rank ticks on the left: every rank while they fit, else thinned."""
    _major, ticks, _half = tick_ranks(spec.k, plot_h / max(spec.k - 1, 1), t.lps * 1.15)
    lay.y_ticks = ticks
    for r in ticks:
        lay.boxes.append(
            text_box(spec.measure, str(r), "tick", x, lay.y(r), "right", "center", t.ss)
        )


def _point_xs(spec, xs) -> list[list[float]]:
    """x of each method's point under each metric, methods of equal rank side by side."""
    dodge = 0.9 * spec.marker_size
    out = []
    for j in range(len(xs)):
        row = [xs[j]] * spec.k
        ties: dict[float, list[int]] = {}
        for i in range(spec.k):
            ties.setdefault(float(spec.ranks[j][i]), []).append(i)
        for members in ties.values():
            for n, i in enumerate(members):
                row[i] = xs[j] + (n - (len(members) - 1) / 2) * dodge
        out.append(row)
    return out


def _place_names(spec, lay, labels, ends, row_h, t) -> list[float]:
    """Names at the right, pushed apart, with leaders from each line's end; returns the
    y of each name."""
    x_bend, x_end, gap = ends
    k, last = spec.k, spec.ranks[-1]
    wanted = [lay.y(last[i]) for i in range(k)]
    placed = spread(wanted, row_h, lay.y_top - 0.5 * row_h + t.lp / 2, lay.y_bottom + 0.5 * row_h)
    for i in range(k):
        end = lay.x_points[-1][i]
        lay.leaders[i] = ((end, wanted[i]), (x_bend, wanted[i]), (x_end, placed[i]))
        bold = i in spec.bold
        color = "accent" if bold else "ink"
        lay.boxes.append(
            text_box(
                spec.measure,
                labels[i][0],
                "name",
                x_end + gap,
                placed[i],
                "left",
                "center",
                t.fs,
                bold,
                color,
            )
        )
    return placed
