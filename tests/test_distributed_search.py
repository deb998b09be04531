"""IDA* on a real Dask cluster (a scheduler and worker processes on this machine, as the batch
tests start them): the published optimal lengths, the same solutions as on one machine, a worker
killed mid-iteration loses nothing, limits and Ctrl-C stop the tasks, bad input is one line.

The 15-puzzle's 6-6-3 pattern databases (seconds to build) solve Korf's instances here in
about a second at most, so most tests give every iteration after the first to the cluster
(``CLUSTER_AFTER`` of 0, in this process: the client decides) to make it do the work; the
tables come from the user's cache, built once by whichever test needs them first.  No test here
needs the 7-8 tables (two minutes to build on a fresh install).
"""

from __future__ import annotations

import importlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from dask_cluster import local_cluster
from korf import korf15, korf24
from slidelab import Puzzle, solve
from slidelab.errors import SearchInterrupted, SearchLimitError, SlidelabError

distributed = pytest.importorskip("distributed")
dist = importlib.import_module("slidelab.search.cluster_idastar")


def ida(puzzle: Puzzle, partition: str, **more):
    """IDA* with the pattern databases ``partition`` (``more``: ``scheduler``, ``progress``, ...)."""
    return solve(puzzle, method="idastar", heuristic="pdb", partition=partition, **more)


@pytest.fixture(scope="module")
def client(dask_cluster):
    with distributed.Client(dask_cluster) as c:
        yield c


@pytest.fixture
def every_iteration(monkeypatch):
    """Every iteration after the first on the cluster, however short."""
    monkeypatch.setattr(dist, "CLUSTER_AFTER", 0.0)


def on_cluster_reports(reports: list) -> list:
    return [r for r in reports if "workers" in r]


