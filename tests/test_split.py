"""IDA* iterations shared by the cores: the same path as the plain search, limits still hold."""

from __future__ import annotations

import importlib
import threading

import pytest

from slidelab import Puzzle
from slidelab.errors import SearchLimitError
from slidelab.generate import random_board
from slidelab.memory import cores_for_this_thread, grant_cores, granted, usable_cores
from slidelab.search import Limits

ida = importlib.import_module("slidelab.search.idastar")

# Korf's #9 (46 moves) and #12 (45), goal blank first: IDA* + Manhattan, a few iterations each
BOARDS = ["3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0", "14 1 9 6/4 8 12 5/7 2 3 0/10 11 13 15"]


def _solve(board, cores, monkeypatch, heuristic="manhattan", weight=1.0):
    monkeypatch.setattr(ida, "cores_for_this_thread", lambda: cores)
    monkeypatch.setattr(ida, "SPLIT_AFTER", 0.0)  # split from the second iteration on
    return ida.idastar(Puzzle(board, blank_first=True), heuristic=heuristic, weight=weight)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflict"])
def test_split_iterations_find_the_plain_searchs_path(board, heuristic, monkeypatch):
    plain = _solve(board, 1, monkeypatch, heuristic)
    for cores in (2, 3):
        split = _solve(board, cores, monkeypatch, heuristic)
        assert split.notation == plain.notation and split.optimal
        assert split.stats.generated > 0


def test_split_weighted_idastar(monkeypatch):
    plain = _solve(BOARDS[0], 1, monkeypatch, weight=1.5)
    split = _solve(BOARDS[0], 2, monkeypatch, weight=1.5)
    assert split.notation == plain.notation and not split.optimal


def test_small_boards_and_goal_on_the_frontier(monkeypatch):
    for seed in range(20):
        board = random_board("3x3", seed=seed)
        plain = _solve(board, 1, monkeypatch)
        assert _solve(board, 2, monkeypatch).notation == plain.notation


def test_a_time_limit_stops_a_split_iteration(monkeypatch):
    _solve(random_board("3x3", seed=1), 2, monkeypatch)  # the kernels compiled before the clock
    monkeypatch.setattr(ida, "cores_for_this_thread", lambda: 2)
    monkeypatch.setattr(ida, "SPLIT_AFTER", 0.0)
    hard = Puzzle("14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15", blank_first=True)  # Korf's #3
    with pytest.raises(SearchLimitError, match="time limit") as caught:
        ida.idastar(hard, heuristic="zero", limits=Limits(time_limit=0.5))
    assert caught.value.lower_bound is not None  # the limit, not the end of the search, stopped it


def test_granted_cores_are_per_thread():
    seen = []

    def worker():
        grant_cores(1)
        seen.append(cores_for_this_thread())

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == [1] and cores_for_this_thread() >= 1


def test_a_grant_for_a_block_is_restored():
    with granted(1):
        assert cores_for_this_thread() == 1
    assert cores_for_this_thread() == usable_cores()


def test_a_worker_job_does_not_split(monkeypatch):
    """run_job (worker processes, Dask tasks) runs one job per worker: its IDA* keeps one core."""
    from slidelab.search.request import read_request
    from slidelab.workers import run_job, solve_job

    seen = []
    real = ida.split_iteration
    monkeypatch.setattr(ida, "SPLIT_AFTER", 0.0)
    monkeypatch.setattr(ida, "split_iteration", lambda *a: seen.append(1) or real(*a))
    status, result = run_job(
        *solve_job(read_request(BOARDS[0], blank_first=True, method="idastar"))
    )
    assert result["length"] == 46 and seen == []
