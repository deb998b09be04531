"""Worker processes (slidelab.workers): jobs never raise, the hard deadline kills, the pool recovers."""

from __future__ import annotations

import threading
import time

import pytest

from slidelab.errors import SlidelabError, UnsolvableError
from slidelab.search.request import read_request
from slidelab.workers import CANCELLED, DONE, FAILED, WARMING_UP, WorkerPool, run_job, solve_job

GOAL_3X4 = "1 2 3 4/5 6 7 8/9 10 11 0"  # 239,500,800 positions: about 15 s to analyse


def solve(board, goal=None, **given):
    """A solve job: the request read and checked here, as the web server and batch do."""
    return solve_job(read_request(board, goal, **given))


def test_run_job_answers_every_failure_as_a_record():
    status, result = run_job(*solve("1 2 3/4 5 6/0 7 8"))
    assert status == DONE and result["length"] == 2
    # a request is read before it becomes a job: the worker reads no text
    with pytest.raises(SlidelabError, match="row 2 has 2 cells but row 1 has 3"):
        solve("1 2 3/4 5")
    with pytest.raises(UnsolvableError):
        solve("1 2 3/4 5 6/8 7 0")
    with pytest.raises(SlidelabError, match="unknown method"):
        solve("1 2 3/4 5 6/0 7 8", method="magic")
    assert run_job("solve", {"puzzle": "1 2 3/4 5 6/0 7 8", "options": None}) == (
        FAILED,
        {"error": "puzzle must be a Puzzle, got '1 2 3/4 5 6/0 7 8'", "kind": "input"},
    )
    assert run_job("juggle", {})[1] == {"error": "unknown job kind 'juggle'", "kind": "input"}
    status, failure = run_job(
        *solve(
            "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3",
            "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
            method="idastar",
            heuristic="manhattan",
            time_limit=0.2,
        )
    )
    assert (status, failure["kind"]) == (FAILED, "limit") and failure["stats"]["expanded"] > 0


def test_hard_deadline_kills_the_worker_and_the_pool_goes_on():
    """A job that overruns its limit (an analysis has no time limit of its own) is killed."""
    pool = WorkerPool(1, grace=1.0)
    try:
        job = pool.submit("analyze", {"goal": GOAL_3X4}, 0.5)  # about 15 s if left alone
        job.future.result(timeout=60)
        assert job.status == FAILED
        assert job.error == {"error": "limit reached: stopped after 1.5 s", "kind": "limit"}
        again = pool.submit(*solve("8 6 7/2 5 4/3 0 1"), 10)  # a fresh worker
        again.future.result(timeout=60)
        assert again.status == DONE and again.result["length"] == 31
    finally:
        pool.close(wait=5)


@pytest.mark.slow  # 5 s
def test_a_jobs_time_limit_counts_the_tables_it_builds(tmp_path):
    """One clock: a solve whose pattern databases cannot be built within its time limit is
    refused at once, saying how to build them ahead (the worker lives on); with the time, they
    are built and the search runs, and the hard deadline does not kill the build."""
    warm = [solve("1 2 3/4 5 6/0 7 8", method="idastar")]  # kernels loaded
    pool = WorkerPool(1, grace=0.5, cache_dir=str(tmp_path), warm_up=warm)
    korf_1 = {
        "board": "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3",
        "blank_first": True,
        "method": "idastar",
        "heuristic": "pdb",
        "partition": "6-6-3",  # about 3-5 s to build into the empty cache
    }
    try:
        pool.prestart()
        began = time.monotonic()
        while not pool.ready() and time.monotonic() - began < 120:
            time.sleep(0.1)
        job = pool.submit(*solve(**korf_1, time_limit=0.5), 0.5)
        job.future.result(timeout=120)
        assert job.status == FAILED and job.error["kind"] == "limit"
        assert "slidelab tables build 4x4 --blank-first --partition 6-6-3" in job.error["error"]
        job = pool.submit(*solve(**korf_1, time_limit=120), 120)
        job.future.result(timeout=300)
        assert job.status == DONE, job.error
        assert job.result["length"] == 57
    finally:
        pool.close(wait=5)


