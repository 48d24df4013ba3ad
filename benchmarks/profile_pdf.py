"""Where WeasyPrint spends a PDF report's time (issue 9).  Run: python benchmarks/profile_pdf.py

For each case of ``bench_report.py`` (same inputs), the HTML that ``cdplot
report`` hands to WeasyPrint is captured, then rendered again in this
process ``--repeat`` times; the medians of the CPU time are printed, split
into WeasyPrint's steps:

- parsing the HTML (tinyhtml5, pure Python);
- the cascade (computed styles of every element and of its pseudo-elements:
  WeasyPrint's user-agent sheet gives each element six, ``::marker`` and the
  footnote and note pseudo-elements, matched or not);
- building the boxes, and laying them out, with the self time of each table
  (by class), of its preferred widths (auto layout only) and of each
  multi-column block (``columns``: WeasyPrint balances the columns by laying
  them out again and again);
- drawing the pages (the figures' SVG apart) and writing the file, with the
  PDF/UA tagging.

It also counts the table cells WeasyPrint lays out more than once (a row or
a block that does not fit is laid out, thrown away and laid out again on the
next page), and, with ``--ua``, the cost of the PDF/UA variant against a plain
PDF.  WeasyPrint's functions are wrapped here to time them; nothing of this
runs in cdplot itself.  Timings of a machine shared with other work vary by a
tenth or more: compare medians of interleaved runs, not single numbers.

Where the cascade and the parse go (30 methods x 40, 3256 elements; CPU medians of 7
on a shared machine, measured on the saved HTML): parsing report.css with its
``@font-face`` rules 54 ms (cssselect2 compiles each of the 171-201 selectors with
``eval``, about 76 us each), matching WeasyPrint's user-agent sheet 43 ms, matching
report.css 28 ms, and about 230 ms computing styles: each element's, and six
pseudo-element styles per element that the user-agent sheet gives every one.  Writing
report.css's table selectors as child chains (``.data-table > * > tr > td``) saved 13 ms
in one run and nothing in the next.  Parsing the HTML takes about 1.1 ms per KiB;
inline SVG was half of the 30 x 40 report's parse (115 of 225 ms) and 61 of Yang's
205 ms, the figures' text overlay 12-19 ms, report.css 4-9 ms.  (Since then a PDF
report gives WeasyPrint its figures as SVG images, ``data:`` URLs that the HTML parser
reads as one attribute each: the 30 x 40 report's parse is 0.16 s, medians of 3, on
2026-11-23.)

What a table cell or an overlay box costs, and what its CSS changes (WeasyPrint 70):
CPU times on the shared machine varied by more than the effects, so these are
instruction counts of ``valgrind --tool=callgrind python -c 'HTML(string=...)
.write_pdf(pdf_variant="pdf/ua-1")'`` on HTML saved with ``--save``, which repeat
exactly.  One appendix block of the 60 x 40 report (615 ``td``, 57 ``th``) costs
2.74e9 instructions more than the same page with no table (3.71e9): about 4.1e6 per
cell, mostly WeasyPrint's Python (HarfBuzz's shaping, ``pango_shape_item``, is 1.0e8
of it).  ``font-variant-numeric: normal`` on those cells
saved 0.6 % of the table (1.7e7; Lato's ``tnum`` lookup covers no glyph its default
features reach from the cmap but U+20A3, so the digits are the same glyphs either
way).  A text box of the figures' overlay costs 6.9e6 (the 223 of the 60-method
report: 1.55e9 of its three figures' 3.5e9): each has its own ``style``, so WeasyPrint
computes a style for each (a table's cells share one) and its six pseudo-elements'.
Dropping the boxes' ``margin``/``padding``/``border`` resets and moving the common
``font-size`` to their container saved 2.7 % of that (4.1e7); setting them in normal
flow (margins) instead of absolutely made no difference in CPU time (minimum of 7).
What remains costs per element: fewer cells and boxes, not lighter ones.  (Issue 24
removed the overlay, which no longer saved CPU time against WeasyPrint's own SVG text:
``bench_pdf_transforms.py`` and ``bench_report.py``'s docstring.)

``--save DIR`` keeps the captured HTML (``demsar.html``, ``k30.html``, ...),
for profiling by hand (``python -m cProfile``) or for trying a change to the
templates' output without running the reports again.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_report import write_named  # noqa: E402

CASES = {
    "demsar": ("Demsar 4 x 14", ["--example", "demsar2006"]),
    "k30": ("30 methods x 40", None),
    "k60": ("60 methods x 40", None),
    "k100": ("100 methods x 40", None),
    "yang": ("Yang six metrics", ["--example", "yang-table9"]),
}


def capture_html(args: list[str], out: Path) -> str:
    """The HTML ``cdplot report ARGS -o out`` gives WeasyPrint (the PDF is written too)."""
    import cdplot.reporting._render as render
    from cdplot.cli import main

    seen = {}
    write_pdf = render._write_pdf

    def keep(html, path, fetcher=None):
        seen["html"] = html
        return write_pdf(html, path, fetcher)

    render._write_pdf = keep
    try:
        main(["report", *args, "-o", str(out)])
    finally:
        render._write_pdf = write_pdf
    return seen["html"]


class Clock:
    """Self CPU time of wrapped functions, by label (time spent in wrapped callees excluded)."""

    def __init__(self):
        self.spent = collections.Counter()
        self._stack: list[float] = []

    def wrap(self, owner, name, label, *aliases):
        original = getattr(owner, name)

        def timed(*args, **kwargs):
            tag = label(args) if callable(label) else label
            start = time.process_time()
            self._stack.append(0.0)
            try:
                return original(*args, **kwargs)
            finally:
                took = time.process_time() - start
                inner = self._stack.pop()
                self.spent[tag] += took - inner
                if self._stack:
                    self._stack[-1] += took

        for target in (owner, *aliases):
            setattr(target, name, timed)


def _class_of(args) -> str:
    element = args[1].element
    return (element.get("class") or "-") if element is not None else "-"


def instrument():
    """Wrap WeasyPrint's steps; returns the clock and the counter of cell layouts."""
    import weasyprint.document as document
    import weasyprint.layout.block as block
    import weasyprint.layout.column as column
    import weasyprint.layout.preferred as preferred
    import weasyprint.layout.table as table
    import weasyprint.pdf as pdf
    import weasyprint.svg as svg

    clock = Clock()
    clock.wrap(document, "get_all_computed_styles", "cascade")
    clock.wrap(document, "build_formatting_structure", "boxes")
    clock.wrap(table, "table_layout", lambda a: f"layout: table .{_class_of(a)}", block)
    clock.wrap(
        preferred,
        "table_and_columns_preferred_widths",
        lambda a: f"layout: preferred widths .{_class_of(a)}",
        table,
    )
    clock.wrap(column, "columns_layout", lambda a: f"layout: columns .{_class_of(a)}", block)
    clock.wrap(document.Page, "paint", "drawing the pages (without figures)")
    clock.wrap(svg.SVG, "draw", "drawing the figures (SVG)")
    clock.wrap(pdf, "add_tags", "PDF/UA tags")

    cells = collections.Counter()
    lay_out = block.block_container_layout

    def counted(context, box, *args, **kwargs):
        if box.element is not None and box.element.tag in ("td", "th"):
            cells[id(box.element)] += 1
        return lay_out(context, box, *args, **kwargs)

    block.block_container_layout = counted
    return clock, cells


