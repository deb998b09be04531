"""``solve_many``: a stream of positions solved on every core, answers in input order.

The compiled search kernels release the GIL, so threads of one process run them
side by side and share its tables (pattern databases memory-mapped once, not
once per process).  Each position is read in the calling thread, its goal's plan and
tables made ready there once (one table build at a time, with its progress bar:
:class:`~.stream.Plans`), then its search goes to a pool of ``workers`` threads;
answers come back in the order the positions came in, each as soon as it and those
before it are done, and only a few positions are read ahead, so a stream from a pipe
is answered as it flows (the loop is :func:`~.stream.run_stream`, batch's too).
The storing searches (:attr:`~.registry.Method.stores`: BFS, bidirectional BFS,
A*), whose memory grows with the search, run one at a time beside the others.

Ctrl-C (a ``KeyboardInterrupt`` in the calling thread) while it waits for an
answer stops every running search at its next progress check; the answers
finished before it come out, then the first interrupted one as a
:class:`~slidelab.errors.SearchInterrupted`, and the stream ends.  Elsewhere
(building tables, or with one worker, where everything runs in the calling
thread) the ``KeyboardInterrupt`` is the caller's, as with :func:`~.solve.solve`;
a search that turns it into a ``SearchInterrupted`` (IDA* says how far it got)
ends the stream the same way.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from .. import _args
from ..errors import SearchInterrupted, SlidelabError
from ..memory import grant_cores, usable_cores
from ..puzzle import Puzzle
from ..solution import Solution
from .options import SearchOptions, options_of
from .plan import Plan
from .request import Request, check_request
from .solve import solve_request
from .stream import Plans, ReadAhead, done, run_stream

#: positions read ahead per worker thread
READ_AHEAD = 2
#: seconds between looks at the stop flag while the calling thread waits
_POLL = 0.2


def solve_many(
    puzzles: Iterable[Puzzle | Request | BaseException],
    *,
    options: SearchOptions | None = None,
    workers: int | None = None,
    progress: Callable[[dict], None] | None = None,
    table_progress: Callable[[float, str], None] | None = None,
) -> Iterator[Solution | SlidelabError | SearchInterrupted]:
    """Solve each puzzle as :func:`~.solve.solve` would, ``workers`` at once; yield in order.

    Parameters
    ----------
    puzzles : iterable of Puzzle or Request
        The positions: puzzles (checked here against the options, and to be solvable), or
        requests already read and checked with ``options`` (:func:`~.request.read_request`),
        taken as they are.  An item that is an exception (say, a line
        that could not be read) is yielded back in its place, so that a caller's
        bookkeeping stays in step.
    options : SearchOptions, optional
        The search options, the same for every position (default: ``auto``).
    workers : int, optional
        Searches at once (default: the cores this process may use).  With 1,
        everything runs in the calling thread.
    progress : callable, optional
        Progress reports (dicts, as :func:`~.solve.solve` sends) of the oldest
        position not yet answered.
    table_progress : callable, optional
        ``(fraction, message)`` while tables are being built.

    Yields
    ------
    Solution, SlidelabError or SearchInterrupted
        For each position in turn: its solution (replayed and checked), or the
        error that :func:`~.solve.solve` raised for it (unsolvable, a limit, bad
        options for this board); after Ctrl-C, the first interrupted position's
        :class:`~slidelab.errors.SearchInterrupted`, last.

    Examples
    --------
    >>> boards = ["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/8 7 0", "1 2 3/4 0 6/7 5 8"]
    >>> [getattr(r, "notation", type(r).__name__)
    ...  for r in solve_many(Puzzle(b) for b in boards)]
    ['L2', 'UnsolvableError', 'UL']
    """
    options = options_of(options)
    workers = (
        usable_cores() if workers is None else _args.integer(workers, "workers", positive=True)
    )
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    if workers == 1:
        plans = Plans(table_progress)
        for item in puzzles:
            result = _inline(item, options, plans, progress, table_progress)
            yield result
            if isinstance(result, SearchInterrupted):
                return
        return
    yield from _pooled(iter(puzzles), options, workers, progress, table_progress)


def _request(item, options: SearchOptions) -> Request:
    """The item as a checked request (a request as it is, with ``options``)."""
    if isinstance(item, Request):
        if item.options == options:
            return item
        item = item.puzzle
    return check_request(item, options)


def _read(item, options: SearchOptions) -> Request | BaseException:
    """The item as a checked request, or what is answered in its place: an item that is an
    exception, as it is; the error of a board that cannot be solved.  Not a puzzle: raised."""
    if isinstance(item, BaseException):
        return item
    if not isinstance(item, Request):
        _args.instance(item, "puzzle", Puzzle)
    try:
        return _request(item, options)
    except SlidelabError as exc:
        return exc


def _inline(item, options, plans: Plans, progress, table_progress):
    """The item solved in the calling thread, with its goal's plan made ready once."""
    request = _read(item, options)
    if not isinstance(request, Request):
        return request
    plan = plans.get(request)
    if isinstance(plan, SlidelabError):
        return plan
    try:
        return solve_request(request, plan=plan, progress=progress, table_progress=table_progress)
    except SearchInterrupted as exc:  # IDA* says how far it got: the stream ends with it
        return exc
    except SlidelabError as exc:
        return exc


