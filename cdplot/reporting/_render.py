"""Compose results, figures and templates into an HTML or PDF report.

The pipeline: analyse (when given data) -> draw each metric's figures as
SVG -> gather plain values (:mod:`cdplot.reporting._context`) -> render the
Jinja2 templates -> write the HTML, or hand it to WeasyPrint with a URL
fetcher that serves only cdplot's bundled fonts.  jinja2, matplotlib and
weasyprint are imported inside the functions, so that ``import cdplot``
stays light.  Everything runs in this process, except what a user's
templates drive (their rendering and, for a PDF, its layout), which runs
in a child bounded in time, memory and pages
(:mod:`cdplot.reporting._user_templates`).
"""

from __future__ import annotations

import datetime as _dt
import functools
import inspect
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeAlias

import numpy as np

from .._atomic import atomic_write
from .._options import REPORT_FORMATS as FORMATS
from .._options import (
    check_bool,
    check_option,
)
from ..errors import CdplotError, opt
from ..io._types import ScoresLike
from ..plot._explorer import EXPLORER_MIN_METHODS, explorer_fragment
from ..stats._analysis import SeparateAnalyses, analyse, relate_metrics
from ..stats._analysis import stability as obtain_stability
from ..stats._consistency import MetricsComparison
from ..stats._from_ranks import RankComparison
from ..stats._pair import PairResult
from ..stats._parametric import AutoResult
from ..stats._results import ComparisonResult
from ..stats._stability import StabilityResult
from . import _fetcher as fetching
from ._context import (
    anova_document_context,
    anova_section_context,
    choice_context,
    document_context,
    section_context,
    with_figures,
)
from ._figures import (
    anova_figure_svgs,
    figure_svgs,
)
from ._fonts import MONO, SANS, bundled_fonts, font_face_css
from ._format import auto_decimals, check_decimals
from ._pairs import check_pairs, pair_context, pair_names
from ._pdf import pdf_bytes, warn_refused
from ._stability import (
    REPORT_SEED,
    check_stability,
    refuse_without_ranks,
    stability_context,
    stability_for,
)
from ._templating import (
    TEMPLATE_NAMES,
    make_environment,
    render_block,
    render_template,
)

__all__ = [
    "report",
    "render_html",
    "prepare_context",
    "finish_context",
    "render_block",
    "make_environment",
    "PAPERS",
    "FORMATS",
    "TEMPLATE_NAMES",
]

Paper = Literal["a4", "letter"]
ReportFormat = Literal["html", "pdf"]
PAPERS = ("a4", "letter")
_SUFFIX_FORMATS = {".html": "html", ".htm": "html", ".pdf": "pdf"}
# CSS @page sizes
_PAGE_SIZES = {"a4": "A4", "letter": "letter"}
# a report with at least this many metrics tells on stderr how far it got
MANY_METRICS = 3


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _check_text(name, value):
    if value is None:
        return None
    if not isinstance(value, str):
        raise CdplotError(f"option {opt(name, value)} must be text", option=name)
    return value


#: What a report formats: results, or raw scores analysed with ``compare_kws``
ReportInput: TypeAlias = (
    ComparisonResult
    | RankComparison
    | MetricsComparison
    | SeparateAnalyses
    | AutoResult
    | Sequence[ComparisonResult]
    | ScoresLike
)


def _check_date(date) -> str:
    if date is None:
        # reproducible builds fix the date through this variable
        epoch = os.environ.get("SOURCE_DATE_EPOCH")
        if epoch and epoch.strip().isdigit():
            return _dt.datetime.fromtimestamp(int(epoch), tz=_dt.timezone.utc).date().isoformat()
        return _dt.date.today().isoformat()
    if isinstance(date, (_dt.date, _dt.datetime)):
        return date.isoformat()[:10]
    if isinstance(date, str):
        return date
    raise CdplotError(f"option {opt('date', date)} must be text or a datetime.date", option="date")


