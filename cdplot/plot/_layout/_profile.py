"""The rank profile (several metrics), placed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .._styles import Style
from ._common import (
    SAFETY,
    Box,
    Measure,
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
    base_w = style.width_pt if width is None else float(width)
    sizes = style.font_sizes()
    attempt = None
    for mode in ("plain", "key"):
        for fs in sizes if mode == "plain" else sizes[-1:]:
            attempt = _profile_at(
                names,
                ranks,
                metrics,
                measure,
                style,
                fs,
                base_w,
                height,
                set(bold),
                mode,
                marker_size,
                title,
            )
            if attempt.fits:
                return attempt
    return attempt


def _profile_at(
    names, ranks, metrics, measure, style, fs, width, height, bold, mode, marker_size, title
):
    k = len(names)
    m = len(metrics)
    ss = style.small_for(fs)
    pad = style.pad
    _w, lp, _d = measure("lp", fs, False)
    lps = measure("lp", ss, False)[1]
    last = list(ranks[-1])
    order = sorted(range(k), key=lambda i: (last[i], i))
    room = 0.4 * width
    labels, key, fits = fit_labels(names, order, lambda i: room, fs, bold, measure, mode)
    label_w = max(measure(labels[i][0], fs, i in bold)[0] * SAFETY for i in range(k))
    tick_w = measure(str(k), ss, False)[0] * SAFETY
    gap = 0.5 * fs
    x0 = pad + tick_w + gap + marker_size  # first metric
    x_end = width - pad - label_w - gap  # leaders end here
    x1 = x_end - 1.6 * fs  # last metric; the leaders take the rest
    step = (x1 - x0) / (m - 1) if m > 1 else 0.0
    xs = [x0 + j * step for j in range(m)] if m > 1 else [(x0 + x1) / 2]
    # metric labels under the axis: one row, or two staggered rows when crowded
    metric_w = [measure(t, ss, False)[0] * SAFETY for t in metrics]
    n_rows = 1
    if m > 1 and max(metric_w) > step - 0.6 * ss:
        n_rows = 2
        if max(metric_w) > 2 * step - 0.6 * ss:
            fits = False
    fits = fits and x1 - x0 >= 24.0 * max(m - 1, 1) ** 0.5
    row_h = max(lp * 1.25, lp + 1.5)
    boxes: list[Box] = []
    y = pad
    boxes.append(text_box(measure, title, "axis-title", pad, y, "left", "top", ss))
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
    # rank ticks on the left: every rank while they fit, else thinned
    _major, ticks, _half = tick_ranks(k, plot_h / max(k - 1, 1), lps * 1.15)
    lay.y_ticks = ticks
    for r in ticks:
        boxes.append(
            text_box(
                measure, str(r), "tick", x0 - marker_size - gap, lay.y(r), "right", "center", ss
            )
        )
    # names at the right, pushed apart; leaders from each line's end
    wanted = [lay.y(last[i]) for i in range(k)]
    placed = spread(wanted, row_h, y_top - 0.5 * row_h + lp / 2, y_bottom + 0.5 * row_h)
    dodge = 0.9 * marker_size
    for j in range(m):
        row = [xs[j]] * k
        ties: dict[float, list[int]] = {}
        for i in range(k):
            ties.setdefault(float(ranks[j][i]), []).append(i)
        for members in ties.values():
            for n, i in enumerate(members):
                row[i] = xs[j] + (n - (len(members) - 1) / 2) * dodge
        lay.x_points.append(row)
    for i in range(k):
        end = lay.x_points[-1][i]
        lay.leaders[i] = ((end, wanted[i]), (x1 + 0.6 * fs, wanted[i]), (x_end, placed[i]))
        boxes.append(
            text_box(
                measure,
                labels[i][0],
                "name",
                x_end + gap,
                placed[i],
                "left",
                "center",
                fs,
                i in bold,
                "accent" if i in bold else "ink",
            )
        )
    y = max(y_bottom + marker_size, max(placed) + row_h / 2) + 0.6 * ss
    for j, text in enumerate(metrics):
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
