"""Counting solutions without listing them (``slidelab count``, :func:`slidelab.count_solutions`),
checked against an independent count over breadth-first layers (:mod:`reference`)."""

from __future__ import annotations

import json

import pytest

import slidelab
from reference import exact_distances, successors
from slidelab import Board

EIGHT_GOAL = Board("1 2 3/4 5 6/7 8 0")
#: the 8-puzzle's two hardest positions (31 moves)
HARDEST = ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"]


def walks(start: Board, goal: Board, length: int, metric: str = "stm") -> int:
    """Move sequences of ``length`` moves from ``start`` that reach ``goal`` at their end only:
    layer by layer forward, each position's number of ways carried to its neighbours (the goal
    absorbs), pruned by the reference distances (a position farther from the goal than the
    moves left cannot end there)."""
    dist = exact_distances(goal, metric)
    layer = {start.cells: 1}
    for step in range(length):
        left = length - step - 1
        nxt: dict = {}
        for cells, ways in layer.items():
            if cells == goal.cells:
                continue  # reached before the end
            for after in successors(cells, goal.width, goal.height, metric):
                if dist[after] <= left:
                    nxt[after] = nxt.get(after, 0) + ways
        layer = nxt
    return layer.get(goal.cells, 0)


@pytest.mark.parametrize("start", HARDEST)
def test_the_hardest_8_puzzles_have_40_optimal_solutions(start):
    counts = slidelab.count_solutions(start)
    assert counts == {31: 40}
    assert counts[31] == walks(Board(start), EIGHT_GOAL, 31) == len(slidelab.solve_all(start))


@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_counts_past_the_optimum_agree_with_the_layers(metric):
    start = Board(slidelab.scramble(18, "3x3", seed=4))
    beyond = 4 if metric == "stm" else 2
    counts = slidelab.count_solutions(start, metric=metric, beyond=beyond)
    step = 2 if metric == "stm" else 1
    assert list(counts) == list(range(min(counts), min(counts) + beyond + 1, step))
    for length, n in counts.items():
        assert n == walks(start, EIGHT_GOAL, length, metric), length


def forward(start: Board, goal: Board, length: int, metric: str = "stm") -> int:
    """:func:`walks` without distances: every sequence of ``length`` moves carried forward,
    position by position (for boards too large for the reference's distances)."""
    layer = {start.cells: 1}
    for _ in range(length):
        nxt: dict = {}
        for cells, ways in layer.items():
            if cells != goal.cells:  # the goal absorbs
                for after in successors(cells, goal.width, goal.height, metric):
                    nxt[after] = nxt.get(after, 0) + ways
        layer = nxt
    return layer.get(goal.cells, 0)


# in MTM the search may build the 15-puzzle's first abstraction table: 90 s on a first run
@pytest.mark.parametrize("metric", ["stm", pytest.param("mtm", marks=pytest.mark.slow)])
def test_a_15_puzzle_is_counted_by_an_optimal_search_and_the_estimates(metric):
    """No distance table of the 15-puzzle: the optimum by an optimal search, and positions
    pruned by an admissible estimate."""
    goal = Board("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    start = Board(slidelab.scramble(14, "4x4", seed=9))
    beyond = 2 if metric == "stm" else 1
    counts = slidelab.count_solutions(start, metric=metric, beyond=beyond)
    optimum = min(counts)
    assert optimum == slidelab.solve(start, metric=metric).length
    for length, n in counts.items():
        assert n == forward(start, goal, length, metric), length
    assert counts[optimum] == len(slidelab.solve_all(start, metric=metric))


@pytest.mark.slow  # builds the blank-first goal's pattern databases (seconds) on a new machine
def test_korf_s_first_instance_has_one_optimal_solution():
    korf1 = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"
    assert slidelab.count_solutions(korf1, blank_first=True) == {57: 1}
    assert len(slidelab.solve_all(korf1, blank_first=True, heuristic="pdb")) == 1


def test_the_command(cli):
    result = cli("count", HARDEST[0], "--beyond", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "31 moves (optimal): 40 solutions",
        "33 moves (+2): 2,435 solutions",
    ]
    record = json.loads(cli("count", HARDEST[0], "--json").stdout)
    assert record["counts"] == {"31": 40}
    one = cli("count", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15")
    assert one.exit_code == 0 and one.stdout == "1 moves (optimal): 1 solution\n", one.output
