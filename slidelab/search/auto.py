"""``auto`` where it searches: the cheapest sufficient work first, on the answer's one clock.

On a board too large for a distance table or a flat bidirectional search
(:func:`~slidelab.search.policy.choose_method` says IDA*), ``auto`` climbs the board's ladder
of rungs (:func:`~slidelab.search.policy.rungs`: a heuristic and a set of tables each, the
15-puzzle's pattern databases 6-6-3, 7-7-1, 7-8; in MTM its abstraction tables), by the
policy of :mod:`.policy`:

1. it searches with the strongest rung whose tables are ready (cached), and gives up on it for
   the next rung when the search is predicted to take longer than that rung's build;
2. with none ready, it first searches with what needs no table (the probe:
   :func:`~slidelab.search.policy.probe_heuristic`) for a share of the build it would
   otherwise start (:data:`~.policy.PROBE_SHARE`, compiling included), given up early when its
   next iteration is predicted to pass that: a position a few dozen moves from its goal is
   solved at once on any board, with no table built;
3. then builds the first rung's tables (announced before: what, how big, about how long,
   once) if the build fits half the answer's budget (:func:`~.policy.build_fits`: its time
   limit, or a minute on a board past the 15-puzzle); if it does not, the answer names the tables and
   how to build them ahead of time (its remedy);
4. on boards past :data:`~.policy.OPTIMAL_CELLS` cells, it searches optimally for a share of
   the budget (:data:`~.policy.OPTIMAL_SHARE`), then settles for a bounded answer (weighted A*
   with the tables, at most :data:`~.policy.FALLBACK_WEIGHT` times optimal; then the
   constructive method), labelled as not optimal and said on the log.

No step tests a heuristic's name: a rung's tables say what they are, cost and are called
(:class:`slidelab.tables.family.Tables`).
"""

from __future__ import annotations

import dataclasses
import logging

from ..errors import SearchLimitError, SearchTooLong
from ..heuristics.registry import HEURISTICS
from ..puzzle import Puzzle
from ..solution import Solution
from ..units import format_duration
from . import policy
from .limits import Limits
from .options import SearchOptions
from .plan import Plan, limits_of, search_heuristic
from .policy import Rung, small

log = logging.getLogger(__name__)


def solve_auto(
    puzzle: Puzzle, plan: Plan, options: SearchOptions, clock, progress, table_progress, split=None
):
    """``auto`` on a board it searches with IDA* (see the module): the solution, or a
    :class:`SearchLimitError` on a board up to :data:`~.policy.OPTIMAL_CELLS` cells that has
    no proven optimum within the time limit.  ``split``: the runner of the IDA* iterations'
    subtrees (a Dask cluster's: :mod:`.cluster_idastar`), for every IDA* search it makes; the
    bounded answers past it are made here."""
    rungs = policy.rungs(puzzle, options, plan.heuristic)
    asked = options.heuristic is not None or options.partition is not None
    if rungs[0].tables is None:  # a heuristic with no tables: search
        return _without_tables(
            puzzle, options, clock, progress, table_progress, rungs[0], asked, split
        )
    ready = [i for i, rung in enumerate(rungs) if rung.ready()]
    if ready:
        return _with_tables(
            puzzle, options, rungs[ready[-1] :], clock, progress, table_progress, split
        )
    if asked:  # tables asked for: build them (on the clock) and search
        return _with_tables(puzzle, options, rungs, clock, progress, table_progress, split)
    solution = _probe(puzzle, options, clock, progress, table_progress, rungs[0], split)
    if solution is None:
        return _with_tables(puzzle, options, rungs, clock, progress, table_progress, split)
    if isinstance(solution, SearchLimitError):  # the build would not be done in time
        probe = getattr(solution, "heuristic", None)
        return _bounded_or_raise(puzzle, options, clock, progress, probe, solution, rungs[0])
    return solution


def _without_tables(puzzle, options, clock, progress, table_progress, rung, asked, split):
    """IDA* with a heuristic that needs no tables: asked for, or the board has no tables."""
    limits = limits_of(options, progress, clock)
    heur = search_heuristic(puzzle, rung.heuristic, limits, table_progress, options.metric)
    if asked:
        return _optimal_or_bounded(puzzle, options, clock, progress, heur, split=split)
    estimate = heur.value(puzzle.start_codes)
    if estimate > policy.PROBE_MAX_ESTIMATE and not small(puzzle):
        stopped = SearchLimitError(
            f"at least {estimate:,} moves from its goal ({rung.heuristic}): too far for an"
            f" optimal search without tables, and no tables of a {puzzle.size} board here make"
            " one feasible"
        )
        return _bounded_or_raise(puzzle, options, clock, progress, heur, stopped, None)
    return _optimal_or_bounded(
        puzzle, options, clock, progress, heur, policy.PROBE_NO_TABLES, split=split
    )


