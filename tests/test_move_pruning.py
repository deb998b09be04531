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
    NONE,
    SIDE,
    automaton,
    automaton_of,
    enter,
    refused,
    shipped,
)


def _refused_at_the_end(table, length):
    """The blank-direction strings of ``length`` moves the automaton refuses at their last."""
    return [
        string
        for string in itertools.product(range(4), repeat=length)
        if enter(table, string[:-1]) >= 0 and enter(table, string) < 0
    ]


def test_the_shipped_strings_are_the_search_s_up_to_ten_moves():
    new = refused(10, SIDE)
    old = shipped()
    assert {k: v for k, v in old.items() if k <= 10} == new


@pytest.mark.slow  # ten seconds of Python: the whole breadth-first search
def test_the_shipped_strings_are_the_search_s():
    assert shipped() == refused(LENGTH, SIDE)


@pytest.mark.parametrize("length", range(1, 9))
def test_the_automaton_refuses_exactly_the_refused_strings(length):
    """A string is refused at its last move exactly when it ends in a refused string."""
    strings = {s for found in refused(8, SIDE).values() for s in found}
    refused_now = _refused_at_the_end(automaton(), length)
    ends_in_one = [
        s
        for s in itertools.product(range(4), repeat=length)
        if not any(s[i:j] in strings for i in range(length) for j in range(i + 1, length))
        and any(s[i:] in strings for i in range(length))
    ]
    assert sorted(refused_now) == sorted(ends_in_one)


def test_nothing_is_refused_by_the_empty_automaton():
    assert enter(NONE, [0, 1, 0, 1]) == 0
    assert automaton_of({}).shape == (1, 4)


@pytest.mark.parametrize("size", ["3x2", "2x3", "4x2"])
def test_the_pruned_search_is_optimal_on_the_positions_of_small_boards(size):
    """Every position of the 3x2 and 2x3 boards, 400 of the 4x2's 20,160."""
    goal = Puzzle(random_board(size, seed=0)).goal
    heur = make_heuristic(Puzzle(goal, goal), "manhattan")
    positions = list(exact_distances(goal).items())
    random.Random(1).shuffle(positions)
    for cells, d in positions[:400]:
        start = Board.from_cells(cells, goal.width, goal.height)
        assert idastar(Puzzle(start, goal), heuristic=heur).length == d, start


def test_the_pruned_search_is_optimal_with_identical_tiles():
    goal = Board("A B A/B A 0")
    heur = make_heuristic(Puzzle(goal, goal), "manhattan")
    for cells, d in exact_distances(goal).items():
        start = Board.from_cells(cells, goal.width, goal.height)
        assert idastar(Puzzle(start, goal), heuristic=heur).length == d, start


def test_pruning_walks_fewer_paths(monkeypatch):
    """The 8-puzzle's hardest position: the same optimum from fewer nodes, and every optimal
    solution still listed (a search for all solutions walks every path)."""
    puzzle = Puzzle("8 6 7/2 5 4/3 0 1")
    heur = make_heuristic(puzzle, "manhattan")
    pruned = idastar(puzzle, heuristic=heur)
    module = importlib.import_module("slidelab.search.idastar")  # the name is its function's too
    monkeypatch.setattr(module, "automaton", lambda: NONE)
    walked = idastar(puzzle, heuristic=heur)
    assert pruned.length == walked.length == 31
    assert pruned.stats.generated < 0.8 * walked.stats.generated
    monkeypatch.undo()
    assert len(solve_all("8 6 7/2 5 4/3 0 1", heuristic="manhattan")) == 40