def _check_format(format, path: Path) -> str:
    if format is not None:
        return check_option("format", format, FORMATS)
    suffix = path.suffix.lower()
    if suffix not in _SUFFIX_FORMATS:
        raise CdplotError(
            f"output {str(path)!r} has no .html or .pdf extension; name it so or give "
            f"{opt('format', 'html')} or 'pdf'",
            option="format",
        )
    return _SUFFIX_FORMATS[suffix]


def _check_not_an_input(path: Path, data) -> None:
    """Refuse writing the report over the data file it is made from."""
    sources = data if isinstance(data, (list, tuple)) else [data]
    for source in sources:
        if isinstance(source, (str, os.PathLike)) and os.path.isfile(source) and path.is_file():
            try:
                same = os.path.samefile(source, path)
            except OSError:
                continue
            if same:
                raise CdplotError(
                    f"output {str(path)!r} is also the data file; writing it would destroy the "
                    "data: choose another output name"
                )


def _check_template_dir(template_dir):
    if template_dir is None:
        return None
    folder = Path(template_dir)
    if not folder.is_dir():
        raise CdplotError(
            f"option {opt('template_dir', str(template_dir))} is not a folder",
            option="template_dir",
        )
    # user_templates imports jinja2, which a report without user templates imports later
    from ._user_templates import check_bounded

    # refused before the analysis and the figures, where user templates cannot be bounded
    check_bounded(folder)
    return folder


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------
class _Progress:
    """Lines on stderr telling how far a long report got."""

    def __init__(self, enabled: bool, total: int):
        self.enabled = enabled
        self.total = total

    def step(self, i: int, what: str):
        if self.enabled:
            sys.stderr.write(f"cdplot report: [{i}/{self.total}] {what}\n")
            sys.stderr.flush()

    def note(self, what: str):
        if self.enabled:
            sys.stderr.write(f"cdplot report: {what}\n")
            sys.stderr.flush()


def _progress_enabled(progress, n_metrics: int) -> bool:
    if progress is None:
        return n_metrics >= MANY_METRICS and sys.stderr is not None and sys.stderr.isatty()
    if not isinstance(progress, bool):
        raise CdplotError(
            f"option {opt('progress', progress)} must be True, False or None", option="progress"
        )
    return progress


# the keywords analyse() takes besides the scores: compare's, applied to each metric
_COMPARE_KEYWORDS = tuple(inspect.signature(analyse).parameters)[1:]


def _check_compare_kws(compare_kws) -> dict:
    """The keyword arguments of the analysis of raw scores (``None`` values are unset)."""
    if compare_kws is None:
        return {}
    if not isinstance(compare_kws, Mapping):
        raise CdplotError(f"option compare_kws={compare_kws!r} must be a dict or None")
    known = _COMPARE_KEYWORDS
    unknown = sorted(set(compare_kws) - set(known))
    if unknown:
        raise CdplotError(
            f"option compare_kws: {unknown[0]!r} is not an analysis option; they are "
            f"{', '.join(known)}"
        )
    return {k: v for k, v in compare_kws.items() if v is not None}


@dataclass(frozen=True)
class _Analyses:
    """What a report shows: one analysis per section, and how the sections relate.

    ``results`` holds the rank-based analyses (one per metric); ``auto`` the
    result of :func:`cdplot.compare_auto` when one was given (on its
    parametric path ``results`` is empty and the ANOVA is its only section);
    ``mc`` the comparison of the metrics and ``note`` why there is none.
    """

    results: tuple
    mc: MetricsComparison | None = None
    note: str | None = None
    auto: AutoResult | None = None


def _kind(value) -> str:
    return type(value).__name__


def _as_analyses(found) -> _Analyses:
    """The sections of what :func:`analyse` or :func:`relate_metrics` gave."""
    if isinstance(found, ComparisonResult):
        return _Analyses((found,))
    if isinstance(found, MetricsComparison):
        return _Analyses(tuple(found.results), mc=found)
    # different methods per metric still make a report, one section each, without
    # comparing the metrics (Kendall's tau-b needs the same methods)
    return _Analyses(found.results, note=found.sentence)


