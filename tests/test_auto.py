"""``auto`` where it searches (:mod:`slidelab.search.auto`): cheapest first, on one clock.

With no tables at hand it searches with linear conflict first and builds pattern databases only
when that search is predicted to take longer than the build; with tables at hand it starts from
the strongest ready rung of the board's ladder (the 15-puzzle's 6-6-3, 7-7-1, 7-8) and climbs a
rung when its search would take longer than the next build; a build that would not be done
within the time limit is not started; past the 15-puzzle it searches optimally for a budget,
then gives a bounded answer.
"""

from __future__ import annotations

import importlib
import logging

import pytest

from slidelab import Puzzle, solve
from slidelab.errors import SearchLimitError, SearchTooLong
from slidelab.generate import random_board, scramble
from slidelab.search import Limits
from slidelab.search.idastar import idastar
from slidelab.search.policy import Rung
from slidelab.tables.family import Cost, Tables

solve_module = importlib.import_module("slidelab.search.solve")
plan_module = importlib.import_module("slidelab.search.plan")
auto_module = importlib.import_module("slidelab.search.auto")
policy_module = importlib.import_module("slidelab.search.policy")

# Korf's #9 (46 moves) and #3 (59 moves), goal with the blank first
EASY = "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0"
HARD = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15"
#: stand-ins for the 15-puzzle's rungs that build in about a second: groups of five, of four
FIVES = "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15"
FOURS = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15"


@pytest.fixture
def seen(monkeypatch, cache):
    """The ``(heuristic, partition)`` of each search ``solve`` makes ready, with the ladder
    FOURS, FIVES standing in for the 15-puzzle's."""
    made = []
    real = plan_module.search_heuristic

    def search_heuristic(puzzle, heuristic, limits, progress, metric="stm", options=None):
        made.append((heuristic, (options or {}).get("partition")))
        return real(puzzle, heuristic, limits, progress, metric, options)

    monkeypatch.setattr(auto_module, "search_heuristic", search_heuristic)
    monkeypatch.setattr(plan_module, "search_heuristic", search_heuristic)
    monkeypatch.setattr(
        policy_module,
        "rungs",
        lambda puzzle, options=None, heuristic=None: [
            Rung("pdb", Tables("pdb", puzzle.goal, "stm", FOURS)),
            Rung("pdb", Tables("pdb", puzzle.goal, "stm", FIVES)),
        ],
    )
    return made


def ready_when(monkeypatch, which) -> None:
    """Tables count as ready when their ``which`` is in ``which`` (the real test for others)."""
    real = Tables.ready
    monkeypatch.setattr(
        Tables, "ready", lambda self: self.which in which or (self.family != "pdb" and real(self))
    )


def costing(monkeypatch, seconds: float) -> None:
    """Pattern databases cost ``seconds`` to make ready (the real estimate for others)."""
    real = Tables.cost
    monkeypatch.setattr(
        Tables,
        "cost",
        lambda self: Cost(seconds, 0.0, 0, 1_572_480, 1, 1) if self.family == "pdb" else real(self),
    )


def tables_in(path) -> list:
    return sorted(p.name for p in path.rglob("*") if p.is_file())


def test_a_near_position_is_solved_with_no_table_built(seen, cache, caplog):
    near = scramble(20, "4x4", seed=5)
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(near)
    assert s.optimal and s.length <= 20
    assert seen == [("linear-conflict", None)]
    assert tables_in(cache) == [] and "building the" not in caplog.text


def test_a_long_cheap_search_builds_the_first_rung_and_says_so_first(seen, caplog):
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(HARD, blank_first=True)
    assert s.length == 59 and s.optimal
    assert seen[:2] == [("linear-conflict", None), ("pdb", FOURS)]
    assert "searching with linear-conflict alone" in caplog.text
    announce = caplog.text.index(f"building the {FOURS.lower()} pattern databases")
    assert "4 tables, " in caplog.text[announce:] and "once: cached in" in caplog.text[announce:]


def test_ready_tables_are_used_at_once(seen, monkeypatch):
    ready_when(monkeypatch, (FOURS, FIVES))
    assert solve(EASY, blank_first=True).length == 46
    assert seen == [("pdb", FIVES)]


