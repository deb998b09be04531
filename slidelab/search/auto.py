"""``auto`` where it searches: the cheapest sufficient work first, on the answer's one clock.

On a board too large for a distance table or a flat bidirectional search
(:func:`~slidelab.search.plan.choose_method` says IDA*), ``auto``:

1. searches with the tables at hand (loaded, or cached on disk): the strongest
   rung of the board's ladder (:class:`Rung`) that is ready (the 15-puzzle's
   pattern databases 6-6-3, 7-7-1, 7-8; in MTM its abstraction tables, one, then
   two, then two stronger), and gives up on it for the next rung when the search is predicted to
   take longer than that rung's build;
2. with none at hand, first searches with what needs no table (IDA* with linear
   conflict; walking distance in MTM where it fits) for a budget scaled to the
   build it would otherwise start (:data:`PROBE_SHARE` of it, between
   :data:`PROBE_MIN` and :data:`PROBE_MAX` seconds), given up early when its
   next iteration is predicted to pass that: a position a few dozen moves from
   its goal is solved at once on any board, with no table built;
3. then builds the first rung's tables (announced before: what, how big, about
   how long, once) if the build fits in the time left, and goes on as in 1;
   if it does not fit, the answer says how to build them ahead of time;
4. on boards past :data:`~slidelab.search.plan.AUTO_OPTIMAL_CELLS` cells, searches
   optimally for a budget (:data:`AUTO_SEARCH_SECONDS`, or half the time left of a
   time limit), then settles for a bounded-suboptimal answer (weighted A* with the
   tables, at most :data:`AUTO_FALLBACK_WEIGHT` times optimal; then the
   constructive method), labelled as not optimal and said on the log.

A time limit bounds all of it: every step reads the answer's clock
(:class:`slidelab._clock.Clock`).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

from ..errors import SearchInterrupted, SearchLimitError, SearchTooLong, SlidelabError
from ..puzzle import Puzzle
from ..solution import Solution
from ..units import format_bytes, format_duration
from .limits import Limits
from .options import SearchOptions
from .plan import Plan, build_hint, limits_of, search_heuristic, small

log = logging.getLogger(__name__)

#: the cheap search's budget: this share of the seconds the build it saves would take ...
PROBE_SHARE = 0.25
#: ... but at least this many seconds ...
PROBE_MIN = 0.5
#: ... and at most this many
PROBE_MAX = 10.0
#: seconds of optimal search on boards with no tables to build (past the 24-puzzle), before the
#: constructive answer
PROBE_NO_TABLES = 5.0
#: a board whose cheap estimate is more moves than this is not searched without tables (IDA*
#: with linear conflict does not finish there: a random 5x5 starts at 70-100, a 20x20 at 5,000)
PROBE_MAX_ESTIMATE = 80

#: seconds of optimal search ``auto`` gives a board past the 15-puzzle (with the 24-puzzle's
#: 6-6-6-6 tables, or none) before it settles for a bounded-suboptimal answer
AUTO_SEARCH_SECONDS = 60.0

#: with a time limit, the share of the time left that such a board's optimal search may take
OPTIMAL_SHARE = 0.5

#: the weight of that bounded-suboptimal answer: at most this many times the optimal length
AUTO_FALLBACK_WEIGHT = 1.5


def cheap_heuristic(puzzle: Puzzle, metric: str) -> str:
    """The strongest heuristic that needs no table built ahead: walking distance in MTM where
    it fits the board (up to 4x4), linear conflict otherwise."""
    if metric == "mtm" and puzzle.width <= 4 and puzzle.height <= 4:
        return "walking-distance"
    return "linear-conflict"


@dataclass(frozen=True)
class Rung:
    """One set of tables ``auto`` may search with: the heuristic (``pdb`` or ``abstraction``) and
    which of its tables (a partition, or the abstraction's classes; None: the board's
    default)."""

    heuristic: str
    tables: object = None

    def ready(self, puzzle: Puzzle, metric: str) -> bool:
        """Whether its tables are loaded or cached."""
        if self.heuristic == "abstraction":
            from ..heuristics.abstraction import is_ready

            return is_ready(puzzle, metric, self.tables)
        from ..heuristics.pdb import is_ready

        return is_ready(puzzle, self.tables)

    def build_seconds(self, puzzle: Puzzle, metric: str) -> float:
        """About how long building its missing tables takes here."""
        if self.heuristic == "abstraction":
            from ..heuristics.abstraction import build_seconds

            return build_seconds(puzzle, metric, self.tables)
        from ..heuristics.pdb import build_estimate

        return build_estimate(puzzle, self.tables)[0]

    def name(self, puzzle: Puzzle) -> str:
        """What they are, for the log: ``the 7-8 pattern databases``, ``2 abstraction tables``."""
        if self.heuristic == "abstraction":
            from ..heuristics.abstraction import table_bytes

            count, size = table_bytes(puzzle, self.tables)
            tables = "the abstraction table" if count == 1 else f"the {count} abstraction tables"
            return f"{tables} ({format_bytes(size)})"
        return f"the {_name(puzzle, self.tables)} pattern databases"

    def hint(self, puzzle: Puzzle, metric: str, seconds: float) -> str:
        """What would help a search that could not build them in time."""
        if self.heuristic == "abstraction":
            from ..heuristics.abstraction import abstraction_goals

            how = f"slidelab tables build {puzzle.size} --heuristic abstraction --metric {metric}"
            if self.tables is not None:
                how += "".join(
                    f" --classes '{goal.format()}'"
                    for goal in abstraction_goals(puzzle, self.tables)
                )
        else:
            how = build_hint(puzzle, self.tables)
        about = format_duration(seconds)
        return f"; {self.name(puzzle)} would help (about {about} to build, once): {how}"

    def heuristic_of(self, puzzle: Puzzle, limits, table_progress, metric: str):
        """The heuristic, its tables built or loaded on the answer's clock."""
        if self.heuristic == "abstraction":
            return search_heuristic(
                puzzle, "abstraction", None, limits, table_progress, metric, self.tables
            )
        return search_heuristic(puzzle, "pdb", self.tables, limits, table_progress, metric)