def cluster_is_free(client, wait: float = 10.0) -> bool:
    """No task left on the cluster's workers (waiting a little for the scheduler to hear of the
    last ones: a cancellation reaches it a moment after the answer)."""
    deadline = time.monotonic() + wait
    while any(client.processing().values()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


# ------------------------------------------------------------------------- the same answers


@pytest.mark.parametrize("number,by", [(1, "address"), (60, "client")])  # 57, 66 moves
def test_korf_instances_give_the_local_solution(number, by, dask_cluster, client, every_iteration):
    puzzle, known = korf15(number)
    local = ida(puzzle, "6-6-3")
    reports: list = []
    scheduler = dask_cluster.scheduler_address if by == "address" else client
    remote = ida(puzzle, "6-6-3", scheduler=scheduler, progress=reports.append)
    assert remote.length == local.length == known and remote.optimal
    assert remote.notation == local.notation  # the same path, not only as long
    seen = on_cluster_reports(reports)
    assert seen and all(r["workers"] == 2 and 0 <= r["busy"] <= 2 for r in seen)
    assert remote.stats.generated > 0 and len(remote.stats.phases) == len(local.stats.phases)


def test_auto_searches_on_the_cluster_and_solves_small_boards_here(dask_cluster, every_iteration):
    puzzle, known = korf15(88)
    reports: list = []
    s = solve(puzzle, scheduler=dask_cluster.scheduler_address, progress=reports.append)
    assert s.method == "idastar" and s.length == known and on_cluster_reports(reports)
    # a 3x3 is solved from its distance table, here: no cluster needed
    assert solve("8 6 7/2 5 4/3 0 1", scheduler=dask_cluster.scheduler_address).length == 31


def test_weighted_idastar_on_the_cluster(dask_cluster, every_iteration):
    puzzle, known = korf15(60)
    local = ida(puzzle, "6-6-3", weight=1.5)
    remote = ida(puzzle, "6-6-3", weight=1.5, scheduler=dask_cluster.scheduler_address)
    assert remote.notation == local.notation and known <= remote.length <= 1.5 * known


# ------------------------------------------------------------------------- a worker dies


@pytest.mark.slow  # 10 to 30 s on the shared 2-core machine: two workers, 6-6-3 searches
def test_a_worker_killed_mid_iteration_loses_nothing(dask_cluster, client, every_iteration):
    """SIGKILL to a worker process while an iteration's tasks run: its nanny starts a new one,
    Dask runs the lost tasks again, and the solution is the one of a run with no death."""
    puzzle, known = korf15(60)  # 6-6-3: its last iterations take seconds on two workers
    local = ida(puzzle, "6-6-3")
    pids = client.run(os.getpid)
    killed: list = []

    def kill_once(info: dict) -> None:
        if "workers" in info and info["busy"] and not killed and info["generated"] > 2_000_000:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    remote = ida(puzzle, "6-6-3", scheduler=dask_cluster.scheduler_address, progress=kill_once)
    assert killed, "no iteration was running on the cluster to kill a worker in"
    assert remote.notation == local.notation and remote.length == known
    client.wait_for_workers(2, timeout=60)  # the nanny started another
    assert killed[0] not in client.run(os.getpid).values()


def test_a_task_stopped_while_still_needed_runs_again(monkeypatch, every_iteration):
    """A task takes the scheduler's silence for the search's end and stops although no path
    came before its subtree: it is submitted again, and the answer is the one of a run in which
    nothing stopped.  Worker threads in this process (``processes=False``), so that the look at
    the stop variable can be made to answer "stop" once for every task."""
    puzzle, known = korf15(1)
    local = ida(puzzle, "6-6-3")
    monkeypatch.setattr(dist, "SPLIT_BUDGET", 1 << 10)  # a look after a thousand nodes
    told = dist._told_to_stop
    stopped: set = set()

    def silent_once(job, index: int) -> bool:
        if (job.count, index) not in stopped:  # the first look of every task: "stop"
            stopped.add((job.count, index))
            return True
        return told(job, index)

    monkeypatch.setattr(dist, "_told_to_stop", silent_once)
    with local_cluster(processes=False) as in_process:  # the patch reaches its workers
        remote = ida(puzzle, "6-6-3", scheduler=in_process.scheduler_address)
    assert stopped, "no task searched long enough to look at the stop variable"
    assert remote.notation == local.notation and remote.length == known and remote.optimal


def test_a_result_nobody_can_give_is_awaited_with_the_limits_checked(client):
    """A task's result lost with its worker after the task finished: Dask runs the task again
    where it can, and while no worker can, a gather waited for ever (a solve with ``--time-limit
    30`` did not answer in 150 s after its only worker was killed).  The result is awaited
    with the search's checks (limits, workers) between short waits, so one of them ends it.
    Here a task held for a worker that does not exist stands for it."""
    future = client.submit(sum, [1, 2], workers=["tcp://127.0.0.1:9"], pure=False)
    calls = []

    def check() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise SearchLimitError("time limit reached")

    try:
        with pytest.raises(SearchLimitError, match="time limit"):
            dist._result(future, check)
        assert len(calls) == 3
    finally:
        client.cancel(future)


def test_the_clients_orphaned_waits_are_not_a_traceback(caplog):
    """A clean-clone CI run of a solve whose only worker was killed printed its one-line error
    after asyncio's "Task exception was never retrieved" and a traceback ending in distributed's
    ``AllExit``: a result awaited with a time-out leaves the client's inner waits behind, and a
    lost worker ends them in an exception nobody asks for.  The command line's quiet Dask logs
    drop that one; any other exception asyncio reports still shows."""
    import asyncio

    from distributed.client import AllExit

    from slidelab import cluster

    try:
        cluster._quiet_dask_logs()
        loop = asyncio.new_event_loop()
        for exc in (AllExit(), ValueError("a bug")):
            loop.call_exception_handler(
                {"message": "Task exception was never retrieved", "exception": exc}
            )
        loop.close()
    finally:
        logging.getLogger("asyncio").filters.clear()
    said = [r.exc_info[1] for r in caplog.records if r.name == "asyncio"]
    assert [type(exc).__name__ for exc in said] == ["ValueError"], said


# ------------------------------------------------------------------------- stopping


def test_a_time_limit_stops_the_tasks(dask_cluster, client, every_iteration):
    hard = Puzzle("14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15", blank_first=True)  # Korf's #3
    with pytest.raises(SearchLimitError, match="time limit") as caught:
        solve(
            hard,
            method="idastar",
            heuristic="zero",  # never done in time (with Manhattan, seconds now)
            time_limit=4,
            scheduler=dask_cluster.scheduler_address,
        )
    assert caught.value.lower_bound is not None and caught.value.stats.generated > 0
    assert cluster_is_free(client)


def test_ctrl_c_stops_the_tasks(dask_cluster, client, every_iteration):
    hard = Puzzle("14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15", blank_first=True)

    def interrupt(info: dict) -> None:
        if "workers" in info and info["generated"] > 1_000_000:
            raise KeyboardInterrupt

    with pytest.raises(SearchInterrupted, match="interrupted: idastar searched to bound"):
        solve(
            hard,
            method="idastar",
            heuristic="zero",
            scheduler=dask_cluster.scheduler_address,
            progress=interrupt,
        )
    assert cluster_is_free(client)


# ------------------------------------------------------------------------- the command line


def test_solve_command_on_the_cluster(cli, dask_cluster, every_iteration, caplog):
    puzzle, known = korf15(88)
    board = puzzle.start.format()
    with caplog.at_level(logging.INFO, logger="slidelab"):  # the program shows it on stderr
        done = cli(
            "solve", board, "--blank-first", "--partition", "6-6-3", "--progress",
            "--scheduler", dask_cluster.scheduler_address,
        )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert f"solution: {known} moves" in done.stdout
    said = f"IDA* on the Dask cluster at {dask_cluster.scheduler_address}: 2 workers, 2 threads"
    assert said in caplog.text
    assert "2 workers busy" in done.stderr  # the progress line: 0/2, 1/2 or 2/2


def test_unreachable_scheduler_is_one_line(cli, monkeypatch):
    from slidelab import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    done = cli("solve", "1 2 3/4 5 6/0 7 8", "--scheduler", "tcp://127.0.0.1:9")
    assert done.exit_code == 1  # not bad input (2): the cluster could not answer
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach the Dask scheduler")


def test_a_cluster_that_cannot_answer_is_its_own_kind_of_failure(monkeypatch):
    """A job whose search's cluster cannot answer fails with kind "cluster" (it was "input")."""
    from slidelab import cluster
    from slidelab.errors import ClusterError
    from slidelab.search.request import read_request
    from slidelab.workers.jobs import run_job, solve_job

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    request = read_request("1 2 3/4 5 6/0 7 8", method="idastar", scheduler="tcp://127.0.0.1:9")
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        solve(request.puzzle, options=request.options)
    status, failure = run_job(*solve_job(request))
    assert (status, failure["kind"]) == ("failed", "cluster"), failure
    assert failure["error"].startswith("cannot reach the Dask scheduler at tcp://127.0.0.1:9")


@pytest.mark.parametrize(
    "args,words",
    [
        (["-m", "bfs"], "method bfs does not run on a Dask cluster (--scheduler is for:"),
        (["-m", "astar"], "method astar does not run on a Dask cluster"),
        (["-w", "2"], "auto with a weight is weighted A*, which does not run on a Dask cluster"),
        (["--all"], "--all runs on this machine; --scheduler is for one solution"),
    ],
)
def test_methods_that_cannot_use_a_scheduler_say_so(cli, args, words):
    done = cli("solve", "1 2 3/4 5 6/0 7 8", *args, "--scheduler", "tcp://127.0.0.1:9")
    assert done.exit_code == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {words}")


def test_python_refuses_a_scheduler_a_method_cannot_use():
    with pytest.raises(SlidelabError, match="method table does not run on a Dask cluster"):
        solve("1 2 3/4 5 6/0 7 8", method="table", scheduler="tcp://127.0.0.1:9")
    with pytest.raises(SlidelabError, match="scheduler must be a Dask scheduler's address"):
        solve("1 2 3/4 5 6/0 7 8", method="idastar", scheduler=8786)


def test_batch_scheduler_is_not_a_search_option(cli, tmp_path, monkeypatch):
    """batch --scheduler runs instances on the cluster: any method goes (the option is not the
    search's), and an unreachable one is still one line."""
    from slidelab import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    source = tmp_path / "in.txt"
    source.write_text("1 2 3/4 5 6/0 7 8\n")
    done = cli("batch", source, "-m", "bfs", "--scheduler", "tcp://127.0.0.1:9")
    assert done.exit_code == 1 and "does not run on a Dask cluster" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: cannot reach the Dask")


# ------------------------------------------------------------------------- the 24-puzzle


@pytest.mark.slow  # 9 to 17 s on the cluster here (5 to 11 s on this machine's threads)
def test_korf24_instance_40_on_the_cluster(dask_cluster):
    """Korf and Felner's #40 (82 moves), with the 6-6-6-6 pattern databases (built once:
    slidelab tables build 5x5 --blank-first; about 7 minutes here), its long iterations on the
    cluster (the default: once one takes a second here)."""
    puzzle, known = korf24(40)
    assert known == 82
    reports: list = []
    s = ida(puzzle, "6-6-6-6", scheduler=dask_cluster.scheduler_address, progress=reports.append)
    assert s.length == known and s.optimal
    assert on_cluster_reports(reports)


def _dask_process(*args) -> subprocess.Popen:
    """``dask ARGS`` as a process of its own (a scheduler or a worker that a test can kill)."""
    dask = os.path.join(os.path.dirname(sys.executable), "dask")
    return subprocess.Popen(
        [dask, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


#: a command on a cluster, what it says on standard error once it runs there, and the start of
#: its one error line when the cluster goes away under it
_ON_A_CLUSTER = {
    "solve": (
        ["solve", "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "--blank-first", "-m", "idastar",
         "--heuristic", "zero", "--time-limit", "30"],
        "IDA* on the Dask cluster",
        "IDA* on the Dask cluster at {address}",
    ),
    "analyze": (
        ["analyze", "4x3"],
        "searching 239,500,800 positions on the Dask cluster",
        "the breadth-first search on the Dask cluster at {address}",
    ),
    "batch": (
        ["batch", "k.txt", "--blank-first", "-m", "idastar", "--heuristic", "manhattan",
         "--time-limit", "30", "-o", "results.jsonl", "--progress"],
        "solving 20 on the Dask cluster",
        "the batch on the Dask cluster at {address}",
    ),
}  # fmt: skip


@pytest.mark.slow  # a scheduler and a worker of their own, and a search killed under them
@pytest.mark.parametrize(
    "command, kill",
    [("solve", "scheduler"), ("solve", "workers"), ("analyze", "scheduler"),
     ("analyze", "workers"), ("batch", "scheduler")],
)  # fmt: skip
def test_a_cluster_that_goes_away_mid_run_is_one_line(command, kill, tmp_path):
    """The scheduler killed mid-solve, mid-analyze or mid-batch gave a 100-line traceback
    (``CommClosedError``, ``Worker holding Actor was lost``); all the workers killed mid-solve
    gave no answer after 180 s despite ``--time-limit 30``; a batch wrote its unsolved
    instances as failed.  Each is now one error line, exit 1, saying what happened (not the
    time limit's words), well before it; a batch keeps what it solved and writes nothing
    for the rest (run again, it goes on)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _dask_process("scheduler", "--host", "127.0.0.1", "--port", str(port),
                              "--dashboard-address", ":0")  # fmt: skip
    worker = _dask_process("worker", address, "--nthreads", "1", "--no-nanny")
    (tmp_path / "k.txt").write_text("".join(korf15(i)[0].start.format() + "\n"
                                            for i in range(1, 21)))  # fmt: skip
    args, running, error = _ON_A_CLUSTER[command]
    running_process = None
    try:
        running_process = subprocess.Popen(
            [sys.executable, "-m", "slidelab", *args, "--scheduler", address],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
            env={**os.environ, "SLIDELAB_CACHE": str(tmp_path / "cache")},
        )  # fmt: skip
        deadline = time.monotonic() + 120
        said = ""
        while running not in said and time.monotonic() < deadline:
            said += running_process.stderr.readline()
        time.sleep(3)  # its work on the cluster
        results = tmp_path / "results.jsonl"
        while command == "batch" and not _text(results) and time.monotonic() < deadline:
            time.sleep(0.2)  # a first result written
        (scheduler if kill == "scheduler" else worker).kill()
        out, err = running_process.communicate(timeout=120)  # only a hang reaches this
        errors = [line for line in err.splitlines() if line.startswith("error: ")]
        assert running_process.returncode == 1, err[-3000:]
        assert "Traceback" not in err and len(errors) == 1, err[-3000:]
        assert errors[0].startswith("error: " + error.format(address=address)), errors
        if kill == "workers" and command == "solve":
            assert "cannot go on: no worker for 10 s" in errors[0], errors
        elif kill == "workers":
            assert "left the Dask cluster" in errors[0], errors
        else:  # the client says so, or its next question to the scheduler times out
            assert "its scheduler went away" in errors[0] or "stopped answering" in errors[0]
        if command == "batch":  # what was solved is kept; the rest is not written as failed
            kept = _text(results).splitlines()
            assert 0 < len(kept) < 20 and all('"error": null' in line for line in kept), kept
            assert f"{len(kept)} result" in errors[0], errors
    finally:
        for process in (running_process, worker, scheduler):
            if process is not None and process.poll() is None:
                process.kill()


def _text(path) -> str:
    """The text of the file ``path``, empty while there is none."""
    return path.read_text() if path.exists() else ""
