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

Results come back as they finish, in any order; each carries its ``line``.
"""

from __future__ import annotations

import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, wait

from .. import _args
from ..errors import SearchLimitError, SlidelabError, UnsolvableError
from ..memory import usable_cores
from ..parse import parse_size
from ..puzzle import Puzzle, goal_board
from ..search.options import SearchOptions, options_of
from ..search.request import check_request, read_puzzle
from ..workers import DONE, FAILED, WorkerPool, solve_job
from .instances import Instance, checked_instances
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
    instances = checked_instances(instances)
    options = options_of(options, **given)
    _args.callback(table_progress, "table_progress")
    workers = _args.integer(workers, "workers", positive=True, optional=True)
    blank_first = _args.boolean(blank_first, "blank_first")
    if size is not None:
        parse_size(size)
    if goal is not None and blank_first:
        goal_board(goal, blank_first=True)  # a goal board with blank_first: refused at once
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
    """:func:`solve_batch` once its arguments are checked: the records, as they are known.

    The instances are read as the workers need them (a window ahead of them), so a batch of
    millions of lines holds a few of them at a time and its first results come at once.
    """
    client = _connect(scheduler) if scheduler is not None else None  # before any result
    try:
        items = _ReadAhead(
            _item(instance, goal, blank_first, size, options) for instance in instances
        )
        try:
            if client is not None:
                runs = _run_dask(items, client)
            else:
                runs = _run_local(items, options, workers or default_workers(), table_progress)
            for (instance, puzzle, _), status, payload in runs:
                yield _record(instance, puzzle, status, payload)
        finally:
            items.close()
    finally:
        if client is not None and client is not scheduler:
            client.close()


#: instances read and checked ahead of the workers, at most
READ_AHEAD = 256
#: seconds the first instances are waited for before the local workers start (one per instance
#: then, up to ``workers``: a batch of two starts two)
FIRST_WAIT = 0.5
#: seconds between looks at the input while instances are solved (a line that comes on a pipe
#: is sent to a free worker this late at most)
POLL = 0.05

_END = object()  # the input has ended
_NOTHING = object()  # nothing read yet


class _ReadAhead:
    """``(job, failure)`` items read and checked by a thread, up to :data:`READ_AHEAD` ahead.

    Reading the input (a pipe that brings a line now and then) never holds up the results of
    the instances already running; an error while reading (the input too long, a results file
    of another input) is raised where the items are taken.
    """

    def __init__(self, items: Iterator):
        self._queue: queue.Queue = queue.Queue(READ_AHEAD)
        self._stop = threading.Event()
        self.ended = False
        self._thread = threading.Thread(
            target=self._read, args=(items,), name="slidelab-batch-input", daemon=True
        )
        self._thread.start()

    def _read(self, items: Iterator) -> None:
        try:
            for item in items:
                if not self._put(item):
                    return
            self._put(_END)
        except BaseException as exc:  # noqa: BLE001 - raised again in the batch's thread
            self._put(_Raised(exc))

    def _put(self, item) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def get(self, timeout: float | None = None):
        """The next item; :data:`_END` once the input ended; :data:`_NOTHING` after ``timeout``."""
        if self.ended:
            return _END
        try:
            item = self._queue.get(timeout=timeout) if timeout != 0 else self._queue.get_nowait()
        except queue.Empty:
            return _NOTHING
        if isinstance(item, _Raised):
            self.ended = True
            raise item.exception
        if item is _END:
            self.ended = True
        return item

    def close(self) -> None:
        """Stop reading (the thread ends at its next item; it is a daemon)."""
        self._stop.set()


class _Raised:
    def __init__(self, exception: BaseException):
        self.exception = exception


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


#: goals whose tables were made ready (or could not be) that a batch remembers: an input whose
#: every line has its own goal keeps this many, and makes the tables of one seen again ready again
GOALS_KEPT = 256


class _Tables:
    """Each goal's tables built or loaded here, once (:func:`slidelab.search.solve.prepare`)."""

    def __init__(self, options, progress):
        self.options = options.replace(max_states=None, max_bytes=None)
        self.progress = progress
        self.ready: OrderedDict = OrderedDict()  # goal -> None, or (error, kind)

    def failure(self, puzzle: Puzzle) -> dict | None:
        """None when ``puzzle``'s goal has its tables ready, else why they cannot be made."""
        from ..search.solve import prepare

        goal = puzzle.goal
        if goal in self.ready:
            self.ready.move_to_end(goal)
        else:
            try:
                prepare(puzzle, options=self.options, table_progress=self.progress)
                self.ready[goal] = None
            except SearchLimitError as exc:  # a build longer than an instance's time limit
                self.ready[goal] = (str(exc), "limit")
            except SlidelabError as exc:
                self.ready[goal] = (str(exc), "input")
            if len(self.ready) > GOALS_KEPT:
                self.ready.popitem(last=False)
        verdict = self.ready[goal]
        return None if verdict is None else {"error": verdict[0], "kind": verdict[1]}


