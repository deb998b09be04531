"""The command line's table-building progress: labels kept whole, announced before a build."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import time

import pytest

from slidelab import Puzzle
from slidelab.cli.progress import TableBar, table_and_step
from slidelab.tables.family import Tables, announce
from slidelab.tables.pdb import partition_name


def test_a_build_message_becomes_a_short_whole_label():
    message = "table 2/4: depth 12, 45,000,000 of 518,918,400 placements"
    assert table_and_step(message) == ("table 2/4", "depth 12")
    assert table_and_step("distance table: depth 3, 1,234 positions") == (
        "distance table",
        "depth 3",
    )


def test_the_bar_shows_each_table_whole_and_leaves_no_line_behind(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = TableBar(live=True)
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
    tables = Tables("pdb", fifteen.goal, "stm", "7-8")
    with caplog.at_level(logging.INFO, logger="slidelab"):
        announce(tables, tables.cost())
    text = caplog.text
    assert "building the 7-8 pattern databases of the 4x4 goal: " in text
    assert "2 tables, 1.07 GiB, about " in text and f"once: cached in {cache}" in text
    assert partition_name(fifteen, None) == "6-6-3"


# -- a long search is never silent -------------------------------------------------------------


def test_a_slow_search_reports_on_stderr_when_not_a_terminal(capsys):
    from slidelab.cli.progress import QUIET_SECONDS, ProgressLine

    line = ProgressLine(live=False)
    line.start()
    info = {
        "method": "idastar",
        "bound": 62,
        "generated": 10_000_000,
        "expanded": 5_000_000,
        "stored": 60,
        "stronger_partition": "7-8",
    }
    for seconds in (0.5, 1.0, QUIET_SECONDS + 0.1, QUIET_SECONDS + 0.2, 2 * QUIET_SECONDS + 0.5):
        line({**info, "seconds": seconds})
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3, err  # the advice once, then a line at 5 s and at 10 s
    assert "--partition 7-8" in err[0]
    assert err[1].startswith("idastar: bound 62, generated 10,000,000 (") and "M/s" in err[1]


def test_search_progress_names_stronger_tables():
    from slidelab import solve
    from slidelab.tables.pdb.layout import stronger_partition

    korf = Puzzle("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3", blank_first=True)
    assert stronger_partition(korf) == "7-8" and stronger_partition(korf, "7-8") is None
    seen = []
    solve(
        "8 6 7/2 5 4/3 0 1",
        method="idastar",
        heuristic="pdb",
        partition="1,2,3,4/5,6,7,8",
        progress=seen.append,
    )
    assert seen and all("stronger_partition" in info for info in seen)


@pytest.mark.slow  # 6 s
def test_killed_solve_says_what_it_knew(tmp_path):
    env = {**os.environ}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "slidelab",
            "solve",
            "--method",
            "idastar",
            "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(6)
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "interrupted: idastar searched to bound" in err and "Traceback" not in err