def test_a_build_is_announced_in_the_jobs_reports_before_it_starts(cache):
    reports = []
    fours = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15"
    board = "5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12"
    job = solve(board, method="idastar", heuristic="pdb", partition=fours)
    status, result = run_job(*job, reports.append)
    assert status == DONE and result["length"] == 9
    notices = [i for i, r in enumerate(reports) if "notice" in r]
    assert notices and reports[notices[0]]["notice"].startswith(
        f"building the {fours} pattern databases of the 4x4 goal"
    )
    assert all("tables" not in r for r in reports[: notices[0]])


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


def _wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not {what} after {timeout:g} s"
        time.sleep(0.05)


def test_generate_job():
    status, result = run_job(
        "generate",
        {"goal": "1 2 3/4 5 6/7 8 0", "n": 3, "seed": 1, "moves": 5, "format": "compact"},
    )
    assert status == DONE and len(result["boards"]) == 3
    assert all(len(board) == 11 for board in result["boards"])  # "123/456/780": compact
    assert run_job(
        "generate",
        {"goal": "1 2 3/4 5 6/7 8 0", "n": 3, "seed": 1, "moves": 5, "format": "compact"},
    ) == (status, result)
    assert run_job("generate", {"goal": "1 2/3", "n": 1})[1]["kind"] == "input"
    # a goal with repeated labels (the line puzzle) is a goal, not a start
    from slidelab.board import Board

    status, line = run_job("generate", {"goal": "ABA_/CDCD/ABAB/CDCD", "n": 2, "seed": 2})
    assert status == DONE
    goal_cells = sorted(map(str, Board("ABA_/CDCD/ABAB/CDCD").cells))
    assert all(sorted(map(str, Board(b).cells)) == goal_cells for b in line["boards"])


def test_workers_warm_up_then_the_pool_is_ready_at_its_niceness():
    import os

    warm_up = [
        solve("1 2 3/4 5 6/0 7 8"),
        ("analyze", {"goal": "1 2 3/4 5 6/7 8 0"}),
    ]
    pool = WorkerPool(2, nice=5, warm_up=warm_up)
    try:
        assert not pool.ready()  # nothing started yet
        pool.prestart()
        assert not pool.ready()  # started, still warming up (importing, loading kernels)
        _wait_until(pool.ready, 120, "ready")
        pids = pool.pids()
        assert len(pids) == 2
        base = os.getpriority(os.PRIO_PROCESS, 0)
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in pids] == [min(19, base + 5)] * 2
        if os.path.isdir(f"/proc/{pids[0]}/task"):  # Linux: each thread has its own niceness
            for pid in pids:  # the kernels' threads, started by the warm-up, yield too
                threads = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
                nices = {os.getpriority(os.PRIO_PROCESS, tid) for tid in threads}
                assert nices == {min(19, base + 5)}, (pid, nices)
        job = pool.submit(*solve("8 6 7/2 5 4/3 0 1"), 10)
        assert job.future.result(timeout=30).result["length"] == 31
    finally:
        pool.close(wait=5)


def test_jobs_start_in_the_order_they_came_and_are_counted_per_owner():
    pool = WorkerPool(1)
    try:
        pool.prestart()
        first = pool.submit(
            "analyze", {"goal": GOAL_3X4}, 60, owner="a"
        )  # about 15 s if left alone
        _wait_until(lambda: first.status == "running", 60, "running")
        others = [pool.submit(*solve("1 2 3/4 5 6/0 7 8"), 10, owner="ab"[i % 2]) for i in range(6)]
        assert (pool.waiting(), pool.active(), pool.active("a"), pool.active("b")) == (6, 7, 4, 3)
        pool.cancel(first.id)
        for job in others:
            assert job.future.result(timeout=60).status == DONE
        starts = [job.started for job in others]
        assert starts == sorted(starts)  # first come, first served
        assert (pool.waiting(), pool.active(), pool.active("a")) == (0, 0, 0)
    finally:
        pool.close(wait=5)


def test_a_killed_worker_is_replaced_at_once():
    pool = WorkerPool(1)
    try:
        pool.prestart()
        _wait_until(pool.ready, 120, "ready")
        before = pool.pids()
        job = pool.submit("analyze", {"goal": GOAL_3X4}, 60)
        _wait_until(lambda: job.status == "running", 30, "running")
        pool.cancel(job.id)
        assert job.future.result(timeout=30).status == CANCELLED
        # a fresh worker starts and warms up without waiting for the next job
        _wait_until(lambda: pool.ready() and pool.pids() and pool.pids() != before, 120, "replaced")
    finally:
        pool.close(wait=5)


