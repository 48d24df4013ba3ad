"""Measured layout of the report's tables and figures (cdplot/reporting/_layout.py; the name
tests/plot/test_layout.py is taken, and test modules need unique basenames)."""

import numpy as np
import pytest
from model_zoo_names import CLASS_NAMES

import cdplot
from cdplot.io import ScoreTable
from cdplot.reporting._context import section_context
from cdplot.reporting._context._methods import method_table
from cdplot.reporting._layout import (
    MAX_TURNED_PT,
    MIN_PT,
    PAD_EM,
    TEXT_WIDTH_PT,
    block_page_starts,
    data_table_layout,
    figure_placement,
    longest_word,
    matrix_fits,
    one_line_size,
    rank_ranges,
    text_width,
)


def test_text_width_adds_up_the_font_advances():
    # Lato's advance of "0" is 1160/2000 em (hmtx of Lato-Regular 2.007); times the 4 % slack
    assert text_width("0", 10) == pytest.approx(10 * 1160 / 2000 * 1.04, rel=1e-6)
    assert text_width("00", 10) == pytest.approx(2 * text_width("0", 10))
    assert text_width("Ab", 10, bold=True) > text_width("Ab", 10)
    # a glyph Lato lacks (CJK) counts as a full em, not as nothing
    assert text_width("漢", 10) == pytest.approx(10 * 1.04)


def test_longest_word_breaks_only_at_spaces_and_hyphens():
    text = "k-nearest neighbours (k = 15; distance-weighted)"
    assert longest_word(text, 8) == pytest.approx(text_width("neighbours", 8))


@pytest.mark.parametrize("k", [2, 4, 7, 10, 20, 30, 60, 100])
def test_data_table_fits_the_line_at_a_legible_size(k):
    names = [f"Method number {i} (variant {i % 7})" for i in range(k)]
    cells = [["0.7634 (10.5)"] * 40 + ["10.525"] for _ in range(k)]
    lay = data_table_layout(names, [f"dataset-{d:02d}" for d in range(40)], cells)
    assert lay.size >= MIN_PT
    # every method in exactly one block, in order
    assert [j for b in lay.blocks for j in b] == list(range(k))
    for block in lay.blocks:
        assert lay.name_width + sum(lay.widths[j] for j in block) <= 1 + 1e-9
    # each column is at least its widest cell and its longest header word
    for j in range(k):
        need = max(
            text_width("0.7634 (10.5)", lay.size, bold=True), longest_word(names[j], lay.size)
        )
        assert lay.widths[j] * TEXT_WIDTH_PT["a4"] >= need
    if k <= 4:
        assert not lay.split
    if k >= 20:
        assert lay.split
    # names of short words gain nothing by turning: their columns are as wide as the numbers
    assert not lay.rotated


def test_one_word_names_turn_upright_when_their_words_would_widen_the_table():
    cells = [["0.7634 (3)"] * 14 + ["3.250"] for _ in CLASS_NAMES[:8]]
    datasets = [f"dataset-{d:02d}" for d in range(14)]
    lay = data_table_layout(CLASS_NAMES[:8], datasets, cells)
    assert lay.rotated
    assert not lay.split
    assert lay.size >= MIN_PT
    # across, the names' words alone are wider than the line
    across = sum(longest_word(n, lay.size, bold=True) for n in CLASS_NAMES[:8])
    assert across > TEXT_WIDTH_PT["a4"]
    # turned: each column as wide as its numbers, the header as tall as the longest name
    for w in lay.widths:
        cell = text_width("0.7634 (3)", lay.size, bold=True) + PAD_EM * lay.size
        assert w * TEXT_WIDTH_PT["a4"] == pytest.approx(cell)
    longest = max(text_width(n, lay.size, bold=True) for n in CLASS_NAMES[:8])
    assert lay.header_height == pytest.approx(longest + PAD_EM * lay.size)


def test_names_too_long_to_stand_upright_split_the_table_instead():
    names = [f"{n}WithAVeryLongSuffixOfItsOwn" for n in CLASS_NAMES[:8]]
    cells = [["0.7634 (3)"] * 14 + ["3.250"] for _ in names]
    lay = data_table_layout(names, [f"d{d}" for d in range(14)], cells)
    assert max(text_width(n, MIN_PT, bold=True) for n in names) > MAX_TURNED_PT
    assert not lay.rotated
    assert lay.split