def _resolve(data, given: dict) -> _Analyses:
    """The analyses to report: those given, or :func:`analyse` of the scores given."""
    items = data if isinstance(data, (list, tuple)) else [data]
    if isinstance(data, (list, tuple)) and any(isinstance(r, RankComparison) for r in items):
        raise CdplotError(
            "a RankComparison (average ranks alone) is reported on its own: pass it, not a "
            "list; metrics are compared from scores"
        )
    if any(isinstance(r, PairResult) for r in items):
        raise CdplotError(
            "a PairResult is shown beside the analysis of its scores: pass it as "
            "report(result, pairs=[pair_result])"
        )
    if any(type(r).__name__ == "PosthocComparison" for r in items):
        # its statistics are the user's own: a report of cdplot's tests would misattribute
        raise CdplotError(
            "a PosthocComparison holds p-values of a test cdplot did not compute, and a report "
            "shows cdplot's own analysis: report the scores (cdplot.compare), and draw your "
            "test's groups with cd_diagram or significance_heatmap"
        )
    if (
        isinstance(data, (list, tuple))
        and data
        and all(
            isinstance(r, (ComparisonResult, AutoResult, MetricsComparison, SeparateAnalyses))
            for r in data
        )
    ):
        if not all(isinstance(r, ComparisonResult) for r in data):
            odd = next(r for r in data if not isinstance(r, ComparisonResult))
            raise CdplotError(
                f"a list of results must hold ComparisonResult objects (one per metric); got a "
                f"{_kind(odd)} in it: report it on its own"
            )
        what = "these results were"
    elif isinstance(
        data, (ComparisonResult, MetricsComparison, SeparateAnalyses, AutoResult, RankComparison)
    ):
        what = f"this {_kind(data)} was"
    else:
        what = None
    if what is not None and given:
        name = sorted(given)[0]
        raise CdplotError(
            f"option {opt(name, given[name])} (in compare_kws) applies when the report "
            f"analyses scores; {what} analysed already"
        )
    if isinstance(data, (ComparisonResult, RankComparison)):
        return _Analyses((data,))
    if isinstance(data, (MetricsComparison, SeparateAnalyses)):
        return _as_analyses(data)
    if isinstance(data, AutoResult):
        if isinstance(data.analysis, ComparisonResult):
            return _Analyses((data.analysis,), auto=data)
        return _Analyses((), auto=data)
    if what is not None:
        return _as_analyses(relate_metrics(data))
    return _as_analyses(analyse(data, **given))


def _labels(results, mc) -> list[str | None]:
    if mc is not None:
        return list(mc.metrics)
    if len(results) == 1:
        return [results[0].metric]
    labels = [r.metric or f"metric {i}" for i, r in enumerate(results, start=1)]
    # two unnamed or same-named metrics still get headings of their own
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out


def _section_pairs(pairs, results, labels) -> list[list]:
    """The PairResults of each section, placed by their metric."""
    if pairs and any(isinstance(r, RankComparison) for r in results):
        raise CdplotError(
            "option pairs: a head-to-head comparison needs the scores on each data set, which "
            "average ranks do not have"
        )
    out: list[list] = [[] for _ in results]
    for pr in pairs:
        metric = None if pr.scores is None else pr.scores.metric
        if len(results) == 1:
            target = 0
        else:
            matches = [i for i, r in enumerate(results) if r.metric == metric]
            if len(matches) != 1:
                shown = ", ".join(str(label) for label in labels)
                a, b = pair_names(pr)
                raise CdplotError(
                    f"option pairs: the pair {a!r} versus {b!r} is of metric "
                    f"{metric!r}, which names no single section of this report ({shown})"
                )
            target = matches[0]
        missing = [m for m in pair_names(pr) if m not in results[target].methods]
        if missing:
            raise CdplotError(
                f"option pairs: method {missing[0]!r} of a given pair is not in the data; methods "
                f"are {', '.join(results[target].methods)}"
            )
        out[target].append(pr)
    return out