class _Stream:
    """What the worker threads share: the stop flag, the storing searches' turn, the head."""

    def __init__(self, progress, cores: int):
        self.stop = threading.Event()
        self.storing = threading.Lock()
        self.head = 0
        self.progress = progress
        self.cores = cores
        self.running = 0  # searches under way
        self.count = threading.Lock()

    def share(self) -> int:
        """The cores a search starting now may use: the pool's, shared by the searches under
        way (the last board of a stream, or a stream of one, gets them all)."""
        return max(1, self.cores // max(1, self.running))

    def reporter(self, index: int) -> Callable[[dict], None]:
        """The progress callback of position ``index``: stops its search once ``stop`` is set,
        and passes its reports on while it is the oldest unanswered position."""

        def report(info: dict) -> None:
            if self.stop.is_set():
                raise KeyboardInterrupt
            if self.progress is not None and index == self.head:
                self.progress(info)

        return report

    def run(self, index: int, request: Request, plan: Plan):
        try:
            if self.stop.is_set():
                raise KeyboardInterrupt
            with self.count:
                self.running += 1
            try:
                with self.storing if plan.method.stores else contextlib.nullcontext():
                    return solve_request(request, plan=plan, progress=self.reporter(index))
            finally:
                with self.count:
                    self.running -= 1
        except SearchInterrupted as exc:  # IDA* says how far it got
            return exc
        except KeyboardInterrupt:
            return SearchInterrupted()
        except SlidelabError as exc:
            return exc


def _pooled(items: Iterator, options, workers: int, progress, table_progress):
    shared = _Stream(progress, usable_cores())
    plans = Plans(table_progress)
    pool = ThreadPoolExecutor(  # a search per core; one alone may split its iterations
        max_workers=workers,
        thread_name_prefix="slidelab-solve",
        initializer=grant_cores,
        initargs=(shared.share,),
    )
    index = itertools.count()

    def submit(item) -> Future:
        """The item's plan made ready here (once per goal: :class:`~.stream.Plans`), then its
        search queued with it (the search does not make it again)."""
        request = _read(item, options)
        if not isinstance(request, Request):
            return done(request)
        plan = plans.get(request)
        if isinstance(plan, SlidelabError):
            return done(plan)
        return pool.submit(shared.run, next(index), request, plan)

    window = READ_AHEAD * workers
    # read on a thread: on a pipe that stays open, an answer does not wait for the next line
    inputs = ReadAhead(iter(items), window)
    answers = run_stream(
        inputs,
        submit,
        window=window,
        ordered=True,
        poll=_POLL,
        interrupted=shared.stop.set,
    )
    try:
        for _, future in answers:
            result = future.result()
            shared.head += 1
            yield result
            if isinstance(result, SearchInterrupted):
                return
    finally:
        shared.stop.set()  # a consumer that stops early (or Ctrl-C there) stops the searches
        inputs.close()
        pool.shutdown(wait=True, cancel_futures=True)
