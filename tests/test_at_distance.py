"""Positions at an exact optimal distance (``generate --distance``, issue 15 part 3): every
board proven at its distance by an optimal solve; uniform where the space is searched whole."""

import math
from collections import Counter

import pytest

from slidelab import Board, SearchLimitError, SlidelabError, analyze, positions_at_distance, solve


def optimal_length(board, goal=None) -> int:
    s = solve(board, goal, method="bidirectional")  # BFS from both ends: no table involved
    assert s.optimal
    return s.length


@pytest.mark.parametrize("distance", [0, 1, 2, 13, 24, 30, 31])
def test_3x3_boards_are_at_their_distance(distance):
    n = min(15, analyze("3x3").counts[distance])  # distinct boards: 1 at 0, 2 at 1, 4 at 2
    boards = positions_at_distance(distance, n, "3x3", seed=distance)
    assert len(set(boards)) == n
    assert all(optimal_length(b) == distance for b in boards)


@pytest.mark.parametrize(
    "goal, distance, n",  # distinct boards: the 2x4's one farthest
    [
        ("1 2/3 4/5 6/7 0", 36, 1),
        ("0 1 2 3/4 5 6 7", 20, 5),
        ("AAB/BCC/DD_", 17, 5),
        ("0 1 2/3 4 5", 21, 1),
    ],
)
def test_other_goals_and_blank_first(goal, distance, n):
    for b in positions_at_distance(distance, n, goal=goal, seed=1):
        assert optimal_length(b, goal) == distance


def wilson_hilferty(df: int, z: float = 3.09) -> float:
    """The chi-square quantile with ``df`` degrees of freedom at the normal quantile ``z``
    (3.09: 0.999), by the Wilson-Hilferty approximation."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_uniform_on_the_3x3():
    # distinct boards: a sample of half of them, 40 times over, has each one about 20 times
    # (fewer repeats than independent draws would have: the test errs on the safe side)
    distance = 8
    stats = analyze("3x3")
    k = stats.counts[distance]  # positions at that distance
    seen: Counter = Counter()
    for seed in range(40):
        sample = positions_at_distance(distance, k // 2, "3x3", seed=2026 + seed)
        assert len(set(sample)) == k // 2
        seen.update(sample)
    assert len(seen) == k  # every one of them comes up
    expected = 40 * (k // 2) / k
    chi2 = sum((count - expected) ** 2 / expected for count in seen.values())
    assert chi2 < wilson_hilferty(k - 1), (chi2, k)


def test_the_same_seed_gives_the_same_boards():
    a = positions_at_distance(20, 5, "3x3", seed=7)
    assert a == positions_at_distance(20, 5, "3x3", seed=7)
    assert a != positions_at_distance(20, 5, "3x3", seed=8)


def test_past_the_diameter_is_an_error_naming_it():
    with pytest.raises(SlidelabError, match="the 8-puzzle's diameter is 31"):
        positions_at_distance(32, 1, "3x3")
    with pytest.raises(SlidelabError, match="farthest positions are 30 moves away"):
        positions_at_distance(31, 1, goal="1 2 3/4 0 5/6 7 8")  # the blank in the middle
    with pytest.raises(SlidelabError, match="distance"):
        positions_at_distance(-1, 1, "3x3")


def test_the_15_puzzle_by_walks_and_optimal_solves():
    # no time limit: the default 60 s included compiling the kernels and building the pattern
    # databases, which a cold cache on a busy machine did not finish in time
    boards = positions_at_distance(14, 3, "4x4", seed=3, time_limit=None)
    assert len(boards) == 3 and all(b.size == "4x4" for b in boards)
    assert all(solve(b).length == 14 for b in boards)


def test_the_search_way_stops_at_its_time_limit():
    with pytest.raises(SearchLimitError, match="positions at distance 30 in 0.5 s"):
        positions_at_distance(30, 10_000, "4x4", seed=1, time_limit=0.5)


def test_the_command_line(cli):
    result = cli("generate", "3x3", "--distance", "31", "-n", "2")
    assert result.exit_code == 0, result.output
    boards = [Board(line) for line in result.stdout.split("\n") if line]
    assert len(boards) == 2 and all(optimal_length(b) == 31 for b in boards)
    for args, message in [
        (["3x3", "-d", "32"], "diameter is 31"),
        (["3x3", "-d", "3", "--moves", "3"], "exclude each other"),
        (["3x3", "--time-limit", "3"], "goes with --distance"),
        (["3x3", "-d", "-1"], "--distance must be at least 0"),
    ]:
        result = cli("generate", *args)
        assert result.exit_code == 2 and message in result.stderr, (args, result.output)
