"""Compose results, figures and templates into an HTML or PDF report.

The pipeline: analyse (when given data) -> draw each metric's figures as
SVG -> gather plain values (:mod:`cdplot.reporting.context`) -> render the
Jinja2 templates -> write the HTML, or hand it to WeasyPrint with a URL
fetcher that serves only cdplot's bundled fonts.  jinja2, matplotlib and
weasyprint are imported inside the functions, so that ``import cdplot``
stays light.
"""

from __future__ import annotations

import datetime as _dt
import logging
import os
import sys
from pathlib import Path

from .._atomic import atomic_write
from .._options import REPORT_FORMATS as FORMATS
from .._options import check_option
from .._resources import templates_dir
from ..errors import CdplotError, CdplotWarning

__all__ = [
    "report",
    "render_html",
    "render_block",
    "make_environment",
    "PAPERS",
    "FORMATS",
    "TEMPLATE_NAMES",
]

PAPERS = ("a4", "letter")
_SUFFIX_FORMATS = {".html": "html", ".htm": "html", ".pdf": "pdf"}
# CSS @page sizes
_PAGE_SIZES = {"a4": "A4", "letter": "letter"}
# a report with at least this many metrics tells on stderr how far it got
MANY_METRICS = 3

# the templates a user may override in --template DIR, and the block each defines
TEMPLATE_NAMES = {
    "base.html.j2": ("head", "body"),
    "title.html.j2": ("title",),
    "toc.html.j2": ("toc",),
    "summary.html.j2": ("summary",),
    "data_table.html.j2": ("data_table", "data_table_body"),
    "omnibus.html.j2": ("omnibus",),
    "posthoc.html.j2": ("posthoc",),
    "figures.html.j2": ("figures",),
    "pairwise.html.j2": ("pairwise",),
    "two_methods.html.j2": ("two_methods",),
    "consistency.html.j2": ("consistency",),
    "methods.html.j2": ("methods", "methods_paragraph", "bibtex"),
    "footer.html.j2": ("footer",),
}

_ANALYSIS_OPTIONS = (
    "higher_is_better",
    "alpha",
    "test",
    "correction",
    "control",
    "tie_correction",
    "zero_method",
    "distribution",
    "nan_policy",
    "metric",
    "methods",
    "datasets",
)


# ---------------------------------------------------------------------------
# Jinja2
# ---------------------------------------------------------------------------
def _autoescape():
    import jinja2

    # everything is escaped except the stylesheet, which holds no input data
    return jinja2.select_autoescape(
        enabled_extensions=("html", "htm", "xml", "j2"),
        disabled_extensions=("css",),
        default_for_string=True,
        default=True,
    )


def make_environment(template_dir=None):
    """The Jinja2 environment of the report templates.

    Parameters
    ----------
    template_dir : str or Path, optional
        A folder of user templates.  A file there replaces the bundled
        template of the same name (``omnibus.html.j2``, ...), and may
        extend the bundled one as ``"cdplot/<name>"`` to override only some
        of its blocks.  User templates run in Jinja2's
        :class:`~jinja2.sandbox.SandboxedEnvironment`, read only regular
        files inside the folder (links are judged by their target) and are
        rendered in a child process bounded in time and memory (see
        :mod:`cdplot.reporting.user_templates`).

    Returns
    -------
    jinja2.Environment
        With autoescaping (except for ``.css``) and ``StrictUndefined``.
    """
    import jinja2

    builtin = jinja2.FileSystemLoader(str(templates_dir()))
    options = {
        "autoescape": _autoescape(),
        "undefined": jinja2.StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }
    if template_dir is None:
        return jinja2.Environment(loader=builtin, **options)
    from .user_templates import BoundedSandbox, ConfinedLoader

    loader = jinja2.ChoiceLoader(
        [ConfinedLoader(template_dir), jinja2.PrefixLoader({"cdplot": builtin}), builtin]
    )
    return BoundedSandbox(loader=loader, **options)


def _template_error(exc, template_dir) -> CdplotError:
    where = f"template_dir={str(template_dir)!r}: " if template_dir is not None else ""
    name = getattr(exc, "name", None) or getattr(exc, "filename", None)
    line = getattr(exc, "lineno", None)
    loc = f"{name} line {line}: " if name and line else (f"{name}: " if name else "")
    message = " ".join(str(getattr(exc, "message", None) or exc).split())
    return CdplotError(f"{where}{loc}{type(exc).__name__}: {message}")


def _run_templates(render, template_dir) -> str:
    """Call ``render()``: in-process for the bundled templates, bounded for a user's."""
    import jinja2

    if template_dir is not None:
        from .user_templates import render_bounded

        return render_bounded(render, template_dir, lambda e: _template_error(e, template_dir))
    try:
        return render()
    except jinja2.TemplateError as exc:
        raise _template_error(exc, None) from None


