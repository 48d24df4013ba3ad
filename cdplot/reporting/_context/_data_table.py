"""The data table of a section: scores and ranks per data set, laid out to fit the page."""

from __future__ import annotations

from .._layout import (
    LANDSCAPE_WIDTH_PT,
    LEAD_PT,
    MULTI_LEAD_PT,
    TEXT_WIDTH_PT,
    block_page_starts,
    data_table_layout,
)
from .._tables import table_model

__all__ = ["data_table"]


def data_table(r, order, *, decimals, paper: str, multi: bool = False) -> dict:
    """The data table in ``order``, with the layout that fits the page.

    ``blocks`` holds one table model per printed table: the whole table when
    it fits the text width at a legible size, else column blocks of the
    methods, each repeating the data-set column and the average-rank row.
    """
    model = table_model(r, decimals=decimals)
    idx = [r.methods.index(m) for m in order]
    rows = [
        {"dataset": row["dataset"], "cells": [row["cells"][j] for j in idx]}
        for row in model["rows"]
    ]
    average = [model["average"][j] for j in idx]
    cell_texts = [
        [f"{row['cells'][n]['score']} ({row['cells'][n]['rank']})" for row in rows]
        + [average[n]["text"]]
        for n in range(len(order))
    ]
    # the headers of a split table carry the method's number (measured with it)
    numbered = [f"{n} {m}" for n, m in enumerate(order, start=1)]
    datasets = [row["dataset"] for row in rows]
    lay = data_table_layout(list(order), datasets, cell_texts, paper=paper)
    split = lay.split
    width_pt = TEXT_WIDTH_PT[paper]
    if split:
        # the appendix has landscape pages: fewer, wider blocks
        lay = data_table_layout(numbered, datasets, cell_texts, paper=paper, landscape=True)
        width_pt = LANDSCAPE_WIDTH_PT[paper]
    # in the appendix, a block that cannot fit below the last starts a page of its own
    starts = (False,) * len(lay.blocks)
    if split:
        starts = block_page_starts(
            [[numbered[j] for j in block] for block in lay.blocks],
            datasets,
            [[lay.widths[j] * width_pt for j in block] for block in lay.blocks],
            lay.name_width * width_pt,
            paper=paper,
            lead=MULTI_LEAD_PT if multi else LEAD_PT,
        )
    blocks = []
    for n, block in enumerate(lay.blocks, start=1):
        used = lay.name_width + sum(lay.widths[j] for j in block)
        # a block narrower than the line keeps its measured widths (no stretched columns)
        scale = 1.0 / used if used > 1.0 else 1.0
        blocks.append(
            {
                "methods": [order[j] for j in block],
                "rows": [
                    {"dataset": row["dataset"], "cells": [row["cells"][j] for j in block]}
                    for row in rows
                ],
                "average": [average[j] for j in block],
                "metric": model["metric"],
                "direction": model["direction"],
                "decimals": model["decimals"],
                "size_class": lay.size_class,
                # names turned upright: the header's height, in em of the table's type so
                # that it grows with the type on a screen
                "header_height": f"{lay.header_height / lay.size:.2f}em" if lay.rotated else None,
                "width": f"{min(used, 1.0) * 100:.2f}%",
                # on a narrow screen the table keeps this width and scrolls
                "min_width": f"{used * width_pt / lay.size:.1f}em",
                "name_width": f"{lay.name_width * scale / min(used, 1.0) * 100:.2f}%",
                "col_widths": [
                    f"{lay.widths[j] * scale / min(used, 1.0) * 100:.2f}%" for j in block
                ],
                "part": n,
                "new_page": starts[n - 1],
                "first": block[0] + 1,
                "last": block[-1] + 1,
            }
        )
    return {
        "methods": list(order),
        "metric": model["metric"],
        "direction": model["direction"],
        "decimals": model["decimals"],
        "split": split,
        "blocks": blocks,
    }