def _run_local(items, options, workers: int, table_progress):
    """``(job, status, payload)`` for each of ``items``, solved by ``workers`` local processes.

    ``items`` are ``(job, failure)``: a failure (a bad line, an unsolvable board) comes back at
    once, as do the instances whose tables cannot be made (bad options).  The rest are handed to
    the workers with one more waiting behind each, taken from ``items`` as places free up.
    """
    first: list = []  # the first jobs, read before the workers start: no more workers than jobs
    timeout = None
    while len(first) < workers:
        item = items.get(timeout)
        if item is _END or item is _NOTHING:
            break
        job, failure = item
        if failure is not None:
            yield job, FAILED, failure
            continue
        first.append(job)
        timeout = FIRST_WAIT
    if not first:
        return
    pool = WorkerPool(max(1, min(int(workers), len(first))))
    pool.prestart()  # the workers start while the tables are made ready here
    try:
        tables = _Tables(options, table_progress)
        time_limit = options.time_limit
        hard_limit = time_limit if time_limit is not None else float("inf")
        running: dict = {}
        while True:
            while len(running) < 2 * pool.workers:  # a job queued behind each running one
                if first:
                    job, failure = first.pop(0), None
                else:
                    item = items.get(None if not running else 0)
                    if item is _END or item is _NOTHING:
                        break
                    job, failure = item
                if failure is None:
                    failure = tables.failure(job[1])
                if failure is not None:
                    yield job, FAILED, failure
                    continue
                handle = pool.submit(*solve_job(job[2]), hard_limit)
                running[handle.future] = (job, handle)
            if not running:
                return
            finished, _ = wait(
                running, timeout=0.5 if items.ended else POLL, return_when=FIRST_COMPLETED
            )
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


#: tasks a batch keeps on a Dask cluster at a time, per thread of its workers (and at least
#: :data:`DASK_WINDOW_MIN`): the rest of the input is read as they finish
DASK_PER_THREAD = 4
DASK_WINDOW_MIN = 64


def _run_dask(items, client):
    """``(job, status, payload)`` for each of ``items``, solved as tasks on a Dask cluster.

    A window of tasks is on the cluster at a time; another is read and sent as each finishes.
    """
    from distributed import as_completed

    from ..workers import run_job

    tag = secrets.token_hex(4)
    futures: dict = {}
    try:
        threads = sum(client.nthreads().values())
    except Exception:  # noqa: BLE001 - the window is a guess anyway
        threads = 0
    window = max(DASK_WINDOW_MIN, DASK_PER_THREAD * threads)
    finished = as_completed()
    try:
        while True:
            while len(futures) < window:
                item = items.get(None if not futures else 0)
                if item is _END or item is _NOTHING:
                    break
                job, failure = item
                if failure is not None:
                    yield job, FAILED, failure
                    continue
                future = client.submit(
                    run_job,
                    *solve_job(job[2]),
                    pure=False,
                    key=f"slidelab-solve-{tag}-{job[0].line}",
                )
                futures[future] = job
                finished.add(future)
            if not futures:
                return
            if not items.ended and not finished.has_ready():
                time.sleep(POLL)  # look at the input again soon
                continue
            future = next(finished)
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