def test_the_search_starts_from_the_strongest_ready_rung_and_climbs(seen, monkeypatch, caplog):
    ready_when(monkeypatch, (FOURS,))
    costing(monkeypatch, 0.001)
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(HARD, blank_first=True)
    assert s.length == 59 and s.optimal
    assert seen == [("pdb", FOURS), ("pdb", FIVES)]
    assert f"on to the {FIVES} pattern databases" in caplog.text


def test_a_quick_search_keeps_the_ready_tables(seen, monkeypatch):
    ready_when(monkeypatch, (FOURS,))
    costing(monkeypatch, 3600.0)
    assert solve(EASY, blank_first=True).length == 46
    assert seen == [("pdb", FOURS)]


def test_a_build_that_would_outlast_the_time_limit_is_not_started(seen, monkeypatch, cache):
    costing(monkeypatch, 100.0)
    with pytest.raises(SearchLimitError) as info:
        solve(HARD, blank_first=True, time_limit=1)
    message, remedy = str(info.value), info.value.remedy
    assert "time limit" in message and "slidelab tables build 4x4 --blank-first" in message
    assert remedy is not None and remedy.which == FOURS
    assert seen == [("linear-conflict", None)] and tables_in(cache) == []


def test_the_time_limit_counts_the_tables_built_for_the_answer(cache):
    # an explicit method with the 6-6-3 tables, 22.3 MiB: not built within a hundredth of a second
    with pytest.raises(SearchLimitError, match="pattern databases|building tables"):
        solve(EASY, blank_first=True, method="idastar", heuristic="pdb", time_limit=0.01)


def test_the_15_puzzle_ladder_shares_tables_between_rungs():
    from slidelab.tables.pdb.layout import parse_partition, stronger_partitions

    p = Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    assert stronger_partitions(p) == ["7-7-1", "7-8"]
    assert stronger_partitions(p, "7-7-1") == ["7-8"] and stronger_partitions(p, "7-8") == []
    assert stronger_partitions(p, FIVES) == ["7-8"] and stronger_partitions(p, "auto") == ["7-8"]
    seven, eight = parse_partition(p, "7-8")
    assert parse_partition(p, "7-7-1") == [seven, [c for c in eight if c != 8], [8]]
    assert stronger_partitions(Puzzle(random_board("5x5", seed=1))) == []


def ladder(puzzle, options) -> list:
    """What each rung of ``auto``'s ladder searches with: the heuristic and its tables' choice."""
    return [
        (r.heuristic, None if r.tables is None else r.tables.which)
        for r in policy_module.rungs(puzzle, options)
    ]


def test_the_ladders():
    from slidelab.search.options import check_options

    options = check_options()
    fifteen = Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    assert ladder(fifteen, options) == [("pdb", "6-6-3"), ("pdb", "7-7-1"), ("pdb", "7-8")]
    mtm = ladder(fifteen, check_options(metric="mtm"))
    assert [h for h, _ in mtm] == ["abstraction"] * 3
    assert [len(which) for _, which in mtm] == [1, 1, 2]  # F; the fine one; it and the rows'
    assert ladder(fifteen, check_options(metric="mtm", heuristic="pdb")) == [("pdb", None)]
    assert ladder(fifteen, check_options(partition="7-8")) == [("pdb", "7-8")]
    assert ladder(Puzzle(random_board("5x5", seed=1)), options) == [("pdb", "6-6-6-6")]
    assert ladder(Puzzle(random_board("6x6", seed=1)), options) == [("linear-conflict", None)]
    assert ladder(Puzzle(random_board("7x2", seed=1)), options) == [("pdb", None)]


def test_asked_for_tables_and_methods_are_left_alone(seen):
    solve(EASY, blank_first=True, partition=FOURS)
    solve(EASY, blank_first=True, method="idastar", heuristic="pdb", partition=FOURS)
    assert seen == [("pdb", FOURS), ("pdb", FOURS)]


def test_is_ready_and_the_estimate(cache):
    p = Puzzle(EASY, blank_first=True)
    solve(p, partition=FIVES)
    assert Tables("pdb", p.goal, "stm", FIVES).ready()
    cost = Tables("pdb", p.goal, "stm", "7-8").cost()
    # a byte a placement, a byte of zero-aware bits a placement, the regions of each set of cells
    seven = 57_657_600 * 2 + 11_440 * 16
    eight = 518_918_400 * 2 + 12_870 * 16
    assert cost.disk_bytes == seven + eight and 10 < cost.build_seconds < 3600


