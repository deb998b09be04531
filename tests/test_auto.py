"""``auto`` on the 15-puzzle: the strongest pattern databases that are ready, and a climb up the
ladder of named partitions (6-6-3, 7-7-1, 7-8), building the next rung's tables when the search
with the present ones would take longer than that build."""

from __future__ import annotations

import importlib
import logging

import pytest

from slidelab import Puzzle, solve
from slidelab.errors import SearchTooLong
from slidelab.generate import random_board
from slidelab.heuristics.pdb import build_estimate, is_ready
from slidelab.search._common import Limits
from slidelab.search.idastar import idastar

solve_module = importlib.import_module("slidelab.search.solve")
#: solve imports its pattern-database helpers from here when it needs them
pdb_module = importlib.import_module("slidelab.heuristics.pdb")

# Korf's #9 (46 moves) and #3 (59 moves), goal with the blank first
EASY = "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0"
HARD = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15"
#: a stand-in for 7-8 that builds in a second: three groups of five tiles
FIVES = "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15"
#: a stand-in for 7-7-1, the rung below: four groups
FOURS = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15"


@pytest.fixture
def partitions_seen(monkeypatch):
    seen = []
    real = solve_module._tables

    def tables(plan, puzzle, options, limits, table_progress):
        seen.append(options.partition)
        return real(plan, puzzle, options, limits, table_progress)

    monkeypatch.setattr(solve_module, "_tables", tables)
    monkeypatch.setattr(pdb_module, "stronger_partitions", lambda puzzle, partition: [FIVES])
    monkeypatch.setattr(pdb_module, "is_ready", lambda puzzle, name: False)  # not built yet
    return seen


def test_a_quick_search_keeps_the_default_tables(partitions_seen, monkeypatch, caplog):
    # quick against the build: an hour's build (the real estimate for FIVES is 0.4 s, which a
    # busy machine's search can pass)
    monkeypatch.setattr(pdb_module, "build_estimate", lambda puzzle, name: (3600.0, 1_572_480))
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(EASY, blank_first=True)
    assert s.length == 46 and s.optimal
    assert partitions_seen == [None] and "building the" not in caplog.text


def test_a_long_search_switches_to_building_the_stronger_tables(
    partitions_seen, monkeypatch, caplog
):
    monkeypatch.setattr(pdb_module, "build_estimate", lambda puzzle, name: (0.01, 1_572_480))
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(HARD, blank_first=True)
    assert s.length == 59 and s.optimal
    assert partitions_seen == [None, FIVES]
    assert f": building the {FIVES} pattern databases (1.5 MiB, about 0.01 s" in caplog.text


def test_ready_stronger_tables_are_used_at_once(partitions_seen, monkeypatch):
    monkeypatch.setattr(pdb_module, "is_ready", lambda puzzle, name: True)
    assert solve(EASY, blank_first=True).length == 46
    assert partitions_seen == [FIVES]


def test_a_long_search_climbs_the_ladder_a_rung_at_a_time(partitions_seen, monkeypatch, caplog):
    ladder = [FOURS, FIVES]
    monkeypatch.setattr(pdb_module, "stronger_partitions", lambda puzzle, partition: ladder)
    monkeypatch.setattr(pdb_module, "build_estimate", lambda puzzle, name: (0.001, 1_572_480))
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(HARD, blank_first=True)
    assert s.length == 59 and s.optimal
    assert partitions_seen == [None, FOURS, FIVES]
    assert f"building the {FOURS} pattern" in caplog.text
    assert f"building the {FIVES} pattern" in caplog.text


def test_the_search_starts_from_the_strongest_ready_rung(partitions_seen, monkeypatch):
    ladder = [FOURS, FIVES]
    monkeypatch.setattr(pdb_module, "stronger_partitions", lambda puzzle, partition: ladder)
    monkeypatch.setattr(pdb_module, "is_ready", lambda puzzle, name: name == FOURS)
    monkeypatch.setattr(pdb_module, "build_estimate", lambda puzzle, name: (0.001, 1_572_480))
    assert solve(HARD, blank_first=True).length == 59
    assert partitions_seen[0] == FOURS and partitions_seen[-1] == FIVES


