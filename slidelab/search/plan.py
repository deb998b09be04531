"""What :func:`~slidelab.search.solve.solve` runs on one board, and the tables it needs, made
ready on the answer's clock.

:func:`make_plan` resolves the options for a board (``auto``'s method and heuristic by the
policy, :func:`slidelab.search.policy.choose_method`; the weight); :func:`prepare_tables`
builds or loads what the method needs (its heuristic's tables, the goal's distance table) as
part of the answer, through the tables' layer (:meth:`slidelab.tables.family.Tables.build`):
a build that would outlast the time left is not started (the error names the tables and how to
build them ahead of time), and one that runs past the time limit stops.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

from .._clock import Clock
from ..puzzle import Puzzle
from ..tables.family import Tables
from .limits import Limits
from .options import SearchOptions
from .policy import choose_method, tables_for
from .registry import METHODS, Method

log = logging.getLogger(__name__)

#: weight of ``weighted-astar`` when none is given
DEFAULT_WEIGHT = 1.5


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


def limits_of(
    options: SearchOptions, progress, clock: Clock, patience=None, record: int = 0
) -> Limits:
    """The limits of one search of an answer: the options' memory limits, the answer's clock
    (``record``: :attr:`~.limits.Limits.record`)."""
    return Limits(
        None, options.max_states, options.max_bytes, progress, clock=clock, patience=patience,
        record=record,
    )  # fmt: skip


def prepare_tables(
    plan: Plan, puzzle: Puzzle, options: SearchOptions, limits: Limits, table_progress
) -> dict:
    """What the method needs built before it runs (its entry's ``tables``): the heuristic or the
    goal's distance table, as keyword arguments of its function; built on the answer's clock."""
    if plan.method.tables == "heuristic":
        given = {} if options.partition is None else {"partition": options.partition}
        heur = search_heuristic(puzzle, plan.heuristic, limits, table_progress, plan.metric, given)
        return {"heuristic": heur}
    if plan.method.tables == "distance":
        from ..tables.budget import check_budget
        from ..tables.distance import DistanceTable
        from ..tables.index import Space

        space = Space(puzzle.goal, plan.metric)
        check_budget(space, table=True)
        Tables("distance", puzzle.goal, plan.metric).build(table_progress, _clock_of(limits))
        table = DistanceTable.of(space)
        limits.restart()  # building a table is not search time (it is answer time)
        return {"table": table}
    return {}


def search_heuristic(
    puzzle: Puzzle,
    heuristic: str,
    limits: Limits,
    table_progress,
    metric: str = "stm",
    options: dict | None = None,
):
    """The heuristic (admissible in ``metric`` if it is in STM) with its ``options`` (a
    partition, classes), its tables built (announced) or loaded before the search starts, on
    the answer's clock; where stronger tables of its family exist, the progress reports name
    them (``stronger_partition``)."""
    from ..heuristics import make_heuristic

    options = options or {}
    tables = tables_for(puzzle, heuristic, metric, options)
    if tables is not None:
        tables.build(table_progress, _clock_of(limits))
        limits.context["stronger_partition"] = tables.kind.stronger(tables)
    heur = make_heuristic(puzzle, heuristic, progress=table_progress, metric=metric, **options)
    limits.restart()  # building tables is not search time (it is answer time)
    return heur


def _clock_of(limits: Limits):
    """The answer's clock where it has a limit (a build checks it), else None."""
    return limits.clock if limits.left() is not None else None


__all__ = [
    "DEFAULT_WEIGHT",
    "Plan",
    "limits_of",
    "make_plan",
    "prepare_tables",
    "search_heuristic",
]