def test_patience_stops_idastar_with_a_prediction():
    p = Puzzle(HARD, blank_first=True)
    with pytest.raises(SearchTooLong, match="expected to take|patience"):
        idastar(p, heuristic="manhattan", limits=Limits(patience=0.05))


# -- the acceptance test: near positions on large boards, an empty table cache -----------------


@pytest.mark.parametrize("size", ["5x5", "6x6", "7x2"])
def test_a_position_20_moves_out_is_solved_optimally_with_no_table_built(size, cache):
    near = scramble(20, size, seed=7)
    s = solve(near)
    assert s.optimal and s.method == "idastar" and s.length <= 20
    assert tables_in(cache) == []


# -- boards past the 15-puzzle: optimal within a budget, then a bounded answer -------------------
# A 4x4 stands in for the 5x5 (whose 6-6-6-6 tables take minutes to build): it is treated as
# past OPTIMAL_CELLS.


@pytest.fixture
def budgeted(monkeypatch):
    monkeypatch.setattr(policy_module, "OPTIMAL_CELLS", 9)


def test_within_the_budget_auto_proves_the_optimum(budgeted, seen):
    s = solve(EASY, blank_first=True, time_limit=60)
    assert s.length == 46 and s.optimal and s.method == "idastar"


@pytest.mark.slow  # 26 s: a search given its whole budget (the README's run stays under 8 minutes)
def test_past_the_budget_auto_gives_a_bounded_answer_and_says_so(budgeted, seen, caplog):
    solve(EASY, blank_first=True, partition=FOURS)  # the tables at hand
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(HARD, blank_first=True, time_limit=0.5)
    assert not s.optimal and s.method == "weighted-astar"
    assert 59 <= s.length <= 1.5 * 59
    assert "no proven optimum within" in caplog.text
    assert "at most 1.5 times as long" in caplog.text and "--time-limit" in caplog.text


def test_past_the_budget_with_no_tables_in_time_auto_gives_a_bounded_answer_naming_them(
    budgeted, seen, monkeypatch, caplog
):
    costing(monkeypatch, 100.0)
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(HARD, blank_first=True, time_limit=0.5)
    # weighted A* with the probe's heuristic (at most twice optimal) where it ends in the time
    # left, else the constructive method
    assert not s.optimal and s.method in ("weighted-astar", "constructive")
    assert "at most 2 times as long with linear-conflict" in caplog.text
    assert (
        f"the {FOURS.lower()} pattern databases of the 4x4 goal with the blank first would help"
        in caplog.text
    )
    assert s.remedy is not None and s.remedy.which == FOURS
    assert s.as_dict()["remedy"]["command"] == (
        f"slidelab tables build 4x4 --blank-first --partition {FOURS.lower()}"
    )


def test_a_big_board_with_no_time_limit_answers_within_the_default_budget(
    cache, monkeypatch, caplog
):
    """A random 5x5 with default options: its tables take minutes to build, past the minute
    ``auto`` gives it; the answer comes within it, labelled, naming the tables and their
    command (nothing is built)."""
    monkeypatch.setattr(policy_module, "DEFAULT_SECONDS", 4.0)  # the minute, shortened
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = solve(random_board("5x5", seed=3))
    assert not s.optimal and s.remedy is not None
    assert s.remedy.describe() == "the 6-6-6-6 pattern databases of the 5x5 goal"
    assert "slidelab tables build 5x5" in caplog.text and "building the" not in caplog.text
    assert tables_in(cache) == []


def test_the_24_puzzle_is_searched_by_auto():
    from slidelab.search.options import check_options

    assert solve_module.choose_method(Puzzle(random_board("5x5", seed=1))) == ("idastar", "pdb")
    # a goal whose blank is not in a corner has no named tables: a cheap search, then constructive
    goal = "1 2 3 4 5/6 7 8 9 10/11 12 0 13 14/15 16 17 18 19/20 21 22 23 24"
    assert ladder(Puzzle(goal, goal), check_options()) == [("linear-conflict", None)]
