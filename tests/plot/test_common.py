"""Shared plot helpers (cdplot/plot/_common.py)."""

import os

import pytest

from cdplot.plot import _common


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX's")
def test_forked_children_open_their_own_font_faces():
    # faces inherited through fork share a file offset with the parent and every sibling:
    # concurrent glyph loads then fail intermittently ("Could not load glyph") in the
    # report's drawing workers, so a child must not keep them
    measure = _common.measurer(None)
    measure("C4.5+m+cf", 8.0)
    assert _common._em_widths.cache_info().currsize > 0
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        size = _common._em_widths.cache_info().currsize
        os.write(write_fd, str(size).encode())
        os._exit(0)
    os.close(write_fd)
    child_size = int(os.read(read_fd, 32))
    os.close(read_fd)
    os.waitpid(pid, 0)
    assert child_size == 0
    assert _common._em_widths.cache_info().currsize > 0, "the parent keeps its faces"
    assert measure("C4.5", 8.0)[0] > 0