def ladder(puzzle: Puzzle, options: SearchOptions, heuristic: str = "pdb") -> list[Rung]:
    """The rungs ``auto`` may search with on this board, weakest first, each buildable here.

    Pattern databases: the board's named ladder in STM (its first rung in MTM), or the
    automatic partition on boards up to :data:`AUTO_OPTIMAL_CELLS`; empty past them without
    named tables (the 24-puzzle with its blank in a corner has them); the partition asked for,
    alone.  Abstraction tables: :func:`slidelab.heuristics.abstraction.ladder` (the 15-puzzle's
    first table, then two, then two stronger); the board's default set alone where the heuristic
    was asked for."""
    if heuristic == "abstraction":
        from ..heuristics.abstraction import ladder as classes

        if options.heuristic is not None:
            return [Rung("abstraction")]
        return [Rung("abstraction", c) for c in classes(puzzle, options.metric)]
    if options.partition is not None:
        return [Rung("pdb", options.partition)]
    return [Rung("pdb", name) for name in _ladder(puzzle.goal, options.metric, small(puzzle))]


@functools.lru_cache(maxsize=64)
def _ladder(goal, metric: str, few_cells: bool) -> tuple:
    """:func:`ladder` of a goal with no partition asked for: the same for every board of a
    stream, so worked out once (checking each rung's size takes a few milliseconds)."""
    from ..heuristics.pdb import (
        DEFAULT_PARTITION,
        check_build_size,
        parse_partition,
        partition_name,
        stronger_partitions,
    )

    puzzle = Puzzle(goal, goal)
    if not few_cells and partition_name(puzzle, None) not in DEFAULT_PARTITION.values():
        return ()  # no named tables for this board and goal
    rungs: list = [None]
    if metric == "stm":
        rungs += stronger_partitions(puzzle, None)
    buildable = []
    for name in rungs:
        try:
            for codes in parse_partition(puzzle, name):
                check_build_size(puzzle, codes)
        except SlidelabError:
            break  # too large to build here (and so is every rung above), or no named groups
        buildable.append(name)
    return tuple(buildable)


