"""The limits on a search: :class:`Limits` (time, states, memory, patience, progress reports)
and the errors of going past them.

Every search takes a ``limits=Limits(...)``; the searches, table builds and fallbacks of one
answer share its clock.  ``Limits`` is reached as ``slidelab.search.Limits``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from .. import _args
from .._clock import Clock
from ..errors import SearchLimitError, SearchTooLong
from ..memory import default_max_bytes
from ..solution import Stats
from ..units import durations_apart, format_bytes

T = TypeVar("T")

#: the most states of one layer a breadth-first search records (:attr:`Limits.record`)
LAYER_VISITS = 6
#: bytes a search may take without the default memory budget being read (IDA*'s path arrays)
SMALL_NEED = 1 << 20


def out_of_memory(method: str, what: str, stats: Stats | None = None) -> SearchLimitError:
    """The error for an allocation the operating system refused (a ``MemoryError``)."""
    return SearchLimitError(
        f"limit reached: {method} could not get the memory for {what}"
        f" (out of memory; give a smaller --max-memory or free some)",
        stats if stats is not None else Stats(),
    )


@dataclass
class Limits:
    """Limits on a search.

    Attributes
    ----------
    time_limit : float or None
        Seconds of wall-clock time for the whole answer, counted by ``clock``.
    max_states : int or None
        States a storing search may hold.
    max_bytes : int or None
        Bytes a storing search may allocate (default :func:`default_max_bytes`: three
        quarters of the memory available, at most half the machine's).
    progress : callable or None
        Called now and then with a dict (``method``, ``depth`` or ``bound``,
        ``expanded``, ``generated``, ``stored``, ``seconds``, and what
        ``context`` holds).
    context : dict
        Facts about the search that every progress report carries, such as
        ``stronger_partition``: the name of larger pattern databases that
        would speed it up.
    clock : Clock or None
        The answer's one clock (:class:`slidelab._clock.Clock`): the searches, table
        builds and fallbacks of one answer share it, so ``time_limit`` bounds them
        together.  Default: a clock of ``time_limit`` started now.
    patience : float or None
        Seconds after which a search that could be done faster another way gives up
        with :class:`~slidelab.errors.SearchTooLong`: when it has taken that long, or
        (IDA*) when it is predicted to (its next two iterations, each growing in
        nodes as the last did).  ``auto`` sets it to the time stronger tables
        would take to build.
    record : int
        Nodes to record for playing the search back (:attr:`~slidelab.solution.Stats.visits`):
        A*'s first ``record`` expansions, a breadth-first search's first states of each layer
        (at most :data:`LAYER_VISITS` a layer, ``record`` in all); 0 (the default): none.
        A* recording runs its kernel one expansion at a time (microseconds each).
    """

    time_limit: float | None = None
    max_states: int | None = None
    max_bytes: int | None = None
    progress: Callable[[dict], None] | None = None
    context: dict = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)
    patience: float | None = None
    clock: Clock | None = None
    record: int = 0
    _default_bytes: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        self.time_limit = _args.number(
            self.time_limit, "time_limit", positive=True, finite=False, optional=True
        )
        self.max_states = _args.integer(self.max_states, "max_states", positive=True, optional=True)
        self.max_bytes = _args.integer(self.max_bytes, "max_bytes", positive=True, optional=True)
        _args.callback(self.progress, "progress")
        _args.instance(self.context, "context", dict)
        self.started = _args.number(self.started, "started")
        self.patience = _args.number(
            self.patience, "patience", positive=True, finite=False, optional=True
        )
        self.record = _args.integer(self.record, "record", minimum=0)
        if self.clock is None:
            self.clock = Clock(self.time_limit)
        _args.instance(self.clock, "clock", Clock)
        self.time_limit = self.clock.limit

    def restart(self) -> None:
        """Count the search's own seconds (its statistics) from now: tables were made ready
        before it.  The answer's clock (``time_limit``) runs on."""
        self.started = time.perf_counter()

    def left(self) -> float | None:
        """Seconds left of the answer's time limit (None without one)."""
        assert self.clock is not None
        return self.clock.left()

    @property
    def bytes_allowed(self) -> int:
        """``max_bytes``, or the default budget, read from the memory available when first asked
        (once per search: IDA* asks at every bound)."""
        if self.max_bytes is not None:
            return self.max_bytes
        if self._default_bytes is None:
            self._default_bytes = default_max_bytes()
        return self._default_bytes

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self, stats: Stats, method: str, **info) -> None:
        """Report progress; raise :class:`SearchLimitError` past a limit."""
        stats.seconds = self.elapsed()
        if self.progress is not None:
            self.progress(
                {
                    "method": method,
                    **self.context,
                    **info,
                    "expanded": stats.expanded,
                    "generated": stats.generated,
                    "stored": stats.stored,
                    "seconds": stats.seconds,
                }
            )
        if self.clock is not None and self.clock.over():
            bound = info.get("bound") if method == "idastar" else None  # weighted: no bound
            raise SearchLimitError(
                f"limit reached: {method} stopped at the {self.time_limit:g} s time limit"
                f" after {stats.expanded:,} expansions"
                + ("" if bound is None else f" (no solution shorter than {bound:g})"),
                stats,
                bound,
            )
        if self.patience is not None and stats.seconds > self.patience:
            took, patience = durations_apart(stats.seconds, self.patience)
            raise SearchTooLong(
                f"{method} stopped after {took}: longer than the {patience} of patience",
                stats,
            )
        if self.max_states is not None and stats.stored > self.max_states:
            raise SearchLimitError(
                f"limit reached: {method} stored {stats.stored:,} states,"
                f" over the limit of {self.max_states:,}",
                stats,
            )

    def predict(self, stats: Stats, method: str, seconds: float, bound: float) -> None:
        """IDA*: the search from ``bound`` on is expected to take ``seconds`` more; raise
        :class:`SearchTooLong` when that goes past the patience."""
        if self.patience is not None and stats.seconds + seconds > self.patience:
            total, patience = durations_apart(stats.seconds + seconds, self.patience)
            raise SearchTooLong(
                f"{method} from bound {bound:g} is expected to take about {total} in all, past"
                f" the {patience} of patience",
                stats,
            )

    def need_bytes(self, amount: int, what: str, method: str) -> None:
        """Refuse up front an allocation over the memory limit (under :data:`SMALL_NEED` and
        no limit given, at once: reading the memory available takes longer than a search of a
        stream's easy boards)."""
        if self.max_bytes is None and amount <= SMALL_NEED:
            return
        if amount > self.bytes_allowed:
            raise SearchLimitError(
                f"limit reached: {method} needs {format_bytes(amount)} for {what},"
                f" over the memory limit of {format_bytes(self.bytes_allowed)}",
                Stats(),
            )

    def allocate(
        self,
        make: Callable[[], T],
        amount: int,
        what: str,
        method: str,
        stats: Stats | None = None,
    ) -> T:
        """``make()``, which allocates ``amount`` bytes for ``what``: refused up front over the
        memory limit (:meth:`need_bytes`), and a ``MemoryError`` answered by
        :func:`out_of_memory` with the search's ``stats``."""
        self.need_bytes(amount, what, method)
        try:
            return make()
        except MemoryError:
            raise out_of_memory(method, what, stats) from None
