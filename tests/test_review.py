"""A solve reviewed move by move (``slidelab review``, :func:`slidelab.review`) and every
optimal next move (``slidelab hint``, :func:`slidelab.hint`), checked against an independent
breadth-first search (:mod:`reference`): every distance, every lost move, every good move."""

from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import slidelab
from reference import exact_distances, successors
from slidelab import Board, IllegalMoveError, Move
from slidelab.errors import SearchLimitError
from slidelab.moves import expand, legal_moves, runs
from slidelab.search.distances import Distances, NotProven

EIGHT_GOAL = Board("1 2 3/4 5 6/7 8 0")
#: boards with identical tiles: a 2x3 with two pairs alike, a 3x3 of three kinds
ALIKE_GOALS = [Board("A A B/B C 0"), Board("A A A/B B B/C C 0")]


@pytest.fixture(scope="module")
def distances():
    """The reference distances by (goal, metric)."""
    cache: dict = {}

    def of(goal: Board, metric: str) -> dict:
        if (goal, metric) not in cache:
            cache[goal, metric] = exact_distances(goal, metric)
        return cache[goal, metric]

    return of


def _random_walk(goal: Board, metric: str, seed: int, length: int) -> tuple[Board, list[Move]]:
    """A start (a random position at some distance) and a wandering solve of ``length`` moves
    from it (legal, not necessarily reaching the goal)."""
    import random

    rng = random.Random(seed)
    board = Board(slidelab.scramble(30, goal=goal, seed=seed))
    start, moves = board, []
    for _ in range(length):
        m = rng.choice(legal_moves(board.width, board.height, board.cells.index(0), metric))
        moves.append(m)
        board = board.apply([m])
    return start, moves


def _check(review, goal: Board, metric: str, dist: dict) -> None:
    """Every step's distances and good moves are the reference's."""
    board = review.start
    assert review.optimum == dist[board.cells]
    for step in review.steps:
        assert step.before == dist[board.cells]
        good = {
            m
            for m in legal_moves(board.width, board.height, board.cells.index(0), metric)
            if dist[board.apply([m]).cells] == step.before - 1
        }
        assert set(step.good) == good or step.before == 0 and step.good == ()
        board = board.apply([step.move])
        assert step.after == dist[board.cells]
        assert step.lost == step.after - step.before + 1
    assert review.lost == sum(s.lost for s in review.steps)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["stm", "mtm"]))
def test_a_review_agrees_with_breadth_first_search_on_the_8_puzzle(distances, seed, metric):
    start, moves = _random_walk(EIGHT_GOAL, metric, seed, 12)
    review = slidelab.review(start, moves, metric=metric)
    assert review.length == (len(runs(moves)) if metric == "mtm" else 12)  # a run is one slide
    _check(review, EIGHT_GOAL, metric, distances(EIGHT_GOAL, metric))


@pytest.mark.parametrize("goal", ALIKE_GOALS, ids=lambda g: g.format())
def test_a_review_with_identical_tiles(distances, goal):
    for seed in range(5):
        start, moves = _random_walk(goal, "stm", seed, 10)
        review = slidelab.review(start, moves, goal)
        _check(review, goal, "stm", distances(goal, "stm"))


def test_the_summary_names_the_moves_lost_and_where():
    # the 8-puzzle's hardest position: 31 moves; its optimal solution, with move 6 taken back
    # at move 7 (2 lost there) and made again at move 8
    start = "8 6 7/2 5 4/3 0 1"
    best = list(expand(slidelab.solve(start).moves))  # one tile a move
    moves = [*best[:6], *slidelab.invert(best[5:6]), *best[5:]]
    review = slidelab.review(start, moves)
    assert review.optimum == 31 and review.length == 33 and review.lost == 2
    assert review.summary == "33 moves, optimal 31: 2 lost, at move 7 (2)"
    assert [s.number for s in review.mistakes] == [7]
    assert review.reaches_goal
    again = slidelab.review(start, best)
    assert again.summary == "31 moves, optimal 31: every move kept the optimum"


