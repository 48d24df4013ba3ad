"""The words the analysis options accept, in one light module.

The command line builds its ``choices`` from these without importing the
numerical code, so ``cdplot --help`` and ``cdplot --version`` start at once.
"""

TESTS = ("nemenyi", "bonferroni-dunn", "friedman-z", "wilcoxon", "sign")
CORRECTIONS = ("bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann")
# corrections that need the logical structure of all pairwise hypotheses
ALL_PAIRS_ONLY = ("shaffer", "bergmann")
ZERO_METHODS = ("demsar", "zsplit", "wilcox", "pratt")
WILCOXON_METHODS = ("auto", "exact", "asymptotic")
NAN_POLICIES = ("raise", "omit")
