"""IDA*'s pruning of duplicate paths (:mod:`slidelab.search.move_pruning`): the shipped strings
are the search's, the automaton refuses exactly them, and the pruned search stays optimal."""

from __future__ import annotations

import importlib
import itertools
import random

import pytest

from reference import exact_distances
from slidelab import Board, Puzzle, random_board, solve_all
from slidelab.heuristics import make_heuristic
from slidelab.search.idastar import idastar
from slidelab.search.move_pruning import (
    LENGTH,
    MTM_SHIPPED,
    SIDE,
    automaton,
    automaton_of,
    enter,
    refused,
    shipped,
    walk_every_path,
)


def _refused_at_the_end(table, length):
    """The move strings of ``length`` moves the automaton refuses at their last."""
    return [
        string
        for string in itertools.product(range(table.shape[1]), repeat=length)
        if enter(table, string[:-1]) >= 0 and enter(table, string) < 0
    ]


def test_the_shipped_strings_are_the_search_s_up_to_ten_moves():
    new = refused(10, SIDE)
    old = shipped()
    assert {k: v for k, v in old.items() if k <= 10} == new


@pytest.mark.slow  # ten seconds of Python: the whole breadth-first search
def test_the_shipped_strings_are_the_search_s():
    assert shipped() == refused(LENGTH, SIDE)


@pytest.mark.parametrize("reach", sorted(MTM_SHIPPED))
def test_the_shipped_multi_tile_strings_are_the_search_s(reach):
    """MTM: moves of 1 .. ``reach`` tiles (the 8-puzzle's 2, the 15-puzzle's 3), but for the
    15-puzzle's longest (8 moves, five seconds of Python: the slow step)."""
    length, side = MTM_SHIPPED[reach]
    length -= reach == 3
    assert {k: v for k, v in shipped(reach).items() if k <= length} == refused(length, side, reach)


@pytest.mark.slow  # five seconds of Python, and several hundred MB
def test_the_shipped_15_puzzle_multi_tile_strings_are_the_search_s():
    assert shipped(3) == refused(*MTM_SHIPPED[3], 3)


@pytest.mark.parametrize(("reach", "length"), [(1, n) for n in range(1, 9)] + [(2, 5), (3, 4)])
def test_the_automaton_refuses_exactly_the_refused_strings(reach, length):
    """A string is refused at its last move exactly when it ends in a refused string."""
    strings = {s for found in shipped(reach).values() for s in found if len(s) <= length}
    refused_now = _refused_at_the_end(automaton(reach), length)
    ends_in_one = [
        s
        for s in itertools.product(range(4 * reach), repeat=length)
        if not any(s[i:j] in strings for i in range(length) for j in range(i + 1, length))
        and any(s[i:] in strings for i in range(length))
    ]
    assert sorted(refused_now) == sorted(ends_in_one)


def test_nothing_is_refused_by_the_empty_automaton():
    assert enter(walk_every_path(), [0, 1, 0, 1]) == 0
    assert walk_every_path(3).shape == (1, 12)
    assert automaton_of({}).shape == (1, 4)
    assert automaton(5).shape == (1, 20)  # beyond the shipped reaches: the search's own rule


@pytest.mark.parametrize("metric", ["stm", "mtm"])
@pytest.mark.parametrize("size", ["3x2", "2x3", "4x2", "3x3"])
def test_the_pruned_search_is_optimal_on_the_positions_of_small_boards(size, metric):
    """Every position of the 3x2 and 2x3 boards, 400 of the 4x2's 20,160 and of the 8-puzzle's
    181,440, in both metrics (MTM: the 8-puzzle's and the 4x2's strings are the shipped ones)."""
    goal = Puzzle(random_board(size, seed=0)).goal
    heur = make_heuristic(Puzzle(goal, goal), "manhattan", metric=metric)
    positions = list(exact_distances(goal, metric).items())
    random.Random(1).shuffle(positions)
    for cells, d in positions[:400]:
        start = Board.from_cells(cells, goal.width, goal.height)
        found = idastar(Puzzle(start, goal), heuristic=heur, metric=metric)
        assert found.length == d, start


@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_the_pruned_search_is_optimal_with_identical_tiles(metric):
    goal = Board("A B A/B A 0")
    heur = make_heuristic(Puzzle(goal, goal), "manhattan", metric=metric)
    for cells, d in exact_distances(goal, metric).items():
        start = Board.from_cells(cells, goal.width, goal.height)
        assert idastar(Puzzle(start, goal), heuristic=heur, metric=metric).length == d, start


@pytest.mark.parametrize(("metric", "length", "share"), [("stm", 31, 0.8), ("mtm", 20, 0.9)])
def test_pruning_walks_fewer_paths(monkeypatch, metric, length, share):
    """The 8-puzzle's hardest position: the same optimum from fewer nodes in either metric, and
    every optimal solution still listed (a search for all solutions walks every path)."""
    puzzle = Puzzle("8 6 7/2 5 4/3 0 1")
    heur = make_heuristic(puzzle, "manhattan", metric=metric)
    pruned = idastar(puzzle, heuristic=heur, metric=metric)
    module = importlib.import_module("slidelab.search.idastar")  # the name is its function's too
    monkeypatch.setattr(module, "automaton", walk_every_path)
    walked = idastar(puzzle, heuristic=heur, metric=metric)
    assert pruned.length == walked.length == length
    assert pruned.stats.generated < share * walked.stats.generated
    monkeypatch.undo()
    if metric == "stm":
        assert len(solve_all("8 6 7/2 5 4/3 0 1", heuristic="manhattan")) == 40
