"""A family of tables, and one set of its tables: what it would cost, whether it is ready,
building it (announced, on a clock), loading it, saying what it is and how to build it ahead.

Every table slidelab builds by breadth-first search belongs to a *family*
(:data:`slidelab.tables.registry.FAMILIES`): the goal's distance table, pattern databases,
abstraction tables.  A :class:`Tables` value names one set of a family's tables for one goal
and metric (``which``: a partition, the relabelled goals; None: the board's default), and is
how every caller asks about tables: ``auto``'s ladder (:mod:`slidelab.search.policy`), the
heuristics that look them up, ``slidelab tables build``, the web server's warm-up.

A family says only what is particular to it: the *parts* of a set (:class:`Part`: one file of
the cache each, with its size, the memory its build holds, the model's seconds for its build
and the kernels that build needs), the sets ``auto`` may climb (:meth:`Family.sets`), and its
words (:meth:`Family.describe`, :meth:`Family.command`).  What follows from the parts is said
once, here: a set is ready when every part's file is in the cache; its cost
(:class:`Cost`) is its missing parts' model seconds, scaled by this machine's past builds and
its load (:mod:`.calibration`), plus the kernels' compiling where they are not compiled yet
(:func:`slidelab._jit.kernels_compiled`); building announces what, how big, about how long,
then builds the missing parts one at a time, checking the clock between them.

Examples
--------
>>> from slidelab.board import Board
>>> t = Tables("pdb", Board("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "stm", "7-8")
>>> t.describe()
'the 7-8 pattern databases of the 4x4 goal'
>>> t.command()
'slidelab tables build 4x4 --partition 7-8'
>>> t.cost().disk_bytes
1153540960
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..board import Board
from ..errors import SearchLimitError
from ..puzzle import Puzzle
from ..solution import Stats
from ..units import format_bytes, format_duration

log = logging.getLogger("slidelab.tables")

#: ``progress(fraction, message)`` while a build runs
Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class Cost:
    """What making a set of tables ready costs here, told before anything starts.

    Attributes
    ----------
    build_seconds : float
        Building its missing tables on this machine, now (0 when all are cached): the
        model's seconds scaled by this machine's past builds and its present load.
    compile_seconds : float
        Compiling the kernels that build needs, where they are not compiled yet (once per
        install).
    peak_bytes : int
        Memory the build holds at its peak (0 when nothing is built).
    disk_bytes : int
        Bytes of all its tables, on disk and loaded.
    missing : int
        Tables to build, of :attr:`tables`.
    tables : int
        Tables in the set.
    """

    build_seconds: float
    compile_seconds: float
    peak_bytes: int
    disk_bytes: int
    missing: int
    tables: int

    @property
    def seconds(self) -> float:
        """Everything a person would wait for: building and compiling."""
        return self.build_seconds + self.compile_seconds

    def time_text(self, doing: str = "") -> str:
        """``about 2 min``, and ``, plus about 20 s compiling its kernels the first time`` where
        they are not compiled; ``doing`` goes after the build's time (``about 2 min to build
        once, plus ...``)."""
        text = f"about {format_duration(self.build_seconds)}{doing}"
        if self.compile_seconds >= 0.5:
            text += (
                f", plus about {format_duration(self.compile_seconds)} compiling its kernels"
                " the first time"
            )
        return text


@dataclass(eq=False)
class Part:
    """One table of a set: one file of the cache.

    Attributes
    ----------
    spec : dict
        The cache spec of its file (:func:`slidelab.cache.load_or_build`).
    what : str
        What it is, for messages (``the 8 tiles 8 9 ... 15``).
    disk_bytes : int
        Bytes of the table.
    peak_bytes : int
        Memory its build holds at the peak.
    model_seconds : float
        Seconds its build takes by the family's model, with this machine's cores, unloaded
        (:mod:`slidelab.calibration` scales it by this machine's past builds and its load).
    kernels : str
        The set of kernels its build runs (a key of :func:`slidelab._jit.kernels_compiled`);
        also the kind of build its time is calibrated as.
    compile_seconds : float
        Seconds compiling those kernels takes from nothing, on the development machine.
    build : callable
        ``build(progress) -> numpy.ndarray``: the table.
    """

    spec: dict
    what: str
    disk_bytes: int
    peak_bytes: int
    model_seconds: float
    kernels: str
    compile_seconds: float
    build: Callable[[Progress], np.ndarray]
    threads: int = 0  # the build's threads: 0, all the usable cores


@dataclass(frozen=True)
class Tables:
    """One set of a family's tables for one goal in one metric.

    Attributes
    ----------
    family : str
        A name of :data:`slidelab.tables.registry.FAMILIES`: ``distance``, ``pdb`` or
        ``abstraction``.
    goal : Board
    metric : str
        ``stm`` or ``mtm``: the distances' metric (pattern databases count single-tile moves
        whatever the search's metric).
    which : object
        The family's choice of tables, hashable: a partition's name or groups (pattern
        databases), the relabelled goals as text (abstraction); None: the board's default.
    """

    family: str
    goal: Board
    metric: str = "stm"
    which: Any = None

    def __repr__(self) -> str:
        which = "" if self.which is None else f", {self.which!r}"
        return f"Tables({self.family!r}, Board({self.goal.format()!r}), {self.metric!r}{which})"

    @property
    def kind(self) -> Family:
        """The family (its registry entry, loaded)."""
        from .registry import family

        return family(self.family)

    @property
    def puzzle(self) -> Puzzle:
        """The goal as a puzzle (its labels, cells and neighbours)."""
        return Puzzle(self.goal, self.goal)

    def parts(self) -> list[Part]:
        """Its tables, one :class:`Part` each."""
        return self.kind.parts(self)

    def ready(self) -> bool:
        """Whether every one of its tables is in the cache (not checked beyond being there: a
        bad file is built again when loaded)."""
        return all(_cached(spec) for spec in self.kind.specs(self))

    def cost(self) -> Cost:
        """What making it ready costs here, now (see :class:`Cost`)."""
        return cost_of(self.parts())

    def building(self) -> bool:
        """Whether another process is building one of its missing tables now (it holds the
        table's lock, :mod:`slidelab.cache.locks`): not ready, and not this process's to wait
        for on an answer's clock (:func:`build_parts`)."""
        return any(_building(spec) for spec in self.kind.specs(self) if not _cached(spec))

    def build(self, progress: Progress | None = None, clock=None) -> None:
        """Build its missing tables, announced first (what, how big, about how long, once);
        with a ``clock``, a build that would not be done in the time left is not started, and
        one that runs past it stops (:class:`SearchLimitError`, its remedy these tables).
        Nothing to do (nothing worked out) when it is ready."""
        if not self.ready():
            build_parts(self, self.parts(), progress, clock)

    def load(self, progress: Progress | None = None) -> list[np.ndarray]:
        """Its tables as arrays (read-only, memory-mapped from the cache), built first
        where missing (announced)."""
        parts = self.parts()
        build_parts(self, parts, progress)
        return [_load(part) for part in parts]

    def files(self) -> list:
        """The cache files of its tables."""
        from ..cache import table_path

        return [table_path(part.spec) for part in self.parts()]

    def describe(self) -> str:
        """What they are, for messages: ``the 7-8 pattern databases of the 4x4 goal``."""
        return self.kind.describe(self)

    def command(self) -> str:
        """The command that builds them ahead of time: ``slidelab tables build 4x4 ...``."""
        return self.kind.command(self)

    def advice(self, said: str = "") -> str:
        """What they would do and how to build them, for a message: ``the 7-8 pattern
        databases of the 4x4 goal would help (1.15 GB, about 1 min to build once): slidelab
        tables build 4x4 --partition 7-8``; only ``build them once with: ...`` after a message
        (``said``) that names them already."""
        if self.describe() in said:
            return f"build them once with: {self.command()}"
        cost = self.cost()
        return (
            f"{self.describe()} would help ({format_bytes(cost.disk_bytes)},"
            f" {cost.time_text(' to build once')}): {self.command()}"
        )

    def options(self) -> dict:
        """The heuristic's options that look these tables up (``{"partition": "7-8"}``)."""
        option = self.kind.option
        return {} if option is None or self.which is None else {option: self.which}


class Family:
    """What a family of tables says of itself; the rest is derived (see the module).

    Attributes
    ----------
    name : str
        Its name (``pdb``).
    option : str or None
        The heuristic option that chooses a set (``partition``, ``classes``).
    metric_bound : bool
        Its tables count moves of one metric (a distance table, an abstraction's); False where
        they serve both (pattern databases count single-tile moves, divided in MTM).
    """

    name: str = ""
    option: str | None = None
    metric_bound: bool = True
    #: the metric its tables are built in where none is said (``slidelab tables build``)
    default_metric: str = "stm"

    def parts(self, tables: Tables) -> list[Part]:
        """The set's tables, one :class:`Part` each."""
        raise NotImplementedError

    def specs(self, tables: Tables) -> Iterable[dict]:
        """The cache specs of the set's tables (what finding them takes, no more)."""
        return [part.spec for part in self.parts(tables)]

    def sets(self, goal: Board, metric: str) -> tuple:
        """The sets ``auto`` may climb on this goal in this metric, weakest first, each one
        buildable here (their ``which``); empty where ``auto`` uses none of this family."""
        return ()

    def stronger(self, tables: Tables):
        """The ``which`` of the strongest set above ``tables`` that a search asked for with
        ``tables`` could be told about (``7-8`` above the 15-puzzle's ``6-6-3``), or None."""
        return None

    def describe(self, tables: Tables) -> str:
        raise NotImplementedError

    def command(self, tables: Tables) -> str:
        raise NotImplementedError


# ---------------------------------------------------------------------------- derived


def _cached(spec: dict) -> bool:
    """Whether the table of ``spec`` is in the cache."""
    from ..cache import CacheError, table_path

    try:
        return table_path(spec).is_file()
    except CacheError:
        return False


def _building(spec: dict) -> bool:
    """Whether another process holds the lock of the table of ``spec`` (building it)."""
    from ..cache import CacheError, table_path
    from ..cache.locks import unless_busy

    try:
        path = table_path(spec)
        with unless_busy(path.parent / (path.stem + ".lock")) as idle:
            return not idle
    except (CacheError, OSError):
        return False


def cost_of(parts: list[Part]) -> Cost:
    """The :class:`Cost` of making ``parts`` ready: their missing tables' calibrated seconds
    (:mod:`.calibration`), the compiling of kernels not compiled yet (each set once)."""
    from .._jit import compile_estimate
    from ..calibration import scaled

    missing = [part for part in parts if not _cached(part.spec)]
    build = sum(scaled(part.kernels, part.model_seconds, part.threads) for part in missing)
    kernels = {part.kernels: part.compile_seconds for part in missing}
    compiling = sum(compile_estimate(key, seconds) for key, seconds in kernels.items())
    return Cost(
        build,
        compiling,
        max((part.peak_bytes for part in missing), default=0),
        sum(part.disk_bytes for part in parts),
        len(missing),
        len(parts),
    )


def goal_words(goal: Board) -> str:
    """A goal for messages: its size where it is an ordered goal (``the 4x4 goal``, ``the 4x4
    goal with the blank first``), else the board's text, whole rows only past 40 characters."""
    w, h = goal.width, goal.height
    if goal == Board.solved(w, h):
        return f"the {w}x{h} goal"
    if goal == Board.solved(w, h, True):
        return f"the {w}x{h} goal with the blank first"
    rows = goal.format().split("/")
    text = rows[0]
    for row in rows[1:]:
        if len(text) + len(row) + 1 > 40:
            return f"the {w}x{h} goal {text}/..."
        text += "/" + row
    return f"the {w}x{h} goal {text}"


def goal_argument(goal: Board) -> str:
    """The goal as the command line takes it: ``4x4``, ``4x4 --blank-first`` or the board in
    quotes."""
    w, h = goal.width, goal.height
    if goal == Board.solved(w, h):
        return f"{w}x{h}"
    if goal == Board.solved(w, h, True):
        return f"{w}x{h} --blank-first"
    return f'"{goal.format()}"'


def announce(tables: Tables, cost: Cost) -> None:
    """Say (INFO, on the ``slidelab`` log the command line shows) what is about to be built,
    before it is: which tables, how many, how big, about how long, and that it is done once; or,
    where another process is building them already, that they are waited for (two boards of
    one goal solved side by side announced one build twice)."""
    from ..cache import cache_dir

    if tables.building():  # another process's build (a stream's other worker): waited for
        log.info(
            "waiting for %s, which another process is building (%s in all); then loaded",
            tables.describe(),
            cost.time_text(),
        )
        return
    count = f"{cost.missing} table{'s' if cost.missing != 1 else ''}"
    if cost.missing < cost.tables:
        count += f" of {cost.tables}"
    log.info(
        "building %s: %s, %s, %s; once: cached in %s for later use",
        tables.describe(),
        count,
        format_bytes(cost.disk_bytes),
        cost.time_text(),
        cache_dir(),
    )


def build_parts(
    tables: Tables, parts: list[Part], progress: Progress | None = None, clock=None
) -> None:
    """Build the missing ``parts`` of ``tables`` (see :meth:`Tables.build`)."""
    from .._clock import compile_seconds
    from ..calibration import load_factor, record

    missing = [part for part in parts if not _cached(part.spec)]
    if not missing:
        return
    cost = cost_of(parts)
    refuse_past(tables, cost, missing, clock)
    announce(tables, cost)
    for i, part in enumerate(missing):
        report = _on_clock(tables, progress, clock, i, len(missing))
        load = load_factor(part.threads)
        began, compiling = time.perf_counter(), compile_seconds()
        _load(part, report)
        seconds = time.perf_counter() - began - (compile_seconds() - compiling)
        record(part.kernels, part.model_seconds, load, seconds)


def refuse_past(tables: Tables, cost: Cost, missing: list[Part], clock) -> None:
    """Refuse, before it starts, a build of ``missing`` parts that another process has in hand
    or that would outlast ``clock`` (None: no limit): a :class:`SearchLimitError` naming them."""
    left = None if clock is None else clock.left()
    if left is not None and any(_building(part.spec) for part in missing):
        raise SearchLimitError(
            f"limit reached: {tables.describe()} are being built by another process, not ready"
            f" yet (an answer with a time limit does not wait for a build it did not start)",
            Stats(),
            remedy=tables,
        )
    if left is not None and cost.build_seconds > max(left, 0.0):
        raise SearchLimitError(
            f"limit reached: {tables.describe()} ({format_bytes(cost.disk_bytes)}) take about"
            f" {format_duration(cost.build_seconds)} to build, more than the"
            f" {format_duration(max(left, 0.0))} left of the {clock.limit:g} s time limit",
            Stats(),
            remedy=tables,
        )


def _on_clock(tables: Tables, progress, clock, i: int, count: int):
    """``progress`` for the ``i``-th of ``count`` tables of ``tables``, which also stops a
    build past the clock's limit."""

    def report(fraction: float, message: str) -> None:
        if clock is not None and clock.over():
            raise SearchLimitError(
                f"limit reached: stopped building tables at the {clock.limit:g} s time limit"
                f" ({message})",
                Stats(),
                remedy=tables,
            )
        if progress is not None:
            labelled = ": " in message and count == 1  # "distance table: depth 3, ..."
            progress(fraction, message if labelled else f"table {i + 1}/{count}: {message}")

    return report


def _load(part: Part, progress: Progress | None = None) -> np.ndarray:
    """The part's table, from the cache, or built and cached (unsaved where the cache cannot be
    written)."""
    from ..cache import CacheError, load_or_build

    try:
        return load_or_build(part.spec, part.build, progress)
    except CacheError as exc:
        log.warning("%s not cached (%s)", part.what, exc)
        return part.build(progress or (lambda fraction, message: None))


__all__ = [
    "Cost",
    "Family",
    "Part",
    "Progress",
    "Tables",
    "announce",
    "build_parts",
    "cost_of",
    "goal_argument",
    "goal_words",
]
