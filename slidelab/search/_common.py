"""Pieces every search shares: limits, the clock, progress reports, building a Solution."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

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


def default_max_bytes() -> int:
    """Half the machine's memory: the default memory limit of storing searches."""
    return physical_memory() // 2


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
        Bytes a storing search may allocate (default: half the machine's RAM).
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


def make_solution(puzzle: Puzzle, blank_dirs, optimal: bool, method: str, stats: Stats) -> Solution:
    """A :class:`Solution` from kernel blank-direction indices."""
    return Solution(puzzle.start, puzzle.goal, from_blank_path(blank_dirs), optimal, method, stats)
