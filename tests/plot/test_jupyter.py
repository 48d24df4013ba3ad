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


def test_notebook_shows_a_2x_png_at_the_1x_size(tmp_path):
    """Issue 27 item 8: twice the pixels of the inline backend's PNG, declared at its size.

    The inline backend shows other figures at ``figure.dpi`` (100) with
    ``bbox_inches='tight'``: the user's own figure in the same notebook is the
    reference for the 1x pixel density, 0.01 in per pixel.
    """
    import base64
    import struct

    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    cells = [
        "import cdplot\nres = cdplot.compare(cdplot.load_example('demsar2006'))",
        "ax = cdplot.cd_diagram(res)\nw, h = ax.figure.get_size_inches(); print(w, h)",
        "import matplotlib.pyplot as plt\n"
        "plt.figure(figsize=(3.5, 1.2)).add_subplot().plot([1, 2]);",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()

    def png(cell):
        (out,) = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        data = base64.b64decode(out["data"]["image/png"])
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
        return width, height, out.get("metadata", {}).get("image/png", {})

    w_in, h_in = (float(v) for v in nb.cells[1].outputs[0]["text"].split())
    width, height, meta = png(nb.cells[1])
    # 2x: 200 pixels per inch of the figure (tight bbox adds matplotlib's 0.1 in pad a side)
    assert width == pytest.approx(2 * 100 * (w_in + 0.2), abs=4)
    assert height == pytest.approx(2 * 100 * (h_in + 0.2), abs=4)
    # ... shown at the 1x size
    assert meta == {"width": width // 2, "height": height // 2}
    # the user's own figure keeps the notebook's 1x PNG with no size declared
    own_w, _own_h, own_meta = png(nb.cells[2])
    assert own_w < 100 * (3.5 + 0.2) + 20  # 1x (tick labels may reach past the figure)
    assert "width" not in own_meta