# ---------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------
def _build_context(
    data,
    *,
    title,
    subtitle,
    author,
    date,
    paper,
    decimals,
    template_dir,
    progress,
    compare_kws,
    pairs=(),
    format="pdf",
    stability=None,
):
    found = _resolve(data, compare_kws)
    if not found.results:
        refuse_without_ranks(stability, "repeated-measures ANOVA")
        return _parametric_context(
            found.auto,
            title=title,
            subtitle=subtitle,
            author=author,
            date=date,
            paper=paper,
            decimals=decimals,
            template_dir=template_dir,
            pairs=pairs,
            format=format,
        )
    results, mc, note = list(found.results), found.mc, found.note
    labels = _labels(results, mc)
    multi = len(results) > 1
    per_section = _section_pairs(pairs, results, labels)
    bar = _Progress(_progress_enabled(progress, len(results)), len(results))
    # the method tables' order, which numbers the names a CD diagram has to shorten
    order = _overall_order(results, mc)
    # ... for every section that has all of its methods
    orders = [
        order if order is not None and set(order) == set(r.methods) else None for r in results
    ]
    sections, drawn = [], []
    for i, (r, label, prs, section_order) in enumerate(
        zip(results, labels, per_section, orders, strict=True), 1
    ):
        bar.step(i, f"drawing {label or 'the analysis'}")
        drawn.append(figure_svgs(r, prefix=f"m{i}", order=section_order, format=format))
        section = section_context(
            r,
            index=i,
            label=label,
            multi=multi,
            figures=None,
            decimals=decimals,
            order=section_order,
            paper=paper,
        )
        places = decimals
        if decimals is None and isinstance(r, ComparisonResult):
            places = auto_decimals(r.scores.values)
        section["two_methods"] = [pair_context(pr, decimals=places) for pr in prs]
        section["choice"] = choice_context(found.auto) if found.auto is not None else None
        sections.append(section)
    ctx = document_context(
        results,
        sections=sections,
        mc=mc,
        title=title,
        subtitle=subtitle,
        author=author,
        date=date,
        paper=paper,
        extra_options=_extra_options(paper, decimals, template_dir),
        consistency_note=note,
        order=order,
        auto=found.auto,
    )
    # the tables and words are gathered without the figures, which go in now
    for section, r, figures in zip(ctx["sections"], results, drawn, strict=True):
        with_figures(section, r, figures, paper=paper)
        section["explorer"] = _explorer(r, section["id"], format)
        # the optional stability section (off by default): reporting/_stability.py
        st = stability_for(r, stability)
        if st is True:
            st = obtain_stability(r, seed=REPORT_SEED)
        section["stability"] = (
            None
            if st is None
            else stability_context(st, prefix=section["id"], format=format, paper=paper)
        )
    return ctx, bar


def _explorer(r, section_id: str, format: str):
    """The interactive explorer of ``r`` for an HTML report of many methods, else ``None``.

    A PDF keeps its static figures (WeasyPrint runs no script).
    """
    from markupsafe import Markup

    if format != "html" or r.n_methods < EXPLORER_MIN_METHODS:
        return None
    # the fragment escapes every name itself
    return Markup(explorer_fragment(r, uid=f"{section_id}-explorer"))


def _extra_options(paper, decimals, template_dir) -> dict:
    """The report's own options that the options table lists besides the analysis's."""
    extra = {"paper": paper, "decimals": decimals}
    if template_dir is not None:
        extra["template_dir"] = str(template_dir)
    return extra


