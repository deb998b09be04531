"""What :func:`~slidelab.search.solve.solve` runs on one board, and the tables it needs, made
ready on the answer's clock.

:func:`choose_method` resolves ``auto`` per board; :func:`make_plan` resolves the
rest of the options (heuristic, weight); :func:`prepare_tables` builds or loads
what the method needs (pattern databases, the goal's distance table) as part of
the answer: a build that would outlast the time left is not started (the error
says how to build it once, ahead of time), and one that runs past the time
limit stops.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import NamedTuple

from .._clock import Clock
from ..errors import SearchLimitError
from ..puzzle import Puzzle
from ..solution import Stats
from ..units import format_bytes, format_duration
from .limits import Limits
from .options import SearchOptions
from .registry import METHODS, Method

log = logging.getLogger(__name__)

#: weight of ``weighted-astar`` when none is given
DEFAULT_WEIGHT = 1.5

#: boards with at most this many positions are solved from the goal's distance table, built and
#: cached on first need (the 8-puzzle's in 20 ms, after some seconds of compiling on a fresh
#: install); reading a solution off it is a look-up a move and needs no compiled code
AUTO_BUILD_TABLE_STATES = 1 << 21

#: larger boards with at most this many arrangements are solved by table-based bidirectional BFS
AUTO_TABLE_STATES = 50_000_000

#: boards with at most this many cells are solved optimally by ``auto`` (IDA*, pattern databases
#: when the search needs them); larger ones optimally within a budget, then bounded-suboptimal
AUTO_OPTIMAL_CELLS = 16

#: the heuristic ``auto`` and ``solve_all`` use for IDA* in each metric where no other is asked
#: for (on boards without named pattern databases, or with repeated labels: ``manhattan``); in
#: MTM the abstraction table where the board has a named relabelling (:func:`auto_heuristic`)
AUTO_HEURISTIC = {"stm": "pdb", "mtm": "pdb"}


def auto_heuristic(puzzle: Puzzle, metric: str) -> str:
    """The heuristic ``auto`` and ``solve_all`` search ``puzzle`` with in ``metric``: in MTM,
    ``abstraction`` where the board has a named relabelling (the 15-puzzle with its blank in a
    corner: Rokicki's), else :data:`AUTO_HEURISTIC`'s.

    >>> auto_heuristic(Puzzle("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "mtm")
    'abstraction'
    """
    from ..heuristics.abstraction import named_relabellings

    if metric == "mtm" and named_relabellings(puzzle) is not None:
        return "abstraction"
    return AUTO_HEURISTIC[metric]


def choose_method(puzzle: Puzzle, metric: str = "stm") -> tuple[str, str]:
    """``(method, heuristic)`` that ``auto`` uses for this puzzle (in ``metric``).

    The goal's distance table when one is cached (``slidelab analyze GOAL
    --save``; see :func:`slidelab.tables.distance.table_ready`) or the space has
    at most :data:`AUTO_BUILD_TABLE_STATES` positions (then it is built); a
    flat-table bidirectional BFS when the whole space is small; otherwise IDA*,
    cheapest first (:func:`slidelab.search.auto.solve_auto`): with the pattern
    databases at hand, else with linear conflict for a budget, building tables
    only when the search is predicted to take longer than the build, and on
    boards past :data:`AUTO_OPTIMAL_CELLS` a bounded-suboptimal answer when no
    optimum is proven within the budget.

    Examples
    --------
    >>> choose_method(Puzzle("8 6 7/2 5 4/3 0 1"))
    ('table', 'manhattan')
    >>> choose_method(Puzzle("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))
    ('idastar', 'pdb')
    """
    from ..tables.distance import table_ready
    from ..tables.index import Space

    if Space(puzzle.goal).states <= AUTO_BUILD_TABLE_STATES or table_ready(puzzle, metric):
        return "table", "manhattan"
    if puzzle.n_arrangements <= AUTO_TABLE_STATES:
        return "bidirectional", "manhattan"
    return "idastar", auto_heuristic(puzzle, metric)


def small(puzzle: Puzzle) -> bool:
    """At most :data:`AUTO_OPTIMAL_CELLS` cells: ``auto`` searches it optimally, unbudgeted."""
    return puzzle.width * puzzle.height <= AUTO_OPTIMAL_CELLS


class Plan(NamedTuple):
    """What :func:`solve` runs on one board: the method (``auto`` resolved), heuristic, weight
    and metric; once made ready (:func:`~.solve.prepare_request`), the method's tables too."""

    method: Method
    heuristic: str
    weight: float
    metric: str = "stm"
    #: the keyword arguments :func:`prepare_tables` made (None: not made yet)
    tables: dict | None = None
    #: what every progress report of the search carries (``Limits.context``), found with them
    context: dict | None = None

    def keywords(self, split=None) -> dict:
        """The weight, for the methods that take one (as their registry entry declares:
        :attr:`~.registry.Method.options`), the metric (every method function takes it:
        :attr:`~.registry.Method.metrics`), and ``split``, the runner of IDA*'s iterations on a
        Dask cluster, where given (:attr:`~.registry.Method.cluster`)."""
        weight = "weight" in self.method.options
        keywords = {"metric": self.metric, **({"weight": self.weight} if weight else {})}
        if split is not None and self.method.cluster:
            keywords["split"] = split
        return keywords


def make_plan(puzzle: Puzzle, options: SearchOptions) -> Plan:
    """The concrete method, heuristic and weight :func:`solve` uses on ``puzzle`` (whose
    partition is checked to fit already: :func:`~.request.check_request`)."""
    name, heuristic = options.method, options.heuristic
    weight = options.weight
    if weight is None:
        weight = DEFAULT_WEIGHT if name == "weighted-astar" else 1.0
    if name == "auto":
        name, auto_heuristic = choose_method(puzzle, options.metric)
        if heuristic is None:
            heuristic = auto_heuristic
        if weight != 1:
            name = "weighted-astar"  # with polishing: closest to optimal of the fast methods
    if heuristic is None:
        heuristic = "manhattan"
    if name == "astar" and weight != 1:
        name = "weighted-astar"
    return Plan(METHODS[name], heuristic, weight, options.metric)


def limits_of(options: SearchOptions, progress, clock: Clock, patience=None) -> Limits:
    """The limits of one search of an answer: the options' memory limits, the answer's clock."""
    return Limits(
        None, options.max_states, options.max_bytes, progress, clock=clock, patience=patience
    )


def prepare_tables(
    plan: Plan, puzzle: Puzzle, options: SearchOptions, limits: Limits, table_progress
) -> dict:
    """What the method needs built before it runs (its entry's ``tables``): the heuristic or the
    goal's distance table, as keyword arguments of its function; built on the answer's clock."""
    if plan.method.tables == "heuristic":
        return {
            "heuristic": search_heuristic(
                puzzle, plan.heuristic, options.partition, limits, table_progress, plan.metric
            )
        }
    if plan.method.tables == "distance":
        from ..tables.distance import goal_table

        check_table_time(puzzle, plan.metric, limits)
        table = goal_table(puzzle.goal, on_clock(table_progress, limits), plan.metric)
        limits.restart()  # building a table is not search time (it is answer time)
        return {"table": table}
    return {}


def search_heuristic(
    puzzle, heuristic, partition, limits: Limits, table_progress, metric: str = "stm", classes=None
):
    """The heuristic (admissible in ``metric`` if it is in STM), its tables (``partition`` of
    pattern databases, ``classes`` of abstraction tables) built or loaded before the search
    starts, on the answer's clock; with pattern databases, the progress reports name stronger
    ones where they exist."""
    from ..heuristics import make_heuristic
    from ..heuristics.pdb import stronger_partition

    hint = ""
    if heuristic == "pdb":
        check_build_time(puzzle, partition, limits)
        limits.context["stronger_partition"] = stronger_partition(puzzle, partition)
        hint = f"; build them once with: {build_hint(puzzle, partition)}"
    heur = make_heuristic(
        puzzle,
        heuristic,
        partition=partition,
        classes=classes,
        progress=on_clock(table_progress, limits, hint),
        metric=metric,
    )
    limits.restart()  # building tables is not search time (it is answer time)
    return heur


def build_hint(puzzle: Puzzle, partition) -> str:
    """The command that builds a partition's tables once, ahead of time."""
    from ..board import Board

    w, h = puzzle.width, puzzle.height
    if puzzle.goal == Board.solved(w, h):
        goal = f"{w}x{h}"
    elif puzzle.goal == Board.solved(w, h, True):
        goal = f"{w}x{h} --blank-first"
    else:
        goal = f'"{puzzle.goal.format()}"'
    name = partition if isinstance(partition, str) else None
    return f"slidelab tables build {goal}" + (f" --partition {name}" if name else "")


def check_build_time(puzzle: Puzzle, partition, limits: Limits) -> None:
    """Refuse up front to build pattern databases that would not be done in the time left."""
    left = limits.left()
    if left is None:
        return
    from ..heuristics.pdb import build_estimate

    seconds, size = build_estimate(puzzle, partition)
    if seconds > max(left, 0.0):
        raise SearchLimitError(
            f"limit reached: the pattern databases ({format_bytes(size)}) take about"
            f" {format_duration(seconds)} to build, more than the"
            f" {format_duration(max(left, 0.0))} left of the {limits.time_limit:g} s time"
            f" limit; build them once with: {build_hint(puzzle, partition)}",
            Stats(),
        )


def check_table_time(puzzle: Puzzle, metric: str, limits: Limits) -> None:
    """Refuse up front to build the goal's distance table when it would not be done in the
    time left."""
    left = limits.left()
    if left is None:
        return
    from ..tables.budget import estimate
    from ..tables.distance import table_ready
    from ..tables.index import Space

    if table_ready(puzzle, metric):
        return
    space = Space(puzzle.goal, metric)
    seconds = estimate(space, table=True).seconds
    if seconds > max(left, 0.0):
        goal = puzzle.goal.format()
        raise SearchLimitError(
            f"limit reached: the goal's distance table ({space.states:,} positions) takes"
            f" about {format_duration(seconds)} to build, more than the"
            f" {format_duration(max(left, 0.0))} left of the {limits.time_limit:g} s time"
            f' limit; build it once with: slidelab analyze "{goal}" --save',
            Stats(),
        )


def on_clock(table_progress: Callable | None, limits: Limits, hint: str = "") -> Callable | None:
    """``table_progress`` that also stops a build past the answer's time limit (the error ends
    with ``hint``: how to build the tables ahead)."""
    if limits.left() is None:
        return table_progress

    def report(fraction: float, message: str) -> None:
        if limits.clock is not None and limits.clock.over():
            raise SearchLimitError(
                f"limit reached: stopped building tables at the {limits.time_limit:g} s time"
                f" limit ({message}){hint}",
                Stats(),
            )
        if table_progress is not None:
            table_progress(fraction, message)

    return report


__all__ = [
    "AUTO_BUILD_TABLE_STATES",
    "AUTO_HEURISTIC",
    "auto_heuristic",
    "AUTO_OPTIMAL_CELLS",
    "AUTO_TABLE_STATES",
    "DEFAULT_WEIGHT",
    "Plan",
    "build_hint",
    "check_build_time",
    "check_table_time",
    "choose_method",
    "limits_of",
    "make_plan",
    "on_clock",
    "prepare_tables",
    "search_heuristic",
    "small",
]