def test_the_15_puzzle_ladder_shares_tables_between_rungs():
    from slidelab.heuristics.pdb import parse_partition, stronger_partitions

    p = Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    assert stronger_partitions(p) == ["7-7-1", "7-8"]
    assert stronger_partitions(p, "7-7-1") == ["7-8"] and stronger_partitions(p, "7-8") == []
    assert stronger_partitions(p, FIVES) == ["7-8"] and stronger_partitions(p, "auto") == ["7-8"]
    seven, eight = parse_partition(p, "7-8")
    assert parse_partition(p, "7-7-1") == [seven, [c for c in eight if c != 8], [8]]
    assert stronger_partitions(Puzzle(random_board("5x5", seed=1))) == []


def test_asked_for_tables_and_methods_are_left_alone(partitions_seen):
    solve(EASY, blank_first=True, partition="6-6-3")
    solve(EASY, blank_first=True, method="idastar", heuristic="pdb")
    assert partitions_seen == ["6-6-3", None]


def test_is_ready_and_the_estimate(monkeypatch, tmp_path):
    # a cache of its own, and nothing loaded yet: 7-8 tables in the user's cache (or loaded by
    # an earlier test) would be ready, and cost nothing to build
    monkeypatch.setenv("SLIDELAB_CACHE", str(tmp_path))
    monkeypatch.setattr(pdb_module, "_LOADED", {})
    p = Puzzle(EASY, blank_first=True)
    solve(p, partition=FIVES)
    assert is_ready(p, FIVES)
    seconds, size = build_estimate(p, "7-8")
    assert size == 57_657_600 + 518_918_400 and 10 < seconds < 3600


def test_patience_stops_idastar_with_a_prediction():
    p = Puzzle(HARD, blank_first=True)
    with pytest.raises(SearchTooLong, match="expected to take|patience"):
        idastar(p, heuristic="manhattan", limits=Limits(patience=0.05))


# -- boards past the 15-puzzle with named tables (the 24-puzzle): optimal within a budget --------
# A 4x4 stands in for the 5x5 (whose 6-6-6-6 tables take minutes to build): it is treated as
# past AUTO_OPTIMAL_CELLS.


@pytest.fixture
def budgeted(monkeypatch):
    monkeypatch.setattr(solve_module, "AUTO_OPTIMAL_CELLS", 9)
    monkeypatch.setattr(pdb_module, "is_ready", lambda puzzle, name: False)


def test_within_the_budget_auto_proves_the_optimum(budgeted):
    # the same way with no limit first: compiling its kernels counts as search time
    assert solve("1 2 3 0/4 5 6 7/8 9 10 11/12 13 14 15", blank_first=True).length == 3
    s = solve(EASY, blank_first=True, time_limit=60)
    assert s.length == 46 and s.optimal and s.method == "idastar"


def test_past_the_budget_auto_gives_a_bounded_answer_and_says_so(budgeted, caplog):
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(HARD, blank_first=True, time_limit=0.01)
    assert not s.optimal and s.method == "weighted-astar"
    assert 59 <= s.length <= 1.5 * 59
    assert "no proven optimum within 0.01 s of search: it is at least" in caplog.text
    assert "at most 1.5 times as long" in caplog.text and "--time-limit" in caplog.text


def test_the_24_puzzle_is_searched_optimally_by_auto():
    assert solve_module.choose_method(Puzzle(random_board("5x5", seed=1))) == ("idastar", "pdb")
    # a goal whose blank is not in a corner has no named tables: constructive, as before
    goal = "1 2 3 4 5/6 7 8 9 10/11 12 0 13 14/15 16 17 18 19/20 21 22 23 24"
    assert solve_module.choose_method(Puzzle(goal, goal)) == ("constructive", "manhattan")
    six = Puzzle(random_board("6x6", seed=1))
    assert solve_module.choose_method(six) == ("constructive", "manhattan")
