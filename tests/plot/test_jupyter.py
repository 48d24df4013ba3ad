"""Figures keep showing in Jupyter: no global matplotlib state changes, interactive flag included.

``mpl.rc_context`` restores every rcParam on exit; a figure made inside it in a
fresh kernel let it undo what the inline backend had just set up, so only the
first figure of the notebook showed (issue 8).
"""

import matplotlib as mpl
import pytest

import cdplot


@pytest.mark.parametrize("draw", ["cd_diagram", "rank_intervals", "significance_heatmap"])
def test_drawing_leaves_every_rcparam_and_the_interactive_flag(demsar, draw):
    import matplotlib.pyplot as plt

    was = mpl.is_interactive()
    plt.ion()
    try:
        before = dict(mpl.rcParams)
        getattr(cdplot, draw)(demsar)
        assert mpl.is_interactive()
        assert dict(mpl.rcParams) == before
    finally:
        mpl.interactive(was)


def test_notebook_shows_every_figure(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    cells = [
        "import cdplot\nres = cdplot.compare(cdplot.load_example('demsar2006'))",
        "cdplot.cd_diagram(res);",
        "cdplot.rank_intervals(res);",
        "cdplot.significance_heatmap(res);",
        "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2, 3]);",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    images = [
        cell_no
        for cell_no, cell in enumerate(nb.cells)
        for out in cell.get("outputs", [])
        if "image/png" in out.get("data", {})
    ]
    assert images == [1, 2, 3, 4]