def test_a_review_on_the_15_puzzle_by_search():
    """No distance table for the 15-puzzle: each position's distance by an optimal search."""
    start = slidelab.scramble(24, "4x4", seed=7)
    moves = slidelab.solve(start).moves
    review = slidelab.review(start, [*moves[:3], *slidelab.invert(moves[2:3]), *moves[2:]])
    assert review.lost == 2 and [s.number for s in review.mistakes] == [4]
    assert all(s.move in s.good or s.lost for s in review.steps)


class _ShortOfTime(Distances):
    """The review's distances as on a board too hard for its time limit, on the 8-puzzle (so
    that every answer is known): no optimum of the start is proven, and each bounded search
    from a position farther than ``reach`` from the goal runs past the limit."""

    reach = 0

    def __init__(self, request):
        super().__init__(request)
        self.table = None  # searched, as on a board with no distance table

    def of(self, board):
        raise NotProven("no proven optimum within the time limit", None)

    def beside(self, board, distance, limits=None):
        if distance > self.reach:
            raise SearchLimitError("limit reached: stopped at the time limit", None)
        return super().beside(board, distance, limits)


#: MTM compiles IDA*'s MTM kernels with the 8-puzzle's heuristic, which no other test of the
#: README's run does (its first run stays under 8 minutes): the slow step
_METRICS = [pytest.param("stm"), pytest.param("mtm", marks=pytest.mark.slow)]


@pytest.mark.parametrize("metric", _METRICS)
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 30), st.booleans())
def test_where_no_optimum_is_proven_the_review_gives_bounds_that_hold(
    distances, metric, seed, reach, reaches_goal
):
    """A position whose optimum cannot be proven in time stopped the review with one line.
    Now the distances are proven back from the goal as far as the time allows, and before that
    bounded (the heuristic's estimate, the moves the solve still takes, the parity, one move
    between neighbours): every bound holds, a move is judged lost only where it was, and the
    summary says bounds."""
    dist = distances(EIGHT_GOAL, metric)
    start, moves = _random_walk(EIGHT_GOAL, metric, seed, 8)
    end = start.apply(moves)
    if reaches_goal:
        moves = [*moves, *slidelab.solve(end, method="bfs", metric=metric).moves]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(importlib.import_module("slidelab.search.review"), "Distances", _ShortOfTime)
        patch.setattr(_ShortOfTime, "reach", reach)
        review = slidelab.review(start, moves, metric=metric, time_limit=1)
    board = review.start
    low, high = review.optimum_bounds
    assert low <= dist[board.cells] <= high and review.optimum in (None, dist[board.cells])
    for step in review.steps:
        after = board.apply([step.move])
        truth = dist[board.cells], dist[after.cells]
        for (lo, hi), d in zip(step.bounds, truth, strict=True):
            assert lo <= d <= hi and (metric == "mtm" or (d - lo) % 2 == 0), (step, truth)
        assert step.before in (None, truth[0]) and step.after in (None, truth[1])
        lost = truth[1] - truth[0] + 1
        assert step.lost_bounds[0] <= lost <= step.lost_bounds[1]
        assert step.good is None or set(step.good) == {
            m for m in legal_moves(3, 3, board.cells.index(0), metric)
            if dist[board.apply([m]).cells] == truth[0] - 1
        }  # fmt: skip
        board = after
    if not reaches_goal:
        assert review.exact_from is None and "no distance proven" in review.summary
    elif review.exact_from:
        assert review.optimum is None and "optimal " in review.summary
        assert "bounds: " in review.summary and " lost" in review.summary
        assert all(s.exact for s in review.steps[review.exact_from :])
    for step in review.mistakes:
        assert step.lost_bounds[0] > 0


