"""Solving a batch: every core of this machine, or a Dask cluster.

The instances are read and checked here (bad lines and unsolvable boards are
answered at once, with no worker involved); the rest are solved elsewhere:

* **local worker processes** (the default, one per core): the tables each goal
  needs (pattern databases, distance tables) are built or loaded here first,
  once, with a progress bar, and cached on disk; the workers then memory-map
  them from the cache, so they share one copy in memory.  A worker that dies
  (out of memory) is replaced and its instance reported as failed.
* **a Dask distributed cluster** (``scheduler``): each instance is a task that
  runs :func:`slidelab.workers.jobs.run_job` on a worker, which builds or loads the
  tables from its own cache on first use and keeps them for the next tasks;
  nothing but the instance's request (its puzzle and the options, read and
  checked here: :mod:`slidelab.search.request`) is shipped per task.

Results come back as they finish, in any order; each carries its ``line``.  Both run in the
loop of :func:`slidelab.search.stream.run_stream` (``slidelab solve``'s stream too): only
where a job runs differs (:class:`_Processes`, :class:`_Dask`).
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future

from .. import _args
from ..cluster import (
    check_scheduler,
    close_quietly,
    connect,
    faults_as_cluster_errors,
    first_line,
    scheduler_gone,
    wait_for_workers,
)
from ..errors import ClusterError, SearchLimitError, SlidelabError, UnsolvableError
from ..memory import usable_cores
from ..parse import parse_size
from ..puzzle import Puzzle, goal_board
from ..search.options import SearchOptions, options_of
from ..search.request import check_request, read_puzzle
from ..search.stream import Plans, ReadAhead, done, run_stream
from ..workers import DONE, FAILED, WorkerPool, solve_job
from .instances import Instance, checked_instances
from .results import agrees


def default_workers() -> int:
    """The cores this process may run on (:func:`slidelab.memory.usable_cores`)."""
    return usable_cores()


def solve_batch(
    instances: Iterable[Instance],
    *,
    goal=None,
    blank_first: bool = False,
    size=None,
    options: SearchOptions | None = None,
    workers: int | None = None,
    scheduler=None,
    table_progress: Callable[[float, str], None] | None = None,
    **given,
) -> Iterator[dict]:
    """Solve ``instances``; yield one record per instance as it is known.

    Parameters
    ----------
    instances : iterable of Instance
        From :func:`slidelab.batch.read_instances`.
    goal, blank_first, size
        The goal of instances that do not give their own, as for :func:`slidelab.solve`.
    options : SearchOptions, optional
        The search options of :func:`slidelab.solve` for each instance, as one checked
        value; or, instead, ``given``.
    workers : int, optional
        Local worker processes (default: one per core).
    scheduler : str or distributed.Client, optional
        Address of a Dask scheduler (``tcp://host:8786``) or a client: solve
        on that cluster instead of local processes.
    table_progress : callable, optional
        ``(fraction, message)`` while tables are built before a local batch.
    **given
        The search options by name, as :func:`slidelab.solve` takes them (``method``,
        ``heuristic``, ``partition``, ``weight``, ``time_limit``, ``max_states``,
        ``max_bytes``, ``metric``: what the records' ``length`` counts).

    Yields
    ------
    dict
        The ``solve --json`` fields with ``id``, ``line``, ``input`` (the
        line's text) and ``error`` (``None``); or, for an instance that could
        not be read or solved, ``id``, ``line``, ``input``, ``error`` and
        ``error_kind`` (``input``, ``unsolvable``, ``limit``, ``cluster``: its Dask task
        lost with its worker or failed there, or ``internal``).
        Instances with a ``known`` length also get ``known`` and, when solved,
        ``agrees``.

    Examples
    --------
    >>> from slidelab.batch import read_instances
    >>> batch = read_instances(["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/8 7 0", "1 2/3"])
    >>> for r in sorted(solve_batch(batch, workers=1), key=lambda r: r["line"]):
    ...     print(r["line"], r.get("length"), r["error_kind"] if r["error"] else "ok")
    1 2 ok
    2 None unsolvable
    3 None input
    """
    instances = checked_instances(instances)
    options = options_of(options, **given)
    _args.callback(table_progress, "table_progress")
    workers = _args.integer(workers, "workers", positive=True, optional=True)
    blank_first = _args.boolean(blank_first, "blank_first")
    if size is not None:
        parse_size(size)
    if goal is not None and blank_first:
        goal_board(goal, blank_first=True)  # a goal board with blank_first: refused at once
    check_scheduler(scheduler)
    return _solve(instances, goal, blank_first, size, options, workers, scheduler, table_progress)


def _solve(instances, goal, blank_first, size, options, workers, scheduler, table_progress):
    """:func:`solve_batch` once its arguments are checked: the records, as they are known.

    The instances are read as the workers need them (a window ahead of them), so a batch of
    millions of lines holds a few of them at a time and its first results come at once.  The
    loop is :func:`slidelab.search.stream.run_stream`, as for ``slidelab solve`` on standard
    input; what differs is where the searches run (:class:`_Processes` or :class:`_Dask`) and
    that the records come as they finish.
    """
    client = connect(scheduler) if scheduler is not None else None  # before any result
    try:
        if client is not None:  # a cluster with no workers would hold every instance forever
            wait_for_workers(client, options.time_limit)
        items = ReadAhead(
            (_item(instance, goal, blank_first, size, options) for instance in instances),
            READ_AHEAD,
        )
        runner = None
        faults = (  # the scheduler gone mid-batch: one line, not Dask's traceback
            contextlib.nullcontext()
            if client is None
            else faults_as_cluster_errors(f"the batch on the Dask cluster at {scheduler}")
        )
        try:
            with faults:
                if client is not None:
                    runner = _Dask(client)
                else:
                    runner = _Processes(items, workers or default_workers(), table_progress)
                for ((instance, puzzle, _), _), future in run_stream(
                    items, runner.submit, window=runner.window, ordered=False, poll=POLL
                ):
                    status, payload = future.result()
                    yield _record(instance, puzzle, status, payload)
        finally:
            items.close()
            if runner is not None:
                runner.close()
    finally:
        if client is not None and client is not scheduler:
            close_quietly(client)


#: instances read and checked ahead of the workers, at most
READ_AHEAD = 256
#: seconds the first instances are waited for before the local workers start (one per instance
#: then, up to ``workers``: a batch of two starts two)
FIRST_WAIT = 0.5
#: seconds between looks at the input while instances are solved (a line that comes on a pipe
#: is sent to a free worker this late at most)
POLL = 0.05


def _item(instance: Instance, goal, blank_first, size, options: SearchOptions):
    """``(job, failure)``: the instance, its puzzle and its request (read and checked here,
    once: :mod:`slidelab.search.request`), and why it will not solve (or None)."""
    if instance.error is not None:
        return (instance, None, None), {"error": instance.error, "kind": "input"}
    own_goal = instance.goal is not None
    try:
        puzzle = read_puzzle(
            instance.start,
            instance.goal if own_goal else goal,
            blank_first=blank_first and not own_goal,  # the batch's goal, not the line's own
            size=size,
        )
    except SlidelabError as exc:
        return (instance, None, None), {"error": str(exc), "kind": "input"}
    try:
        request = check_request(puzzle, options)
    except UnsolvableError as exc:  # its reason names the other ordered goal when reachable
        return (instance, puzzle, None), {"error": str(exc), "kind": "unsolvable"}
    except SlidelabError as exc:  # a partition that does not fit
        return (instance, puzzle, None), {"error": str(exc), "kind": "input"}
    return (instance, puzzle, request), None


def _record(instance: Instance, puzzle: Puzzle | None, status: str, payload: dict) -> dict:
    record = {"id": instance.id, "line": instance.line, "input": instance.text}
    if status == DONE:
        record.update(payload)
        record["error"] = None
    else:
        if puzzle is not None:
            record.update(start=puzzle.start.format(), goal=puzzle.goal.format(), size=puzzle.size)
        record["error"] = payload["error"]
        record["error_kind"] = payload.get("kind") or "internal"
        if payload.get("stats"):
            record["stats"] = payload["stats"]
    if instance.known is not None:
        record["known"] = instance.known
        if status == DONE:
            record["agrees"] = agrees(record["length"], record["optimal"], instance.known)
    return record


class _Processes:
    """Local worker processes (:class:`~slidelab.workers.WorkerPool`), with a job waiting behind
    each running one.

    Each goal's tables (pattern databases, distance tables) are made ready here first, once
    (:class:`~slidelab.search.stream.Plans`), with a progress bar, and cached on disk; the
    workers then memory-map them from the cache, so they share one copy in memory.  There is a
    worker per instance read at the start (within :data:`FIRST_WAIT` of each other), up to
    ``workers``: a batch of two starts two.  A worker that dies (out of memory) is replaced
    and its instance reported as failed.
    """

    def __init__(self, items: ReadAhead, workers: int, table_progress):
        first = items.peek(workers, FIRST_WAIT, counts=lambda item: item[1] is None)
        jobs = sum(1 for _, failure in first if failure is None)
        self.pool = WorkerPool(min(workers, jobs)) if jobs else None  # none: only failures
        if self.pool is not None:
            self.pool.prestart()  # the workers start while the tables are made ready here
        self.window = 2 * (self.pool.workers if self.pool is not None else 1)
        self.plans = Plans(table_progress)

    def submit(self, item) -> Future:
        """The job's ``(status, payload)`` to come: at once for a failure, or for an instance
        whose tables cannot be made (bad options); else from a worker."""
        (_, _, request), failure = item
        if failure is None:
            plan = self.plans.get(request)
            if isinstance(plan, SearchLimitError):  # a build longer than an instance's limit
                failure = {"error": str(plan), "kind": "limit"}
            elif isinstance(plan, SlidelabError):
                failure = {"error": str(plan), "kind": "input"}
        if failure is not None:
            return done((FAILED, failure))
        time_limit = request.options.time_limit
        handle = self.pool.submit(
            *solve_job(request), time_limit if time_limit is not None else float("inf")
        )
        answer: Future = Future()

        def finished(_) -> None:
            status = DONE if handle.status == DONE else FAILED
            answer.set_result((status, handle.result or handle.error))

        handle.future.add_done_callback(finished)
        return answer

    def close(self) -> None:
        """Stop the workers (killing those still running a job)."""
        if self.pool is not None:
            self.pool.close(wait=5.0)


#: tasks a batch keeps on a Dask cluster at a time, per thread of its workers (and at least
#: :data:`DASK_WINDOW_MIN`): the rest of the input is read as they finish
DASK_PER_THREAD = 4
DASK_WINDOW_MIN = 64


class _Dask:
    """Tasks on a Dask cluster, a window of them at a time (another is read and sent as each
    finishes): each runs :func:`slidelab.workers.jobs.run_job` on a worker, which builds or
    loads the tables from its own cache on first use."""

    def __init__(self, client):
        self.client = client
        self.tag = secrets.token_hex(4)
        try:
            threads = sum(client.nthreads().values())
        except Exception:  # noqa: BLE001 - the window is a guess anyway
            threads = 0
        self.window = max(DASK_WINDOW_MIN, DASK_PER_THREAD * threads)
        self._lock = threading.Lock()
        self._tasks: set = set()  # on the cluster, not finished

    def submit(self, item) -> Future:
        """The job's ``(status, payload)`` to come: at once for a failure, else from its task."""
        from ..workers import run_job

        (instance, _, request), failure = item
        if failure is not None:
            return done((FAILED, failure))
        task = self.client.submit(
            run_job,
            *solve_job(request),
            pure=False,
            key=f"slidelab-solve-{self.tag}-{instance.line}",
        )
        answer: Future = Future()
        with self._lock:
            self._tasks.add(task)

        def finished(task) -> None:  # in a thread of the client's
            with self._lock:
                self._tasks.discard(task)
            try:
                result = task.result()
            except BaseException as exc:  # noqa: BLE001 - a lost worker, a cancelled task
                if scheduler_gone(self.client):  # not the instance's failure: none is written
                    answer.set_exception(
                        ClusterError(
                            f"the batch on the Dask cluster at {self.client.scheduler.address}"
                            " cannot go on: its scheduler went away"
                        )
                    )
                    return
                result = (
                    FAILED,
                    {
                        "error": f"the Dask task failed: {type(exc).__name__}: {first_line(exc)}",
                        "kind": "cluster",
                    },
                )
            answer.set_result(result)

        task.add_done_callback(finished)
        return answer

    def close(self) -> None:
        """Cancel the tasks still on the cluster."""
        with self._lock:
            tasks = list(self._tasks)
        if tasks:
            with contextlib.suppress(Exception):  # the scheduler may be gone: nothing to cancel
                self.client.cancel(tasks)