def _parametric_context(
    auto, *, title, subtitle, author, date, paper, decimals, template_dir, pairs, format
):
    """The report of compare_auto's parametric path: the choice, the ANOVA and Tukey's HSD."""
    table = auto.scores
    places = auto_decimals(table.values) if decimals is None else decimals
    prs = _section_pairs(pairs, [auto], [auto.metric])[0]
    section = anova_section_context(
        auto,
        figures=anova_figure_svgs(auto, prefix="m1", format=format),
        decimals=places,
        paper=paper,
    )
    section["two_methods"] = [pair_context(pr, decimals=places) for pr in prs]
    extra = _extra_options(paper, decimals, template_dir)
    ctx = anova_document_context(
        auto,
        section=section,
        title=title,
        subtitle=subtitle,
        author=author,
        date=date,
        paper=paper,
        extra_options=extra,
    )
    return ctx, _Progress(False, 1)


def _overall_order(results, mc):
    """The methods by their mean average rank over the metrics (one order for every section).

    None for one metric (its own rank order is used) or metrics with different methods.
    """
    if len(results) < 2 or mc is None:
        return None
    mean = np.mean(np.asarray(mc.average_ranks, dtype=float), axis=0)
    return [mc.methods[i] for i in np.argsort(mean, kind="stable")]


def _characters(value, out: set) -> None:
    """Every character of every string in a context (to subset the embedded fonts)."""
    if isinstance(value, str):
        out.update(value)
    elif isinstance(value, dict):
        for v in value.values():
            _characters(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _characters(v, out)


# what the templates print besides the context's values: ASCII, Latin-1 and the symbols
# of the bundled templates (dashes, quotes, Greek letters, relations, ...)
_TEMPLATE_TEXT = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "".join(chr(c) for c in range(0xA0, 0x100))
    + "\u2009\u200a\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2022\u2212\u2264\u2265"
    + "\u00b7\u00d7\u03b1\u03c7\u03c4\u0161\u2192\u2190\u221e\u2260\u2248"
)


def _fonts_css(ctx: dict, *, embed: bool) -> str:
    families = {SANS, MONO}
    bundled = {f.family for f in bundled_fonts()}
    for s in ctx["sections"]:
        for fig in s["figures"]:
            families |= fig["families"] & bundled
    if not embed:
        # font files named by URL (a PDF): WeasyPrint subsets them, the characters are not needed
        return font_face_css(sorted(families), embed=False)
    chars: set = set(_TEMPLATE_TEXT)
    _characters(ctx, chars)
    return font_face_css(sorted(families), embed=embed, text="".join(sorted(chars)))


def finish_context(ctx: dict, *, embed_fonts: bool, paper: str) -> dict:
    """The context with its fonts, page size and figures' markup, ready for the templates.

    A figure drawn for print (``for_print``, a PDF) becomes an image of its
    SVG (:func:`_svg_image`); others stay inline SVG.
    """
    from markupsafe import Markup

    out = dict(ctx)
    out["font_faces"] = _fonts_css(ctx, embed=embed_fonts)
    out["page_size"] = _PAGE_SIZES[paper]
    sections = []
    for s in ctx["sections"]:
        s = dict(s)
        # the figures were cleaned by figures.clean_svg: no script, handler or outside reference
        s["figures"] = [
            dict(
                f, svg=_svg_image(f["svg"], f["title"]) if f.get("for_print") else Markup(f["svg"])
            )
            for f in s["figures"]
        ]
        if s.get("stability") and s["stability"]["figure"] is not None:
            fig = s["stability"]["figure"]
            svg = _svg_image(fig["svg"], fig["title"]) if fig["for_print"] else Markup(fig["svg"])
            s["stability"] = dict(s["stability"], figure=dict(fig, svg=svg))
        sections.append(s)
    out["sections"] = sections
    return out