def _probe(puzzle, options, clock, progress, table_progress, first: Rung, split=None):
    """Before building ``first``'s tables, IDA* with what needs none
    (:func:`~.policy.probe_heuristic`) for :data:`~.policy.PROBE_SHARE` of that build: its
    solution; None when the build should go on (the probe gave up, or its estimate is too far
    to try); when the build would not fit the answer's budget, the probe's answer within it,
    or its error."""
    cheap = policy.probe_heuristic(puzzle, options.metric)
    limits = limits_of(options, progress, clock)
    heur = search_heuristic(puzzle, cheap, limits, table_progress, options.metric)
    seconds = first.seconds()
    left = policy.time_left(puzzle, clock)
    if not policy.build_fits(puzzle, seconds, clock):
        # the build would not be done in time: the probe is the only optimal search
        estimate = heur.value(puzzle.start_codes)
        if not small(puzzle) and estimate > policy.PROBE_MAX_ESTIMATE:
            stopped = SearchLimitError(
                f"at least {estimate:,} moves from its goal ({cheap}): too far for an optimal"
                " search without tables"
            )
        else:
            limits.patience = None if small(puzzle) else _optimal_budget(puzzle, clock)
            try:
                return _idastar(puzzle, heur, limits, options.metric, split)
            except SearchLimitError as exc:
                stopped = exc
        stopped.heuristic = heur  # the bounded answer searches with it
        return stopped
    if heur.value(puzzle.start_codes) > policy.PROBE_MAX_ESTIMATE:  # no search without tables ends
        return None
    budget = min(max(policy.PROBE_SHARE * seconds, policy.PROBE_MIN), policy.PROBE_MAX)
    if left is not None:
        budget = max(0.05, min(budget, left - seconds))
    limits.patience = budget
    try:
        return _idastar(puzzle, heur, limits, options.metric, split)
    except SearchTooLong as exc:
        log.info(
            "searching with %s alone: %s; making %s ready is quicker", cheap, exc, first.name()
        )
    except SearchLimitError as exc:  # the time limit
        return exc
    return None


def _with_tables(
    puzzle: Puzzle, options: SearchOptions, rungs: list, clock, progress, table_progress, split=None
) -> Solution:
    """IDA* with the tables of ``rungs[0]`` (built first if missing, announced), giving up for
    the next rung when predicted to take longer than its build; on a board past
    :data:`~.policy.OPTIMAL_CELLS`, for a share of the budget, then a bounded answer with the
    tables in hand."""
    began = None  # when the first search began: a board past 16 cells has a budget from there
    budget = None
    rungs = list(rungs)
    heur = None
    while True:
        limits = limits_of(options, progress, clock)
        climbing = False
        try:
            heur = search_heuristic(
                puzzle,
                rungs[0].heuristic,
                limits,
                table_progress,
                options.metric,
                rungs[0].options(),
            )
            if began is None:  # the tables are ready: the budget is for searching
                began = clock.elapsed()
                budget = None if small(puzzle) else _optimal_budget(puzzle, clock)
            patience = None if budget is None else max(0.05, budget - (clock.elapsed() - began))
            if len(rungs) > 1:
                seconds = rungs[1].seconds()
                left = policy.time_left(puzzle, clock) if patience is None else patience
                if left is None or seconds < left:  # a stronger rung that can be built in time
                    climbing = True
                    patience = seconds if patience is None else min(patience, seconds)
                    limits.context.pop("stronger_partition", None)  # it climbs by itself
            limits.patience = patience
            return _idastar(puzzle, heur, limits, options.metric, split)
        except SearchTooLong as exc:
            if climbing:
                log.info("%s: on to %s", exc, rungs[1].name())
                rungs.pop(0)
                continue
            failed = exc
        except SearchLimitError as exc:
            failed = exc
        if small(puzzle):
            raise failed
        return _bounded_or_raise(puzzle, options, clock, progress, heur, failed, None)


