"""A stream of solves on N workers: the one loop of ``slidelab solve`` on stdin and of batch.

:func:`run_stream` keeps a window of work in flight: it takes items from the input as places
free up, hands each to ``submit`` (which returns a :class:`~concurrent.futures.Future`), and
gives each item back with its future once it is done, in input order or as they finish.
What runs the work is the caller's: threads of this process (:func:`~.many.solve_many`),
worker processes or a Dask cluster (:mod:`slidelab.batch.run`).  :class:`Plans` makes each
goal's plan and tables ready once (one build at a time, here), whatever runs the searches.

Why the workers differ (see the architecture page): a stream on ``solve`` runs its searches
in threads, which start at once and share one copy of the tables, and answers in input order;
a batch runs them in processes, which a hard deadline can kill and whose death (out of memory)
fails one instance, not the batch, and writes each result as it finishes.
"""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait

from ..errors import SlidelabError
from .plan import Plan
from .request import Request

#: what an input's ``get`` gives once the input has ended
END = object()
#: what an input's ``get`` gives when nothing came within its timeout
NOTHING = object()

#: seconds between looks at the input (and at Ctrl-C) while work is in flight
POLL = 0.05


def done(value) -> Future:
    """A future that is done already, with ``value`` (an answer known without a worker)."""
    future: Future = Future()
    future.set_result(value)
    return future


class ReadAhead:
    """An input read (and each item made, by the generator) in a thread, up to ``most`` items
    ahead: reading (a pipe that brings a line now and then) never holds up the answers of the
    items already in flight; an error while reading is raised where the items are taken."""

    def __init__(self, items: Iterator, most: int):
        self._queue: queue.Queue = queue.Queue(most)
        self._stop = threading.Event()
        self._front: list = []  # items looked at already (peek), given again first
        self.ended = False
        self._thread = threading.Thread(
            target=self._read, args=(items,), name="slidelab-stream-input", daemon=True
        )
        self._thread.start()

    def _read(self, items: Iterator) -> None:
        try:
            for item in items:
                if not self._put(item):
                    return
            self._put(END)
        except BaseException as exc:  # noqa: BLE001 - raised again in the consumer's thread
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
        """The next item; :data:`END` once the input ended; :data:`NOTHING` after ``timeout``."""
        if self._front:
            return self._front.pop(0)
        if self.ended:
            return END
        try:
            item = self._queue.get(timeout=timeout) if timeout != 0 else self._queue.get_nowait()
        except queue.Empty:
            return NOTHING
        if isinstance(item, _Raised):
            self.ended = True
            raise item.exception
        if item is END:
            self.ended = True
        return item

    def peek(self, count: int, wait: float, counts: Callable = lambda item: True) -> list:
        """The first items, until ``count`` of them ``counts`` (waiting for the first, then up
        to ``wait`` seconds for each next): they are given again by :meth:`get`."""
        taken: list = []
        found, timeout = 0, None
        while found < count:
            item = self.get(timeout)
            if item is END or item is NOTHING:
                break
            taken.append(item)
            if counts(item):
                found, timeout = found + 1, wait
        self._front = taken + self._front
        return taken

    def close(self) -> None:
        """Stop reading (the thread ends at its next item; it is a daemon)."""
        self._stop.set()


class _Raised:
    def __init__(self, exception: BaseException):
        self.exception = exception


def run_stream(
    items,
    submit: Callable[[object], Future],
    *,
    window: int,
    ordered: bool,
    poll: float = POLL,
    interrupted: Callable[[], None] | None = None,
) -> Iterator[tuple[object, Future]]:
    """``(item, future)`` for each item of ``items`` (a :class:`ReadAhead`),
    once ``submit(item)``'s future is done: in input order (``ordered``) or as they finish.

    At most ``window`` items are in flight; the next ones are taken as places free up (while
    some are in flight, only those the input has ready).  ``interrupted``: with ``ordered``,
    called on Ctrl-C while the loop waits; then the items in flight come back in order up to
    the first one whose future was cancelled, and the loop ends.
    """
    pending: OrderedDict[Future, object] = OrderedDict()
    while True:
        while len(pending) < window:
            item = items.get(None if not pending else 0)
            if item is END or item is NOTHING:
                break
            future = submit(item)
            pending[future] = item
        if not pending:
            return
        if ordered:
            head = next(iter(pending))
            try:
                wait([head], timeout=poll)  # in short steps: Ctrl-C reaches this thread
            except KeyboardInterrupt:
                if interrupted is None:
                    raise
                interrupted()
                yield from _drain(pending)
                return
            finished = [head] if head.done() else []
        else:
            timeout = 10 * poll if items.ended else poll  # the input looked at again this soon
            finished_set, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
            finished = [future for future in pending if future in finished_set]
        for future in finished:
            yield pending.pop(future), future


def _drain(pending: OrderedDict) -> Iterator[tuple[object, Future]]:
    """After Ctrl-C: the items in flight, in order, up to the first cancelled one."""
    while pending:
        future, item = pending.popitem(last=False)
        if future.cancelled():
            return
        wait([future])
        yield item, future


#: goals whose plans were made ready (or could not be) that a stream remembers: an input whose
#: every line has its own goal keeps this many, and makes the plan of one seen again ready again
GOALS_KEPT = 256


class Plans:
    """Each goal's plan made ready once (:func:`~.solve.prepare_request`: tables built or
    loaded here, one build at a time, with ``table_progress``), or why it cannot be; for the
    requests of one stream, which share their options.

    The plan of a goal serves every board of that goal (a plan and its tables depend on the
    goal and the options, never on the start).
    """

    def __init__(self, table_progress: Callable | None = None, keep: int = GOALS_KEPT):
        self.table_progress = table_progress
        self.keep = keep
        self._ready: OrderedDict = OrderedDict()  # goal -> Plan, or the SlidelabError

    def get(self, request: Request) -> Plan | SlidelabError:
        """The plan of ``request``'s goal, made ready (the first time, now), or the error that
        made it fail (a build longer than the time limit, options that do not fit)."""
        from .solve import prepare_request

        goal = request.puzzle.goal
        if goal in self._ready:
            self._ready.move_to_end(goal)
            return self._ready[goal]
        try:
            plan: Plan | SlidelabError = prepare_request(
                request, table_progress=self.table_progress
            )
        except SlidelabError as exc:
            plan = exc
        self._ready[goal] = plan
        if len(self._ready) > self.keep:
            self._ready.popitem(last=False)
        return plan


__all__ = [
    "END",
    "GOALS_KEPT",
    "NOTHING",
    "POLL",
    "Plans",
    "ReadAhead",
    "done",
    "run_stream",
]
