"""The Jinja2 side of the report: the environment, the bundled templates, rendering.

Kept apart from :mod:`cdplot.reporting._render` (which composes a whole
report) so that the pieces rendered on their own, such as the HTML data
table of :func:`cdplot.data_table`, need no part of the report pipeline.
jinja2 is imported inside the functions, so that importing the package
stays light.
"""

from __future__ import annotations

import functools
import re

from .._resources import templates_dir
from ..errors import CdplotError, opt

__all__ = [
    "TEMPLATE_NAMES",
    "make_environment",
    "render_template",
    "render_block",
]

# the templates a user may override in --template DIR, and the block each defines
TEMPLATE_NAMES = {
    "base.html.j2": ("head", "body"),
    "title.html.j2": ("title",),
    "toc.html.j2": ("toc",),
    "summary.html.j2": ("summary",),
    "choice.html.j2": ("choice",),
    "data_table.html.j2": ("data_table", "data_table_body"),
    "omnibus.html.j2": ("omnibus",),
    "posthoc.html.j2": ("posthoc",),
    "anova.html.j2": ("anova",),
    "figures.html.j2": ("figures",),
    "pairwise.html.j2": ("pairwise",),
    "effects.html.j2": ("effect_sizes",),
    "two_methods.html.j2": ("two_methods",),
    "stability.html.j2": ("stability",),
    "consistency.html.j2": ("consistency",),
    "methods.html.j2": ("methods", "methods_paragraph", "bibtex"),
    "footer.html.j2": ("footer",),
}


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
        :mod:`cdplot.reporting._user_templates`).

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
    # user_templates imports jinja2 at its top, which a bare report import must not pay
    from ._user_templates import BoundedSandbox, ConfinedLoader

    loader = jinja2.ChoiceLoader(
        [ConfinedLoader(template_dir), jinja2.PrefixLoader({"cdplot": builtin}), builtin]
    )
    return BoundedSandbox(loader=loader, **options)


@functools.lru_cache(maxsize=1)
def _bundled_environment():
    # one environment for the bundled templates: Jinja2 keeps what it compiled (and
    # compiles again only a file that changed), so a template is compiled once per process
    return make_environment(None)


def _environment(template_dir):
    return _bundled_environment() if template_dir is None else make_environment(template_dir)


def _template_error(exc, template_dir) -> CdplotError:
    where = f"{opt('template_dir', str(template_dir))}: " if template_dir is not None else ""
    name = getattr(exc, "name", None) or getattr(exc, "filename", None)
    line = getattr(exc, "lineno", None)
    loc = f"{name} line {line}: " if name and line else (f"{name}: " if name else "")
    message = " ".join(str(getattr(exc, "message", None) or exc).split())
    return CdplotError(f"{where}{loc}{type(exc).__name__}: {message}")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _run_templates(render, template_dir, finish=None):
    """``render()``, then ``finish``: here for the bundled templates, bounded for a user's."""
    import jinja2

    if template_dir is not None:
        from ._user_templates import render_bounded

        def checked():
            text = render()
            # a template can make any code point ("%c" % 55296); a lone surrogate cannot be
            # written to a file, a font subset or WeasyPrint, so it is refused here by name
            bad = _SURROGATE.search(text)
            if bad is not None:
                raise CdplotError(
                    f"{opt('template_dir', str(template_dir))}: the templates' output holds a lone "
                    f"surrogate (U+{ord(bad[0]):04X}), which no UTF-8 file can hold; fix the "
                    "templates",
                    option="template_dir",
                )
            return text

        return render_bounded(
            checked, template_dir, lambda e: _template_error(e, template_dir), finish
        )
    try:
        text = render()
    except jinja2.TemplateError as exc:
        raise _template_error(exc, None) from None
    return text if finish is None else finish(text)


def render_template(template_name: str, context: dict, template_dir=None, *, finish=None):
    """Render one whole template with ``context`` (a user's templates bounded in a child).

    Parameters
    ----------
    template_name : str
        A bundled template name (``"base.html.j2"``, ...).
    context : dict
        The values the template reads.
    template_dir : str or Path, optional
        A folder of user templates, as in :func:`make_environment`.
    finish : callable, optional
        Applied to the rendered text; with user templates it runs in the
        same bounded child (a PDF's layout, which a template can make as
        long as it likes), and its value must pickle.

    Returns
    -------
    str or object
        The rendered text, or ``finish``'s value of it.
    """
    env = _environment(template_dir)
    return _run_templates(
        lambda: env.get_template(template_name).render(context), template_dir, finish
    )


def render_block(template_name: str, block: str, context: dict, template_dir=None) -> str:
    """Render one named block of a template (the report's pieces, on their own).

    Parameters
    ----------
    template_name : str
        A bundled template name.
    block : str
        The name of a block the template defines.
    context : dict
        The values the block reads.
    template_dir : str or Path, optional
        A folder of user templates, as in :func:`make_environment`.

    Returns
    -------
    str
        The block's text, stripped.
    """
    env = _environment(template_dir)

    def render():
        template = env.get_template(template_name)
        return "".join(template.blocks[block](template.new_context(context))).strip()

    return _run_templates(render, template_dir)
