"""A solution shortened (``slidelab optimize``, :func:`slidelab.optimize`): never longer, a
solution still, its detours gone, optimal where the whole fits a window."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import slidelab
from slidelab.moves import expand


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_a_wandering_solve_of_the_8_puzzle_becomes_optimal(seed):
    """A random walk away and an optimal way back is shortened to an optimal solution (the
    whole fits a window)."""
    start = slidelab.random_board("3x3", seed=seed)
    wander = slidelab.scramble(8, goal=start, seed=seed)  # 8 moves away from the start
    there = list(expand(slidelab.solve(start, wander).moves))  # start -> wander
    home = list(expand(slidelab.solve(wander).moves))  # wander -> goal
    shorter = slidelab.optimize(start, [*there, *home])
    assert shorter.length <= len(there) + len(home)
    assert slidelab.apply_moves(start, shorter.moves) == slidelab.Board("1 2 3/4 5 6/7 8 0")
    assert shorter.optimal and shorter.length == slidelab.solve(start).length


def test_a_weighted_answer_on_the_15_puzzle_is_shortened():
    start = slidelab.random_board("4x4", seed=3)
    rough = slidelab.solve(start, method="weighted-astar", weight=3, heuristic="manhattan")
    shorter = slidelab.optimize(start, rough.moves)
    assert shorter.length <= rough.length
    assert shorter.length == slidelab.solve(start).length and shorter.optimal


def test_what_cannot_be_shortened_is_refused_in_one_line():
    with pytest.raises(slidelab.SlidelabError, match="do not reach the goal"):
        slidelab.optimize("1 2 3/4 5 6/0 7 8", "L")
    with pytest.raises(slidelab.SlidelabError, match="distinct tiles"):
        slidelab.optimize("A A B/B C 0", "", "A A B/B C 0")
    with pytest.raises(slidelab.IllegalMoveError, match="move 1"):
        slidelab.optimize("1 2 3/4 5 6/0 7 8", "R")


def test_the_command(cli):
    result = cli("optimize", "1 2 3/4 5 6/0 7 8", "L R L L")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["4 moves -> 2 (2 saved; optimal)", "L2"]
    data = json.loads(cli("optimize", "1 2 3/4 5 6/0 7 8", "LRLL", "--json").stdout)
    assert data["saved"] == 2 and data["length"] == 2
    assert cli("optimize", "1 2 3/4 5 6/0 7 8", "L").exit_code == 2