def test_matrix_names_its_columns_only_when_the_names_fit():
    rows = [f"{i} {n}" for i, n in enumerate(CLASS_NAMES[:8][:6], start=1)]
    texts = ["<0.0001*"] * 30
    assert matrix_fits(rows, texts) is not None
    assert matrix_fits(rows, texts, column_labels=CLASS_NAMES[:8][:6]) is None
    short = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    assert matrix_fits(rows[:4], texts, column_labels=short) is not None


def test_one_line_size_fits_the_widest_cells_and_header_words():
    names = ["Model 001 gradient boosted trees (depth 6; lr 0.05), tuned x"] * 3
    columns = [("#", ["1", "2", "3"], False), ("Method", names, False)]
    assert one_line_size(columns) == 8.0
    # a cell of 60 digits more makes the row too wide at 8 pt, not at 7.5; of 80, at both
    wide = [*columns, ("Differs from #", ["1" * 60], False)]
    assert one_line_size(wide) == 7.5
    assert one_line_size([*columns, ("Differs from #", ["1" * 80], False)]) is None


def test_one_very_long_word_gets_a_column_of_its_own():
    names = ["x" * 60, "short"]
    lay = data_table_layout(names, ["d"], [["0.5 (1)"], ["0.5 (2)"]])
    assert lay.widths[0] * TEXT_WIDTH_PT["a4"] >= longest_word("x" * 60, lay.size, bold=True)


def test_rank_ranges():
    assert rank_ranges([1, 2, 3, 7, 9, 10]) == "1\u20133, 7, 9, 10"
    assert rank_ranges([]) == ""
    assert rank_ranges([5, 4, 3, 2]) == "2\u20135"


def test_figure_placement_keeps_type_at_its_drawn_size_when_a_page_holds_it():
    narrow = figure_placement(500, 300, 6.0)
    assert not narrow.landscape
    assert narrow.print_scale == 1.0
    wide = figure_placement(700, 300, 6.0)
    assert wide.landscape
    assert wide.printed_min_font == 6.0
    # on screen a 6 pt label shows at 9 px at least
    assert narrow.min_px == pytest.approx(500 * 4 / 3 * 9 / 8)


def _result(k, n=12, seed=0):
    rng = np.random.default_rng(seed)
    values = np.linspace(0, 0.2, k)[None, :] + rng.normal(0, 0.05, (n, k))
    table = ScoreTable(
        values=values,
        methods=[f"m{i:02d}" for i in range(k)],
        datasets=[f"d{i}" for i in range(n)],
    )
    return cdplot.compare(table)


def test_method_table_counts_duels_and_letters_groups():
    r = _result(6)
    order = list(r.order())
    mt = method_table(r, order, decimals=3)
    for row in mt["rows"]:
        w, t, loss = (int(x) for x in row["wtl"].split("\u2009/\u2009"))
        assert w + t + loss == r.n_datasets * (r.n_methods - 1)
    # the duel counts agree with a direct count of the scores
    first = r.methods.index(order[0])
    wins = sum(
        int(np.sum(r.scores.values[:, first] > r.scores.values[:, j]))
        for j in range(r.n_methods)
        if j != first
    )
    assert mt["rows"][0]["wtl"].startswith(f"{wins}\u2009/")
    # two methods share a letter exactly when a clique holds both
    for a in mt["rows"]:
        for b in mt["rows"]:
            together = any(a["method"] in c and b["method"] in c for c in r.cliques)
            shared = bool(set(a["groups"]) & set(b["groups"]) - {"\u2013"})
            assert together == shared


def test_pairwise_matrix_only_where_it_fits():
    small = section_context(_result(4), index=1, label=None, multi=False, figures=[])
    assert small["pairwise"]["matrix"]
    big = section_context(_result(40), index=1, label=None, multi=False, figures=[])
    pw = big["pairwise"]
    assert not pw["matrix"]
    assert pw["n_significant"] == len(pw["pairs"])
    # the condensed remarks stay short whatever k
    text = " ".join(k["pairs"] for k in pw["remarks"]["kinds"])
    assert len(text) <= 2 * 1400 + 10


def _blocks(n_blocks, per, header="Gradient boosting (500 trees; depth 6)"):
    names = [[f"{b * per + j + 1} {header}" for j in range(per)] for b in range(n_blocks)]
    return names, [[48.0] * per for _ in range(n_blocks)]


def test_block_page_starts_sends_on_the_blocks_that_cannot_fit_below_the_last():
    # 40 data sets: a block nearly fills a landscape page, so each after the first starts one
    names, widths = _blocks(4, 15)
    datasets = [f"dataset-{i:02d}" for i in range(40)]
    assert block_page_starts(names, datasets, widths, 60.0) == (False, True, True, True)
    # 8 data sets: two blocks share a page, the third starts the next
    starts = block_page_starts(names, datasets[:8], widths, 60.0)
    assert starts[0] is False
    assert starts[1] is False
    assert True in starts[2:]