def _render(template_name: str, context: dict, template_dir=None) -> str:
    env = make_environment(template_dir)
    return _run_templates(lambda: env.get_template(template_name).render(context), template_dir)


def render_block(template_name: str, block: str, context: dict, template_dir=None) -> str:
    """Render one named block of a template (the report's pieces, on their own)."""
    env = make_environment(template_dir)

    def render():
        template = env.get_template(template_name)
        return "".join(template.blocks[block](template.new_context(context))).strip()

    return _run_templates(render, template_dir)


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _check_text(name, value):
    if value is None:
        return None
    if not isinstance(value, str):
        raise CdplotError(f"option {name}={value!r} must be text")
    return value


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
    raise CdplotError(f"option date={date!r} must be text or a datetime.date")


def _check_format(format, path: Path) -> str:
    if format is not None:
        return check_option("format", format, FORMATS)
    suffix = path.suffix.lower()
    if suffix not in _SUFFIX_FORMATS:
        raise CdplotError(
            f"output {str(path)!r} has no .html or .pdf extension; name it so or give "
            "format='html' or 'pdf'"
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
        raise CdplotError(f"option template_dir={str(template_dir)!r} is not a folder")
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
        raise CdplotError(f"option progress={progress!r} must be True, False or None")
    return progress


def _resolve(data, analysis: dict):
    """``(results, labels, MetricsComparison or None, note)`` from whatever was passed."""
    from ..stats.consistency import MetricsComparison, compare_metrics
    from ..stats.results import ComparisonResult

    given = {k: v for k, v in analysis.items() if v is not None}
    is_results = isinstance(data, (ComparisonResult, MetricsComparison)) or (
        isinstance(data, (list, tuple))
        and data
        and all(isinstance(r, ComparisonResult) for r in data)
    )
    if is_results and given:
        names = ", ".join(sorted(given))
        raise CdplotError(
            f"options {names} apply when the report analyses data; these results were already "
            "analysed"
        )
    if isinstance(data, ComparisonResult):
        return [data], None, None
    if isinstance(data, MetricsComparison):
        return list(data.results), data, None
    if is_results:
        results = list(data)
    else:
        from ..io import as_score_tables
        from ..stats.compare import compare_table

        read = {k: given[k] for k in ("methods", "datasets", "nan_policy", "metric") if k in given}
        tables = as_score_tables(data, **read)
        opts = {k: v for k, v in given.items() if k not in ("methods", "datasets", "metric")}
        if len(tables) > 1:
            try:
                mc = compare_metrics(list(tables), **opts)
            except CdplotError as exc:
                # different methods per metric still make a report, without comparing the metrics
                if "same methods" not in str(exc):
                    raise
                hib = opts.pop("higher_is_better", None)
                results = [
                    compare_table(
                        t,
                        higher_is_better=hib.get(t.metric) if isinstance(hib, dict) else hib,
                        **opts,
                    )
                    for t in tables
                ]
                return results, None, _no_consistency_note(exc)
            return list(mc.results), mc, None
        if isinstance(opts.get("higher_is_better"), dict):
            hib = opts.pop("higher_is_better")
            opts["higher_is_better"] = hib.get(tables[0].metric)
        return [compare_table(tables[0], **opts)], None, None
    if len(results) == 1:
        return results, None, None
    try:
        mc = MetricsComparison.from_results(results)
    except CdplotError as exc:
        if "same methods" not in str(exc):
            raise
        return results, None, _no_consistency_note(exc)
    return list(mc.results), mc, None


def _no_consistency_note(exc) -> str:
    return f"The metrics are not compared with each other because {exc}."


def _labels(results, mc) -> list[str | None]:
    if mc is not None:
        return list(mc.metrics)
    if len(results) == 1:
        return [results[0].metric]
    from ..stats.consistency import _label, _unique_labels

    return _unique_labels([_label(r, i + 1) for i, r in enumerate(results)])


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
    analysis,
    while_drawing=None,
    pairs=(),
):
    from ._format import auto_decimals
    from .context import document_context, section_context
    from .figures import figure_svgs_many
    from .pairs import pair_context

    results, mc, note = _resolve(data, analysis)
    labels = _labels(results, mc)
    multi = len(results) > 1
    bar = _Progress(_progress_enabled(progress, len(results)), len(results))
    # the figures are the slow part here; other processes may draw them while this one
    # goes on with while_drawing (each analysis is drawn once, whoever draws it)
    drawn = figure_svgs_many(
        results,
        [f"m{i}" for i in range(1, len(results) + 1)],
        while_drawing=while_drawing,
        progress=lambda i: bar.step(i, f"drawing {labels[i - 1] or 'the analysis'}"),
    )
    order = _overall_order(results, mc)
    sections = []
    for i, (r, label, figures) in enumerate(zip(results, labels, drawn, strict=True), start=1):
        section = section_context(
            r,
            index=i,
            label=label,
            multi=multi,
            figures=figures,
            decimals=decimals,
            order=order if order is not None and set(order) == set(r.methods) else None,
            paper=paper,
        )
        places = auto_decimals(r.scores.values) if decimals is None else decimals
        section["two_methods"] = [pair_context(r, a, b, decimals=places) for a, b in pairs]
        sections.append(section)
    extra = {"paper": paper, "decimals": decimals}
    if template_dir is not None:
        extra["template_dir"] = str(template_dir)
    ctx = document_context(
        results,
        sections=sections,
        mc=mc,
        title=title,
        subtitle=subtitle,
        author=author,
        date=date,
        paper=paper,
        extra_options=extra,
        consistency_note=note,
        order=order,
    )
    return ctx, bar