def test_a_job_s_limits_start_when_its_worker_has_warmed_up():
    """A job handed to a worker still warming up is not killed for the warm-up's time."""
    warm_up = [("analyze", {"goal": "1 2 3 4 5/6 7 8 9 0"})] * 8  # a second or two
    pool = WorkerPool(1, grace=0.5, warm_up=warm_up)
    try:
        job = pool.submit(*solve("8 6 7/2 5 4/3 0 1"), 0.5)  # starts the worker
        assert job.future.result(timeout=120).status == DONE, job.error
        assert job.result["length"] == 31
    finally:
        pool.close(wait=5)


@pytest.mark.slow  # 6 s
def test_a_job_goes_before_the_rest_of_the_warm_up():
    """A worker still warming up serves a job between two warm-up jobs, then warms up on."""
    warm_up = [("analyze", {"goal": "1 2 3 4 5/6 7 8 9 0"})] * 40  # several seconds
    pool = WorkerPool(1, warm_up=warm_up)
    try:
        pool.prestart()
        job = pool.submit(*solve("8 6 7/2 5 4/3 0 1"), 10)
        assert job.future.result(timeout=120).status == DONE
        assert not pool.ready()  # served long before the warm-up is over
        _wait_until(pool.ready, 120, "ready")
    finally:
        pool.close(wait=5)


def test_a_job_waits_for_the_warm_up_jobs_like_it_and_its_clock_starts_after_them():
    """A job handed to a worker still warming up is queued, saying so, while the worker runs
    the warm-up jobs like it (its kernels, its tables); its limits start after them."""
    slow_alike = [("analyze", {"goal": "1 2 3 4 5/6 7 8 9 0"})] * 4  # a second or more each
    others = [("generate", {"goal": "1 2 3/4 5 6/7 8 0", "n": 1, "moves": 10})] * 2
    pool = WorkerPool(1, grace=0.5, warm_up=[*others, *slow_alike])
    try:
        job = pool.submit("analyze", {"goal": "1 2 3/4 5 6/7 8 0"}, 0.5)  # starts the worker
        _wait_until(lambda: job.warm_up is not None, 10, "waiting for the warm-up")
        view = job.view()
        assert (view["status"], view["warm_up"]) == ("queued", WARMING_UP)
        assert job.future.result(timeout=120).status == DONE, job.error
        assert job.result["states"] == 181_440 and job.warm_up is None
        assert "warm_up" not in job.view()
    finally:
        pool.close(wait=5)


def test_which_warm_up_jobs_are_like_a_job():
    from slidelab.workers.jobs import alike

    def by(method, heuristic=None):
        return solve("1 2 3/4 5 6/0 7 8", method=method, heuristic=heuristic)

    assert alike(by("astar", "pdb"), by("A*", "pdb"))
    assert alike(by("astar", "pdb"), by("astar"))  # no heuristic named: any of A*'s
    assert not alike(by("astar", "pdb"), by("astar", "manhattan"))
    assert not alike(by("auto"), by("bfs"))
    assert alike(by("auto"), solve("1 2 3/4 5 6/0 7 8"))
    assert alike(("analyze", {"goal": "2x2"}), ("analyze", {"goal": "1 2 3/4 5 6/7 8 0"}))
    assert not alike(("analyze", {"goal": "2x2"}), by("auto"))


def test_a_pool_with_a_cache_limit_trims_the_table_cache_after_each_job(tmp_path):
    """Real files: the 8-puzzle's pattern databases are built and saved by a job, then deleted
    by the pool's size limit; the worker lets go of them and builds them again for the next."""
    pool = WorkerPool(1, cache_dir=str(tmp_path), cache_limit=1, warm_up=())
    # IDA*'s kernel with these tables is compiled by other tests of the run (A*'s, only here,
    # took 30 s of a first run)
    job = solve("8 6 7/2 5 4/3 0 1", method="idastar", heuristic="pdb")
    try:
        for _ in range(2):
            sent = pool.submit(*job, 30)
            assert sent.future.result(timeout=120).status == DONE, sent.error
            assert sent.result["length"] == 31
            _wait_until(lambda: not list(tmp_path.glob("*.slt")), 10, "trimmed")
    finally:
        pool.close(wait=5)
    # without a limit, the tables stay
    pool = WorkerPool(1, cache_dir=str(tmp_path), warm_up=())
    try:
        assert pool.submit(*job, 30).future.result(timeout=120).status == DONE
        assert pool.trim() == [] and list(tmp_path.glob("*.slt"))
    finally:
        pool.close(wait=5)


