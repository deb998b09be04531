"""What a complete search of a space will cost, and refusing one that does not fit this machine.

The search holds two bits per state (:mod:`.layers`); a distance table adds a
byte per state while it is built, and half a byte more while it is packed into
four bits.  The time is the number of states times a measured cost, shared by
the threads: on the 2-core development machine 38 to 43 nanoseconds of one core
per state where the tiles are distinct and at least eight (7x2, 6x2, 3x4: the
suffix-block walk of :mod:`.layers`, :data:`NS_PER_STATE_BLOCKS`), and up to 135
otherwise (the line puzzle; :data:`NS_PER_STATE`).

Examples
--------
>>> e = estimate("4x4")
>>> e.states, e.bytes // 2**40
(10461394944000, 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import _args
from ..errors import SpaceTooLargeError
from ..units import format_bytes, format_duration
from .index import MAX_TILES, SUFFIX, Space, space_of

#: nanoseconds of one core per state (search), on the 2-core development machine: the line
#: puzzle's STM space (252,252,000 positions) in 28 s on both cores
NS_PER_STATE = 220.0
#: the same where the kernels walk suffix blocks (distinct tiles, at least ``SUFFIX`` of them):
#: 3x4 (239,500,800) in 7.9 s
NS_PER_STATE_BLOCKS = 70.0
#: extra nanoseconds of one core per state when a distance table is kept and packed: 3x4's
#: table in 17-20 s, the line puzzle's MTM table in 32-42 s (``benchmarks/estimates.py``)
NS_PER_TABLE_STATE = 85.0
#: MTM (a move slides up to ``reach`` tiles: about twice the neighbours, a slide's rank changed
#: tile after tile): nanoseconds of one core per state, the line puzzle's space in 26-34 s
NS_PER_STATE_MTM = 210.0
#: refuse a search estimated to take longer than this, unless told otherwise (seconds)
DEFAULT_MAX_SECONDS = 3600.0


@dataclass(frozen=True)
class Estimate:
    """Memory and time a complete search will take.

    Attributes
    ----------
    states : int
        Indices searched (every reachable position; see :mod:`.index`).
    bytes : int
        Peak bytes of the search's arrays (two bits per state, plus the
        distance table's byte and half byte when one is built).
    seconds : float
        Wall-clock estimate on this machine with its threads.
    threads : int
    """

    states: int
    bytes: int
    seconds: float
    threads: int


#: spaces smaller than this are searched by one thread (a parallel region costs more than a layer)
SERIAL_STATES = 1 << 21


def _threads() -> int:
    """The threads a search runs on: numba's where it is imported, else the usable cores (its
    default), so that sizing a search imports no numba."""
    import sys

    numba = sys.modules.get("numba")
    if numba is not None:
        return max(1, int(numba.get_num_threads()))
    from ..memory import usable_cores

    return max(1, usable_cores())


#: seconds of one core compiling a whole-space search's kernels from nothing on the 2-core
#: development machine, by metric, kind of walk (:func:`walk_kind`: each has its kernels) and
#: whether the search is made by one thread (``True``: spaces under :data:`SERIAL_STATES`, their
#: push alone, or one core) or by all (its push and pull, run by threads, and the threads' sweep
#: and closing kernels); :func:`slidelab._jit.kernel_set` ``walk-stm-suffix``,
#: ``walk-mtm-repeated-threads``...
#: The threads' sets measured beside the one thread's of the same kind from empty caches
#: (2026-11-30: suffix 1.44 times the one thread's, MTM distinct 1.26, MTM repeated 1.14, the
#: others alike), scaled from the one thread's models.
COMPILE_SECONDS = {
    ("stm", "suffix", True): 8.5,
    ("stm", "distinct", True): 7.0,
    ("stm", "repeated", True): 7.0,
    ("mtm", "distinct", True): 8.0,
    ("mtm", "repeated", True): 7.0,
    ("stm", "suffix", False): 12.0,
    ("stm", "distinct", False): 7.5,
    ("stm", "repeated", False): 7.5,
    ("mtm", "distinct", False): 10.0,
    ("mtm", "repeated", False): 8.0,
}


def walk_kind(space: Space) -> str:
    """How a whole-space search walks ``space``'s states (its kernels differ): by suffix blocks
    (distinct tiles, STM, at least :data:`~.index.SUFFIX` of them), else state by state with
    ``distinct`` tiles or with ``repeated`` labels."""
    if space.distinct and space.reach == 1 and space.tiles >= SUFFIX:
        return "suffix"
    return "distinct" if space.distinct else "repeated"


def kernels(space: Space, serial: bool) -> tuple[str, float, str]:
    """The kernel set a whole-space search of ``space`` runs (its kind of walk's, by one thread,
    ``serial``, or by all), the seconds compiling it takes from nothing, and its name
    (:func:`slidelab._jit.kernel_set`'s arguments)."""
    metric, kind = space.metric, walk_kind(space)
    key = f"walk-{metric}-{kind}" + ("" if serial else "-threads")
    what = f"the breadth-first search of a whole space ({metric.upper()})"
    return key, COMPILE_SECONDS[(metric, kind, serial)], what


def serial_space(space: Space) -> bool:
    """Whether a whole-space search of ``space`` is made by one thread (by default)."""
    return space.states < SERIAL_STATES or _threads() == 1


def estimate(space, table: bool = False) -> Estimate:
    """Memory and time of a complete breadth-first search of ``space``.

    Parameters
    ----------
    space : Space, Board or str
        The space, or its goal (a board, its text, or a size ``"WxH"``).
    table : bool
        Whether a distance table is kept too (one byte per state while
        searching, then four bits, or two in MTM).
    """
    space = space_of(space)
    refuse_unnumbered(space)
    n = space.states
    size = n // 4 + 3 * (n >> 10) + 64
    if table:  # packed into four bits (STM) or two (MTM) once searched
        size = max(size + n, n + ((n + 3) // 4 if space.metric != "stm" else (n + 1) // 2))
    # ranking tables: one int64 per (count code, label) and per count code
    codes = 1
    for c in space.label_counts:
        codes *= c + 1
    size += codes * (len(space.label_counts) + 1) * 8
    threads = _threads()
    blocks = space.distinct and space.tiles >= SUFFIX and space.metric == "stm"
    ns = NS_PER_STATE_BLOCKS if blocks else NS_PER_STATE
    if space.metric == "mtm":
        ns = NS_PER_STATE_MTM
    ns += NS_PER_TABLE_STATE if table else 0.0
    return Estimate(n, size, n * ns * 1e-9 / threads, threads)


def count_text(space: Space) -> str:
    """The number of positions of ``space``: exact with separators, or ``about 2.8e35,659``
    when it has over 30 digits (without computing it).

    >>> count_text(space_of("4x4")), count_text(space_of("100x100"))
    ('10,461,394,944,000', 'about 1.4e35,659')
    """
    exponent = space.log10_states()
    if exponent < 30:
        return f"{space.states:,}"
    whole = math.floor(exponent)
    return f"about {10 ** (exponent - whole):.2g}e{whole:,}"


def _goal_text(space: Space, limit: int = 60) -> str:
    text = space.goal.format()
    return f"goal {text}" if len(text) <= limit else f"goal {text[: limit - 3]}..."


def refuse_unnumbered(space: Space) -> None:
    """Refuse a space of more than :data:`~.index.MAX_TILES` tiles: its positions cannot be
    numbered in 64 bits (and no machine could hold two bits for each of them)."""
    if space.tiles > MAX_TILES:
        raise SpaceTooLargeError(
            f"the {space.width}x{space.height} space of {_goal_text(space)} has"
            f" {count_text(space)} positions: {space.tiles:,} tiles are over the {MAX_TILES} that"
            f" can be numbered in 64 bits, and far beyond any memory; try a board of at most"
            f" {MAX_TILES + 1} cells"
        )


def check_limits(max_bytes, max_seconds) -> tuple[int | None, float | None]:
    """The ``max_bytes`` (a whole number > 0) and ``max_seconds`` (> 0, may be infinite) of a
    complete search, checked (None: the defaults)."""
    return (
        _args.integer(max_bytes, "max_bytes", positive=True, optional=True),
        _args.number(max_seconds, "max_seconds", positive=True, finite=False, optional=True),
    )


def check_budget(
    space: Space,
    table: bool = False,
    max_bytes: int | None = None,
    max_seconds: float | None = None,
) -> Estimate:
    """The estimate, or :class:`SpaceTooLargeError` (one line, with a suggestion) when it does not fit.

    Parameters
    ----------
    max_bytes : int, optional
        Default: :func:`slidelab.memory.default_max_bytes` (as for the storing searches).
    max_seconds : float, optional
        Default :data:`DEFAULT_MAX_SECONDS`; ``float("inf")`` for no limit.
    """
    from ..memory import default_max_bytes

    table = _args.boolean(table, "table")
    max_bytes, max_seconds = check_limits(max_bytes, max_seconds)
    refuse_unnumbered(space)
    e = estimate(space, table)
    limit = default_max_bytes() if max_bytes is None else max_bytes
    what = f"the {space.width}x{space.height} space of {_goal_text(space)} has {count_text(space)} positions"
    if e.bytes > limit:
        bits = "a byte and a half" if table else "two bits"
        advice = (
            "try a board of at most 14 cells, or a goal with repeated labels"
            if space.distinct
            else "try a smaller board or more repeated labels"
        )
        raise SpaceTooLargeError(
            f"{what}: {format_bytes(e.bytes)} at {bits} each, over the memory limit of "
            f"{format_bytes(limit)}{'' if max_bytes else ' (the default, from the memory available now)'}; "
            f"{advice}, or raise --max-memory if the machine has the room"
        )
    allowed = DEFAULT_MAX_SECONDS if max_seconds is None else float(max_seconds)
    if e.seconds > allowed:
        raise SpaceTooLargeError(
            f"{what}: a complete search would take about {format_duration(e.seconds)} here "
            f"(estimate, {e.threads} thread{'s' if e.threads != 1 else ''}), over the "
            f"{format_duration(allowed)} limit; pass --max-time {int(e.seconds * 1.5) + 1} "
            f"(max_seconds=) to run it anyway"
        )
    return e