def _overall_order(results, mc):
    """The methods by their mean average rank over the metrics (one order for every section).

    None for one metric (its own rank order is used) or metrics with different methods.
    """
    import numpy as np

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
    from .figures import svg_font_families
    from .fonts import MONO, SANS, bundled_fonts, font_face_css

    families = {SANS, MONO}
    bundled = {f.family for f in bundled_fonts()}
    for s in ctx["sections"]:
        for fig in s["figures"]:
            families |= svg_font_families(fig["svg"]) & bundled
    chars: set = set(_TEMPLATE_TEXT)
    _characters(ctx, chars)
    return font_face_css(sorted(families), embed=embed, text="".join(sorted(chars)))


def _finish_context(ctx: dict, *, embed_fonts: bool, paper: str) -> dict:
    from markupsafe import Markup

    out = dict(ctx)
    out["font_faces"] = _fonts_css(ctx, embed=embed_fonts)
    out["page_size"] = _PAGE_SIZES[paper]
    sections = []
    for s in ctx["sections"]:
        s = dict(s)
        # the figures were cleaned by figures.clean_svg: no script, handler or outside reference
        s["figures"] = [dict(f, svg=Markup(f["svg"])) for f in s["figures"]]
        sections.append(s)
    out["sections"] = sections
    return out


def render_html(
    results_or_data,
    *,
    title: str | None = None,
    subtitle: str | None = None,
    author: str | None = None,
    date=None,
    paper: str = "a4",
    decimals: int | None = None,
    template_dir=None,
    embed_fonts: bool = True,
    pairs=None,
    **analysis,
) -> str:
    """The report as one self-contained HTML document (see :func:`report`).

    Parameters
    ----------
    results_or_data, title, subtitle, author, date, paper, decimals, template_dir, pairs, **analysis
        As in :func:`report`.
    embed_fonts : bool, default True
        Embed the bundled fonts as ``data:`` URLs (a standalone file);
        ``False`` points at the font files instead, for WeasyPrint.

    Returns
    -------
    str
        The HTML text.
    """
    ctx, _ = _prepare(
        results_or_data,
        title,
        subtitle,
        author,
        date,
        paper,
        decimals,
        template_dir,
        None,
        analysis,
        pairs=pairs,
    )
    return _render(
        "base.html.j2", _finish_context(ctx, embed_fonts=embed_fonts, paper=paper), template_dir
    )


def _prepare(
    data,
    title,
    subtitle,
    author,
    date,
    paper,
    decimals,
    template_dir,
    progress,
    analysis,
    while_drawing=None,
    pairs=None,
):
    from ._format import check_decimals
    from .pairs import check_pairs

    unknown = set(analysis) - set(_ANALYSIS_OPTIONS)
    if unknown:
        raise TypeError(f"unexpected keyword argument {sorted(unknown)[0]!r}")
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
        analysis=analysis,
        while_drawing=while_drawing,
        pairs=check_pairs(pairs),
    )


def _import_pdf_writer() -> None:
    """Import what writing a PDF needs (about a second), while workers draw the figures."""
    import weasyprint  # noqa: F401
    import weasyprint.pdf.fonts  # noqa: F401  (imported lazily by write_pdf otherwise)