def test_a_process_lets_go_of_pattern_databases_deleted_from_the_cache(cache):
    from slidelab.heuristics import pdb
    from slidelab.puzzle import Puzzle
    from slidelab.tables import loaded

    puzzle = Puzzle("8 6 7/2 5 4/3 0 1")
    first = pdb.pattern_database(puzzle)
    assert pdb.pattern_database(puzzle) is first and loaded.LOADED.forget_deleted() == 0
    for path in cache.glob("*.slt"):
        path.unlink()
    assert loaded.LOADED.forget_deleted() == 1
    again = pdb.pattern_database(puzzle)  # built and saved again
    assert again is not first and list(cache.glob("*.slt"))
    for path in cache.glob("*.slt"):
        path.unlink()
    assert pdb.pattern_database(puzzle) is not again  # a reuse checks its files too


# -- the server's own tables (rule 4 of slidelab.search.policy) ---------------------------------


def test_a_warm_up_compiles_the_defaults_and_only_loads_the_rest(monkeypatch):
    """A server's first start compiled every method with every heuristic on the 8-puzzle
    (minutes on 2 cores) before it said it was ready: now each method with its own heuristic,
    and each other pairing only where its kernels are compiled already (loaded: a moment); its
    builder compiles the rest later, at the lowest priority."""
    from slidelab import _jit
    from slidelab.web import lanes
    from slidelab.workers.jobs import compiled, warm_up_jobs

    firsts = [job for job in lanes.CHEAP_WARM_UP if job[0] == "solve"]
    assert {job[1]["options"].heuristic for job in firsts} == {None}
    assert {job[1]["options"].method for job in firsts} >= {"auto", "bfs", "astar", "idastar"}
    others = [job[1]["job"] for job in lanes.CHEAP_WARM_UP if job[0] == "when-compiled"]
    assert others == list(lanes.LATER_COMPILE)
    pairs = {(job[1]["options"].method, job[1]["options"].heuristic) for job in others}
    assert {("astar", "pdb"), ("weighted-astar", "walking-distance")} <= pairs

    astar_pdb = next(job for job in others if job[1]["options"].heuristic == "pdb")
    monkeypatch.setattr(_jit, "kernels_compiled", lambda key: key == "astar-pdb-stm")
    assert compiled(astar_pdb)
    assert warm_up_jobs(lanes.CHEAP_WARM_UP) == [
        *firsts,
        astar_pdb,
        *[job for job in lanes.CHEAP_WARM_UP if job[0] not in ("solve", "when-compiled")],
    ]
    assert not compiled(firsts[0])  # auto's set depends on the board: never known compiled


def test_a_job_reports_its_compiling_so_that_its_deadline_moves():
    """A job that compiles kernels (a first use of a method's) is not on its clock for it, but
    its worker was killed at time limit + grace all the same (a fresh server's first weighted A*
    on a 5x5 with a 1 s limit): the worker now reports its compiling as it goes, and the pool
    moves the deadline by it."""
    from slidelab import _clock
    from slidelab.workers.pool import _compile_watch

    sent, done = [], threading.Event()
    with _compile_watch(sent.append):
        _clock.compiling_started()  # as numba's compiler does
        try:
            done.wait(3 * 0.5)
        finally:
            _clock.compiling_ended()
    reports = [seconds for tag, seconds in sent if tag == "compiling"]
    assert reports and reports == sorted(reports) and reports[-1] >= 0.5


