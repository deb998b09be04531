import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab import (
    Board,
    Puzzle,
    SearchLimitError,
    UnsolvableError,
    apply_moves,
    bidirectional_bfs,
    random_board,
)
from slidelab.search import Limits
from slidelab.search.constructive import cancel_inverses, constructive

LETTERS_4X4 = "ABA_/CDCD/ABAB/CDCD"
LETTERS_6X5 = "ABCDEA/FGHIJB/KLMNOC/PQRS_D/TUVWXE"


def solve_and_check(start, goal):
    """Solve with the constructive method and replay the moves on the start."""
    puzzle = Puzzle(start, goal)
    s = constructive(puzzle, limits=Limits())
    s.verify()
    assert apply_moves(puzzle.start, s.moves) == puzzle.goal
    assert s.method == "constructive"
    return s


def goal_with_blank_at(width: int, height: int, cell: int) -> Board:
    tiles = list(range(1, width * height))
    tiles.insert(cell, 0)
    return Board.from_cells(tiles, width, height)


@pytest.mark.parametrize(
    "size", ["2x2", "2x3", "3x2", "3x3", "4x4", "5x3", "3x5", "2x7", "7x2", "6x6", "10x10"]
)
@pytest.mark.parametrize("seed", range(3))
def test_random_boards(size, seed):
    start = random_board(size, seed=seed)
    solve_and_check(start, None)


def test_15x15():
    for seed in range(2):
        s = solve_and_check(random_board("15x15", seed=seed), None)
        assert not s.optimal


@pytest.mark.parametrize("size", ["3x3", "4x4", "5x4", "2x5", "8x8"])
def test_blank_first_goal(size):
    for seed in range(3):
        start = random_board(size, blank_first=True, seed=seed)
        puzzle = Puzzle(start, blank_first=True)
        s = constructive(puzzle, limits=Limits())
        assert apply_moves(start, s.moves) == puzzle.goal


@pytest.mark.parametrize(
    "width,height", [(3, 3), (4, 4), (5, 5), (6, 4), (4, 7), (2, 6), (6, 2), (9, 8)]
)
def test_blank_anywhere_in_the_goal(width, height):
    n = width * height
    corners = {0, width - 1, n - width, n - 1}
    middle = (height // 2) * width + width // 2
    for cell in sorted(corners | {middle, width // 2, n - 1 - width // 2}):
        goal = goal_with_blank_at(width, height, cell)
        for seed in range(2):
            solve_and_check(random_board(goal=goal, seed=seed), goal)


@pytest.mark.parametrize("goal", [LETTERS_4X4, LETTERS_6X5])
def test_repeated_labels(goal):
    goal = Board(goal)
    for seed in range(15):
        solve_and_check(random_board(goal=goal, seed=seed), goal)


def test_repeats_only_outside_the_last_region():
    # One repeated pair in the first row; the final 3x3 region has distinct labels, so the
    # choice between the two A tiles decides whether it is solvable.
    goal = Board("A A B C D E/F G H I J K/L M N O P Q/R S T U V W/X Y Z a b 0")
    for seed in range(30):
        solve_and_check(random_board(goal=goal, seed=seed), goal)


def test_few_labels_large_board():
    rng = random.Random(4)
    cells = [rng.choice("AB") for _ in range(12 * 12 - 1)] + [0]
    goal = Board.from_cells(cells, 12, 12)
    for seed in range(3):
        solve_and_check(random_board(goal=goal, seed=seed), goal)


@pytest.mark.parametrize("goal", ["1 2 3/4 5 6/7 8 0", LETTERS_4X4, LETTERS_6X5])
def test_already_solved(goal):
    s = solve_and_check(goal, goal)
    assert s.length == 0


def test_solved_large_board_takes_no_moves():
    goal = Board.solved(20, 20, blank_first=True)
    assert solve_and_check(goal, goal).length == 0


def test_small_boards_are_solved_optimally():
    for seed in range(10):
        puzzle = Puzzle(random_board("3x3", seed=seed))
        s = constructive(puzzle, limits=Limits())
        assert s.optimal
        assert s.length == bidirectional_bfs(puzzle, limits=Limits()).length


def test_stats_count_the_final_search():
    s = constructive(Puzzle(random_board("7x7", seed=1)), limits=Limits())
    assert s.stats.expanded > 0 and s.stats.generated > 0 and s.stats.seconds > 0


def test_unsolvable_is_refused():
    with pytest.raises(UnsolvableError, match="unsolvable"):
        constructive(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"), limits=Limits())


def test_time_limit():
    with pytest.raises(SearchLimitError, match="constructive"):
        constructive(Puzzle(random_board("25x25", seed=0)), limits=Limits(time_limit=1e-9))


def test_cancel_inverses():
    assert cancel_inverses([0, 3, 2, 1, 1]) == [1]
    assert cancel_inverses([0, 1, 2, 3, 0]) == [0]
    assert cancel_inverses([]) == []


@settings(max_examples=40, deadline=None)
@given(
    width=st.integers(2, 8),
    height=st.integers(2, 8),
    seed=st.integers(0, 2**32 - 1),
    blank=st.integers(0, 63),
    letters=st.integers(0, 6),
)
def test_property_every_solution_replays(width, height, seed, blank, letters):
    n = width * height
    if letters:  # a lettered goal; with few letters, labels repeat
        rng = random.Random(seed)
        tiles = [chr(ord("A") + rng.randrange(letters)) for _ in range(n - 1)]
    else:
        tiles = list(range(1, n))
    tiles.insert(blank % n, 0)
    goal = Board.from_cells(tiles, width, height)
    start = random_board(goal=goal, seed=seed)
    solve_and_check(start, goal)