def _write_pdf(html: str, path: Path, fetcher=None) -> None:
    import gc
    import warnings

    import weasyprint

    from .fetcher import make_fetcher

    fetcher = make_fetcher() if fetcher is None else fetcher
    # fontTools, which WeasyPrint uses on the embedded fonts, warns on stderr about harmless
    # quirks of font headers (an old "created" date in CMU Serif); the report is not the place
    fonttools_log = logging.getLogger("fontTools")
    level = fonttools_log.level
    fonttools_log.setLevel(logging.ERROR)
    # WeasyPrint builds hundreds of thousands of small objects (boxes, styles) that live until
    # the PDF is written; the cyclic collector would walk them again and again for nothing
    # (a tenth of the time of a long report), so it rests until the document is done
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        document = weasyprint.HTML(string=html, base_url=None, url_fetcher=fetcher)
        # PDF/UA: a tagged PDF (headings, tables, figures with their text alternatives, the
        # document's language and title) that screen readers and reflow can use
        pdf = document.write_pdf(pdf_variant="pdf/ua-1")
    finally:
        fonttools_log.setLevel(level)
        if gc_was_enabled:
            gc.enable()
    with atomic_write(path, "wb") as fh:
        fh.write(pdf)
    refused = getattr(fetcher, "refused", ())
    if refused:
        shown = ", ".join(repr(u[:60]) for u in refused[:3])
        more = f" and {len(refused) - 3} more" if len(refused) > 3 else ""
        warnings.warn(
            f"the report refers to {len(refused)} outside resources that were not loaded: "
            f"{shown}{more}",
            CdplotWarning,
            stacklevel=3,
        )


def report(
    results_or_data,
    path,
    *,
    title: str | None = None,
    subtitle: str | None = None,
    author: str | None = None,
    date=None,
    paper: str = "a4",
    format: str | None = None,
    template_dir=None,
    decimals: int | None = None,
    progress: bool | None = None,
    pairs=None,
    higher_is_better=None,
    alpha: float | None = None,
    test: str | None = None,
    correction: str | None = None,
    control: str | None = None,
    tie_correction: bool | None = None,
    zero_method: str | None = None,
    distribution: str | None = None,
    nan_policy: str | None = None,
    metric: str | None = None,
    methods=None,
    datasets=None,
) -> Path:
    """Write a report of every statistic, figure and conclusion of an analysis.

    Parameters
    ----------
    results_or_data : ComparisonResult, MetricsComparison, list of ComparisonResult, or data
        What to report: analyses already run, or anything :func:`cdplot.compare`
        accepts (a file name, a DataFrame, a :class:`ScoreTable` or a list of
        them...), which is then analysed with the analysis options below.
        Several metrics give one section per metric and a section on how far
        the metrics agree (:func:`cdplot.compare_metrics`).
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
    pairs : sequence of (str, str), optional
        Pairs of methods to compare head to head in every section with the
        Wilcoxon signed-rank test, the sign test (wins, ties, losses) and the
        paired t-test, as Demšar (2006, section 3.1) describes.

        .. versionadded:: 0.1.0
    higher_is_better, alpha, test, correction, control, tie_correction, zero_method, distribution, nan_policy
        Analysis options of :func:`cdplot.compare` (``higher_is_better`` may
        also be ``{metric: bool}``), used only when ``results_or_data`` is
        data; ``None`` means the default of :func:`cdplot.compare`.
    metric : str, optional
        Report only this metric of data holding several.
    methods, datasets : sequence of str, optional
        Names for the columns and rows of an unlabelled array.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    CdplotError
        For an invalid option, an unknown extension, a template error (one
        line naming the template and line), analysis options given with
        results, invalid data, or a ``path`` that is the data file itself.

    Notes
    -----
    The HTML is one self-contained file: figures inline as SVG, the CSS and
    the bundled fonts embedded, and no ``src`` or ``href`` leading outside
    the file.  The PDF is rendered from the same HTML by WeasyPrint, whose
    URL fetcher serves only cdplot's bundled fonts: a name, title or
    template pointing at a file or a web address causes no read and no
    request.  Every name from the input is escaped.

    Examples
    --------
    >>> import cdplot, tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.html"
    >>> cdplot.report(cdplot.load_example("demsar2006"), out).name
    'report.html'
    """  # noqa: E501
    path = Path(path)
    fmt = _check_format(format, path)
    _check_not_an_input(path, results_or_data)
    analysis = {
        "higher_is_better": higher_is_better,
        "alpha": alpha,
        "test": test,
        "correction": correction,
        "control": control,
        "tie_correction": tie_correction,
        "zero_method": zero_method,
        "distribution": distribution,
        "nan_policy": nan_policy,
        "metric": metric,
        "methods": methods,
        "datasets": datasets,
    }
    if not path.parent.is_dir() and str(path.parent):
        raise CdplotError(f"output folder {str(path.parent)!r} does not exist")
    ctx, bar = _prepare(
        results_or_data,
        title,
        subtitle,
        author,
        date,
        paper,
        decimals,
        template_dir,
        progress,
        analysis,
        while_drawing=_import_pdf_writer if fmt == "pdf" else None,
        pairs=pairs,
    )
    template_dir = _check_template_dir(template_dir)
    html = _render(
        "base.html.j2", _finish_context(ctx, embed_fonts=fmt == "html", paper=paper), template_dir
    )
    if fmt == "html":
        with atomic_write(path, "w") as fh:
            fh.write(html)
    else:
        bar.note("writing PDF")
        _write_pdf(html, path)
    bar.note(f"wrote {path}")
    return path