def profile(html: str, repeat: int, clock, cells, ua: bool) -> None:
    import weasyprint

    from cdplot.reporting._fetcher import make_fetcher

    rows = collections.defaultdict(list)
    plain = []
    for _ in range(repeat):
        clock.spent.clear()
        cells.clear()
        start = time.process_time()
        doc = weasyprint.HTML(string=html, url_fetcher=make_fetcher())
        parsed = time.process_time()
        rendered = doc.render(pdf_variant="pdf/ua-1")
        laid_out = time.process_time()
        rendered.write_pdf(pdf_variant="pdf/ua-1")
        end = time.process_time()
        spent = dict(clock.spent)
        layout = laid_out - parsed - spent.get("cascade", 0) - spent.get("boxes", 0)
        rows["total"].append(end - start)
        rows["parsing the HTML"].append(parsed - start)
        rows["cascade"].append(spent.get("cascade", 0))
        rows["boxes"].append(spent.get("boxes", 0))
        rows["layout (below: self time of tables and columns)"].append(layout)
        for key, value in spent.items():
            if key.startswith("layout: "):
                rows["  " + key[8:][:54]].append(value)
        drawn = sum(v for k, v in spent.items() if k.startswith(("drawing", "PDF/UA")))
        for key in ("drawing the pages (without figures)", "drawing the figures (SVG)"):
            rows[key].append(spent.get(key, 0))
        rows["PDF/UA tags"].append(spent.get("PDF/UA tags", 0))
        rows["writing the PDF (rest)"].append(end - laid_out - drawn)
        laid = list(cells.values())
        if ua:
            start = time.process_time()
            weasyprint.HTML(string=html, url_fetcher=make_fetcher()).write_pdf()
            plain.append(time.process_time() - start)
    n_pages = len(rendered.pages)
    for key, values in rows.items():
        print(f"    {key:<58} {statistics.median(values):6.3f} s")
    print(
        f"    {n_pages} pages; {len(laid)} table cells laid out {sum(laid)} times (repeated "
        "headers, rows and blocks tried at a page's foot and moved on)"
    )
    if ua:
        print(
            f"    plain PDF instead of PDF/UA: {statistics.median(plain):6.3f} s "
            f"(PDF/UA {statistics.median(rows['total']):.3f} s)"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="renders per case (default: 3)")
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--save", metavar="DIR", help="keep the captured HTML in this folder")
    parser.add_argument("--ua", action="store_true", help="also time a plain (untagged) PDF")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(4)  # the inputs of bench_report.py
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_named(tmp / "k30.csv", rng, 40, 30)
        write_named(tmp / "k60.csv", rng, 40, 60)
        write_named(tmp / "k100.csv", rng, 40, 100)  # after the others: their inputs unchanged
        captured = {}
        for name, (label, data) in CASES.items():
            if args.only and args.only not in name:
                continue
            html = capture_html(data or [str(tmp / f"{name}.csv")], tmp / f"{name}.pdf")
            captured[name] = (label, html)
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / f"{name}.html").write_text(html, encoding="utf-8")
    # the reports above ran unwrapped; only the renders below are timed step by step
    clock, cells = instrument()
    for label, html in captured.values():
        print(f"{label} ({len(html) / 1024:.0f} KiB of HTML), medians of {args.repeat}:")
        profile(html, args.repeat, clock, cells, args.ua)
    return 0


if __name__ == "__main__":
    sys.exit(main())
