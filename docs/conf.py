"""Sphinx configuration of the cdplot documentation.

Build (from the repository root, with the ``docs`` extra installed)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The API, CLI and gallery pages are generated from the code by the directives in
``docs/_ext/cdplot_docs.py`` (``__all__``, ``build_parser()``, ``gallery/README.md``).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the checkout's cdplot first, so that the docs describe the code beside them and not an
# older installed copy
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE / "_ext"))

import cdplot  # noqa: E402

project = "cdplot"
author = "cdplot developers"
copyright = "cdplot developers"
release = cdplot.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "cdplot_docs",
]

exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = f"cdplot {release}"
html_theme_options = {"page_width": "1240px", "sidebar_width": "230px"}

# signatures as written (``alpha: float = 0.05``) rather than a rendering of the types
autodoc_typehints = "none"
autodoc_member_order = "bysource"
# numpydoc's member tables need autosummary stub pages; the members are listed by
# autodoc's :members: instead
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# the docstrings' Examples run as doctests in tests/test_doctests.py; here they are shown
numpydoc_use_plots = False

intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    "numpy": ("https://numpy.org/doc/stable", None),
    "matplotlib": ("https://matplotlib.org/stable", None),
}
# the build must work offline (CI, a laptop on a train): intersphinx is consulted only
# when CDPLOT_DOCS_INTERSPHINX=1
import os  # noqa: E402

if os.environ.get("CDPLOT_DOCS_INTERSPHINX") != "1":
    intersphinx_mapping = {}

html_static_path = ["_static"]
html_css_files = ["cdplot.css"]
