"""The command line's table-building progress: labels kept whole, announced before a build."""

from __future__ import annotations

import io
import logging
import sys

from slidelab import Puzzle
from slidelab.cli.progress import _table_and_step, _TableBar
from slidelab.heuristics.pdb import announce_build, partition_name


def test_a_build_message_becomes_a_short_whole_label():
    message = "table 2/4: depth 12, 45,000,000 of 518,918,400 placements"
    assert _table_and_step(message) == ("table 2/4", "depth 12")
    assert _table_and_step("distance table: depth 3, 1,234 positions") == (
        "distance table",
        "depth 3",
    )


def test_the_bar_shows_each_table_whole_and_leaves_no_line_behind(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = _TableBar(live=True)
    for table in (1, 2):
        for depth, fraction in ((5, 0.1), (17, 0.6), (30, 1.0)):
            bar(fraction, f"table {table}/2: depth {depth}, 518,918,400 of 518,918,400 placements")
    bar.close()
    text = err.getvalue()
    assert "building table 1/2: depth 5" in text and "building table 2/2: depth 5" in text
    assert "placements" not in text  # the bar shows how far; the label is never cut mid-word


def test_a_build_is_announced_with_its_size_and_time(cache, caplog):
    # (the cache fixture: none loaded by earlier tests, and a group loaded is not built again,
    # nor announced)
    fifteen = Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    with caplog.at_level(logging.INFO, logger="slidelab"):
        announce_build(fifteen, "7-8")
    text = caplog.text
    assert "building the 7-8 pattern databases for the 4x4 goal" in text
    assert "2 tables, 550 MiB, about " in text and f"once: cached in {cache}" in text
    assert partition_name(fifteen, None) == "6-6-3"
