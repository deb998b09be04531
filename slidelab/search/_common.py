"""Pieces every search shares: limits, the clock, progress reports, building a Solution."""

from __future__ import annotations

import functools
import inspect
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import _args
from ..errors import SearchLimitError
from ..moves import from_blank_path
from ..puzzle import Puzzle
from ..solution import Solution, Stats


def physical_memory() -> int:
    """Bytes of RAM on this machine (8 GiB if it cannot be told)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 << 30


#: where Linux says how much memory is available (read by :func:`available_memory`)
MEMINFO = "/proc/meminfo"
#: the share of the available memory a search may take by default
AVAILABLE_SHARE = 0.75


def _meminfo() -> dict:
    """``/proc/meminfo`` as ``{field: bytes}`` (empty where there is none)."""
    out = {}
    try:
        with open(MEMINFO) as f:
            for line in f:
                key, _, value = line.partition(":")
                parts = value.split()
                if parts and parts[0].isdigit():
                    out[key.strip()] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    except OSError:
        pass
    return out


def _cgroup_headroom() -> Optional[int]:
    """Bytes this process's cgroup (v2) may still use, if it has a limit."""
    try:
        with open("/proc/self/cgroup") as f:
            path = next((line.strip().split(":", 2)[2] for line in f if line.startswith("0::")), None)
        if path is None:
            return None
        base = os.path.join("/sys/fs/cgroup", path.lstrip("/"))
        with open(os.path.join(base, "memory.max")) as f:
            limit = f.read().strip()
        if not limit.isdigit():
            return None  # "max": no limit
        with open(os.path.join(base, "memory.current")) as f:
            return max(0, int(limit) - int(f.read().strip()))
    except (OSError, ValueError, IndexError):
        return None


def _address_space_headroom() -> Optional[int]:
    """Bytes of address space this process may still map, under ``ulimit -v`` (RLIMIT_AS)."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * resource.getpagesize()
        return max(0, limit - used)
    except (ImportError, OSError, ValueError, IndexError):
        return None


def available_memory() -> int:
    """Bytes this process could allocate now: the least of the machine's available memory
    (``MemAvailable``), its cgroup's headroom and its address-space headroom; the physical
    memory where none of these can be told."""
    found = [v for v in (_meminfo().get("MemAvailable"), _cgroup_headroom(),
                         _address_space_headroom()) if v is not None]
    return min(found) if found else physical_memory()


def default_max_bytes() -> int:
    """The default memory limit of storing searches: three quarters of the memory available
    now (:func:`available_memory`), and never more than half the machine's memory."""
    total = _meminfo().get("MemTotal") or physical_memory()
    return max(1, min(total // 2, int(available_memory() * AVAILABLE_SHARE)))


def out_of_memory(method: str, what: str, stats: Optional[Stats] = None) -> SearchLimitError:
    """The error for an allocation the operating system refused (a ``MemoryError``)."""
    return SearchLimitError(f"limit reached: {method} could not get the memory for {what}"
                            f" (out of memory; give a smaller --max-memory or free some)",
                            stats if stats is not None else Stats())


@dataclass
class Limits:
    """Limits on a search.

    Attributes
    ----------
    time_limit : float or None
        Seconds of wall-clock time.
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
    """

    time_limit: Optional[float] = None
    max_states: Optional[int] = None
    max_bytes: Optional[int] = None
    progress: Optional[Callable[[dict], None]] = None
    context: dict = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self):
        self.time_limit = _args.number(self.time_limit, "time_limit", positive=True, finite=False,
                                       optional=True)
        self.max_states = _args.integer(self.max_states, "max_states", positive=True, optional=True)
        self.max_bytes = _args.integer(self.max_bytes, "max_bytes", positive=True, optional=True)
        _args.callback(self.progress, "progress")
        _args.instance(self.context, "context", dict)
        self.started = _args.number(self.started, "started")

    @property
    def bytes_allowed(self) -> int:
        return self.max_bytes if self.max_bytes is not None else default_max_bytes()

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self, stats: Stats, method: str, **info) -> None:
        """Report progress; raise :class:`SearchLimitError` past a limit."""
        stats.seconds = self.elapsed()
        if self.progress is not None:
            self.progress({"method": method, **self.context, **info, "expanded": stats.expanded,
                           "generated": stats.generated, "stored": stats.stored,
                           "seconds": stats.seconds})
        if self.time_limit is not None and stats.seconds > self.time_limit:
            raise SearchLimitError(
                f"limit reached: {method} stopped at the {self.time_limit:g} s time limit"
                f" after {stats.expanded:,} expansions", stats)
        if self.max_states is not None and stats.stored > self.max_states:
            raise SearchLimitError(
                f"limit reached: {method} stored {stats.stored:,} states,"
                f" over the limit of {self.max_states:,}", stats)

    def need_bytes(self, amount: int, what: str, method: str) -> None:
        """Refuse up front an allocation over the memory limit."""
        if amount > self.bytes_allowed:
            raise SearchLimitError(
                f"limit reached: {method} needs {amount:,} bytes for {what},"
                f" over the memory limit of {self.bytes_allowed:,} bytes", Stats())


def search_entry(method: str):
    """Decorator of the public search functions (``astar(puzzle, limits, ...)`` and the others).

    At the door: ``puzzle`` must be a :class:`Puzzle` and ``limits`` a
    :class:`Limits` (an :class:`~slidelab.errors.ArgumentError` names the one
    that is not).  Inside: an allocation the operating system refuses (a
    ``MemoryError``, say under ``ulimit -v``) ends the search with a
    :class:`SearchLimitError`, as the memory limit does.
    """

    def wrap(fn):
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def checked(*args, **kwargs):
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise _args.ArgumentError(f"{fn.__name__}: {exc}") from None
            _args.instance(bound.arguments.get("puzzle"), "puzzle", Puzzle)
            _args.instance(bound.arguments.get("limits"), "limits", Limits)
            try:
                return fn(*args, **kwargs)
            except MemoryError:
                raise out_of_memory(method, "its search") from None

        return checked

    return wrap


def make_solution(puzzle: Puzzle, blank_dirs, optimal: bool, method: str, stats: Stats) -> Solution:
    """A :class:`Solution` from kernel blank-direction indices."""
    return Solution(puzzle.start, puzzle.goal, from_blank_path(blank_dirs), optimal, method, stats)
