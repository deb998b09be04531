"""Solving a batch: every core of this machine, or a Dask cluster.

The instances are read and checked here (bad lines and unsolvable boards are
answered at once, with no worker involved); the rest are solved elsewhere:

* **local worker processes** (the default, one per core): the tables each goal
  needs (pattern databases, distance tables) are built or loaded here first,
  once, with a progress bar, and cached on disk; the workers then memory-map
  them from the cache, so they share one copy in memory.  A worker that dies
  (out of memory) is replaced and its instance reported as failed.
* **a Dask distributed cluster** (``scheduler``): each instance is a task that
  runs :func:`slidelab.workers.run_job` on a worker, which builds or loads the
  tables from its own cache on first use and keeps them for the next tasks;
  nothing but the instance's text is shipped per task.

Results come back as they finish, in any order; each carries its ``line``.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, wait

from .. import _args
from ..errors import SearchLimitError, SlidelabError
from ..memory import usable_cores
from ..parse import parse_size
from ..puzzle import Puzzle
from ..search.options import SearchOptions, options_of
from ..solvability import check
from ..workers import DONE, FAILED, WorkerPool
from .instances import Instance, check_instances
from .results import agrees

#: seconds to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = 20


def default_workers() -> int:
    """The cores this process may run on (:func:`slidelab.memory.usable_cores`)."""
    return usable_cores()


def solve_batch(
    instances: Iterable[Instance],
    *,
    goal=None,
    blank_first: bool = False,
    size=None,
    method: str = "auto",
    heuristic: str | None = None,
    partition=None,
    weight: float | None = None,
    time_limit: float | None = None,
    max_states: int | None = None,
    max_bytes: int | None = None,
    metric: str = "stm",
    options: SearchOptions | None = None,
    workers: int | None = None,
    scheduler=None,
    table_progress: Callable[[float, str], None] | None = None,
) -> Iterator[dict]:
    """Solve ``instances``; yield one record per instance as it is known.

    Parameters
    ----------
    instances : iterable of Instance
        From :func:`slidelab.batch.read_instances`.
    goal, blank_first, size
        The goal of instances that do not give their own, as for :func:`slidelab.solve`.
    method, heuristic, partition, weight, time_limit, max_states, max_bytes, metric
        Passed to :func:`slidelab.solve` for each instance (``metric``: ``stm`` or
        ``mtm``, what the records' ``length`` counts).
    options : SearchOptions, optional
        The options above as one checked value, instead of keywords.
    workers : int, optional
        Local worker processes (default: one per core).
    scheduler : str or distributed.Client, optional
        Address of a Dask scheduler (``tcp://host:8786``) or a client: solve
        on that cluster instead of local processes.
    table_progress : callable, optional
        ``(fraction, message)`` while tables are built before a local batch.

    Yields
    ------
    dict
        The ``solve --json`` fields with ``id``, ``line``, ``input`` (the
        line's text) and ``error`` (``None``); or, for an instance that could
        not be read or solved, ``id``, ``line``, ``input``, ``error`` and
        ``error_kind`` (``input``, ``unsolvable``, ``limit`` or ``internal``).
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
    instances = check_instances(instances)
    options = options_of(
        options,
        method=method,
        heuristic=heuristic,
        weight=weight,
        time_limit=time_limit,
        max_states=max_states,
        max_bytes=max_bytes,
        partition=partition,
        metric=metric,
    )
    _args.callback(table_progress, "table_progress")
    workers = _args.integer(workers, "workers", positive=True, optional=True)
    blank_first = _args.boolean(blank_first, "blank_first")
    if size is not None:
        parse_size(size)
    if (
        scheduler is not None
        and not isinstance(scheduler, str)
        and not hasattr(scheduler, "submit")
    ):
        raise _args.ArgumentError(
            f"scheduler must be an address (tcp://host:8786) or a Dask"
            f" client, got {_args.show(scheduler)}"
        )
    return _solve(instances, goal, blank_first, size, options, workers, scheduler, table_progress)


def _solve(instances, goal, blank_first, size, options, workers, scheduler, table_progress):
    """:func:`solve_batch` once its arguments are checked: the records, as they are known."""
    client = _connect(scheduler) if scheduler is not None else None  # before any result
    try:
        jobs: list[tuple[Instance, Puzzle]] = []
        for instance in instances:
            puzzle, failure = _puzzle(instance, goal, blank_first, size)
            if failure is not None:
                yield _record(instance, puzzle, FAILED, failure)
            else:
                jobs.append((instance, puzzle))
        if jobs and client is not None:
            runs = _run_dask(jobs, options, client)
        elif jobs:
            runs = _run_local(jobs, options, workers or default_workers(), table_progress)
        else:
            runs = ()
        for (instance, puzzle), status, payload in runs:
            yield _record(instance, puzzle, status, payload)
    finally:
        if client is not None and client is not scheduler:
            client.close()


def _puzzle(instance: Instance, goal, blank_first, size):
    """``(puzzle, None)``, or ``(puzzle or None, failure)`` for a line that will not solve."""
    if instance.error is not None:
        return None, {"error": instance.error, "kind": "input"}
    own_goal = instance.goal is not None
    try:
        puzzle = Puzzle(
            instance.start,
            instance.goal if own_goal else goal,
            blank_first=blank_first and not own_goal,
            size=size,
        )
    except SlidelabError as exc:
        return None, {"error": str(exc), "kind": "input"}
    verdict = check(puzzle)  # its reason names the other ordered goal when that one is reachable
    if verdict.solvable:
        return puzzle, None
    return puzzle, {"error": verdict.reason, "kind": "unsolvable"}


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


def _prepare_tables(jobs, options, progress):
    """Build or load each goal's tables here, once: ``(jobs kept, (job, FAILED, why) of the rest)``."""
    from ..search.solve import prepare

    ready: dict = {}
    kept, failures = [], []
    for job in jobs:
        goal = job[1].goal
        if goal not in ready:
            try:
                prepare(
                    job[1],
                    options=dataclasses.replace(options, max_states=None, max_bytes=None),
                    table_progress=progress,
                )
                ready[goal] = None
            except SearchLimitError as exc:  # a build longer than an instance's time limit
                ready[goal] = (str(exc), "limit")
            except SlidelabError as exc:
                ready[goal] = (str(exc), "input")
        if ready[goal] is None:
            kept.append(job)
        else:
            error, kind = ready[goal]
            failures.append((job, FAILED, {"error": error, "kind": kind}))
    return kept, failures


def _job_args(puzzle: Puzzle, options: SearchOptions) -> dict:
    return {"board": puzzle.start.format(), "goal": puzzle.goal.format(), "options": options}


def _run_local(jobs, options, workers: int, table_progress):
    """``(job, status, payload)`` for each job, solved by ``workers`` local processes.

    Instances whose tables cannot be made (bad options) come back failed at once.
    """
    pool = WorkerPool(max(1, min(int(workers), len(jobs))))
    pool.prestart()  # the workers start while the tables are made ready here
    try:
        jobs, failures = _prepare_tables(jobs, options, table_progress)
        yield from failures
        time_limit = options.time_limit
        hard_limit = time_limit if time_limit is not None else float("inf")
        waiting = iter(jobs)
        running: dict = {}
        while True:
            while len(running) < 2 * pool.workers:  # a job queued behind each running one
                job = next(waiting, None)
                if job is None:
                    break
                handle = pool.submit("solve", _job_args(job[1], options), hard_limit)
                running[handle.future] = (job, handle)
            if not running:
                return
            finished, _ = wait(running, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in finished:
                job, handle = running.pop(future)
                status = DONE if handle.status == DONE else FAILED
                yield job, status, handle.result or handle.error
    finally:
        pool.close(wait=5.0)


def _connect(scheduler):
    """A Dask client of the cluster at ``scheduler`` (an address), or ``scheduler`` if it is one."""
    try:
        from distributed import Client
    except ImportError:
        raise SlidelabError(
            "--scheduler needs Dask's distributed package: pip install 'slidelab[cluster]'"
        ) from None
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as exc:
        raise SlidelabError(
            f"cannot reach the Dask scheduler at {scheduler}: {_first_line(exc)}"
        ) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def _run_dask(jobs, options, client):
    """``(job, status, payload)`` for each job, solved as tasks on a Dask cluster."""
    from distributed import as_completed

    from ..workers import run_job

    tag = secrets.token_hex(4)
    futures = {}
    try:
        for job in jobs:
            future = client.submit(
                run_job,
                "solve",
                _job_args(job[1], options),
                pure=False,
                key=f"slidelab-solve-{tag}-{job[0].line}",
            )
            futures[future] = job
        for future in as_completed(futures):
            job = futures.pop(future)
            try:
                status, payload = future.result()
            except Exception as exc:  # noqa: BLE001 - a lost worker, a cancelled task
                status, payload = (
                    FAILED,
                    {
                        "error": f"the Dask task failed: {type(exc).__name__}: {_first_line(exc)}",
                        "kind": "internal",
                    },
                )
            yield job, status, payload
    finally:
        if futures:
            client.cancel(list(futures))
