import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import exact_distances
from slidelab import (
    Board,
    SearchLimitError,
    SlidelabError,
    UnsolvableError,
    apply_moves,
    random_board,
    scramble,
    solve,
)

HARDEST = ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"]
OPTIMAL = ["bfs", "bidirectional", "astar", "idastar", "auto"]

BLANK_FIRST_START = "0 1 2/3 4 5/6 7 8"
BLANK_FIRST_CASES = [
    ("3 1 2/4 7 5/6 0 8", 3),
    ("3 1 2/4 7 0/6 8 5", 5),
    ("0 1 5/3 2 8/6 4 7", 8),
    ("3 1 5/2 4 8/6 0 7", 11),
    ("3 1 0/2 7 5/6 8 4", 12),
    ("3 0 1/2 7 5/6 8 4", 13),
    ("0 1 2/4 7 5/6 3 8", 14),
    ("7 6 2/1 5 0/3 4 8", 15),
    ("4 2 8/1 0 5/6 7 3", 16),
    ("4 0 5/1 8 2/6 7 3", 17),
]


@pytest.mark.parametrize("board", HARDEST)
@pytest.mark.parametrize("method", OPTIMAL)
def test_hardest_3x3_take_31(board, method):
    s = solve(board, method=method)
    assert s.length == 31 and s.optimal
    assert apply_moves(s.start, s.moves) == Board("1 2 3/4 5 6/7 8 0")


def test_bfs_visits_all_and_bidirectional_stores_far_fewer():
    full = solve(HARDEST[0], method="bfs")
    assert full.stats.stored == 181_440
    both = solve(HARDEST[0], method="bidirectional")
    assert 10_000 < both.stats.stored < 20_000  # "about 16,000"
    assert both.stats.stored * 10 < full.stats.stored
    sides = both.stats.expanded_forward, both.stats.expanded_backward
    assert min(sides) > 0 and sum(sides) == both.stats.expanded
    assert full.stats.expanded_forward == full.stats.expanded_backward == 0  # one-sided


@pytest.mark.parametrize("goal,length", BLANK_FIRST_CASES)
@pytest.mark.parametrize("method", OPTIMAL)
def test_blank_first_cases(goal, length, method):
    s = solve(BLANK_FIRST_START, goal, method=method)
    assert s.length == length and s.optimal


@pytest.mark.parametrize(
    "board,size", [("1 2 3/4 5 6/8 7 0", None), ("1 2 3/4 5 6/7 8 9/10 11 12/13 15 14 0", "4x4")]
)
def test_unsolvable(board, size):
    with pytest.raises(UnsolvableError, match="unsolvable: permutation parity"):
        solve(board, size=size)


@pytest.mark.parametrize("count", [30, pytest.param(200, marks=pytest.mark.slow)])  # 200: 21 s
def test_five_searches_agree_on_random_3x3(count):
    rng = random.Random(2026)
    for _ in range(count):
        board = random_board("3x3", seed=rng)
        lengths = set()
        for method in OPTIMAL:
            s = solve(board, method=method)
            assert s.optimal
            lengths.add(s.length)
        assert len(lengths) == 1, (board, lengths)


def test_weighted_searches_are_bounded():
    rng = random.Random(5)
    for _ in range(30):
        board = random_board("3x3", seed=rng)
        best = solve(board).length
        for method in ("weighted-astar", "idastar"):
            s = solve(board, method=method, weight=2.0)
            assert best <= s.length <= 2 * best
            assert not s.optimal


def test_already_solved():
    for method in OPTIMAL + ["weighted-astar"]:
        s = solve("1 2 3/4 5 6/7 8 0", method=method)
        assert s.length == 0 and s.moves == ()


@pytest.mark.parametrize("goal", ["A A B/B C C/D D 0", "1 1 2/2 0 3", "A B/A 0", "1 2 3/4 5 0"])
def test_repeated_labels_against_dictionary_bfs(goal):
    goal = Board(goal)
    dist = exact_distances(goal)
    rng = random.Random(1)
    states = rng.sample(sorted(dist, key=str), min(25, len(dist)))
    for cells in states:
        start = Board.from_cells(cells, goal.width, goal.height)
        for method in OPTIMAL:
            s = solve(start, goal, method=method)
            assert s.length == dist[cells], (start, method)


def test_line_puzzle_small_problem():
    # line puzzle problem 2: 12 moves (the flat-table searches are too big for this board)
    s = solve("ABA_/CDCD/ABAB/CDCD", "ABA_/CCAD/ADBB/CDCD", method="idastar")
    assert s.length == 12 and s.optimal
    assert solve("ABA_/CDCD/ABAB/CDCD", "ABA_/CCAD/ADBB/CDCD", method="astar").length == 12


@settings(max_examples=30)
@given(
    st.integers(0, 10**9),
    st.sampled_from(["2x2", "3x2", "2x3", "3x3", "4x2", "2x4"]),
    st.sampled_from(OPTIMAL + ["weighted-astar"]),
)
def test_every_solution_replays(seed, size, method):
    board = random_board(size, seed=seed)
    s = solve(board, method=method)
    assert apply_moves(board, s.moves) == s.goal


def test_15_puzzle_moderate():
    b = scramble(30, "4x4", seed=11)
    a, i = solve(b, method="astar"), solve(b, method="idastar")
    assert a.length == i.length and a.length <= 30


def test_limits():
    with pytest.raises(SearchLimitError, match="limit reached"):
        solve(
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0",
            "0 15 14 13/12 11 10 9/8 7 6 5/4 3 2 1",
            method="idastar",
            time_limit=0.2,
        )
    with pytest.raises(SearchLimitError, match="over the memory limit"):
        solve("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0".replace("2 1", "1 2"), method="bfs")
    with pytest.raises(SearchLimitError, match="over the limit of 1,000"):
        solve(HARDEST[0], method="bfs", max_states=1000)
    with pytest.raises(SearchLimitError):
        solve(HARDEST[0], method="astar", max_bytes=100_000)
    with pytest.raises(SearchLimitError, match="memory limit"):
        solve(HARDEST[0], method="bidirectional", max_bytes=1000)


def test_bad_arguments():
    with pytest.raises(SlidelabError, match="unknown method 'dfs'"):
        solve(HARDEST[0], method="dfs")
    with pytest.raises(SlidelabError, match="weight must be at least 1"):
        solve(HARDEST[0], method="weighted-astar", weight=0.5)
    with pytest.raises(SlidelabError, match="unknown heuristic"):
        solve(HARDEST[0], method="astar", heuristic="magic")


def test_progress_callback():
    seen = []
    solve(HARDEST[0], method="bfs", progress=seen.append)
    assert seen and seen[-1]["method"] == "bfs" and "expanded" in seen[-1]


def test_solution_repr_round_trips():
    from slidelab import Solution, Stats  # noqa: F401 - used by eval

    s = solve(HARDEST[0])
    assert eval(repr(s)) == s
    assert s.as_dict()["solution"] == s.notation


def test_bad_limits():
    for kwargs in ({"time_limit": -1}, {"max_states": 0}, {"max_bytes": -5}):
        with pytest.raises(SlidelabError, match="must be positive"):
            solve(HARDEST[0], **kwargs)
