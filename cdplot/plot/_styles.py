"""Figure styles (sizes, type, line weights) and the colour palette.

Everything here is plain data so that :mod:`cdplot.plot._layout` can use it
without matplotlib.  Sizes are in points (1/72 in) unless the name says
inches.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._options import check_option

__all__ = ["Style", "STYLES", "PALETTE", "get_style"]


@dataclass(frozen=True)
class Style:
    """One use of a figure: a paper column, a full page width, a slide.

    Widths are kept exactly, whatever the number and length of the names:
    names shrink down to ``min_font_size`` (no text of any kind is smaller),
    then wrap, then are shortened with a key.

    Attributes
    ----------
    name : str
        ``'paper'``, ``'paper-wide'`` or ``'slides'``.
    width : float
        Figure width in inches.
    height : float or None
        Height in inches for a fixed aspect (slides are 16:9; a figure whose
        content is taller grows keeping the aspect), or ``None`` to size the
        height to the content.
    font_size : float
        Size of method names.
    small_size : float
        Size of tick labels, rank values, notes and captions.
    min_font_size : float
        No text is smaller: 6 pt on paper, 14 pt on slides.
    line_width : float
        Elbow lines, ticks, whiskers.
    axis_width : float
        The rank axis.
    bar_width : float
        Thickness of clique bars and the CD bar.
    pad : float
        Margin around the content.
    min_points_per_rank : float
        The rank axis of a CD diagram is never denser than this (ticks are
        thinned, and lines of different ranks stay apart).
    max_height : float or None
        The tallest figure, in inches, the style's page or slide holds: a
        taller one is drawn with a :class:`~cdplot.errors.CdplotWarning`
        (9 in, a letter or A4 page's text height; slides: 7.5 in, a
        13.33 x 7.5 in widescreen slide).
    """

    name: str
    width: float
    height: float | None
    font_size: float
    small_size: float
    min_font_size: float
    line_width: float
    axis_width: float
    bar_width: float
    pad: float
    min_points_per_rank: float = 2.5
    max_height: float | None = 9.0

    @property
    def width_pt(self) -> float:
        return self.width * 72.0

    @property
    def height_pt(self) -> float | None:
        return None if self.height is None else self.height * 72.0

    def font_sizes(self):
        """Name sizes to try, largest first, in half-point steps down to the minimum."""
        out = []
        size = self.font_size
        while size >= self.min_font_size - 1e-9:
            out.append(round(size, 2))
            size -= 0.5
        return out

    def small_for(self, font_size: float) -> float:
        """The small size for a (possibly reduced) name size, never below the minimum."""
        return round(max(self.small_size * font_size / self.font_size, self.min_font_size), 2)


STYLES = {
    # one column of a two-column paper (3.5 in), type a little below the body text
    "paper": Style(
        name="paper",
        width=3.5,
        height=None,
        font_size=7.5,
        small_size=6.5,
        min_font_size=6.0,
        line_width=0.6,
        axis_width=0.8,
        bar_width=2.2,
        pad=4.0,
    ),
    # the full text width of a paper or a one-column paper
    "paper-wide": Style(
        name="paper-wide",
        width=7.0,
        height=None,
        font_size=8.5,
        small_size=7.5,
        min_font_size=6.0,
        line_width=0.7,
        axis_width=0.9,
        bar_width=2.6,
        pad=5.0,
    ),
    # a 16:9 slide (10 x 5.625 in), type readable from the back of a room
    "slides": Style(
        name="slides",
        width=10.0,
        height=5.625,
        font_size=16.0,
        small_size=14.0,
        min_font_size=14.0,
        line_width=1.4,
        axis_width=1.8,
        bar_width=5.0,
        pad=12.0,
        min_points_per_rank=4.0,
        max_height=7.5,
    ),
}

# Okabe & Ito's colour-blind-safe palette, with the roles cdplot gives them.
# The two accents differ in lightness too (blue is dark, vermillion is mid),
# so they stay apart in greyscale print; structure is drawn in greys.
PALETTE = {
    "ink": "#1a1a1a",  # names, axis, clique bars
    "line": "#5c5c5c",  # elbow lines
    # rank values, notes, not-significant items: 5.3:1 on white, above WCAG AA's 4.5:1
    "muted": "#6b6b6b",
    "faint": "#d9d9d9",  # guides, shading
    "accent": "#0072B2",  # highlighted / control method (Okabe-Ito blue)
    # differs from the control: Okabe-Ito vermillion darkened from #D55E00 (3.9:1 on white)
    # to 5.2:1, so that names in it meet WCAG AA
    "accent2": "#B34F00",
    # significance levels, darkest = strongest evidence; lightness steps read in greyscale
    "levels": ("#08306b", "#2f6fae", "#86b6da", "#f2f2f2"),
    "untested": "#ffffff",
}


def get_style(style) -> Style:
    """Return the :class:`Style` named ``style`` (or ``style`` itself if it is one)."""
    if isinstance(style, Style):
        return style
    return STYLES[check_option("style", style, tuple(STYLES))]
