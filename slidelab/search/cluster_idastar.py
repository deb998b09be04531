"""IDA* on a Dask cluster: each iteration's subtrees run as tasks on its workers.

An IDA* iteration to a bound is split as it is between a machine's cores
(:func:`slidelab.search.idastar.split_iteration`): the nodes a few moves from the start,
within the bound, in the plain search's depth-first order, are the roots of subtrees, and
each subtree is searched to the bound apart.  Here each subtree is a Dask task
(:func:`search_subtree`): in a long iteration about :data:`ROOTS_PER_THREAD` of them for each
thread of the cluster's workers (the split goes a move deeper where more are wanted), so that
the scheduler balances the load as tasks finish (subtrees differ in size by orders of
magnitude); in a shorter one fewer, about one per :data:`NODES_PER_TASK` nodes it is expected
to generate (a task costs milliseconds of its own).  The first iterations, shorter than
:data:`CLUSTER_AFTER` seconds, run on the submitting machine.  The loop
over the bounds, the limits, the statistics and the progress reports stay those of
:mod:`slidelab.search.idastar`; :class:`DaskSplit` is only another runner of its split
iterations.

What moves between machines
    A task carries its root (a few dozen bytes), the moves to it, and a :class:`SubtreeJob`:
    the iteration (puzzle, weight, bound) and the heuristic's name and options (the groups of
    its pattern databases) and metric.  No table travels: each worker process makes the
    heuristic once (:func:`worker_heuristic`), its tables loaded from its own cache directory
    (``SLIDELAB_CACHE``), or built there if missing; and it checks that its estimate of the
    start is the one this machine's heuristic gives, so a worker whose tables differ says so
    instead of searching with them.

The answer is the local one
    A task is deterministic: the same arguments give the same path, nodes and bound, so a task
    that Dask runs again (its worker died, the nanny restarted it) gives what the first run
    would have.  The path taken is the one the plain search finds (:class:`~.idastar.Tally`):
    a subtree's path is accepted once every subtree before it in depth-first order has
    finished without one.  So the solution is the same move for move as ``solve`` on one
    machine (threads or not), and its length the same optimum.  Accepting the first path to
    come back would also be optimal (every path within the last bound is), but not the same
    path from run to run.

Stopping
    Once a subtree finds a path, the tasks of the subtrees after it that no worker has started
    are cancelled; those running stop by themselves within :data:`STOP_POLL` seconds or so
    (cancelled, Dask would forget them, not stop them): each task looks, after its first slice
    of the search and then every :data:`STOP_POLL` seconds, at a Dask
    :class:`distributed.Variable` of the search, which holds the iteration under way and its
    first subtree with a path.  A time limit, Ctrl-C or an error stops every task of the
    iteration the same way (the variable says -1), and the iteration waits for the running ones
    to stop, so the cluster's threads are free when the answer comes.  A task stopped so
    returns :data:`STOPPED`: its result is not needed, since a path before it was found or the
    search is over; one that stopped while still needed (it took the scheduler's silence for
    the search's end) is run again.

Examples
--------
Solving on a cluster (the address of its scheduler)::

    from slidelab import solve

    solve(board, blank_first=True, size="4x4", method="idastar", scheduler="tcp://host:8786")
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import queue
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import cluster
from ..cluster import connect, first_line, scheduler_gone
from ..errors import ClusterError, SlidelabError
from ..heuristics import Heuristic, make_heuristic
from ._ida import EXHAUSTED, FOUND, RUNNING
from .idastar import SPLIT_BUDGET, Iteration, SubtreeSearch, Tally
from .limits import Limits

log = logging.getLogger(__name__)

#: subtree roots (tasks) per thread of the cluster's workers in a long iteration: many, since
#: subtrees differ in size by orders of magnitude, and Dask hands a thread its next task as
#: soon as it is free
ROOTS_PER_THREAD = 64
#: ... but in a shorter one about a task per this many nodes expected (half a second of a core
#: or so: a task costs some milliseconds of its own, ten here under load) ...
NODES_PER_TASK = 1 << 22
#: ... and at least this many a thread, for the load to balance
MIN_ROOTS_PER_THREAD = 4
#: seconds an iteration takes on this machine (or is expected to) before the later ones run on
#: the cluster: an iteration there costs about a second of its own (tasks sent, scheduled and
#: answered; see benchmarks/distributed_idastar.py), more than the short first iterations take
CLUSTER_AFTER = 1.0
#: seconds a task searches between looks at whether it should stop
STOP_POLL = 0.25
#: seconds a task waits for the scheduler to say whether it should stop (no answer: it stops)
STOP_WAIT = 2.0
#: seconds between looks at the limits (and progress reports) while an iteration runs
POLL = 0.25
#: seconds between questions to the scheduler about which workers are busy (for progress)
BUSY_EVERY = 1.0
#: seconds an iteration waits on a cluster with no worker (all lost, or its scheduler gone: then
#: the client sees none) before it says so (a worker restarted by its nanny is back sooner)
NO_WORKERS_WAIT = 10.0
#: seconds more than :data:`STOP_POLL` that an iteration's end waits for its tasks to stop
SETTLE = 2.0
#: the status of a task stopped before its end: its result is not needed
STOPPED = -1


@dataclass(frozen=True)
class SubtreeJob:
    """What every task of an iteration needs besides its root: small, and no table.

    Attributes
    ----------
    iteration : Iteration
        The iteration (puzzle, weight, bound, sizes), its heuristic left out (``heur`` None):
        a worker makes it from the next three.
    heuristic : str
        The heuristic's name, as :func:`~slidelab.heuristics.make_heuristic` takes it.
    options : dict
        Its builder's options (:attr:`~slidelab.heuristics.Heuristic.options`: a pattern
        database's groups).
    metric : str
        The metric it estimates.
    start_h : int
        Its estimate of the start here: a worker's must be the same.
    stop : str
        The name of the search's Dask variable: ``(count, first)``, the iteration under way
        and its first subtree with a path (a task after it stops), or -1 (every task stops);
        a task of another iteration stops.
    count : int
        Which iteration of the search on the cluster this is.
    """

    iteration: Iteration
    heuristic: str
    options: dict = field(hash=False)
    metric: str
    start_h: int
    stop: str
    count: int

    @classmethod
    def of(cls, iteration: Iteration, stop: str, count: int) -> SubtreeJob:
        """The job of an iteration, the ``count``-th on the cluster (its heuristic told by name
        and options)."""
        heur = iteration.heur
        start_h = heur.value(iteration.puzzle.start_codes)
        bare = dataclasses.replace(iteration, heur=None)
        return cls(bare, heur.name, dict(heur.options), heur.metric, start_h, stop, count)


#: the heuristics this process made for tasks, by goal, name, options and metric
_MADE: dict = {}
_MAKING = threading.Lock()


def worker_heuristic(job: SubtreeJob) -> Heuristic:
    """The heuristic of ``job``, made once per process (its tables loaded from this machine's
    cache, or built there), and checked to estimate the start as the submitting machine's did.

    Raises
    ------
    ClusterError
        The estimate differs (this machine's tables are not the same).
    """
    puzzle = job.iteration.puzzle
    key = (puzzle.goal, job.heuristic, repr(sorted(job.options.items())), job.metric)
    with _MAKING:  # a worker's threads make it once
        heur = _MADE.get(key)
        if heur is None:
            heur = make_heuristic(puzzle, job.heuristic, metric=job.metric, **job.options)
            h = heur.value(puzzle.start_codes)
            if h != job.start_h:
                raise ClusterError(
                    f"this worker's {job.heuristic} heuristic estimates the start at {h}, not"
                    f" {job.start_h} as the submitting machine's does: its tables differ"
                )
            if len(_MADE) >= 4:  # a few goals at a time: let go of the older ones' tables
                _MADE.clear()
            _MADE[key] = heur
    return heur


def search_subtree(job: SubtreeJob, index: int, root, moves) -> tuple:
    """A task: the search of subtree ``index`` of an iteration, from ``root`` (label codes)
    reached by ``moves`` (``(blank direction, amount)``) to the job's bound.

    Deterministic: the same arguments give the same result, wherever and however often it
    runs.  Returns ``(status, path, expanded, generated, deepest, over)``: FOUND with the path
    from the start (blank directions, one per single-tile step), or EXHAUSTED with the
    smallest ``f`` over the bound; or :data:`STOPPED` when the iteration no longer needs it
    (see the module), with the nodes searched until then.
    """
    it = dataclasses.replace(job.iteration, heur=worker_heuristic(job))
    subtree = SubtreeSearch(it, np.array(root, copy=True), moves)  # the kernel moves on it
    looked = -math.inf  # a first look after the first slice: cancelled while it waited?
    while True:
        status = subtree.run(SPLIT_BUDGET)
        if status != RUNNING:
            break
        if time.monotonic() - looked >= STOP_POLL:
            if _told_to_stop(job, index):
                status = STOPPED
                break
            looked = time.monotonic()
    expanded, generated = subtree.counts
    path = subtree.path() if status == FOUND else None
    over = subtree.over() if status == EXHAUSTED else math.inf
    return status, path, expanded, generated, subtree.deepest, over


def _told_to_stop(job: SubtreeJob, index: int) -> bool:
    """Whether subtree ``index`` of ``job`` should stop: one before it has a path, the
    iteration is over (the variable says -1, or another iteration), or the search is (the
    variable is gone)."""
    from distributed import Variable

    try:
        iteration, first = Variable(job.stop).get(timeout=STOP_WAIT)
    except Exception:  # noqa: BLE001 - no answer: the search is over, its client gone
        return True
    return int(iteration) != job.count or index > int(first)


class DaskSplit:
    """The runner of IDA*'s split iterations on a Dask cluster (see the module): each subtree
    a task, the first path in depth-first order taken, the other tasks stopped, the limits
    checked meanwhile.  Made by :func:`on_cluster`."""

    def __init__(self, client, address: str):
        self.client = client
        self.address = address
        self.tag = secrets.token_hex(4)
        self.count = 0
        self.stop: Any = None  # the search's Dask variable: (iteration, first with a path)
        self.workers = self.busy = 0
        self.asked = -math.inf
        self.alone: float | None = None  # since when the cluster has had no worker

    def threads(self) -> int:
        """The threads of the cluster's workers now."""
        nthreads = self.client.nthreads()
        self.workers = len(nthreads)
        return sum(nthreads.values())

    @property
    def after(self) -> float:
        """Seconds an iteration takes (or is expected to) before the later ones are given to
        the cluster (:data:`CLUSTER_AFTER`)."""
        return CLUSTER_AFTER

    def roots(self, nodes: float) -> int:
        """About a task per :data:`NODES_PER_TASK` expected nodes, at least
        :data:`MIN_ROOTS_PER_THREAD` and at most :data:`ROOTS_PER_THREAD` a thread."""
        threads = max(1, self.threads())
        by_work = int(nodes // NODES_PER_TASK)
        return max(MIN_ROOTS_PER_THREAD * threads, min(ROOTS_PER_THREAD * threads, by_work))

    def run(self, iteration: Iteration, roots: list, tally: Tally, limits: Limits) -> None:
        from distributed import Variable

        self.count += 1
        count = self.count
        name = f"slidelab-ida-{self.tag}-{count}"  # its tasks' keys start so
        if self.stop is None:
            self.stop = Variable(f"slidelab-ida-{self.tag}", client=self.client)
        stop = self.stop
        stop.set((count, len(roots)))
        told = len(roots)
        job = SubtreeJob.of(iteration, stop.name, count)
        finished: queue.Queue = queue.Queue()
        futures: list = []
        pending = set(range(len(roots)))
        tries = [0] * len(roots)

        def submit(i: int) -> None:
            root, moves = roots[i]
            key = f"{name}-{i}" + (f"-again{tries[i]}" if tries[i] else "")
            future = self.client.submit(
                search_subtree, job, i, root, moves, key=key, pure=False,
                priority=-i,  # depth-first order: the subtrees before a path come first
            )  # fmt: skip
            future.add_done_callback(lambda f: finished.put((i, f)))
            if i < len(futures):
                futures[i] = future
            else:
                futures.append(future)
            tries[i] += 1

        def check() -> None:
            self._check(iteration, tally, limits, name)

        try:
            for i in range(len(roots)):
                submit(i)
            while pending and min(pending) < tally.first:
                for i in self._take(_drain(finished), tally, pending, check):
                    submit(i)
                if tally.first < told:  # a path: the subtrees after it are not needed
                    told = tally.first
                    stop.set((count, told))
                    self._stop([futures[i] for i in pending if i > told], name)
                check()
        finally:
            if pending:  # a limit, Ctrl-C, an error, or the tasks after a path
                stop.set((count, -1))
                self._stop([futures[i] for i in pending], name, wait=True)
            self.client.cancel(futures)  # the results let go of on the workers too

    def close(self) -> None:
        """Let go of the search's variable on the scheduler (its tasks have stopped)."""
        if self.stop is not None:
            self.stop.delete()
            self.stop = None

    def _stop(self, futures: list, name: str, wait: bool = False) -> None:
        """Stop the tasks of ``futures`` (told to by the variable already): those not on a
        worker yet are cancelled; those on one stop by themselves at their next look at the
        variable (cancelled, Dask would forget them, not stop them), and with ``wait`` are
        waited for (a little longer than :data:`STOP_POLL`): the cluster's threads are free
        when the answer comes."""
        on_workers = {str(key) for keys in self._processing(name).values() for key in keys}
        running = [f for f in futures if str(f.key) in on_workers]
        self.client.cancel([f for f in futures if str(f.key) not in on_workers])
        deadline = time.monotonic() + STOP_POLL + SETTLE
        while wait and not all(f.done() for f in running) and time.monotonic() < deadline:
            time.sleep(0.02)  # (distributed.wait takes the default client's loop, maybe not ours)

    def _cannot_go_on(self, why: str) -> ClusterError:
        """The error of a search its cluster stopped: ``why``, or that its scheduler went away
        (the client says so), whichever it was."""
        if scheduler_gone(self.client):
            why = "its scheduler went away"
        return ClusterError(f"IDA* on the Dask cluster at {self.address} cannot go on: {why}")

    def _processing(self, name: str) -> dict:
        """The keys of the iteration ``name`` on each worker now (running, or next there)."""
        processing = self.client.processing()
        self.workers = len(processing)
        return {
            worker: [key for key in keys if str(key).startswith(name)]
            for worker, keys in processing.items()
        }

    def _take(self, done: list, tally: Tally, pending: set, check) -> list[int]:
        """Tell ``tally`` the results of the tasks ``done`` (``(index, future)``); return the
        subtrees to search again: a task that stopped although its subtree is still needed (it
        took the scheduler's silence for the search's end).  ``check`` is called while a
        result is awaited: a result is lost with its worker after the task has finished, and
        Dask then runs the task again, or waits for a worker to do so."""
        lost = [i for i, f in done if f.status == "cancelled" and i in pending and i < tally.first]
        if lost:  # cancelled, not by us (we cancel only subtrees past a path): the cluster's doing
            raise self._cannot_go_on(f"the task of subtree {lost[0]} was lost")
        taken = [(i, f) for i, f in done if f.status != "cancelled" and i in pending]
        pending.difference_update(i for i, f in done if f.status == "cancelled")
        again: list[int] = []
        if not taken:
            return again
        try:
            results = [_result(f, check) for _, f in taken]
        except (SlidelabError, KeyboardInterrupt):
            raise  # a worker's words (its tables differ, or cannot be made there)
        except Exception as exc:  # noqa: BLE001 - a task failed: lost workers, a bug
            raise ClusterError(
                f"IDA* on the Dask cluster at {self.address}: a task failed:"
                f" {type(exc).__name__}: {first_line(exc)}"
            ) from None
        for (i, _), (status, path, expanded, generated, deepest, over) in zip(
            taken, results, strict=True
        ):
            tally.add(expanded, generated, deepest)
            if status == STOPPED and i < tally.first:
                again.append(i)
                continue
            pending.discard(i)
            if status != STOPPED:
                tally.finish(i, status, path, over)
        return again

    def _check(self, iteration: Iteration, tally: Tally, limits: Limits, name: str) -> None:
        """Progress (bound, nodes, workers busy) and the limits."""
        now = time.monotonic()
        if now - self.asked >= BUSY_EVERY:
            self.asked = now
            self.busy = sum(bool(keys) for keys in self._processing(name).values())
            gone = scheduler_gone(self.client)
            self.alone = None if self.workers and not gone else (self.alone or now)
            if gone or (self.alone is not None and now - self.alone >= NO_WORKERS_WAIT):
                raise self._cannot_go_on(
                    f"no worker for {NO_WORKERS_WAIT:g} s (start workers with: dask worker ADDRESS)"
                )
        limits.check(
            tally.stats, iteration.method, bound=iteration.bound, workers=self.workers,
            busy=self.busy,
        )  # fmt: skip


def _result(future, check) -> Any:
    """The result of ``future``, calling ``check`` every :data:`POLL` seconds while it is
    awaited (its limits and its workers: a gather would wait for ever on a result whose
    worker died with no other to run its task again)."""
    while True:
        try:
            return future.result(timeout=POLL)
        except TimeoutError:
            if future.status == "error":
                raise  # the task's own error
            check()


def _drain(finished: queue.Queue) -> list:
    """What is in the queue: waiting up to :data:`POLL` seconds for the first."""
    try:
        items = [finished.get(timeout=POLL)]
    except queue.Empty:
        return []
    while True:
        try:
            items.append(finished.get_nowait())
        except queue.Empty:
            return items


@contextmanager
def on_cluster(scheduler, timeout: float | None = None) -> Iterator[DaskSplit]:
    """The runner of IDA*'s iterations on the Dask cluster at ``scheduler`` (an address, or a
    ``distributed.Client``), connected for the block; it says on the log (INFO) what it does.

    Parameters
    ----------
    scheduler : str or distributed.Client
        The scheduler's address (``tcp://host:8786``) or a client (left open).
    timeout : float, optional
        Seconds to wait for the scheduler, and for a worker when it has none (default
        :data:`slidelab.cluster.CONNECT_TIMEOUT`).

    Raises
    ------
    SlidelabError
        Dask's ``distributed`` is not installed.
    ClusterError
        The scheduler does not answer, or no worker joins it in time.

    Examples
    --------
    With a scheduler running at ``tcp://host:8786``::

        with on_cluster("tcp://host:8786") as split:
            idastar(puzzle, heuristic="pdb", split=split)
    """
    wait = cluster.wait_seconds(timeout)
    client = connect(scheduler, timeout=wait)
    address = scheduler if isinstance(scheduler, str) else client.scheduler.address
    try:
        split = DaskSplit(client, address)
        threads = split.threads()
        if not threads:
            cluster.wait_for_workers(client, wait)
            threads = split.threads()
        log.info(
            "IDA* on the Dask cluster at %s: %d worker%s, %d thread%s; each iteration that"
            " takes over %g s here split into %d to %d tasks",
            address, split.workers, "" if split.workers == 1 else "s", threads,
            "" if threads == 1 else "s", CLUSTER_AFTER, MIN_ROOTS_PER_THREAD * threads,
            ROOTS_PER_THREAD * threads,
        )  # fmt: skip
        try:
            with cluster.faults_as_cluster_errors(f"IDA* on the Dask cluster at {address}"):
                yield split
        finally:
            with contextlib.suppress(Exception):  # the scheduler may be gone
                split.close()
    finally:
        if client is not scheduler:
            cluster.close_quietly(client)


__all__ = [
    "DaskSplit",
    "NODES_PER_TASK",
    "ROOTS_PER_THREAD",
    "STOPPED",
    "SubtreeJob",
    "on_cluster",
    "search_subtree",
    "worker_heuristic",
]
