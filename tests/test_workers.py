"""Worker processes (slidelab.workers): jobs never raise, the hard deadline kills, the pool recovers."""

from __future__ import annotations

import time

from slidelab.workers import CANCELLED, DONE, FAILED, WorkerPool, run_job

GOAL_3X4 = "1 2 3 4/5 6 7 8/9 10 11 0"  # 239,500,800 positions: about 15 s to analyse


def test_run_job_answers_every_failure_as_a_record():
    status, result = run_job("solve", {"board": "1 2 3/4 5 6/0 7 8"})
    assert status == DONE and result["length"] == 2
    assert run_job("solve", {"board": "1 2 3/4 5"}) == (
        FAILED, {"error": "row 2 has 2 cells but row 1 has 3", "kind": "input"})
    assert run_job("solve", {"board": "1 2 3/4 5 6/8 7 0"})[1]["kind"] == "unsolvable"
    assert run_job("solve", {"board": "1 2 3/4 5 6/0 7 8", "method": "magic"})[1]["kind"] == "input"
    assert run_job("juggle", {})[1] == {"error": "unknown job kind 'juggle'", "kind": "input"}
    status, failure = run_job("solve", {"board": "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3",
                                        "goal": "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
                                        "method": "idastar", "heuristic": "manhattan",
                                        "time_limit": 0.2})
    assert (status, failure["kind"]) == (FAILED, "limit") and failure["stats"]["expanded"] > 0


def test_hard_deadline_kills_the_worker_and_the_pool_goes_on():
    """A job that overruns its limit (an analysis has no time limit of its own) is killed."""
    pool = WorkerPool(1, grace=1.0)
    try:
        began = time.monotonic()
        job = pool.submit("analyze", {"goal": GOAL_3X4}, 0.5)  # about 15 s if left alone
        job.future.result(timeout=60)
        assert job.status == FAILED
        assert job.error == {"error": "limit reached: stopped after 1.5 s", "kind": "limit"}
        assert time.monotonic() - began < 10
        again = pool.submit("solve", {"board": "8 6 7/2 5 4/3 0 1"}, 10)  # a fresh worker
        again.future.result(timeout=60)
        assert again.status == DONE and again.result["length"] == 31
    finally:
        pool.close(wait=5)


def test_cancel_kills_a_running_job():
    pool = WorkerPool(1)
    try:
        job = pool.submit("analyze", {"goal": GOAL_3X4}, 60)
        time.sleep(2.0)  # the worker has started and is analysing
        assert job.status == "running"
        pool.cancel(job.id)
        job.future.result(timeout=30)
        assert job.status == CANCELLED
    finally:
        pool.close(wait=5)