def _optimal_or_bounded(
    puzzle, options, clock, progress, heur, budget=None, split=None
) -> Solution:
    """IDA* with the heuristic ``heur``: on a board up to :data:`~.policy.OPTIMAL_CELLS` cells
    until the time limit; past it for ``budget`` seconds (at most its share of the budget),
    then a bounded answer."""
    if small(puzzle):
        budget = None
    else:
        limit = _optimal_budget(puzzle, clock)
        budget = limit if budget is None else min(budget, limit)
    limits = limits_of(options, progress, clock, patience=budget)
    try:
        return _idastar(puzzle, heur, limits, options.metric, split)
    except SearchLimitError as exc:
        given = policy.OPTIMAL_SHARE
        share = f"; past the 15-puzzle an optimal search gets {given:.0%} of the time left"
        return _bounded_or_raise(puzzle, options, clock, progress, heur, exc, None, share)


def _bounded_or_raise(
    puzzle, options, clock, progress, heur, exc, remedy: Rung | None, early: str = ""
) -> Solution:
    """After the optimal search stopped (``exc``): on a small board, the error (naming the
    tables that would help, ``remedy``); past it, a bounded answer: weighted A* with ``heur``
    for the time left (with tables, at most :data:`~.policy.FALLBACK_WEIGHT` times optimal;
    with the probe's heuristic, :data:`~.policy.NO_TABLES_WEIGHT`), then the constructive
    method, which always answers at once; labelled, with its remedy."""
    from .registry import METHODS

    tables = remedy.tables if remedy is not None else getattr(exc, "remedy", None)
    if small(puzzle):
        raise SearchLimitError(exc.reason, exc.stats, exc.lower_bound, remedy=tables) from None
    advice = "" if tables is None else f"; {tables.advice()}"
    if exc.stats is not None and exc.stats.seconds > 0:
        known = "" if exc.lower_bound is None else f": it is at least {exc.lower_bound:g} moves"
        why = f"no proven optimum within {format_duration(exc.stats.seconds)} of search{known}"
        if isinstance(exc, SearchTooLong):  # stopped early: say why, in its limit's words
            why += f" ({exc.reason}{early})"
    else:
        why = exc.reason
    with_tables = heur is not None and HEURISTICS[heur.name].family is not None
    weight = policy.FALLBACK_WEIGHT if with_tables else None
    if heur is not None and weight is None:
        estimate = heur.value(puzzle.start_codes)
        weight = policy.NO_TABLES_WEIGHT if estimate <= policy.BOUNDED_MAX_ESTIMATE else None
    solution = None
    if weight is not None:
        log.info(
            "%s; looking for a solution at most %g times as long with %s (for a longer optimal"
            " search, give --time-limit, e.g. --time-limit 1h)%s",
            why,
            weight,
            "the same tables" if with_tables else heur.name,
            advice,
        )
        left = policy.time_left(puzzle, clock)
        limits = limits_of(options, progress, clock, patience=max(0.05, 0.8 * left))
        try:
            solution = METHODS["weighted-astar"].load()(
                puzzle, limits=limits, weight=weight, metric=options.metric, heuristic=heur
            )
        except SearchLimitError as again:
            log.info("%s; solving by the constructive method instead", again)
    else:
        log.info("%s; solving by the constructive method (fast, not optimal)%s", why, advice)
    if solution is None:
        solution = _constructive(puzzle, options, progress, clock)
    return dataclasses.replace(solution, remedy=tables) if tables is not None else solution


def _constructive(puzzle, options, progress, clock) -> Solution:
    """The constructive method's answer: fast on any board, not optimal; within the time limit
    where one was given (a 100x100 takes about half a minute: ``--time-limit 2`` stops it), on
    no clock under the default budget (the answer that always comes)."""
    from .registry import METHODS

    limits = Limits(progress=progress, clock=clock if options.time_limit is not None else None)
    return METHODS["constructive"].load()(puzzle, limits=limits, metric=options.metric)


def _idastar(puzzle, heur, limits, metric, split=None) -> Solution:
    from .idastar import idastar

    return idastar(puzzle, heuristic=heur, limits=limits, metric=metric, split=split)


def _optimal_budget(puzzle, clock) -> float:
    """Seconds of optimal search on a board past the 15-puzzle: :data:`~.policy.OPTIMAL_SHARE`
    of the budget's time left."""
    return max(0.05, policy.OPTIMAL_SHARE * policy.time_left(puzzle, clock))
