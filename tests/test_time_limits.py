"""One clock for the whole answer: a time limit bounds table builds, searches and fallbacks, from
the call (getting kernels ready excepted); a build that would outlast it is not started."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from slidelab import solve
from slidelab._clock import Clock, compile_seconds, compiling_ended, compiling_started
from slidelab.errors import SearchLimitError
from slidelab.search import Limits


def test_the_clock_leaves_out_getting_kernels_ready(monkeypatch):
    """Read on a fake ``perf_counter``: the test asserts the clock's arithmetic, not a time."""
    import types

    from slidelab import _clock

    now = [1000.0]
    monkeypatch.setattr(_clock, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    clock = Clock(10)
    before = compile_seconds()
    compiling_started()
    compiling_started()  # nested (a kernel compiled while another is)
    now[0] += 0.2
    compiling_ended()
    compiling_ended()
    assert compile_seconds() - before == pytest.approx(0.2)
    assert clock.elapsed() == pytest.approx(0.0) and clock.left() == pytest.approx(10.0)
    now[0] += 1.5
    assert clock.elapsed() == pytest.approx(1.5) and clock.left() == pytest.approx(8.5)


def test_limits_share_the_answers_clock():
    clock = Clock(5)
    first, second = Limits(clock=clock), Limits(clock=clock)
    assert first.time_limit == second.time_limit == 5
    assert first.clock is second.clock is clock and first.left() is not None
    assert Limits().left() is None and Limits(time_limit=3).time_limit == 3


def test_a_spent_clock_stops_a_search_at_once():
    from slidelab import Puzzle
    from slidelab.search.idastar import idastar

    clock = Clock(0.05)
    time.sleep(0.1)
    with pytest.raises(SearchLimitError, match="0.05 s time limit"):
        idastar(Puzzle("8 6 7/2 5 4/3 0 1"), heuristic="manhattan", limits=Limits(clock=clock))


def test_solve_counts_the_tables_it_builds(cache):
    with pytest.raises(SearchLimitError, match="time limit"):
        solve("8 6 7/2 5 4/3 0 1", method="table", time_limit=0.001)


def _slidelab(*args):
    """The program in a process of its own (with the test's cache: it inherits the environment)."""
    run = [sys.executable, "-m", "slidelab", *map(str, args)]
    return subprocess.run(run, capture_output=True, text=True, timeout=600)


def test_a_build_longer_than_the_limit_is_refused_and_the_answer_says_how_to_build_it(cache):
    board = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 0 23 24"
    done = _slidelab("solve", board, "--method", "idastar", "--heuristic", "pdb", "--time-limit", 5)
    assert done.returncode == 1, done.stderr
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith(
        "error: limit reached: the 6-6-6-6 pattern databases of the 5x5 goal (990 MiB) take about"
    )
    assert "left of the 5 s time limit; build them once with: slidelab tables build 5x5" in error
    assert list(cache.iterdir()) == []  # nothing was built


def test_generate_at_a_distance_past_its_limit_exits_1_not_2(cache):
    done = _slidelab("generate", "5x5", "-d", 90, "--time-limit", 1)
    assert done.returncode == 1, done.stderr
    assert "give a longer --time-limit" in done.stderr


def test_a_build_past_the_limit_stops_at_its_next_report_and_says_how_to_build_it_ahead(
    cache, monkeypatch
):
    import importlib

    from slidelab.board import Board
    from slidelab.tables.family import Cost, Tables

    family = importlib.import_module("slidelab.tables.family")
    tables = Tables("pdb", Board.solved(4, 4), "stm", "7-7-1")  # half a minute or more to build
    # the estimate says it fits the time left; the build then runs past it
    monkeypatch.setattr(family, "cost_of", lambda parts: Cost(0.001, 0.0, 0, 1, 3, 3))
    with pytest.raises(SearchLimitError) as info:
        tables.build(clock=Clock(1.0))
    monkeypatch.undo()
    message = str(info.value)
    assert message.startswith("limit reached: stopped building tables at the 1 s time limit (")
    assert "; the 7-7-1 pattern databases of the 4x4 goal would help (220 MiB, about" in message
    assert message.endswith(": slidelab tables build 4x4 --partition 7-7-1")
    assert info.value.remedy == tables and not tables.ready()
