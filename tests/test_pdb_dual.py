"""The pattern databases maxed with the dual look-up (``pdb-dual``): admissible, never below
``pdb``, above it somewhere, the same optimal lengths in fewer nodes; ``pdb`` itself where the
tiles repeat.  Exact distances from the goals' distance tables; the registry's contract tests
(``test_registry.py``, ``test_mtm.py``) check it as every other heuristic too."""

from __future__ import annotations

import pytest

import slidelab
from slidelab import DistanceTable, Puzzle
from slidelab.heuristics import make_heuristic

#: (goal, partition): the ordered goal, Korf's (blank first), a blank in the middle, a 2x4
CASES = [
    ("1 2 3/4 5 6/7 8 0", "1,2,3,4/5,6,7,8"),
    ("0 1 2/3 4 5/6 7 8", "1,2,3/4,5,6/7,8"),
    ("4 2 3/1 0 6/7 8 5", "1,2,3,4/5,6,7,8"),
    ("1 2 3 4/5 6 7 0", "1,2,3/4,5,6,7"),
]

#: the tables built here go to a cache of this module (conftest's ``module_cache``)
pytestmark = pytest.mark.usefixtures("module_cache")


@pytest.mark.parametrize(("goal", "partition"), CASES)
def test_the_dual_look_up_is_admissible_and_adds_to_the_tables(goal, partition):
    puzzle = Puzzle(goal, goal=goal)
    dual = make_heuristic(puzzle, "pdb-dual", partition=partition)
    plain = make_heuristic(puzzle, "pdb", partition=partition)
    assert dual.name == "pdb-dual" and dual.admissible and "dual look-up" in dual.description
    table = DistanceTable.build(puzzle.goal)
    over, below, raised = [], [], 0
    for board in slidelab.random_boards(2000, puzzle.goal, seed=f"dual {goal}"):
        codes = Puzzle(board, goal=puzzle.goal).start_codes
        h, own, exact = dual.value(codes), plain.value(codes), table.distance(board)
        if h > exact:
            over.append(f"{board}: {h} > {exact}")
        if h < own:
            below.append(f"{board}: {h} < pdb's {own}")
        raised += h > own
    assert not over and not below, (over + below)[:5]
    assert raised > 0
    assert dual.value(puzzle.goal_codes) == 0


#: the dual's IDA* kernel (about 60 s of a first run's compiling, for an option that counts nodes
#: and is not the default) is compiled in the slow step only
@pytest.mark.slow
@pytest.mark.parametrize(("goal", "partition"), CASES)
def test_idastar_with_the_dual_finds_the_optimum_in_fewer_nodes(goal, partition):
    goal_board = Puzzle(goal, goal=goal).goal
    table = DistanceTable.build(goal_board)
    nodes = {"pdb": 0, "pdb-dual": 0}
    for board in slidelab.random_boards(20, goal_board, seed=f"dual ida {goal}"):
        for name in nodes:
            s = slidelab.solve(
                board, goal=goal_board, method="idastar", heuristic=name, partition=partition
            )
            assert s.length == table.distance(board) and s.optimal, (name, board)
            nodes[name] += s.stats.generated
    assert nodes["pdb-dual"] < nodes["pdb"], nodes


def test_repeated_labels_have_no_dual_and_get_the_tables_alone():
    goal = "A B A B/B A 0 A"
    puzzle = Puzzle(goal, goal=goal)
    dual = make_heuristic(puzzle, "pdb-dual")
    plain = make_heuristic(puzzle, "pdb")
    assert dual.name == "pdb-dual" and "no dual look-up" in dual.description
    for board in slidelab.random_boards(50, puzzle.goal, seed="dual letters"):
        codes = Puzzle(board, goal=puzzle.goal).start_codes
        assert dual.value(codes) == plain.value(codes)