def _svg_image(svg: str, title: str):
    """``svg`` as an ``<img>`` of a ``data:image/svg+xml`` URL, with its ``<title>`` as ``alt``.

    A PDF report's figures reach WeasyPrint so, not inline: inline, an SVG's
    hundreds to thousands of elements would go through WeasyPrint's
    pure-Python HTML parser and get a computed style each (and six
    pseudo-element styles), for the same drawing.

    WeasyPrint draws an image's SVG as it draws inline SVG; the tagged PDF's
    Figure takes its text alternative from the ``alt`` where inline SVG gave
    its ``<title>`` (context._place_figure: the figure's title and finding),
    so the two are the same text.  A data URL keeps the page one string; the
    fetcher serves such URLs and no other
    ``data:`` (fetcher.SVG_DATA_URL).  Both attributes are escaped: the
    title holds names from the input.
    """
    import base64
    from html import unescape

    from markupsafe import Markup

    found = re.match(r"<svg\b[^>]*>\s*<title>(.*?)</title>", svg, re.S)
    alt = unescape(found.group(1)) if found else title
    url = fetching.SVG_DATA_URL + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return Markup('<img class="fig-image" src="{}" alt="{}">').format(url, alt)


def render_html(
    results_or_data: ReportInput,
    *,
    title: str | None = None,
    subtitle: str | None = None,
    author: str | None = None,
    date: str | _dt.date | None = None,
    paper: Paper = "a4",
    template_dir: str | os.PathLike[str] | None = None,
    decimals: int | None = None,
    pairs: Sequence[PairResult] | None = None,
    embed_fonts: bool = True,
    compare_kws: Mapping[str, object] | None = None,
    stability: bool | StabilityResult | None = None,
) -> str:
    """The report as one self-contained HTML document (see :func:`report`).

    Parameters
    ----------
    results_or_data
        As in :func:`report`.
    title, subtitle, author, date, paper, template_dir, decimals, pairs, compare_kws, stability
        As in :func:`report`.
    embed_fonts : bool, default True
        Embed the bundled fonts as ``data:`` URLs (a standalone file);
        ``False`` points at the font files instead, for WeasyPrint.

    Returns
    -------
    str
        The HTML text.

    Raises
    ------
    CdplotError
        As :func:`report`.
    """
    check_bool("embed_fonts", embed_fonts)
    ctx, _ = prepare_context(
        results_or_data,
        title=title,
        subtitle=subtitle,
        author=author,
        date=date,
        paper=paper,
        decimals=decimals,
        template_dir=template_dir,
        progress=None,
        compare_kws=compare_kws,
        pairs=pairs,
        format="html",
        stability=stability,
    )
    return render_template(
        "base.html.j2",
        finish_context(ctx, embed_fonts=embed_fonts, paper=paper),
        _check_template_dir(template_dir),
    )


def prepare_context(
    data,
    *,
    title=None,
    subtitle=None,
    author=None,
    date=None,
    paper="a4",
    decimals=None,
    template_dir=None,
    progress=None,
    compare_kws=None,
    pairs=None,
    format="pdf",
    stability=None,
):
    """Validate the options and gather the values of a report (before fonts are added).

    Parameters
    ----------
    data : result or scores
        As ``results_or_data`` of :func:`report`.
    title, subtitle, author, date, paper, decimals, template_dir, progress, pairs, compare_kws
        As in :func:`report`.
    format : {'pdf', 'html'}, default 'pdf'
        The report the figures are drawn for (see
        :func:`cdplot.reporting._figures.figure_svgs`).
    stability : bool or StabilityResult, optional
        As in :func:`report`.

    Returns
    -------
    tuple
        The context (plain values for the templates) and the progress
        reporter.
    """
    compare_kws = _check_compare_kws(compare_kws)
    check_option("paper", paper, PAPERS)
    for name, value in (("title", title), ("subtitle", subtitle), ("author", author)):
        _check_text(name, value)
    decimals = check_decimals(decimals)
    template_dir = _check_template_dir(template_dir)
    return _build_context(
        data,
        title=title,
        subtitle=subtitle,
        author=author,
        date=_check_date(date),
        paper=paper,
        decimals=decimals,
        template_dir=template_dir,
        progress=progress,
        compare_kws=compare_kws,
        pairs=check_pairs(pairs),
        format=check_option("format", format, FORMATS),
        stability=check_stability(stability),
    )


