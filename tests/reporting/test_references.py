"""The BibTeX of a report in print's two columns (cdplot/reporting/_references.py)."""

import textwrap

import pytest

from cdplot.reporting._references import REFERENCES, bibtex_columns

ALL = list(REFERENCES.values())


def _lines(entry: str, width: int) -> int:
    # an entry's lines in a column this many characters wide: each source line wraps at
    # spaces (white-space: pre-wrap), an empty one takes a line too
    return sum(max(1, len(textwrap.wrap(line, width))) for line in entry.rstrip("\n").split("\n"))


def _column(entries: list[str], width: int) -> int:
    return sum(_lines(e, width) for e in entries) + max(len(entries) - 1, 0)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("n", range(1, len(ALL) + 1))
def test_columns_are_the_whole_bibtex_cut_between_entries(n, paper):
    entries = [ref.bibtex for ref in ALL[:n]]
    text = "\n".join(entries)
    blocks = bibtex_columns(text, paper=paper)
    columns = [c for block in blocks for c in block]
    # joined in order they give the text back; each column starts and ends an entry
    assert "\n".join(columns) == text
    assert all(c.startswith("@") and c.endswith("}\n") for c in columns)
    assert all(1 <= len(block) <= 2 for block in blocks)


@pytest.mark.parametrize(("paper", "width"), [("a4", 58), ("letter", 60)])
@pytest.mark.parametrize("n", range(2, 13))
def test_two_columns_as_level_as_whole_entries_allow(n, paper, width):
    # 58 and 60 characters: the print column (report.css) of A4's and US Letter's text width
    entries = [ref.bibtex for ref in ALL[:n]]
    (block,) = bibtex_columns("\n".join(entries), paper=paper)
    assert len(block) == 2
    cut = block[0].count("\n@") + 1
    taller = max(_column(entries[:cut], width), _column(entries[cut:], width))
    best = min(
        max(_column(entries[:c], width), _column(entries[c:], width)) for c in range(1, n + 1)
    )
    assert taller == best


@pytest.mark.parametrize(("paper", "most"), [("a4", 83), ("letter", 77)])
def test_entries_beyond_a_page_start_another_block(paper, most):
    # all 21 works: 122 lines a column, more than a page holds (83 lines of A4's 259 mm of
    # text at 6.84 pt on a 1.2 leading, less the heading and the box's padding)
    blocks = bibtex_columns("\n".join(ref.bibtex for ref in ALL), paper=paper)
    assert len(blocks) == 2
    width = 58 if paper == "a4" else 60
    for block in blocks:
        for column in block:
            assert _column(column.rstrip("\n").split("\n\n"), width) <= most
    # the first block takes as many entries as fit: with the next one, no split would fit
    first = [e for c in blocks[0] for e in c.rstrip("\n").split("\n\n")]
    more = first + [blocks[1][0].split("\n\n")[0]]
    assert all(
        max(_column(more[:c], width), _column(more[c:], width)) > most
        for c in range(1, len(more) + 1)
    )


def test_paper_is_checked():
    from cdplot.errors import CdplotError

    with pytest.raises(CdplotError, match="paper"):
        bibtex_columns(ALL[0].bibtex, paper="a5")
