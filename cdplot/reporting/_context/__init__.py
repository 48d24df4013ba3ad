"""The values a report template shows, computed from the results.

Everything here is plain data (strings, numbers, lists and dicts): the
templates only lay it out, and a user's template in the sandbox sees no
object it could call into.  Numbers are formatted here, once, so that a
report, a LaTeX table and the terminal print the same digits.

One module per part of a report: a rank-based section (:mod:`._section`,
from :mod:`._omnibus`, :mod:`._pairwise`, :mod:`._methods` and
:mod:`._data_table`), the agreement of several metrics (:mod:`._consistency`),
the whole document (:mod:`._document`), and compare_auto's choice and
parametric path (:mod:`._choice`, :mod:`._anova`); :mod:`._common` holds what
they share.
"""

from ._anova import anova_document_context, anova_section_context
from ._choice import choice_context
from ._consistency import consistency_context
from ._document import document_context
from ._section import section_context, with_figures

__all__ = [
    "section_context",
    "with_figures",
    "consistency_context",
    "document_context",
    "choice_context",
    "anova_section_context",
    "anova_document_context",
]
