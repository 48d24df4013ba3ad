"""Geometry without matplotlib: a fake text measurer, boxes that never overlap."""

import pytest

from cdplot.plot._layout import (
    Named,
    cd_layout,
    heatmap_layout,
    interval_layout,
    note_text,
    overlapping_boxes,
    pack_rows,
    shorten_name,
    tick_ranks,
    wrap_name,
    wrap_text,
)
from cdplot.plot._styles import STYLES


def fake_measure(text, size, bold=False):
    # wide-ish average glyph, so that the layout has to work for its room
    return len(text) * size * (0.62 if bold else 0.58), size * 1.2, size * 0.25


def test_layout_imports_no_matplotlib():
    import subprocess
    import sys

    code = (
        "import cdplot.plot._layout, sys; "
        "print(any(m.startswith('matplotlib') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("k", [2, 3, 5, 10, 25, 50])
@pytest.mark.parametrize("style", ["paper", "paper-wide", "slides"])
def test_cd_layout_boxes_do_not_overlap(k, style):
    names = [f"a rather long method name number {i:02d} (variant)" for i in range(k)]
    ranks = [1 + (k - 1) * i / max(k - 1, 1) for i in range(k)]
    cliques = [tuple(range(i, min(i + 3, k))) for i in range(0, k - 1, 2)]
    lay = cd_layout(
        names,
        ranks,
        measure=fake_measure,
        style=STYLES[style],
        cliques=cliques,
        cd=2.0,
        notes=["a note " * 30],
        caption="caption " * 20,
    )
    assert overlapping_boxes(lay.boxes) == []
    assert all(
        b.x0 >= 0 and b.x1 <= lay.width + 1e-6 and b.y0 >= 0 and b.y1 <= lay.height
        for b in lay.boxes
    )
    assert sum(b.role == "name" for b in lay.boxes) == k
    assert len(lay.elbows) == k


def test_cd_layout_best_half_on_the_right_and_reverse():
    names = list("ABCDE")
    ranks = [1.0, 2.0, 3.0, 4.0, 5.0]
    lay = cd_layout(names, ranks, measure=fake_measure, style=STYLES["paper"])
    sides = {e.index: e.side for e in lay.elbows}
    assert [sides[i] for i in range(5)] == ["right", "right", "right", "left", "left"]
    assert lay.x(1) > lay.x(5)
    rev = cd_layout(names, ranks, measure=fake_measure, style=STYLES["paper"], reverse=True)
    assert rev.x(1) < rev.x(5)
    assert {e.index: e.side for e in rev.elbows}[0] == "left"


def test_elbows_never_cross():
    # on each side, the method nearer the edge takes the higher row
    names = [f"m{i}" for i in range(8)]
    ranks = [1.0, 1.5, 2.5, 3.9, 4.1, 5.0, 7.2, 8.0]
    lay = cd_layout(names, ranks, measure=fake_measure, style=STYLES["paper"])
    for side in ("left", "right"):
        els = sorted((e for e in lay.elbows if e.side == side), key=lambda e: e.row)
        xs = [e.points[0][0] for e in els]
        assert xs == sorted(xs, reverse=(side == "left") is False) or xs == sorted(
            xs, reverse=side == "right"
        )


def test_ties_get_separate_rows():
    lay = cd_layout(
        ["a", "b", "c", "d"], [2.0, 2.0, 2.0, 4.0], measure=fake_measure, style=STYLES["paper"]
    )
    rows = {(e.side, e.row) for e in lay.elbows}
    assert len(rows) == 4
    assert overlapping_boxes(lay.boxes) == []


def test_long_names_shrink_then_wrap_then_shorten_and_never_widen():
    style = STYLES["paper"]
    words = [f"boosted trees (variant {i})" for i in range(6)]
    lay = cd_layout(words, [1, 2, 3, 4, 5, 6], measure=fake_measure, style=style)
    assert lay.width == style.width_pt
    assert lay.fits
    assert any("\n" in t for t in lay.labels)  # wrapped at a space, no key needed
    assert not lay.key
    names = ["x" * 60 for _ in range(6)]  # no break point: shortened with a key
    lay = cd_layout(names, [1, 2, 3, 4, 5, 6], measure=fake_measure, style=style)
    assert lay.width == style.width_pt
    assert lay.font_size == style.min_font_size
    assert len(lay.key) == 6
    assert all(full == "x" * 60 for _tag, full in lay.key)
    assert all(t.endswith("]") for t in lay.labels)
    assert overlapping_boxes(lay.boxes) == []
    assert min(b.size for b in lay.boxes) >= style.min_font_size


def test_stacked_cliques_get_rows_and_do_not_touch():
    spans = [(0, 10), (5, 15), (12, 20), (30, 40)]
    rows = pack_rows(spans, gap=3)
    assert rows[0] != rows[1]
    assert rows[1] != rows[2]
    assert rows[3] == 0


def test_tick_labels_thin_out():
    major, labelled, halves = tick_ranks(50, 3.0, 12.0)
    assert labelled[0] == 1
    assert labelled[-1] == 50
    assert all(b - a >= 4 for a, b in zip(labelled, labelled[1:], strict=False))
    assert not halves
    _, labelled4, halves4 = tick_ranks(4, 50.0, 10.0)
    assert labelled4 == [1, 2, 3, 4]
    assert halves4


def test_wrap_keeps_no_break_spaces():
    lines = wrap_text("alpha N\u00a0=\u00a014 data sets and more words here", 40, 6, fake_measure)
    assert any("N\u00a0=\u00a014" in ln for ln in lines)


@pytest.mark.parametrize("k", [2, 4, 20, 50])
def test_interval_and_heatmap_layouts_do_not_overlap(k):
    names = [f"method with a long name {i}" for i in range(k)]
    ranks = [1 + i * (k - 1) / max(k - 1, 1) for i in range(k)]
    lay = interval_layout(
        names,
        ranks,
        1.0,
        measure=fake_measure,
        style=STYLES["paper"],
        caption="c " * 40,
        legend=[("accent", "one"), ("muted", "two")],
    )
    assert overlapping_boxes(lay.boxes) == []
    hm = heatmap_layout(
        names,
        ranks,
        ["p ≤ 0.001", "p ≤ 0.01", "p ≤ 0.05", "p > 0.05"],
        measure=fake_measure,
        style=STYLES["paper"],
        caption="c " * 40,
    )
    assert hm.width == STYLES["paper"].width_pt
    if k < 50:
        assert hm.fits
        assert overlapping_boxes(hm.boxes) == []
    else:
        # 49 cells of 6 pt type cannot share 3.5 in: the caller warns with the size needed
        assert not hm.fits
        assert hm.need[0] > hm.width


def test_bars_stop_short_of_outsiders_and_exact_ties_are_drawn_side_by_side():
    style = STYLES["paper"]
    names = [f"m{i}" for i in range(6)]
    # m2 ties exactly with m1 but is not in the group {m0, m1}; m3 is close to m1
    ranks = [1.0, 2.0, 2.0, 2.15, 4.0, 6.0]
    lay = cd_layout(names, ranks, measure=fake_measure, style=style, cliques=[(0, 1), (3, 4)])
    line_x = {e.index: e.points[-2][0] for e in lay.elbows}
    dot_x = {e.index: e.points[0][0] for e in lay.elbows}
    assert dot_x[1] == dot_x[2]  # one dot for the tie
    assert abs(line_x[1] - line_x[2]) > style.line_width  # two visible lines
    half = style.line_width / 2
    for bar in (b for b in lay.bars if b.role == "clique"):
        assert bar.crossed == ()
        for i, x in line_x.items():
            if i not in bar.members:
                assert not (min(bar.x0, bar.x1) < x + half and max(bar.x0, bar.x1) > x - half)


def test_group_of_exact_ties_gets_a_clearly_visible_bar():
    style = STYLES["paper"]
    names = [f"m{i}" for i in range(8)]
    ranks = [2.0] * 5 + [5.0, 6.5, 8.0]
    lay = cd_layout(names, ranks, measure=fake_measure, style=style, cliques=[(0, 1, 2, 3, 4)])
    (bar,) = (b for b in lay.bars if b.role == "clique")
    assert bar.x1 - bar.x0 >= 1.5 * style.font_size  # not a 3.75 pt stub


def test_wrap_name_breaks_at_natural_points():
    name = "Random forest (1000 trees; sqrt features)"
    lines = wrap_name(name, 80, 6, False, fake_measure)
    assert len(lines) == 2
    assert " ".join(lines) == name
    assert all(fake_measure(t, 6)[0] * 1.03 <= 80 for t in lines)
    assert wrap_name("x" * 40, 50, 6, False, fake_measure) is None
    assert wrap_name("短い名前の手法", 20, 6, False, fake_measure) is not None


def test_shorten_name_keeps_the_tag():
    out = shorten_name("Gradient boosting with many trees", "[3]", 60, 6, False, fake_measure)
    assert out.endswith("\u2026\u00a0[3]")
    assert fake_measure(out, 6)[0] * 1.03 <= 60


@pytest.mark.parametrize("k", [50, 100])
def test_stacked_bars_stay_distinguishable(k):
    # a staircase of overlapping groups, as Nemenyi gives at large k
    names = [f"m{i}" for i in range(k)]
    ranks = [1 + i * 0.8 for i in range(k)]
    cliques = [tuple(range(i, min(i + 12, k))) for i in range(0, k - 11)]
    lay = cd_layout(names, ranks, measure=fake_measure, style=STYLES["paper-wide"], cliques=cliques)
    bars = [b for b in lay.bars if b.role == "clique"]
    assert len(bars) == len(cliques)
    rows = sorted({b.y for b in bars})
    assert len(rows) > 8
    # thinner bars when many, with a vertical gap at least as wide as a bar
    assert all(b.width < STYLES["paper-wide"].bar_width for b in bars)
    assert min(b - a for a, b in zip(rows, rows[1:], strict=False)) >= 2 * bars[0].width - 1e-9
    for y in rows:
        row = sorted((b.x0, b.x1) for b in bars if b.y == y)
        assert all(c0 - a1 >= 3.0 for (_a0, a1), (c0, _c1) in zip(row, row[1:], strict=False))


def test_names_never_break_inside_a_number():
    # issue 27, 1: Demsar's "C4.5+m+cf" wrapped as "C4." / "5+m+cf" in a 7 x 6 in grid
    def room(text):
        return fake_measure(text, 7.5)[0] * 1.05

    assert wrap_name("C4.5+m+cf", room("C4.5+m"), 7.5, False, fake_measure) == ["C4.5+", "m+cf"]
    assert wrap_name("C4.5+cf", room("C4.5+"), 7.5, False, fake_measure) == ["C4.5+", "cf"]
    # too narrow for "C4.5+" whole: no split at all, rather than one inside the number
    assert wrap_name("C4.5+cf", room("C4.5"), 7.5, False, fake_measure) is None
    assert wrap_name("n 1,000 trees", room("n 1,000"), 7.5, False, fake_measure) == [
        "n 1,000",
        "trees",
    ]


def test_a_fixed_height_takes_dense_rows_before_overrunning():
    # a grid cell: normal rows overrun the height, rows a point apart fit it
    import dataclasses

    # at the smallest type already, so that shrinking it cannot help
    style = dataclasses.replace(STYLES["paper"], font_size=6.0, small_size=6.0)
    names = [f"M{i}" for i in range(20)]
    ranks = [1.0 + 0.9 * i for i in range(20)]
    free = cd_layout(names, ranks, measure=fake_measure, style=style, width=240.0)
    row = free.extra["row_height"]
    height = free.height - 10 * row * 0.15  # a fifth of the rows' air taken away
    lay = cd_layout(
        names,
        ranks,
        measure=fake_measure,
        style=style,
        width=240.0,
        height=height,
        grow=False,
    )
    assert lay.fits
    assert lay.extra["row_height"] < row
    assert not overlapping_boxes(lay.boxes)
    assert max(b.y1 for b in lay.boxes) <= height


def test_notes_name_a_shortened_method_by_its_tag_and_the_others_by_name():
    # issue 27, 6: notes are templates; once the labels are decided, a method whose label
    # was shortened is named by its key tag, every other one by its name
    names = ["A", "B", "C", "y" * 80]  # no break point: only the last one is shortened
    note = (Named(3, names[3]), " and ", Named(0, "A"), " share no bar.")
    lay = cd_layout(
        names, [1.0, 2.0, 3.0, 4.0], measure=fake_measure, style=STYLES["paper"], notes=[note]
    )
    assert lay.key == [("[1]", names[3])]
    texts = [b.text for b in lay.boxes if b.role == "note"]
    assert texts == ["[1] and A share no bar."]
    # nothing shortened: the same note names both by name
    short = cd_layout(
        ["A", "B", "C", "D"],
        [1.0, 2.0, 3.0, 4.0],
        measure=fake_measure,
        style=STYLES["paper"],
        notes=[(Named(3, "D"), " and ", Named(0, "A"), " share no bar."), "plain text"],
    )
    assert [b.text for b in short.boxes if b.role == "note"] == [
        "D and A share no bar.",
        "plain text",
    ]


def test_note_text_writes_tags_for_tagged_methods_only():
    note = ("x ", Named(0, "alpha"), ", ", Named(1, "beta"), ".")
    assert note_text(note, {1: "[7]"}) == "x alpha, [7]."
    assert note_text(note, {}) == "x alpha, beta."
    assert note_text("as written", {0: "[1]"}) == "as written"