def _write_pdf(html: str, path: Path, fetcher=None) -> None:
    """Lay out ``html`` (the bundled templates') with WeasyPrint and write the PDF atomically."""
    pdf, refused = pdf_bytes(html, fetcher=fetcher)
    with atomic_write(path, "wb") as fh:
        fh.write(pdf)
    # the warning points at the caller of report()
    warn_refused(refused, stacklevel=3)


def report(
    results_or_data: ReportInput,
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    subtitle: str | None = None,
    author: str | None = None,
    date: str | _dt.date | None = None,
    paper: Paper = "a4",
    format: ReportFormat | None = None,
    template_dir: str | os.PathLike[str] | None = None,
    decimals: int | None = None,
    progress: bool | None = None,
    pairs: Sequence[PairResult] | None = None,
    compare_kws: Mapping[str, object] | None = None,
    stability: bool | StabilityResult | None = None,
) -> Path:
    """Write a report of every statistic, figure and conclusion of an analysis.

    Parameters
    ----------
    results_or_data : ComparisonResult, MetricsComparison, AutoResult, list of ComparisonResult, \
or scores
        What to report.  Results are formatted as they are: a
        :class:`ComparisonResult` (one section), a :class:`MetricsComparison`,
        a :class:`~cdplot.stats.SeparateAnalyses` or a list of
        ComparisonResult, one per metric (one section each and, when the
        metrics compare the same methods, a section on how far they agree;
        see :func:`cdplot.stats.relate_metrics`), or an :class:`AutoResult`
        of :func:`cdplot.compare_auto` (the choice of analysis and its
        reason, then the chosen analysis: the rank-based one, or
        repeated-measures ANOVA with Tukey's HSD).
        Anything else is taken as scores (a file name, a DataFrame, a
        :class:`ScoreTable`, a list of them...) and analysed by
        :func:`cdplot.compare` with ``compare_kws``, one analysis per metric.
    path : str or Path
        Output file, written atomically (a complete file or none).
    title, subtitle, author : str, optional
        Shown at the top (the title defaults to a description of the
        comparison).  They are text: markup in them is shown, not obeyed.
    date : str or datetime.date, optional
        Date printed on the report (default: today, or ``SOURCE_DATE_EPOCH``
        when set, for reproducible builds).
    paper : {'a4', 'letter'}, default 'a4'
        Page size of the PDF and of printing the HTML.
    format : {'html', 'pdf'}, optional
        Output format; by default from the extension of ``path``.
    template_dir : str or Path, optional
        Folder of templates replacing bundled ones of the same name
        (``summary.html.j2``, ``omnibus.html.j2``, ...); they run in Jinja2's
        sandbox and may extend ``"cdplot/<name>"`` to override single blocks.
    decimals : int, optional
        Decimals of the scores in the data table (default: as typed).
    progress : bool, optional
        Tell on stderr how far the report got.  By default only for reports
        of at least three metrics written from a terminal.
    pairs : sequence of PairResult, optional
        Head-to-head comparisons of two methods (the Wilcoxon signed-rank
        test, the sign test on wins, ties and losses, and the paired
        t-test, as Demšar (2006, section 3.1) describes), each shown in the
        section of its metric.  Make them with
        :func:`cdplot.stats.analyse_pairs` (``analyse_pairs(result,
        [("A", "B")])`` reuses the analysis's scores, direction, alpha and
        Wilcoxon options) or :func:`cdplot.compare_pair`; the report only
        formats them.  A t-test that is undefined (the same difference on
        every data set) is shown with the reason.

    compare_kws : dict, optional
        Keyword arguments of :func:`cdplot.compare` (``higher_is_better``,
        which may also be a ``{metric: bool}`` mapping, ``alpha``, ``test``,
        ``correction``, ``control``, ``tie_correction``, ``zero_method``,
        ``method``, ``nan_policy``, ``metric`` to report one metric of
        several, ``methods``, ``datasets``), used only when
        ``results_or_data`` is scores, each metric analysed with them.  For
        the choice between ANOVA and Friedman pass the result of
        :func:`cdplot.compare_auto`.  Given with results, they are an error
        (the results were analysed already).
    stability : bool or StabilityResult, optional
        Add a section on the stability of each rank analysis over data sets
        (:func:`cdplot.stability`: average-rank intervals, the probability
        of each rank with its figure, how often the significant pairs stay
        significant, and the data sets whose removal changes a conclusion).
        Off by default (``None`` or ``False``); ``True`` computes it with
        1,000 bootstrap samples and seed 0; a :class:`StabilityResult` of
        the same analysis is shown as it is.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    CdplotError
        For an invalid option, an unknown extension, a template error (one
        line naming the template and line), an analysis option given with
        results (they were analysed already), invalid data, or a ``path``
        that is the data file itself.

    Notes
    -----
    ``compare_kws`` is used only when ``results_or_data`` is scores; a
    ``None`` value means the default of :func:`cdplot.compare`.  The HTML is one
    self-contained file: figures inline as SVG, the CSS and the bundled
    fonts embedded, and no ``src`` or ``href`` leading outside the file.
    The PDF is rendered from the same HTML by WeasyPrint, whose URL fetcher
    serves only cdplot's bundled fonts and the figures, which a PDF gives
    as ``data:image/svg+xml`` images: a name, title or template pointing
    at a file or a web address causes no read and no request.  Every name
    from the input is escaped.  The report is made in this process, except
    with ``template_dir``: the user's templates are rendered, and a PDF laid
    out and written by WeasyPrint, in a child process limited to 60 s,
    2 GiB of memory and 1,000 pages, so that no template can hang the
    machine or fill its memory.  That child is forked, which Windows cannot
    do: there ``template_dir`` is refused (a one-line error) rather than
    run without its limits.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30.

    Examples
    --------
    >>> import cdplot, tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.html"
    >>> cdplot.report(cdplot.load_example("demsar2006"), out).name
    'report.html'
    """
    path = Path(path)
    fmt = _check_format(format, path)
    _check_not_an_input(path, results_or_data)
    if not path.parent.is_dir() and str(path.parent):
        raise CdplotError(f"output folder {str(path.parent)!r} does not exist")
    ctx, bar = prepare_context(
        results_or_data,
        title=title,
        subtitle=subtitle,
        author=author,
        date=date,
        paper=paper,
        decimals=decimals,
        template_dir=template_dir,
        progress=progress,
        compare_kws=compare_kws,
        pairs=pairs,
        format=fmt,
        stability=stability,
    )
    template_dir = _check_template_dir(template_dir)
    ctx = finish_context(
        ctx,
        embed_fonts=fmt == "html",
        paper=paper,
    )
    if fmt == "html":
        html = render_template("base.html.j2", ctx, template_dir)
        with atomic_write(path, "w") as fh:
            fh.write(html)
    elif template_dir is None:
        html = render_template("base.html.j2", ctx)
        bar.note("writing PDF")
        _write_pdf(html, path)
    else:
        from ._user_templates import MAX_PAGES

        bar.note("writing PDF")
        # a user's templates decide how long the page is: WeasyPrint lays it out in the
        # templates' bounded child, which refuses more than MAX_PAGES pages
        pdf, refused = render_template(
            "base.html.j2",
            ctx,
            template_dir,
            finish=functools.partial(
                pdf_bytes, max_pages=MAX_PAGES, where=f"{opt('template_dir', str(template_dir))}: "
            ),
        )
        with atomic_write(path, "wb") as fh:
            fh.write(pdf)
        # the warning points at the caller of report()
        warn_refused(refused, stacklevel=2)
    bar.note(f"wrote {path}")
    return path
