"""Sphinx directives that build pages from the code itself, so that the docs cannot drift.

``.. cdplot-api:: cdplot.stats``
    One ``autofunction``/``autoclass``/``autodata`` entry per name of the module's
    ``__all__``, in that order.  For the top-level ``cdplot``, whose names are
    re-exports, a table links each name to where it is documented (a name documented
    twice is a duplicate-description warning), and only names that no subpackage
    lists are documented in place.
``.. cdplot-cli::``
    The ``--help`` text of ``cdplot`` and of each subcommand, from
    :func:`cdplot.cli.build_parser`, as literal blocks.
``.. cdplot-gallery::``
    ``gallery/README.md`` (a heading, a picture and the command that made it, per
    figure) as reStructuredText, with the pictures from ``gallery/``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
SUBPACKAGES = ("cdplot.stats", "cdplot.io", "cdplot.plot", "cdplot.reporting")


def _parse(directive: SphinxDirective, lines: list[str]) -> list[nodes.Node]:
    """Parse generated reStructuredText as if it stood where the directive is."""
    node = nodes.section()
    node.document = directive.state.document
    source = directive.get_source_info()[0]
    content = StringList(lines, source=source)
    directive.state.nested_parse(content, directive.content_offset, node, match_titles=True)
    return node.children


def _entry(module: str, name: str) -> list[str]:
    """The autodoc directive documenting ``module.name``."""
    obj = getattr(importlib.import_module(module), name)
    if inspect.isclass(obj):
        # members: the methods (to_dict, order, confidence_interval, ...) a user calls;
        # the fields are documented in the class's own Attributes section
        return [f".. autoclass:: {module}.{name}", "   :members:", ""]
    if callable(obj):
        return [f".. autofunction:: {module}.{name}", ""]
    return [f".. autodata:: {module}.{name}", "   :no-value:", ""]


def _summary(obj) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().split("\n\n")[0].replace("\n", " ")


def api_lines(module: str) -> list[str]:
    """The reStructuredText of the API page of ``module``."""
    mod = importlib.import_module(module)
    if module != "cdplot":
        lines = [f".. automodule:: {module}", "   :no-members:", ""]
        for name in mod.__all__:
            lines += _entry(module, name)
        return lines
    home = {}
    for sub in SUBPACKAGES:
        for name in importlib.import_module(sub).__all__:
            home.setdefault(name, sub)
    lines = [
        ".. automodule:: cdplot",
        "   :no-members:",
        "",
        ".. list-table:: Names of the top level and where each is documented",
        "   :header-rows: 1",
        "   :widths: 40 60",
        "",
        "   * - name",
        "     - summary",
    ]
    here = []
    for name in mod.__all__:
        if name == "__version__":
            continue
        obj = getattr(mod, name)
        target = f"{home[name]}.{name}" if name in home else f"cdplot.{name}"
        if name not in home:
            here.append(name)
        role = "class" if inspect.isclass(obj) else "func" if callable(obj) else "data"
        summary = _summary(obj) if role != "data" else "the bundled examples and their sources"
        lines += [f"   * - :py:{role}:`cdplot.{name} <{target}>`", f"     - {summary}"]
    lines += ["", "Documented here", "---------------", ""]
    for name in here:
        lines += _entry("cdplot", name)
    return lines


class ApiDirective(SphinxDirective):
    required_arguments = 1

    def run(self):
        return _parse(self, api_lines(self.arguments[0]))


def cli_lines() -> list[str]:
    """The ``--help`` of ``cdplot`` and of each subcommand, as literal blocks."""
    from cdplot.cli import build_parser

    # argparse wraps at $COLUMNS: fix it so that the page does not depend on the terminal
    # that builds it
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        parser = build_parser()
        parts = [("cdplot", parser)] + [
            (f"cdplot {name}", sub) for name, sub in parser.commands.items()
        ]
        lines: list[str] = []
        for title, p in parts:
            lines += [f".. _cli-{title.replace(' ', '-')}:", "", title, "-" * len(title), ""]
            lines += [".. code-block:: text", ""]
            lines += ["   " + line if line else "" for line in p.format_help().splitlines()]
            lines.append("")
        return lines
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


class CliDirective(SphinxDirective):
    def run(self):
        return _parse(self, cli_lines())


def _inline(text: str) -> str:
    """Markdown inline code and links as reStructuredText."""
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1", text)
    # a literal must not touch a letter, which reStructuredText would refuse
    return re.sub(r"`([^`]+)`", r"``\1``\\ ", text).replace("\\  ", " ")


def gallery_lines(readme: Path) -> list[str]:
    """``gallery/README.md`` as reStructuredText: headings, pictures, code, paragraphs."""
    rel = os.path.relpath(readme.parent, ROOT / "docs")
    lines: list[str] = []
    text = readme.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(text):
        line = text[i]
        fence = re.match(r"^```(\w*)$", line)
        if fence:
            lang = {"sh": "console", "": "text"}.get(fence[1], fence[1])
            i += 1
            body = []
            while i < len(text) and text[i] != "```":
                body.append(text[i])
                i += 1
            if lang == "console":
                body = [f"$ {b}" if b else b for b in body]
            lines += [f".. code-block:: {lang}", ""] + [f"   {b}" if b else "" for b in body]
            lines.append("")
        elif line.startswith("# "):
            pass  # the page has its own title
        elif line.startswith("## "):
            title = _inline(line[3:])
            lines += [title, "-" * len(title), ""]
        elif m := re.match(r"^!\[([^\]]*)\]\(([^)]+)\)$", line):
            lines += [f".. image:: {rel}/{m[2]}", f"   :alt: {m[1]}", ""]
        else:
            lines.append(_inline(line))
        i += 1
    return lines


class GalleryDirective(SphinxDirective):
    def run(self):
        readme = ROOT / "gallery" / "README.md"
        self.env.note_dependency(str(readme))
        return _parse(self, gallery_lines(readme))


def setup(app):
    app.add_directive("cdplot-api", ApiDirective)
    app.add_directive("cdplot-cli", CliDirective)
    app.add_directive("cdplot-gallery", GalleryDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