@pytest.mark.slow  # 19 s here: a position's bounded searches, each up to the 1 s limit
def test_a_24_puzzle_solve_is_reviewed_with_bounds_labelled():
    """Korf and Felner's first 24-puzzle (95 moves): no optimum is proven in a second, so the
    review proves the distances back from the goal as far as a second a position allows,
    bounds the rest (labelled so), and the bounds hold the optimum."""
    from korf import korf24

    puzzle, known = korf24(1)
    solution = slidelab.solve(puzzle, method="constructive")
    review = slidelab.review(puzzle.start, solution.moves, puzzle.goal, time_limit=1)
    low, high = review.optimum_bounds
    assert review.optimum is None and low <= known <= high <= solution.length
    assert 0 < review.exact_from < review.length and review.reaches_goal
    assert "bounds: distances proven from move" in review.summary
    assert all(s.exact for s in review.steps[review.exact_from :])
    text = review.format()
    assert "?" in text and f"{low}-{high}" in text


def test_an_illegal_move_is_refused_with_its_number():
    with pytest.raises(IllegalMoveError, match=r"move 2 \(U\) is illegal"):
        slidelab.review("1 2 3/4 5 6/7 0 8", "L U")


def test_times_name_the_slowest_moves():
    review = slidelab.review("1 2 3/4 5 6/0 7 8", "L L", times=[0.5, 2.0])
    assert [s.number for s in review.slowest()] == [2, 1]
    assert "slowest: move 2 (2.00 s)" in review.format()
    with pytest.raises(slidelab.SlidelabError, match="1 times for 2 moves"):
        slidelab.review("1 2 3/4 5 6/0 7 8", "L L", times=[1])


def test_in_mtm_a_slide_is_one_move():
    review = slidelab.review("1 2 3/4 5 6/0 7 8", "L L", metric="mtm")
    assert [str(s.move) for s in review.steps] == ["L2"] and review.optimum == 1
    assert review.summary == "1 MTM move, optimal 1: every move kept the optimum"


def test_the_hint_lists_every_optimal_next_move(distances):
    """The hardest 8-puzzles' optimal solutions begin with several moves: all are listed."""
    dist = distances(EIGHT_GOAL, "stm")
    for seed in range(10):
        board = Board(slidelab.random_board("3x3", seed=seed))
        h = slidelab.hint(board)
        want = {
            m
            for m in legal_moves(3, 3, board.cells.index(0))
            if dist[board.apply([m]).cells] == dist[board.cells] - 1
        }
        assert h.distance == dist[board.cells] and set(h.good) == want and h.move in want
    assert slidelab.hint("8 6 7/2 5 4/3 0 1").good == (Move("D", 1), Move("L", 1), Move("R", 1))


def test_reference_successors_are_the_legal_moves():
    """The reference's moves and slidelab's are the same moves (or the checks above mean
    nothing)."""
    for metric in ("stm", "mtm"):
        board = Board("1 2 3/4 0 5/6 7 8")
        mine = {board.apply([m]).cells for m in legal_moves(3, 3, 4, metric)}
        assert mine == set(successors(board.cells, 3, 3, metric))


def test_the_commands(cli):
    result = cli("hint", "8 6 7/2 5 4/3 0 1")
    assert result.exit_code == 0, result.output
    assert "STM: 31 to go (distance table); optimal next moves: D, L, R" in result.stdout
    assert "MTM: 20 to go" in result.stdout
    record = json.loads(cli("hint", "8 6 7/2 5 4/3 0 1", "--metric", "mtm", "--json").stdout)
    assert record["mtm"]["distance"] == 20 and "stm" not in record
    result = cli("review", "1 2 3/4 5 6/0 7 8", "L R L L", "--times", "1,2,3,0.5")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-2] == "4 moves, optimal 2: 2 lost, at move 2 (2)"
    data = json.loads(cli("review", "1 2 3/4 5 6/0 7 8", "L L", "--json").stdout)
    assert data["optimum"] == 2 and data["lost"] == 0 and data["steps"][0]["good"] == ["L"]
    bad = cli("review", "1 2 3/4 5 6/0 7 8", "R")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: move 1 (R) is illegal")
    bad = cli("review", "1 2 3/4 5 6/0 7 8", "L L", "--times", "1,x")
    assert bad.exit_code == 2 and "'x' (time 2) is not a number" in bad.stderr
