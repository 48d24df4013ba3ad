"""Column widths of the report's statistics tables, measured for the PDF (issue 9).

WeasyPrint's automatic table layout measures every cell twice before it lays
the table out: its narrowest width (every line break taken) and its widest
(none taken), with a Pango layout per line tried.  For the small tables of a
report (omnibus tests, method table, p-values, consistency, inputs and
options) that was 0.1 s of Demsar's PDF and 0.36 s of Yang's six metrics.
Here the same two widths are added up from the bundled fonts' advances
(as :func:`cdplot.reporting.layout.text_width` does, with a smaller margin), and the
line is shared out as the automatic layout shares it: every column at its
widest content when the table fits the line, else each between its narrowest
and widest in proportion.  The templates give a table so measured the class
``fixed`` and a ``<colgroup>``, with the widths in custom properties that
report.css reads only in print: in a PDF the table is set with
``table-layout: fixed``, on a screen it keeps the automatic layout.

The texts measured are those the templates print (omnibus.html.j2,
posthoc.html.j2, pairwise.html.j2, consistency.html.j2, footer.html.j2), and
the sizes and paddings those of report.css in print; a change there needs
one here (tests/reporting/test_table_widths.py lays the tables out with
WeasyPrint and checks that no text leaves its cell).  Widths are in em of
the table's type, so that they hold at whatever size it is set.
"""

from __future__ import annotations

from dataclasses import dataclass

# _ems: the width in em of a text in the report font, added up once per text (layout.py)
from .layout import TEXT_WIDTH_PT, _ems, mono_em

__all__ = [
    "Run",
    "column_widths",
    "omnibus_widths",
    "method_table_widths",
    "pvalue_widths",
    "consistency_widths",
    "footer_widths",
]

# report.css in print: the body's type, and a table's share of its parent's
BODY_PT = 9.5
TABLE_EM = 0.88
# footer.reproducibility { font-size: .9em }
FOOTER_EM = 0.9
# small type in tables (table .mark, table .hash) is set at this size
SMALL_PT = 7.0
# cell padding, left plus right, in em: th, td (.55em); .method-table in print (.45em);
# .pvalue-table (.3em)
PAD_EM = 1.1
METHOD_PAD_EM = 0.9
PVALUE_PAD_EM = 0.6
# WeasyPrint's keyword sizes in CSS px (medium 16 px): "smaller" (sub, sup) is the largest
# of them below the parent's size, else 0.8 of it
_KEYWORD_PX = tuple(16.0 * f for f in (3 / 5, 3 / 4, 8 / 9, 1.0, 6 / 5, 3 / 2, 2.0, 3.0))
_PX = 0.75  # points per CSS px
# the fonts' advances matched WeasyPrint's widths of these tables' texts within 0.1 % in
# both directions (Demsar's and Yang's reports; kerning is rare in numbers and short words),
# but a text exactly as wide as its column may wrap: a margin of 1.5 % keeps every line whole
# and the tables within 2 % of their automatic widths (layout.SLACK's 4 % made them look wider)
SLACK = 1.015


def smaller(size: float) -> float:
    """The size in points of ``font-size: smaller`` (WeasyPrint's sub, sup) in ``size`` pt type."""
    below = [k for k in _KEYWORD_PX if k < size / _PX - 1e-9]
    return max(below) * _PX if below else 0.8 * size


@dataclass(frozen=True)
class Run:
    """A piece of a cell's text in one style: bold or not, its own size (None: the cell's), mono."""

    text: str
    bold: bool = False
    pt: float | None = None
    mono: bool = False


def _width(text: str, run: Run, scale: float) -> float:
    # in em of the cell's type, with the layout's safety margin
    if run.mono:
        return SLACK * scale * mono_em() * len(text)
    return SLACK * scale * _ems(text, run.bold)


def _extent(cell, size: float, bold: bool, wrap: str) -> tuple[float, float]:
    """``(narrowest, widest)`` width in em of a cell's text, without padding.

    ``wrap``: ``'normal'`` breaks at spaces only (no other break is counted on, so a
    column is never narrower than a piece WeasyPrint might keep whole), ``'nowrap'``
    never, ``'anywhere'`` (``overflow-wrap: anywhere``) between any two letters.
    """
    runs = (Run(cell, bold),) if isinstance(cell, str) else cell
    widest = piece = narrowest = letter = 0.0
    for run in runs:
        scale = 1.0 if run.pt is None else run.pt / size
        words = run.text.split(" ")
        for i, word in enumerate(words):
            if i:
                narrowest = max(narrowest, piece)
                piece = 0.0
                widest += _width(" ", run, scale)
            w = _width(word, run, scale)
            piece += w
            widest += w
            if wrap == "anywhere" and word:
                letter = max(letter, max(_width(c, run, scale) for c in word))
    narrowest = max(narrowest, piece)
    if wrap == "nowrap":
        narrowest = widest
    elif wrap == "anywhere":
        narrowest = letter
    return narrowest, widest