def solve_auto(
    puzzle: Puzzle, plan: Plan, options: SearchOptions, clock, progress, table_progress, split=None
):
    """``auto`` on a board it searches with IDA* (see the module): the solution, or a
    :class:`SearchLimitError` on a board up to :data:`AUTO_OPTIMAL_CELLS` cells that has no
    proven optimum within the time limit.  ``split``: the runner of the IDA* iterations'
    subtrees (a Dask cluster's: :mod:`.distributed`), for every IDA* search it makes; the
    bounded answers past it are made here."""
    if plan.heuristic not in ("pdb", "abstraction"):  # a heuristic with no tables: search
        limits = limits_of(options, progress, clock)
        heur = search_heuristic(
            puzzle, plan.heuristic, None, limits, table_progress, options.metric
        )
        return _optimal_or_bounded(puzzle, options, clock, progress, heur, split=split)
    rungs = ladder(puzzle, options, plan.heuristic)
    ready = [i for i, rung in enumerate(rungs) if rung.ready(puzzle, options.metric)]
    if ready:
        return _with_tables(
            puzzle, options, rungs[ready[-1] :], clock, progress, table_progress, split
        )
    if options.heuristic is not None or options.partition is not None:
        # tables asked for: build them (on the clock) and search
        return _with_tables(puzzle, options, rungs, clock, progress, table_progress, split)
    if not rungs:
        cheap = cheap_heuristic(puzzle, options.metric)
        limits = limits_of(options, progress, clock)
        heur = search_heuristic(puzzle, cheap, None, limits, table_progress, options.metric)
        estimate = heur.value(puzzle.start_codes)
        if estimate > PROBE_MAX_ESTIMATE and not small(puzzle):
            log.info(
                "at least %s moves from its goal (%s): too far for an optimal search without"
                " tables; solving by the constructive method (fast, not optimal)",
                f"{estimate:,}",
                cheap,
            )
            return _constructive(puzzle, options, progress)
        return _optimal_or_bounded(
            puzzle, options, clock, progress, heur, PROBE_NO_TABLES, split=split
        )
    seconds = rungs[0].build_seconds(puzzle, options.metric)
    solution = _probe(
        puzzle, options, clock, progress, table_progress, seconds, rungs[0].name(puzzle), split
    )
    if solution is None:
        return _with_tables(puzzle, options, rungs, clock, progress, table_progress, split)
    if isinstance(solution, SearchLimitError):  # the build would not be done in time
        hint = rungs[0].hint(puzzle, options.metric, seconds)
        return _bounded_or_raise(puzzle, options, clock, progress, None, solution, hint)
    return solution


def _probe(
    puzzle, options, clock, progress, table_progress, seconds: float, tables: str, split=None
):
    """Before building ``tables`` (``seconds`` to build), IDA* with what needs none
    (:func:`cheap_heuristic`) for :data:`PROBE_SHARE` of that: its solution; None when the build
    should go on (the probe gave up, or its estimate is too far to try); when the build would
    not be done in the time left, the cheap search's until then, or its error."""
    cheap = cheap_heuristic(puzzle, options.metric)
    limits = limits_of(options, progress, clock)
    heur = search_heuristic(puzzle, cheap, None, limits, table_progress, options.metric)
    left = clock.left()
    if left is not None and seconds > left:
        # the build would not be done in time: the cheap search is the only optimal one
        limits.patience = None if small(puzzle) else _optimal_budget(clock)
        try:
            return _idastar(puzzle, heur, limits, options.metric, split)
        except SearchInterrupted:
            raise
        except SearchLimitError as exc:
            return exc
    if heur.value(puzzle.start_codes) > PROBE_MAX_ESTIMATE:  # no search without tables finishes
        return None
    budget = min(max(PROBE_SHARE * seconds, PROBE_MIN), PROBE_MAX)
    if left is not None:
        budget = max(0.05, min(budget, left - seconds))
    limits.patience = budget
    try:
        return _idastar(puzzle, heur, limits, options.metric, split)
    except SearchTooLong as exc:
        log.info("searching with %s alone: %s; building %s is quicker", cheap, exc, tables)
    except SearchInterrupted:
        raise
    except SearchLimitError as exc:  # the time limit
        return exc
    return None


def _with_tables(
    puzzle: Puzzle, options: SearchOptions, rungs: list, clock, progress, table_progress, split=None
) -> Solution:
    """IDA* with the tables of ``rungs[0]`` (built first if missing, announced), giving up for
    the next rung when predicted to take longer than its build; on a board past
    :data:`AUTO_OPTIMAL_CELLS`, for a budget, then a bounded answer with the tables in hand."""
    began = None  # when the first search began: a board past 16 cells has a budget from there
    rungs = list(rungs)
    heur = None
    while True:
        limits = limits_of(options, progress, clock)
        climbing = False
        try:
            heur = rungs[0].heuristic_of(puzzle, limits, table_progress, options.metric)
            if began is None:  # the tables are ready: the budget is for searching
                began, budget = clock.elapsed(), None if small(puzzle) else _optimal_budget(clock)
            patience = None if budget is None else max(0.05, budget - (clock.elapsed() - began))
            if len(rungs) > 1:
                seconds = rungs[1].build_seconds(puzzle, options.metric)
                left = clock.left() if patience is None else patience
                if left is None or seconds < left:  # a stronger rung that can be built in time
                    climbing = True
                    patience = seconds if patience is None else min(patience, seconds)
                    limits.context.pop("stronger_partition", None)  # it climbs by itself
            limits.patience = patience
            return _idastar(puzzle, heur, limits, options.metric, split)
        except SearchInterrupted:
            raise
        except SearchTooLong as exc:
            if climbing:
                log.info("%s: on to %s", exc, rungs[1].name(puzzle))
                rungs.pop(0)
                continue
            failed = exc
        except SearchLimitError as exc:
            failed = exc
        if small(puzzle):
            raise failed
        return _bounded_or_raise(puzzle, options, clock, progress, heur, failed, "")


