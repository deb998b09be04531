"""Bidirectional A* (MM, ``--method bidirectional-astar``): shortest lengths against breadth-first
search, the backward estimate, limits, statistics, and Korf's 15-puzzles (slow)."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import korf
from reference import exact_distances
from slidelab import Board, Puzzle, SearchLimitError, UnsolvableError, apply_moves, solve
from slidelab.generate import random_board, random_boards
from slidelab.heuristics import make_heuristic
from slidelab.search import Limits, bidirectional_astar, bidirectional_bfs
from slidelab.search.registry import METHODS, method_name

MM = importlib.import_module("slidelab.search.bidirectional_astar")
HARDEST = ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"]


@pytest.fixture(scope="module")
def distances():
    """Every reachable board's distance to the ordered goal, by plain breadth-first search."""
    return {
        size: exact_distances(Board.solved(*map(int, size.split("x")))) for size in ("3x3", "2x4")
    }


def check_lengths(boards, distances, heuristic):
    """Solve each board from its own made heuristic; return the boards whose length is wrong."""
    wrong = []
    for board in boards:
        puzzle = Puzzle(board)
        s = bidirectional_astar(puzzle, heuristic=make_heuristic(puzzle, heuristic))
        assert apply_moves(s.start, s.moves) == s.goal
        if s.length != distances[board.cells] or not s.optimal:
            wrong.append(f"{board}: {s.length}, BFS {distances[board.cells]}")
    return wrong


def test_1000_random_3x3_match_breadth_first_search(distances):
    boards = random_boards(1000, "3x3", seed="mm 3x3")
    assert not check_lengths(boards, distances["3x3"], "manhattan")


def test_1000_random_2x4_match_breadth_first_search(distances):
    boards = random_boards(1000, "2x4", seed="mm 2x4")
    assert not check_lengths(boards, distances["2x4"], "manhattan")


@pytest.mark.parametrize(
    # linear conflict: the bidirectional kernels' own compile (31 s of a first run's)
    "heuristic",
    [pytest.param("linear-conflict", marks=pytest.mark.slow), "zero"],
)
def test_random_2x4_match_breadth_first_search(distances, heuristic):
    boards = random_boards(300, "2x4", seed=f"mm 2x4 {heuristic}")
    assert not check_lengths(boards, distances["2x4"], heuristic)


@pytest.mark.parametrize(
    "heuristic, count",
    [
        ("linear-conflict", 200),
        # its kernels, no other test of the README's run compiles (37 s on a first run)
        pytest.param("pdb", 5, marks=pytest.mark.slow),
    ],
)
def test_linear_conflict_and_pattern_databases_on_3x3(distances, heuristic, count):
    boards = random_boards(count, "3x3", seed=f"mm 3x3 {heuristic}")
    assert not check_lengths(boards, distances["3x3"], heuristic), heuristic


@pytest.mark.parametrize("board", HARDEST)
def test_hardest_3x3_through_solve(board):
    s = solve(board, method="bidirectional-astar")
    assert s.length == 31 and s.optimal and s.method == "bidirectional-astar"
    st_ = s.stats
    assert st_.expanded == st_.expanded_forward + st_.expanded_backward
    assert st_.expanded_forward > 0 and st_.expanded_backward > 0
    assert 0 < st_.stored < 181_440 and st_.generated >= st_.expanded
    assert s.as_dict()["stats"]["expanded_backward"] == st_.expanded_backward


@pytest.mark.slow  # 38 s: builds its tables (the README's run stays under 8 minutes)
def test_pattern_databases_with_a_partition_through_solve(cache):  # small tables, built here
    board = "5 1 2 3/0 6 7 4/9 10 11 8/13 14 15 12"
    partition = "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15"
    s = solve(board, method="mm", heuristic="pdb", partition=partition)
    assert s.length == 7 == solve(board, method="idastar").length and s.optimal
    assert list(cache.iterdir())  # the forward tables are cached, the backward ones are not
    assert len(list(cache.iterdir())) == 5


def test_the_registry_entry():
    method = METHODS["bidirectional-astar"]
    assert method.optimal and method.stores and method.tables == "heuristic"
    assert method.options == ("heuristic", "partition")
    for alias in ("bidirectional-A*", "bae", "MM"):
        assert method_name(alias) == "bidirectional-astar"
    with pytest.raises(Exception, match="takes no --weight|weight"):
        solve(HARDEST[0], method="mm", weight=2)


def test_start_is_goal():
    s = solve("1 2 3/4 5 6/7 8 0", method="bidirectional-astar")
    assert s.length == 0 and s.optimal and s.stats.expanded == 0


