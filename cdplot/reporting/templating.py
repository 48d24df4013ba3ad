"""The Jinja2 side of the report: the environment, the bundled templates, rendering.

Kept apart from :mod:`cdplot.reporting.render` (which composes a whole
report) so that the pieces rendered on their own, such as the HTML data
table of :func:`cdplot.data_table`, need no part of the report pipeline.
jinja2 is imported inside the functions, so that importing the package
stays light.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import stat
import sys
from pathlib import Path

from .._resources import templates_dir
from ..errors import CdplotError

__all__ = [
    "TEMPLATE_NAMES",
    "make_environment",
    "render_template",
    "render_block",
    "preload_templates",
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
    # user_templates imports jinja2 at its top, which a bare report import must not pay
    from .user_templates import BoundedSandbox, ConfinedLoader

    loader = jinja2.ChoiceLoader(
        [ConfinedLoader(template_dir), jinja2.PrefixLoader({"cdplot": builtin}), builtin]
    )
    return BoundedSandbox(loader=loader, **options)


def _cache_root() -> Path | None:
    """cdplot's folder in the user's cache: ``$CDPLOT_CACHE_DIR``, else ``$XDG_CACHE_HOME/cdplot``.

    ``XDG_CACHE_HOME`` counts only when absolute (the XDG base directory
    specification), else ``~/.cache``; None when there is no home.
    """
    own = os.environ.get("CDPLOT_CACHE_DIR")
    if own:
        return Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "cdplot"
    try:
        return Path.home() / ".cache" / "cdplot"
    except RuntimeError:
        return None


def _private_dir(path: Path) -> bool:
    """Make ``path`` (and missing parents) mode 0700; whether it is a directory only we can use."""
    if not hasattr(os, "getuid"):  # no owner to check (Windows): no cache
        return False
    try:
        missing = []
        while not os.path.lexists(path) and path != path.parent:
            missing.append(path)
            path = path.parent
        # each folder created private (the XDG specification asks so of ~/.cache too)
        for folder in reversed(missing):
            folder.mkdir(mode=0o700, exist_ok=True)
        path = missing[0] if missing else path
        info = os.lstat(path)
    except OSError:
        return False
    # the cache holds code this process runs: another user's or a shared folder is not used
    return (
        stat.S_ISDIR(info.st_mode)
        and info.st_uid == os.getuid()
        and stat.S_IMODE(info.st_mode) & 0o077 == 0
        and os.access(path, os.W_OK | os.X_OK)
    )


def _environment_key(env) -> str:
    """What the compiled code depends on besides the source, which Jinja2 checks itself.

    Jinja2's cache file carries a checksum of the template's source and
    Python's major and minor version; compiled code also depends on the
    Jinja2 version, the Python implementation and the environment's
    lexing and escaping options, so each of those has a folder of its own.
    """
    import jinja2

    options = (
        jinja2.__version__,
        sys.implementation.cache_tag,
        sys.version,
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.is_async,
        sorted(env.extensions),
        type(env).__qualname__,
        [
            (name, env.autoescape(name) if callable(env.autoescape) else env.autoescape)
            for name in sorted(TEMPLATE_NAMES)
        ],
    )
    digest = hashlib.sha256(repr(options).encode("utf-8")).hexdigest()[:16]
    return f"templates-{jinja2.__version__}-{sys.implementation.cache_tag}-{digest}"


def _bytecode_cache(env):
    """A Jinja2 bytecode cache in the user's cache folder, or None where that is not safe.

    It spares the compiling of the bundled templates (a fifth of a second)
    in every report after the first.  None when no private, writable folder
    can be had (created 0700; another user's or a group-writable one is
    not used); reading or writing a cache file that fails is skipped.
    """
    from jinja2 import FileSystemBytecodeCache

    class _QuietCache(FileSystemBytecodeCache):
        # a cache is an optimisation: a file that cannot be read or written means compiling
        def load_bytecode(self, bucket):
            try:
                super().load_bytecode(bucket)
            except Exception:  # a damaged file (pickle, marshal) or an I/O error
                bucket.reset()

        def dump_bytecode(self, bucket):
            with contextlib.suppress(OSError):
                super().dump_bytecode(bucket)

    root = _cache_root()
    if root is None or not _private_dir(root):
        return None
    folder = root / _environment_key(env)
    if not _private_dir(folder):
        return None
    return _QuietCache(str(folder))


@functools.lru_cache(maxsize=1)
def _bundled_environment():
    # one environment for the bundled templates: Jinja2 keeps what it compiled (and
    # compiles again only a file that changed), so a template is compiled once per process,
    # and with the bytecode cache once per change of the templates or of Jinja2 or Python
    env = make_environment(None)
    env.bytecode_cache = _bytecode_cache(env)
    return env


def _environment(template_dir):
    return _bundled_environment() if template_dir is None else make_environment(template_dir)


def preload_templates() -> None:
    """Import Jinja2 and compile the bundled templates (about a quarter of a second).

    A report calls it while other processes draw its figures, so that
    rendering later finds them compiled.
    """
    env = _bundled_environment()
    for name in TEMPLATE_NAMES:
        env.get_template(name)


def _template_error(exc, template_dir) -> CdplotError:
    where = f"template_dir={str(template_dir)!r}: " if template_dir is not None else ""
    name = getattr(exc, "name", None) or getattr(exc, "filename", None)
    line = getattr(exc, "lineno", None)
    loc = f"{name} line {line}: " if name and line else (f"{name}: " if name else "")
    message = " ".join(str(getattr(exc, "message", None) or exc).split())
    return CdplotError(f"{where}{loc}{type(exc).__name__}: {message}")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _run_templates(render, template_dir) -> str:
    """Call ``render()``: in-process for the bundled templates, bounded for a user's."""
    import jinja2

    if template_dir is not None:
        from .user_templates import render_bounded

        text = render_bounded(render, template_dir, lambda e: _template_error(e, template_dir))
        # a template can make any code point ("%c" % 55296); a lone surrogate cannot be
        # written to a file, a font subset or WeasyPrint, so it is refused here by name
        bad = _SURROGATE.search(text)
        if bad is not None:
            raise CdplotError(
                f"template_dir={str(template_dir)!r}: the templates' output holds a lone "
                f"surrogate (U+{ord(bad[0]):04X}), which no UTF-8 file can hold; fix the templates"
            )
        return text
    try:
        return render()
    except jinja2.TemplateError as exc:
        raise _template_error(exc, None) from None


def render_template(template_name: str, context: dict, template_dir=None) -> str:
    """Render one whole template with ``context`` (a user's templates bounded in a child).

    Parameters
    ----------
    template_name : str
        A bundled template name (``"base.html.j2"``, ...).
    context : dict
        The values the template reads.
    template_dir : str or Path, optional
        A folder of user templates, as in :func:`make_environment`.

    Returns
    -------
    str
        The rendered text.
    """
    env = _environment(template_dir)
    return _run_templates(lambda: env.get_template(template_name).render(context), template_dir)


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
