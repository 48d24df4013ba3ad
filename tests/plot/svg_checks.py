"""SVG parsing and synthetic tables shared by the figure tests.

A module of its own, not conftest.py: tests/cli has a conftest.py too, and
``from conftest import ...`` picked whichever was imported last when both
directories ran in one pytest command.
"""

import xml.etree.ElementTree as ET

import numpy as np

SVG = "{http://www.w3.org/2000/svg}"


def svg_root(ax):
    from cdplot.plot import render_svg

    return ET.fromstring(render_svg(ax))


def svg_texts(root):
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def svg_groups(root, prefix):
    return [g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith(prefix)]


def synthetic_table(k, n=20, seed=0, long=True, ties=False):
    """A ScoreTable of k methods with (optionally) long unicode names."""
    from cdplot.io import ScoreTable

    rng = np.random.default_rng(seed)
    skill = np.linspace(0.1, 0.0, k)
    values = 0.7 + skill[None, :] + rng.normal(0, 0.03, (n, k))
    if ties:
        values[:, 1] = values[:, 0]  # two identical methods: equal average ranks
    if long:
        names = [
            f"Méthode numéro {i:02d} — gradient boosting, depth {i % 7} (σ = 0.{i})"
            for i in range(k)
        ]
    else:
        names = [f"M{i}" for i in range(k)]
    return ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(n)])