def test_unsolvable_is_refused():
    with pytest.raises(UnsolvableError):
        solve("1 2 3/4 5 6/8 7 0", method="bidirectional-astar")
    with pytest.raises(UnsolvableError):
        bidirectional_astar(Puzzle("1 2 3/4 5 6/8 7 0"))


def test_identical_tiles_and_other_goals_match_bidirectional_bfs():
    goal = Board("A B A/B 0 C/C A B")
    for seed in range(20):
        puzzle = Puzzle(random_board(goal=goal, seed=seed), goal)
        assert bidirectional_astar(puzzle).length == bidirectional_bfs(puzzle).length, seed


@settings(max_examples=40)
@given(
    st.integers(0, 10**9),
    st.sampled_from(["2x2", "3x2", "2x3", "3x3", "4x2", "2x4"]),
    st.sampled_from(["manhattan", "linear-conflict"]),
)
def test_any_goal_matches_bidirectional_bfs(seed, size, heuristic):
    goal = random_board(size, seed=seed + 1)
    puzzle = Puzzle(random_board(goal=goal, seed=seed), goal)
    s = bidirectional_astar(puzzle, heuristic=heuristic)
    assert apply_moves(s.start, s.moves) == goal
    assert s.length == bidirectional_bfs(puzzle).length


def test_backward_heuristic_estimates_the_distance_to_the_start():
    start = Board(HARDEST[0])
    distance = exact_distances(start)  # to the start
    puzzle = Puzzle(start)
    for name in ("manhattan", "linear-conflict", "pdb"):
        back = MM.backward_heuristic(puzzle, make_heuristic(puzzle, name))
        assert back.value(puzzle.start_codes) == 0
        for board in random_boards(100, "3x3", seed=f"back {name}"):
            assert back.value(Puzzle(board).start_codes) <= distance[board.cells], (name, board)


def test_growth_and_deep_paths(monkeypatch, distances):
    """Tiny first arrays and path stacks, and short slices: every growth path runs."""
    monkeypatch.setattr(MM, "INITIAL_NODES", 4)
    monkeypatch.setattr(MM, "INITIAL_DEPTH", 1)
    monkeypatch.setattr(MM, "SLICE", 7)
    for heuristic in ("manhattan", "linear-conflict"):
        boards = random_boards(20, "3x3", seed=f"mm growth {heuristic}")
        assert not check_lengths(boards, distances["3x3"], heuristic)


def test_limits():
    with pytest.raises(SearchLimitError, match="over the limit of 100"):
        solve(HARDEST[0], method="mm", max_states=100)
    with pytest.raises(SearchLimitError, match="memory limit"):
        solve(HARDEST[0], method="mm", max_bytes=20_000)
    with pytest.raises(SearchLimitError, match="time limit") as caught:
        solve(
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0",
            "0 15 14 13/12 11 10 9/8 7 6 5/4 3 2 1",
            method="mm",
            time_limit=0.2,
        )
    assert caught.value.stats.expanded_forward > 0 and caught.value.stats.expanded_backward > 0
    with pytest.raises(
        SearchLimitError, match="pattern databases of the 3x3 goal 8 6 7/2 5 4/3 0 1 "
    ):
        solve(HARDEST[0], method="mm", heuristic="pdb", time_limit=1e-9)


def test_progress_reports():
    seen = []
    bidirectional_astar(Puzzle(HARDEST[0]), limits=Limits(progress=seen.append))
    assert seen and seen[-1]["method"] == "bidirectional-astar" and "open" in seen[-1]


def test_a_15_puzzle_walk_matches_idastar():
    from slidelab import scramble

    for seed in range(3):
        board = scramble(40, "4x4", seed=seed)
        a = solve(board, method="mm", heuristic="linear-conflict")
        assert a.length == solve(board, method="idastar", heuristic="linear-conflict").length


def korf_instances(count):
    """The ``count`` shortest of Korf's 100 (blank first): ``(number, puzzle, optimal length)``."""
    return sorted(korf.instances(), key=lambda t: (t[2], t[0]))[:count]


@pytest.mark.slow
def test_20_of_korfs_100_with_6_6_3_tables():
    """About 6 s each on 2 cores, most of it building the backward 6-6-3 tables (per start)."""
    wrong = []
    for number, puzzle, optimum in korf_instances(20):
        s = solve(puzzle, method="bidirectional-astar", heuristic="pdb", partition="6-6-3")
        assert apply_moves(s.start, s.moves) == s.goal
        if s.length != optimum or not s.optimal:
            wrong.append(f"Korf #{number}: {s.length}, published {optimum}")
    assert not wrong