def column_widths(columns, *, size: float, pad_em: float, paper: str = "a4") -> dict | None:
    """The widths of a table's columns as WeasyPrint's automatic layout would share the line.

    Parameters
    ----------
    columns : sequence of sequence of tuple
        For each column, its cells as ``(text, bold, wrap)``: ``text`` a
        ``str`` or a tuple of :class:`Run`, ``wrap`` one of ``'normal'``,
        ``'nowrap'``, ``'anywhere'``.
    size : float
        The table's type in points (print).
    pad_em : float
        Left plus right padding of a cell, in em.
    paper : {'a4', 'letter'}
        The page whose text width the table may take.

    Returns
    -------
    dict or None
        ``{"width": "12.345em", "cols": ["3.210em", ...]}``: every column
        at its widest content plus padding when the table fits the line,
        else each between its narrowest and widest in proportion, the table
        as wide as the line; None when even the narrowest do not fit (the
        automatic layout is left to overflow as it would).
    """
    mins, maxs = [], []
    for cells in columns:
        lo = hi = 0.0
        for text, bold, wrap in cells:
            a, b = _extent(text, size, bold, wrap)
            lo, hi = max(lo, a), max(hi, b)
        mins.append(lo + pad_em)
        maxs.append(hi + pad_em)
    room = TEXT_WIDTH_PT[paper] / size
    if sum(maxs) <= room:
        widths = maxs
    elif sum(mins) <= room:
        share = (room - sum(mins)) / (sum(maxs) - sum(mins))
        widths = [lo + (hi - lo) * share for lo, hi in zip(mins, maxs, strict=True)]
    else:
        return None
    # rounded up, so that a column is never narrower than measured
    cols = [-(-round(w * 1e6) // 1000) / 1000 for w in widths]
    return {"width": f"{sum(cols):.3f}em", "cols": [f"{c:.3f}em" for c in cols]}


def _head(text) -> tuple:
    # headers are bold and break between words (report.css: thead th)
    return (text, True, "normal")


def omnibus_widths(rows, *, paper: str = "a4") -> dict | None:
    """Widths of the omnibus table (omnibus.html.j2) for its rows (context._omnibus_rows)."""
    size = BODY_PT * TABLE_EM
    sub = smaller(size)
    test, statistic, dof, p = [_head("Test")], [_head("Statistic")], [], [_head("p-value")]
    dof.append(_head("Degrees of freedom"))
    for row in rows:
        # .stats-table tr.used: the row that decides is bold; the row header is not otherwise
        bold = bool(row["used"])
        if row["symbol"] == "chi2":
            symbol = (Run("\u03c7", bold), Run("2", bold, sub), Run("F", bold, sub))
        else:
            symbol = (Run("F", bold), Run("F", bold, sub))
        header = (Run(f"{row['test']} ", bold), *symbol, Run(f", {row['variant']}", bold))
        if row["used"]:
            header += (Run(" ", bold), Run("(decides)", False, SMALL_PT))
        test.append((header, bold, "normal"))
        statistic.append((row["statistic"], bold, "normal"))
        dof.append((row["dof"], bold, "normal"))
        p.append((row["p"], bold, "normal"))
    return column_widths([test, statistic, dof, p], size=size, pad_em=PAD_EM, paper=paper)


def method_table_widths(mt: dict, *, paper: str = "a4") -> dict | None:
    """Widths of the method table (posthoc.html.j2) of :func:`context.method_table`."""
    rows = mt["rows"]
    one_line = bool(mt.get("one_line"))
    # report.css in print: .method-table 8 pt, .method-table.one-line.fs-75 7.5 pt
    size = 7.5 if mt.get("one_line") == "fs-75" else 8.0
    # report.css: .method-table.one-line th.name, .method-table.one-line td.text (the names,
    # groups and "differs from") never wrap
    name_wrap = "nowrap" if one_line else "normal"
    columns = [
        [_head("#"), *((str(r["number"]), False, "normal") for r in rows)],
        [_head("Method"), *((r["method"], False, name_wrap) for r in rows)],
    ]
    if mt["duels"] is not None:
        columns.append([_head("Mean score"), *((r["mean"], False, "normal") for r in rows)])
    if mt["effect"]:
        head = _head(f"\u03b4 vs {mt['effect']['number']}")
        columns.append([head, *((r["effect"], False, "nowrap") for r in rows)])
    columns.append(
        [_head("Average rank"), *((r["average_rank"], r["best"], "normal") for r in rows)]
    )
    if mt["duels"] is not None:
        head = _head("W\u200a/\u200aT\u200a/\u200aL")
        columns.append([head, *((r["wtl"], False, "nowrap") for r in rows)])
    columns.append([_head("Group"), *((r["groups"], False, name_wrap) for r in rows)])
    columns.append([_head("Differs from #"), *((r["differs"], False, name_wrap) for r in rows)])
    return column_widths(columns, size=size, pad_em=METHOD_PAD_EM, paper=paper)


def pvalue_widths(pw: dict, *, paper: str = "a4") -> dict | None:
    """Widths of the p-value matrix (pairwise.html.j2) of :func:`context._pairwise`, or None."""
    if not pw["matrix"]:
        return None
    # report.css in print: .fs-85 8.5 pt, ... (the size class matrix_fits chose)
    size = int(pw["size_class"].removeprefix("fs-")) / 10
    named = pw["named_columns"]
    labels = [("", True, "normal")]
    labels += [
        ((r["method"] if named else f"{r['number']} {r['method']}"), False, "normal")
        for r in pw["rows"]
    ]
    columns = [labels]
    for j, m in enumerate(pw["methods"]):
        cells = [_head(m if named else str(j + 1))]
        for r in pw["rows"]:
            c = r["cells"][j]
            text = f"{c['text']}*" if c["significant"] else c["text"]
            cells.append((text, bool(c["significant"]), "nowrap"))
        columns.append(cells)
    return column_widths(columns, size=size, pad_em=PVALUE_PAD_EM, paper=paper)


def consistency_widths(c: dict, *, paper: str = "a4") -> dict:
    """Widths of the four tables of the consistency section (consistency.html.j2)."""
    size = BODY_PT * TABLE_EM

    def table(columns):
        return column_widths(columns, size=size, pad_em=PAD_EM, paper=paper)

    summary = c["summary"]
    avg = c["average_ranks"]
    return {
        "summary": table(
            [
                [_head("Metric"), *((r["metric"], False, "normal") for r in summary)],
                [_head("Direction"), *((r["direction"], False, "normal") for r in summary)],
                [_head("Best average rank"), *((r["winner"], False, "normal") for r in summary)],
                [
                    _head("Friedman test"),
                    *(
                        ("rejects" if r["rejected"] else "does not reject", False, "normal")
                        for r in summary
                    ),
                ],
            ]
        ),
        "average_ranks": table(
            [[_head("Metric"), *((r["metric"], False, "normal") for r in avg)]]
            + [
                [_head(m), *((r["cells"][j]["text"], r["cells"][j]["best"], "normal") for r in avg)]
                for j, m in enumerate(c["methods"])
            ]
        ),
        "tau": table(
            [[_head(""), *((r["metric"], False, "normal") for r in c["tau"])]]
            + [
                [_head(m), *((r["cells"][j]["text"], False, "normal") for r in c["tau"])]
                for j, m in enumerate(c["metrics"])
            ]
        ),
        "winners": table(
            [[_head("Metric"), *((r["metric"], False, "normal") for r in c["dataset_winners"])]]
            + [
                [_head(d), *((r["cells"][j], False, "normal") for r in c["dataset_winners"])]
                for j, d in enumerate(c["datasets"])
            ]
        ),
    }


def footer_widths(footer: dict, *, paper: str = "a4") -> dict:
    """Widths of the inputs and options tables of the reproducibility footer (footer.html.j2)."""
    size = BODY_PT * FOOTER_EM * TABLE_EM
    inputs = [
        [_head("Input"), *((i["name"], False, "normal") for i in footer["inputs"])],
        [
            _head("SHA-256"),
            # .hash: the mono face at the tables' small size, broken anywhere
            *(
                ((Run(i["sha256"], pt=SMALL_PT, mono=True),), False, "anywhere")
                for i in footer["inputs"]
            ),
        ],
    ]
    options = footer["options"]
    # two options a row: the first, third, ... on the left
    left, right = options[0::2], options[1::2]
    columns = [
        [_head("Option"), *((o["name"], False, "normal") for o in left)],
        [_head("Value"), *((o["value"], False, "normal") for o in left)],
        [_head("Option"), *((o["name"], False, "normal") for o in right)],
        [_head("Value"), *((o["value"], False, "normal") for o in right)],
    ]
    return {
        "inputs": column_widths(inputs, size=size, pad_em=PAD_EM, paper=paper),
        "options": column_widths(columns, size=size, pad_em=PAD_EM, paper=paper),
    }
