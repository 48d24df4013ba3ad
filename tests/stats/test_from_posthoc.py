"""from_posthoc: average ranks with the p-values of a post-hoc test the user ran elsewhere.

Reference values: scikit-posthocs 0.17.1 (``pip install scikit-posthocs==0.17.1``),
on Demšar's (2006) C4.5 scores bundled as ``load_example("demsar2006")``::

    import numpy as np, pandas as pd, scikit_posthocs as sp, cdplot
    from scikit_posthocs._plotting import _find_maximal_cliques
    (t,) = cdplot.load_example("demsar2006")
    df = pd.DataFrame(np.asarray(t.values), columns=t.methods, index=t.datasets)
    p = sp.posthoc_conover_friedman(df)              # CONOVER below, to 17 digits
    ranks = df.rank(axis=1, ascending=False).mean()  # Demšar's Table 6 ranks
    adj = pd.DataFrame(1 - sp.sign_array(p, alpha=0.05), index=p.index,
                       columns=p.columns, dtype=bool)
    _find_maximal_cliques(adj)  # the bars of critical_difference_diagram(ranks, p):
    # [{'C4.5', 'C4.5+cf'}, {'C4.5+m+cf', 'C4.5+m'}]

scikit-posthocs is not a dependency: its output is stored here as literals.
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cdplot
from cdplot.errors import CdplotError
from cdplot.stats import PosthocComparison, from_posthoc

NAMES = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
CONOVER = np.array(
    [
        [1.0, 0.008605028569980435, 0.6068195207234452, 0.005493562959825505],
        [0.008605028569980435, 1.0, 0.030289182911854857, 0.8635936275942139],
        [0.6068195207234452, 0.030289182911854857, 1.0, 0.02022493998418204],
        [0.005493562959825505, 0.8635936275942139, 0.02022493998418204, 1.0],
    ]
)
# ranks.to_dict() of the command above (Demšar 2006, Table 6, unrounded)
RANKS = dict(zip(NAMES, [22 / 7, 2.0, 41 / 14, 27 / 14], strict=True))
# scikit-posthocs 0.17.1's crossbars, in cdplot's order (best group first, by rank)
SP_GROUPS = (("C4.5+m+cf", "C4.5+m"), ("C4.5+cf", "C4.5"))


def _frame(matrix=CONOVER, names=NAMES):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame(matrix, index=list(names), columns=list(names))


def test_scikit_posthocs_conover_groups_match_its_crossbars():
    res = from_posthoc(RANKS, CONOVER, test="Conover-Friedman", n_datasets=14)
    assert isinstance(res, PosthocComparison)
    assert res.cliques == SP_GROUPS
    assert res.significant_pairs() == (
        ("C4.5+m+cf", "C4.5+cf"),
        ("C4.5+m+cf", "C4.5"),
        ("C4.5+m", "C4.5+cf"),
        ("C4.5+m", "C4.5"),
    )
    assert res.pvalue("C4.5", "C4.5+m") == CONOVER[0, 1]
    assert res.alpha == 0.05
    assert res.n_datasets == 14
    assert res.critical_difference is None
    assert res.control is None


def test_dataframe_in_any_order_and_series_of_ranks():
    pd = pytest.importorskip("pandas")
    shuffled = [3, 1, 0, 2]
    names = [NAMES[i] for i in shuffled]
    frame = _frame(CONOVER[np.ix_(shuffled, shuffled)], names)
    res = from_posthoc(pd.Series(RANKS), frame, test="Conover")
    assert res.methods == NAMES
    assert np.array_equal(res.pvalues, CONOVER)
    assert res.cliques == SP_GROUPS


def test_dict_of_dicts_and_boolean_matrix_give_the_same_groups():
    nested = {
        a: {b: float(CONOVER[i, j]) for j, b in enumerate(NAMES)} for i, a in enumerate(NAMES)
    }
    assert from_posthoc(RANKS, nested, test="Conover").cliques == SP_GROUPS
    decisions = CONOVER <= 0.05
    np.fill_diagonal(decisions, False)
    res = from_posthoc(RANKS, decisions, test="Conover")
    assert res.cliques == SP_GROUPS
    assert res.pvalues is None
    assert res.alpha is None
    assert "significant pairs supplied by the user" in res.caption()
    with pytest.raises(CdplotError, match="no p-values to colour"):
        cdplot.significance_heatmap(res)


def test_alpha_decides_with_p_at_most_alpha():
    # at alpha = 0.01 only the two pairs with p < 0.01 differ: one group of the middle two
    res = from_posthoc(RANKS, CONOVER, test="Conover", alpha=0.01)
    assert res.significant_pairs() == (("C4.5+m+cf", "C4.5"), ("C4.5+m", "C4.5"))
    p = CONOVER.copy()
    p[0, 1] = p[1, 0] = 0.01  # exactly alpha: significant, as compare() decides
    assert from_posthoc(RANKS, p, test="Conover", alpha=0.01).is_significant("C4.5", "C4.5+m")


def test_ranks_with_the_highest_best_are_flipped_and_said():
    flipped = {m: 5 - r for m, r in RANKS.items()}
    res = from_posthoc(flipped, CONOVER, test="Conover", higher_is_better=True)
    assert np.allclose(res.average_ranks, list(RANKS.values()))
    assert res.cliques == SP_GROUPS
    assert "5 - rank" in res.caption()


def _random_scores(seed):
    rng = np.random.default_rng(seed)
    shift = np.linspace(0.0, 1.2, 7)
    return rng.normal(size=(40, 7)) * 0.8 + shift


@pytest.mark.parametrize(
    ("test", "correction"), [("nemenyi", None), ("friedman-z", "holm"), ("friedman-z", "shaffer")]
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_round_trip_of_compares_own_pvalues(test, correction, seed):
    scores = _random_scores(seed)
    original = cdplot.compare(scores, test=test, correction=correction)
    assert len(original.cliques) >= 2  # the data separate the methods: a real check
    ranks = dict(zip(original.methods, original.average_ranks.tolist(), strict=True))
    again = from_posthoc(ranks, np.asarray(original.pvalues), test=test, n_datasets=40)
    assert again.cliques == original.cliques
    assert again.significant_pairs() == original.significant_pairs()
    assert again.unjoined == original.unjoined
    assert tuple(again.bridges) == tuple(original.bridges)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 9))
def test_groups_are_maximal_runs_without_a_significant_pair(seed, k):
    """Brute force: every clique is a run in rank order with no significant pair inside,
    and no run that could be extended is left out."""
    rng = np.random.default_rng(seed)
    ranks = rng.permutation(np.arange(1, k + 1)).astype(float)
    p = rng.uniform(0, 0.2, size=(k, k))
    p = np.triu(p, 1) + np.triu(p, 1).T
    np.fill_diagonal(p, 1.0)
    names = [f"m{i}" for i in range(k)]
    res = from_posthoc(ranks, p, test="mine", methods=names)
    order = list(res.order())
    sig = p <= 0.05
    runs = []
    for a in range(k):
        for b in range(a + 1, k):
            members = [names.index(m) for m in order[a : b + 1]]
            if not any(sig[i, j] for i in members for j in members if i != j):
                runs.append((a, b))
    maximal = [
        (a, b) for a, b in runs if not any(c <= a and b <= d and (c, d) != (a, b) for c, d in runs)
    ]
    assert sorted(res.cliques) == sorted(tuple(order[a : b + 1]) for a, b in maximal)


def test_text_json_and_caption_name_the_users_test():
    res = from_posthoc(RANKS, CONOVER, test="Conover–Friedman", n_datasets=14)
    text = str(res)
    assert "supplied by the user (Conover–Friedman)" in text.splitlines()[0]
    flat = " ".join(text.split())
    assert "cdplot computed no test" in flat
    assert "{C4.5+m+cf, C4.5+m}; {C4.5+cf, C4.5}" in flat
    data = json.loads(res.to_json())
    assert data["test"] == "Conover–Friedman"
    assert data["computed_by_cdplot"] is False
    assert data["cliques"] == [list(c) for c in SP_GROUPS]
    cap = res.caption()
    assert "Conover–Friedman test, p-values supplied by the user (cdplot computed no test)" in cap
    assert "N\u00a0=\u00a014 data sets" in cap
    assert "Friedman test (Iman" not in cap
    assert "CD" not in cap
    assert repr(res).startswith("<PosthocComparison: 4 methods on 14 data sets, Conover")


def test_cd_diagram_and_heatmap_draw_it_with_the_caption():
    res = from_posthoc(RANKS, CONOVER, test="Conover", n_datasets=14)
    ax = cdplot.cd_diagram(res)
    caption = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-caption")
    assert "Conover test, p-values supplied by the user" in " ".join(caption.split())
    # one bar per group (the two that scikit-posthocs draws), and no CD bar
    gids = [ln.get_gid() or "" for ln in ax.lines]
    assert sum(g.startswith("cd-clique-") for g in gids) == 2
    assert not any(g.startswith("cd-cd") for g in gids)
    ax = cdplot.significance_heatmap(res)
    values = sorted(t.get_text() for t in ax.texts if t.get_gid() == "hm-value")
    assert len(values) == 6
    with pytest.raises(CdplotError, match="critical difference"):
        cdplot.rank_intervals(res)


def test_csv_rows_and_frame():
    from cdplot.io._export import rows

    header, body = rows(from_posthoc(RANKS, CONOVER, test="Conover"))
    assert header[:5] == ["rank_order", "method", "average_rank", "mean_score", "groups"]
    assert [r[1] for r in body] == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert [r[4] for r in body] == ["a", "a", "b", "b"]


def test_reads_a_csv_matrix_as_scikit_posthocs_writes_it(tmp_path):
    path = tmp_path / "conover.csv"
    lines = [",".join(["", *NAMES])]
    lines += [",".join([n, *map(repr, CONOVER[i].tolist())]) for i, n in enumerate(NAMES)]
    path.write_text("\n".join(lines) + "\n")
    res = from_posthoc(RANKS, path, test="Conover")
    assert res.cliques == SP_GROUPS
    assert res.pvalues_source == str(path)


def _bad(matrix):
    return from_posthoc(RANKS, matrix, test="Conover")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda p: p.__setitem__((0, 1), np.nan),
            r"row 'C4\.5', column 'C4\.5\+m' is empty or NaN",
        ),
        (lambda p: p.__setitem__((0, 1), 1.5), r"is 1\.5, outside \[0, 1\]"),
        (lambda p: p.__setitem__((2, 2), 0.0), r"column 'C4\.5\+cf' is 0; a method against"),
        (lambda p: p.__setitem__((0, 1), 0.5), r"column 'C4\.5\+m' is 0\.5 but .* symmetric"),
    ],
    ids=["nan", "range", "diagonal", "asymmetric"],
)
def test_bad_matrices_name_row_and_column(edit, message):
    p = CONOVER.copy()
    edit(p)
    with pytest.raises(CdplotError, match=message):
        _bad(_frame(p))


def test_bad_inputs_are_one_line_errors():
    p = CONOVER.copy()
    p[1, 0] = 0.5
    with pytest.raises(CdplotError, match=r"pvalues\[1, 0\] \('C4\.5\+m' against 'C4\.5'\)"):
        _bad(p)
    with pytest.raises(CdplotError, match=r"shape \(3, 3\).* \(4, 4\) matrix"):
        _bad(CONOVER[:3, :3])
    renamed = ["C4.5", "C4.5+m", "C4.5+cf", "other"]
    with pytest.raises(CdplotError, match="row 'other' is not a method of the average ranks"):
        _bad(_frame(CONOVER, renamed))
    with pytest.raises(CdplotError, match="not a p-value"):
        _bad([["x"] * 4] * 4)
    with pytest.raises(CdplotError, match="must name the post-hoc test"):
        from_posthoc(RANKS, CONOVER, test=" ")
    pct = {m: r / 4 for m, r in RANKS.items()}
    with pytest.raises(CdplotError, match=r"percentile ranks .*multiply them by k = 4"):
        from_posthoc(pct, CONOVER, test="Conover")
    with pytest.raises(CdplotError, match="average ranks sum to"):
        from_posthoc({**RANKS, "C4.5": 3.9}, CONOVER, test="Conover")
    sig = CONOVER <= 0.05
    sig[1, 1] = True
    with pytest.raises(CdplotError, match="a method never differs from itself"):
        _bad(sig)
    with pytest.raises(CdplotError) as info:
        _bad(_frame(np.full((4, 4), 0.5)))
    assert "\n" not in str(info.value)