def _optimal_or_bounded(
    puzzle, options, clock, progress, heur, budget=None, hint="", split=None
) -> Solution:
    """IDA* with the heuristic ``heur``: on a board up to :data:`AUTO_OPTIMAL_CELLS` cells until
    the time limit; past it for ``budget`` seconds (default :data:`AUTO_SEARCH_SECONDS`, at most
    half the time left), then a bounded answer.  ``hint`` says what would help."""
    if small(puzzle):
        budget = None
    else:
        budget = _optimal_budget(clock) if budget is None else min(budget, _optimal_budget(clock))
    limits = limits_of(options, progress, clock, patience=budget)
    try:
        return _idastar(puzzle, heur, limits, options.metric, split)
    except SearchInterrupted:
        raise
    except SearchLimitError as exc:
        return _bounded_or_raise(puzzle, options, clock, progress, None, exc, hint)


def _bounded_or_raise(puzzle, options, clock, progress, heur, exc, hint) -> Solution:
    """After the optimal search stopped (``exc``): on a small board, the error (with ``hint``);
    past it, a bounded answer: weighted A* with the tables ``heur`` (if any) for the time
    left, then the constructive method, which always answers at once."""
    from .registry import METHODS

    if small(puzzle):
        raise SearchLimitError(f"{exc}{hint}", exc.stats, exc.lower_bound) from None
    known = "" if exc.lower_bound is None else f": it is at least {exc.lower_bound:g} moves"
    took = format_duration(exc.stats.seconds) if exc.stats is not None else "the budget"
    if heur is not None:
        log.info(
            "no proven optimum within %s of search%s; looking for a solution at most %g times"
            " as long with the same tables (for a longer optimal search, give --time-limit,"
            " e.g. --time-limit 1h)%s",
            took,
            known,
            AUTO_FALLBACK_WEIGHT,
            hint,
        )
        left = clock.left()
        patience = AUTO_SEARCH_SECONDS if left is None else max(0.05, 0.8 * left)
        limits = limits_of(options, progress, clock, patience=patience)
        try:
            return METHODS["weighted-astar"].load()(
                puzzle,
                limits=limits,
                weight=AUTO_FALLBACK_WEIGHT,
                metric=options.metric,
                heuristic=heur,
            )
        except SearchInterrupted:
            raise
        except SearchLimitError as again:
            log.info("%s; solving by the constructive method instead", again)
    else:
        log.info(
            "no proven optimum within %s of search%s; solving by the constructive method"
            " (fast, not optimal)%s",
            took,
            known,
            hint,
        )
    return _constructive(puzzle, options, progress)


def _constructive(puzzle, options, progress) -> Solution:
    """The constructive method's answer: fast on any board, not optimal."""
    from .registry import METHODS

    return METHODS["constructive"].load()(
        puzzle, limits=Limits(progress=progress), metric=options.metric
    )


def _idastar(puzzle, heur, limits, metric, split=None) -> Solution:
    from .idastar import idastar

    return idastar(puzzle, heuristic=heur, limits=limits, metric=metric, split=split)


def _optimal_budget(clock) -> float:
    """Seconds of optimal search on a board past the 15-puzzle: :data:`AUTO_SEARCH_SECONDS`,
    or :data:`OPTIMAL_SHARE` of the time limit's time left."""
    left = clock.left()
    return AUTO_SEARCH_SECONDS if left is None else max(0.05, OPTIMAL_SHARE * left)


def _name(puzzle: Puzzle, partition) -> str:
    from ..heuristics.pdb import partition_name

    return partition_name(puzzle, partition)