def test_block_page_starts_counts_header_lines_and_wrapped_data_set_names():
    # a block of 14 data sets fits under one with a short header, not under one with a tall one
    datasets = [f"dataset-{i:02d}" for i in range(14)]
    short, widths = _blocks(2, 10, header="M")
    tall, _ = _blocks(2, 10, header="Gradient boosted trees (depth 6; lr 0.05; 500 rounds), tuned")
    assert block_page_starts(short, datasets, widths, 60.0) == (False, False)
    assert block_page_starts(tall, datasets, widths, 60.0) == (False, True)
    # names that wrap in a narrow data-set column make every row taller
    long_sets = [f"a data set with a long name number {i:02d}" for i in range(14)]
    assert True in block_page_starts(short, long_sets, widths, 30.0)


def _block_fragments(pages):
    """``(page, element, classes, top, bottom)`` of each fragment of the appendix's blocks."""

    def walk(box):
        yield box
        for child in getattr(box, "children", ()):
            yield from walk(child)

    out = []
    for i, page in enumerate(pages):
        for box in walk(page._page_box):
            el = box.element
            classes = (el.get("class") or "").split() if el is not None else []
            if (
                el is not None
                and el.tag == "div"
                and "block" in classes
                and (type(box).__name__ == "BlockBox")
            ):
                out.append((i, el, classes, box.position_y, box.position_y + box.margin_height()))
    return out


@pytest.mark.parametrize(
    ("k", "n", "paper"),
    [(60, 40, "a4"), (100, 14, "a4"), (60, 16, "a4"), (60, 12, "letter")],
)
def test_appendix_blocks_start_a_page_only_when_they_cannot_fit_below_the_last(
    monkeypatch, k, n, paper
):
    """Measured on WeasyPrint's boxes: a block sent to a new page would not have fitted where
    the last ended, and a block left to flow begins on the page where the last ended (it was
    not laid out there, thrown away and moved on, except in the few points where the estimate
    is unsure: then it must really have missed)."""
    weasyprint = pytest.importorskip("weasyprint")
    from cdplot.reporting import _fetcher as fetching
    from cdplot.reporting import _render as render
    from cdplot.reporting._templating import render_template

    monkeypatch.setattr(render, "figure_svgs", lambda result, **kw: [])
    rng = np.random.default_rng(1000 * k + n)
    stem = "Gradient boosted trees (depth 6; lr 0.05; 500 rounds), tuned on fold"
    values = rng.uniform(0.6, 0.9, (n, 1)) + rng.normal(0.0, 0.03, (n, k))
    table = ScoreTable(
        values=np.round(values, 4),
        methods=[f"{i + 1:03d} {stem}"[:60] for i in range(k)],
        datasets=[f"data set {d + 1:02d}" for d in range(n)],
    )
    ctx, _bar = render.prepare_context(table, paper=paper, date="2026-01-01")
    html = render_template(
        "base.html.j2", render.finish_context(ctx, embed_fonts=False, paper=paper)
    )
    pages = weasyprint.HTML(string=html, url_fetcher=fetching.make_fetcher()).render().pages
    frags = _block_fragments(pages)
    blocks = {}
    for frag in frags:
        blocks.setdefault(id(frag[1]), []).append(frag)
    blocks = list(blocks.values())
    assert len(blocks) == len(ctx["sections"][0]["table"]["blocks"]) > 1
    # the foot of the landscape page's text, in CSS px: the paper's short side less 20 mm
    foot = {"a4": 210, "letter": 8.5 * 25.4}[paper] / 25.4 * 96 - 20 / 25.4 * 96
    # p.part's top margin (.8em of 9.5 pt): kept between blocks, where the room is measured
    part_margin = 0.8 * 9.5 / 0.75
    forced = 0
    for before, block in zip(blocks, blocks[1:], strict=False):
        page, _el, classes, top, bottom = block[0]
        end_page, end = before[-1][0], before[-1][4]
        if "new-page" in classes:
            forced += 1
            assert page == end_page + 1
            # it would not have fitted: its height on its own page exceeds the room left
            assert len(block) == 1 or bottom >= foot - 20
            assert (bottom - top) + part_margin > foot - end
        elif page != end_page:
            # WeasyPrint moved it: only in the narrow band the plan leaves to it
            assert (bottom - top) + part_margin > foot - end
            assert (bottom - top) + part_margin - (foot - end) < 6.0 / 0.75
    assert forced > 0
