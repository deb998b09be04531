import pytest

from slidelab import Board, Puzzle, check, fix_parity, is_solvable, random_board
from slidelab.search import Limits, bfs


def test_known_unsolvable():
    c = check("1 2 3/4 5 6/8 7 0")
    assert not c.solvable
    assert c.reason.startswith("unsolvable: permutation parity is odd")
    # written as in the source document: the size says how to read the cells
    assert not is_solvable("1 2 3/4 5 6/7 8 9/10 11 12/13 15 14 0", size="4x4")
    assert not is_solvable("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0")
    assert is_solvable("1 2 3/4 5 6/7 8 9/10 11 12/13 14 15 0", size="4x4")


def test_repeated_labels_always_solvable():
    c = check("ABA_/CDCD/ABAB/CDCD", "BAA_/CDCD/ABAB/CDCD")
    assert c.solvable and "identical tiles" in c.reason


def test_korf_instances_need_blank_first():
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    assert is_solvable(korf1, blank_first=True)
    assert not is_solvable(korf1)


@pytest.mark.parametrize(
    "size", ["2x2", "3x2", "2x3", pytest.param("3x3", marks=pytest.mark.slow), "4x2"]
)  # 3x3: 362,880 boards one by one in Python, 20 s
def test_parity_rule_matches_reachability(size):
    """On small boards, the parity rule agrees with exhaustive search."""
    goal = Board.solved(*map(int, size.split("x")))
    reachable = 0
    from itertools import permutations
    from math import factorial

    for cells in permutations(goal.cells):
        if is_solvable(Board.from_cells(cells, goal.width, goal.height), goal):
            reachable += 1
    assert reachable == factorial(len(goal.cells)) // 2


def test_parity_rule_agrees_with_bfs_on_2x3():
    """A breadth-first search from the goal (the tests' own, a dictionary) reaches exactly the
    boards the rule calls solvable, and slidelab's bfs solves a sample of them."""
    from itertools import permutations

    from reference import exact_distances

    goal = Board.solved(3, 2)
    reached = exact_distances(goal)
    for cells in permutations(goal.cells):
        b = Board.from_cells(cells, 3, 2)
        assert is_solvable(b, goal) == (tuple(b.cells) in reached)
    for cells in list(permutations(goal.cells))[::37]:
        b = Board.from_cells(cells, 3, 2)
        if is_solvable(b, goal):
            assert bfs(Puzzle(b, goal), limits=Limits()).length == reached[tuple(b.cells)]


def test_fix_parity():
    bad = Board("1 2 3/4 5 6/8 7 0")
    fixed = fix_parity(bad)
    assert is_solvable(fixed) and fixed != bad
    # mirroring a 4-wide board swaps 2 pairs per row and moves the blank 3 columns: parity flips
    bad4 = Board("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0")
    assert is_solvable(fix_parity(bad4, how="mirror"))
    assert is_solvable(fix_parity(bad, how="mirror"))  # 3 row swaps, blank moves 2: flips
    # on a 2-wide, 3-high board mirroring makes 3 swaps and moves the blank 1: no change
    with pytest.raises(ValueError, match="mirroring does not change"):
        fix_parity("2 1/3 4/5 0", how="mirror")
    good = random_board("3x3", seed=3)
    assert fix_parity(good) == good


# -- an unsolvable message names what fixes it, in the words of the front end ------------------


def test_unsolvable_to_one_ordered_goal_names_the_other(cli):
    result = cli("solve", "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3")
    assert result.exit_code == 1
    assert (
        "solvable to the ordered goal with the blank first (Korf's convention: --blank-first)"
        in (result.output)
    )
    result = cli("solve", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", "--blank-first")
    assert result.exit_code == 1
    assert "with the blank last (the default goal, without --blank-first)" in result.output
    reason = check("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", blank_first=True).reason
    assert reason.endswith("with the blank last (the default goal, without blank_first=True)")


def test_unsolvable_with_no_other_goal_names_the_swap(cli):
    # odd width: both ordered goals are in one class; swapping two tiles is the fix
    reason = check("1 2 3/4 5 6/8 7 0").reason
    assert "ordered goal" not in reason
    assert reason.endswith("swapping two tiles makes it solvable (slidelab.fix_parity())")
    for command in ("solve", "check"):
        result = cli(command, "1 2 3/4 5 6/8 7 0")
        assert result.exit_code == 1
        assert "swapping two tiles makes it solvable (slidelab check --fix swap)" in result.output
