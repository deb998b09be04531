"""The compiled best-first kernel (A*, weighted A*) and the polishing of weighted solutions."""

import importlib
import random

import numpy as np
import pytest

from korf import korf15
from reference import exact_distances
from slidelab import Board, Puzzle, SearchLimitError, apply_moves, random_board, scramble, solve
from slidelab.heuristics import make_heuristic
from slidelab.search import Limits
from slidelab.search._polish import polish_path, symmetries
from slidelab.search.astar import astar, weighted_astar

astar_module = importlib.import_module("slidelab.search._bestfirst_run")


def korf(numbers):
    return [korf15(n) for n in numbers]


@pytest.fixture(scope="module")
def exact_3x3():
    goal = Board("1 2 3/4 5 6/7 8 0")
    return goal, exact_distances(goal)


@pytest.mark.slow  # weighted A*'s kernel with pattern databases: 48 s of a first run's compiling
def test_korf_with_pattern_databases_is_bounded_and_polished():
    for puzzle, known in korf([1, 2, 3, 4, 5, 6]):
        s = solve(puzzle, method="weighted-astar", heuristic="pdb", weight=1.5)
        assert apply_moves(puzzle.start, s.moves) == puzzle.goal
        assert known <= s.length <= 1.5 * known
        assert s.method == "weighted-astar" and not s.optimal
        raw = weighted_astar(
            puzzle, weight=1.5, heuristic=make_heuristic(puzzle, "pdb"), polish=False
        )
        raw.verify()
        assert s.length <= raw.length <= 1.5 * known
        assert s.stats.expanded >= raw.stats.expanded  # the windows' work is counted


def test_korf_with_manhattan_is_bounded():
    for puzzle, known in korf([2, 5, 9]):
        for polish in (False, True):
            s = weighted_astar(puzzle, weight=1.5, heuristic="manhattan", polish=polish)
            s.verify()
            assert known <= s.length <= 1.5 * known


def test_random_3x3_within_the_weight_of_exact_lengths(exact_3x3):
    goal, dist = exact_3x3
    rng = random.Random(7)
    for _ in range(25):
        board = random_board("3x3", seed=rng)
        best = dist[board.cells]
        for heuristic in ("manhattan", "linear-conflict", "pdb"):
            for weight in (1.5, 3.0):
                s = solve(board, method="weighted-astar", heuristic=heuristic, weight=weight)
                assert best <= s.length <= weight * best, (board, heuristic, weight)
            raw = weighted_astar(Puzzle(board), weight=3.0, heuristic=heuristic, polish=False)
            assert best <= raw.length <= 3 * best
        a = solve(board, method="astar")
        assert a.length == best and a.optimal
        assert a.stats.expanded <= a.stats.stored <= a.stats.generated + 1


def test_weight_one_is_optimal_a_star(exact_3x3):
    goal, dist = exact_3x3
    rng = random.Random(8)
    for _ in range(10):
        board = random_board("3x3", seed=rng)
        for heuristic in ("manhattan", "linear-conflict", "zero"):
            s = astar(Puzzle(board), heuristic=heuristic)
            assert s.length == dist[board.cells] and s.optimal
        assert solve(board, method="weighted-astar", weight=1).optimal


def test_15_puzzle_a_star_matches_the_known_optimum():
    for puzzle, known in korf([9]):
        s = solve(puzzle, method="astar", heuristic="pdb")
        assert s.length == known and s.optimal


def test_multi_word_boards_and_repeated_labels():
    b = scramble(24, "5x4", seed=3)  # 19 labels: 5 bits a cell, two 64-bit words
    a, i = solve(b, method="astar"), solve(b, method="idastar")
    assert a.length == i.length and a.optimal
    w = solve(b, method="weighted-astar", weight=2)
    assert a.length <= w.length <= 2 * a.length
    line = solve("ABA_/CDCD/ABAB/CDCD", "ABA_/CABD/ACDB/CDCD", method="weighted-astar", weight=1.5)
    assert 16 <= line.length <= 24


def test_shallow_path_stack_and_tiny_arrays_are_grown(monkeypatch):
    monkeypatch.setattr(astar_module, "INITIAL_DEPTH", 2)
    monkeypatch.setattr(astar_module, "INITIAL_NODES", 4)
    s = solve("8 6 7/2 5 4/3 0 1", method="astar")
    assert s.length == 31 and s.optimal
    s = solve("8 6 7/2 5 4/3 0 1", method="weighted-astar", weight=2)
    assert 31 <= s.length <= 62


def test_limits_raise():
    puzzle, _ = korf([1])[0]
    with pytest.raises(SearchLimitError, match="time limit"):
        solve(puzzle, method="astar", time_limit=0.2)
    with pytest.raises(SearchLimitError, match="over the limit of 1,000"):
        solve(puzzle, method="weighted-astar", max_states=1000)
    with pytest.raises(SearchLimitError, match="memory limit"):
        solve(puzzle, method="astar", max_bytes=2_000_000)
    with pytest.raises(SearchLimitError, match="memory limit"):
        solve(puzzle, method="astar", max_bytes=1000)


def test_polishing_stops_at_the_time_limit_and_keeps_the_path():
    puzzle, known = korf([1])[0]
    heur = make_heuristic(puzzle, "pdb")
    raw = weighted_astar(puzzle, weight=1.5, heuristic=heur, polish=False)
    dirs = [
        {"D": 0, "U": 1, "R": 2, "L": 3}[m.direction] for m in raw.moves for _ in range(m.amount)
    ]
    stats = raw.stats
    out = polish_path(puzzle, dirs, heur, Limits(time_limit=1e-9), "weighted-astar", stats)
    assert out == dirs
    better = polish_path(puzzle, dirs, heur, Limits(), "weighted-astar", stats)
    assert known <= len(better) < len(dirs)


def test_symmetries_are_permutations():
    for w, h in ((4, 4), (3, 2), (2, 5)):
        maps = symmetries(w, h)
        assert len(maps) == (8 if w == h else 4)
        assert len({m.tobytes() for m in maps}) == len(maps)
        for m in maps:
            assert sorted(m.tolist()) == list(range(w * h))
    corners = {int(np.flatnonzero(m == 0)[0]) for m in symmetries(4, 4)}
    assert corners == {0, 3, 12, 15}


def test_bounded_kernel_run_proves_no_shorter_path(exact_3x3):
    from slidelab.solution import Stats

    goal, dist = exact_3x3
    board = Board("8 6 7/2 5 4/3 0 1")
    p = Puzzle(board)
    heur = make_heuristic(p, "manhattan")
    run = astar_module.run_kernel
    args = (
        p.start_codes,
        p.goal_codes,
        p.neighbours,
        astar_module.Packing(p),
        heur,
        1.0,
        Limits(),
        "astar",
    )
    assert run(*args, Stats(), shorter_than=31) is None
    assert len(run(*args, Stats(), shorter_than=32)) == 31 == dist[board.cells]
    assert run(*args, Stats(), shorter_than=heur.value(p.start_codes)) is None