def test_the_server_s_first_tables_are_warm_up_jobs_like_the_solves_of_their_goal():
    """A warm-up's job of the server's first tables becomes a job for each set, in order, and
    each is like a solve of its goal in its metric: a solve that comes during the warm-up waits
    for its goal's tables (before its clock starts), not for the others'."""
    from slidelab.search.policy import server_tables
    from slidelab.workers import server_tables_job, tables_job
    from slidelab.workers.jobs import alike, warm_up_jobs

    first, _ = server_tables()
    small, large = 9, 10
    assert warm_up_jobs([server_tables_job("first", largest=small)]) == [
        tables_job(t) for t in first if t.goal.width * t.goal.height <= small
    ]
    jobs = warm_up_jobs([server_tables_job("first", smallest=large), solve("1 2 3/4 5 6/0 7 8")])
    fours = [t for t in first if t.goal.width * t.goal.height >= large]
    assert [t.describe() for t in fours] == [
        "the 6-6-3 pattern databases of the 4x4 goal",
        "the 6-6-3 pattern databases of the 4x4 goal with the blank first",
    ]
    assert jobs == [*(tables_job(t) for t in fours), solve("1 2 3/4 5 6/0 7 8")]
    blank_last, blank_first = jobs[:2]
    korf_9 = "3 14 9 11/5 4 8 2/13 12 6 7/10 1 15 0"  # 46 moves to the blank-first goal
    assert alike(blank_first, solve(korf_9, blank_first=True))
    assert not alike(blank_last, solve(korf_9, blank_first=True))
    assert alike(blank_last, solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", method="idastar"))
    assert not alike(blank_last, solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", metric="mtm"))
    assert not alike(blank_last, ("analyze", {"goal": "1 2 3/4 5 6/7 8 0"}))


def test_tables_another_process_is_building_are_not_waited_for(cache):
    """While another process builds a set of tables (it holds their locks), they are not
    ready: ``auto`` does not count on building them (its rung costs forever), the 8-puzzle's
    distance table is not its quick answer, and a solve that asks for them by name on a clock
    is answered at once (a limit, naming them), in a worker of its own."""
    from slidelab.board import Board
    from slidelab.cache.locks import acquire, release
    from slidelab.puzzle import Puzzle
    from slidelab.search.policy import Rung, distance_table_now
    from slidelab.tables.family import Tables

    pdb = Tables("pdb", Board.solved(4, 4), "stm", "6-6-3")
    distance = Tables("distance", Board.solved(3, 3), "stm")
    locks = [path.with_suffix(".lock") for t in (pdb, distance) for path in t.files()]
    held = [(acquire(lock), lock) for lock in locks]  # as a builder holds them
    try:
        assert pdb.building() and distance.building() and not pdb.ready()
        assert Rung("pdb", pdb).seconds() == float("inf")
        assert not distance_table_now(Puzzle("1 2 3/4 5 6/0 7 8"), "stm")
        pool = WorkerPool(1, grace=60, warm_up=())
        try:
            asked = solve(
                "5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12",
                method="idastar",
                heuristic="pdb",
                partition="6-6-3",
                time_limit=30,
            )
            job = pool.submit(*asked, 30)
            assert job.future.result(timeout=120).status == FAILED, job.result
        finally:
            pool.close(wait=5)
        error = job.error
        assert error["kind"] == "limit" and error["reason"] == (
            "limit reached: the 6-6-3 pattern databases of the 4x4 goal are being built by"
            " another process, not ready yet (an answer with a time limit does not wait for a"
            " build it did not start)"
        ), error
        assert error["remedy"]["tables"] == pdb.describe()
        assert "slidelab tables build 4x4 --partition 6-6-3" in error["error"]  # the CLI's text
    finally:
        for fd, lock in held:
            release(fd, lock)
    assert not pdb.building() and Rung("pdb", pdb).seconds() < float("inf")


def test_the_builder_reports_every_one_of_the_server_s_tables(cache):
    """The server's builder lists every one of its tables with its state: here no warm-up
    built the first ones (a fresh cache, no wait), and the later ones do not fit a table cache
    of 1 MB: nothing is built."""
    from slidelab.search.policy import server_tables
    from slidelab.workers import server_tables_job

    first, later = server_tables()
    reports: list = []
    status, result = run_job(*server_tables_job("later", cache_limit=2**20), reports.append)
    assert status == DONE, result
    rows = result["tables"]
    assert [row["tables"] for row in rows] == [t.describe() for t in first + later]
    assert [row["when"] for row in rows] == ["first"] * len(first) + ["later"] * len(later)
    assert {row["state"] for row in rows[: len(first)]} == {"failed"}
    assert {row["reason"] for row in rows[: len(first)]} == {"not built by the warm-up"}
    assert {row["state"] for row in rows[len(first) :]} == {"skipped"}
    assert reports and reports[0]["tables"][0]["state"] == "queued" and reports[-1] == result
    assert not list(cache.glob("*.slt"))
