"""IDA*'s pruning of duplicate paths (:mod:`slidelab.search.move_pruning`): the shipped strings
are the search's, the automaton refuses exactly them, and the pruned search stays optimal."""

from __future__ import annotations

import importlib
import itertools
import random
from collections import deque

import pytest

from slidelab import Puzzle, random_board, solve_all
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


def _kept_and_refused(table, length):
    """Every blank-direction string of ``length`` moves the automaton walks to its end, and
    those it refuses at their last move."""
    kept, refused_now = [], []
    for string in itertools.product(range(4), repeat=length):
        if enter(table, string[:-1]) < 0:
            continue
        (refused_now if enter(table, string) < 0 else kept).append(string)
    return kept, refused_now


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
    _, refused_now = _kept_and_refused(automaton(), length)
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


def _distances(puzzle: Puzzle) -> dict:
    """Every position's distance to the goal of ``puzzle`` (breadth-first search)."""
    goal = tuple(int(c) for c in puzzle.goal_codes)
    nbr = puzzle.neighbours
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        b = s.index(0)
        for d in range(4):
            c = int(nbr[b, d])
            if c >= 0:
                t = list(s)
                t[b], t[c] = t[c], 0
                t = tuple(t)
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
    return dist


def _board(cells, width):
    return "/".join(
        " ".join(str(c) for c in cells[r : r + width]) for r in range(0, len(cells), width)
    )


@pytest.mark.parametrize("size", ["3x2", "2x3", "4x2"])
def test_the_pruned_search_is_optimal_on_every_position(size):
    w, h = map(int, size.split("x"))
    goal = Puzzle(random_board(size, seed=0))
    dist = _distances(goal)
    heur = make_heuristic(goal, "manhattan")
    positions = list(dist.items())
    random.Random(1).shuffle(positions)
    for state, d in positions[:400]:
        puzzle = Puzzle(_board(state, w), goal.goal)
        assert idastar(puzzle, heuristic=heur).length == d, state


def test_the_pruned_search_is_optimal_with_identical_tiles():
    goal = Puzzle("A B A/B A 0", "A B A/B A 0")
    dist = _distances(goal)
    heur = make_heuristic(goal, "manhattan")
    for state, d in dist.items():
        cells = ["0" if c == 0 else goal.labels[c - 1] for c in state]
        puzzle = Puzzle(_board(cells, 3), goal.goal)
        assert idastar(puzzle, heuristic=heur).length == d, state


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
