"""Who waits for what: the one policy of slidelab's answers about tables and kernels.

Tables (:mod:`slidelab.tables`) and compiled kernels make slidelab fast, and both take time
once: seconds to minutes to build or compile, then milliseconds to load.  Every answer decides
who waits for that time, and the rules are these, written once:

1. **A first answer never waits for a build or a compile it does not need.**  ``auto`` answers
   with the cheapest sufficient method ready now (:func:`choose_method`): a small space's
   distance table when it is cached, or when building it is quick because its kernels are
   compiled (a build's cost counts its compiling, :class:`~slidelab.tables.family.Cost`);
   else a search that needs no table (the 8-puzzle from a cold install: bidirectional search,
   seconds).  On larger boards a search with the tables at hand, or with none (the probe).
2. **A build longer than a few seconds is never started without reason, nor past the answer's
   budget.**  ``auto`` builds a set of tables only when the search without it is predicted to
   take longer than the build (:mod:`.auto`), and only when the build, compiling included, fits
   half the time left of the answer's budget (:func:`build_fits`, :func:`time_left`): its time limit, or on a board past
   the 15-puzzle :data:`DEFAULT_SECONDS` when none is given (a board up to 16 cells is solved
   optimally whatever it takes).  It says what it builds before (which tables, how big, about
   how long).  A build that does not fit is not started: the answer is the best one within the
   budget, labelled (optimal, or how far from it), and names the tables that would help, their
   size and time, and how to build them (:attr:`slidelab.Solution.remedy`,
   :attr:`slidelab.SearchLimitError.remedy`).
3. **What is asked for is built.**  A heuristic, a partition or a method asked for by name
   builds its tables (announced), on the answer's clock: with a time limit too short it is
   refused before it starts, naming how to build the tables ahead of time.
4. **A server's one-time work is the server's.**  A server builds, while it warms up and
   before it says it is ready, the tables its page's default boards need
   (:func:`server_tables`); a request's clock starts when a worker takes it, and a request
   never waits for a build it did not ask for (tables another process is building are not
   ready).

The ladders ``auto`` climbs are declared here too: :data:`AUTO_TABLES` (the heuristics with
tables, by metric: the first whose family has sets of tables for the board) and
:data:`PROBES` (the heuristics that need no tables: the first that fits the board).

Examples
--------
>>> from slidelab.puzzle import Puzzle
>>> auto_heuristic(Puzzle("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "mtm")
'abstraction'
>>> probe_heuristic(Puzzle("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "mtm")
'walking-distance'
>>> [r.tables.which for r in rungs(Puzzle("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))]
['6-6-3', '7-7-1', '7-8']
>>> rungs(Puzzle("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))[2].name()
'the 7-8 pattern databases of the 4x4 goal'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..heuristics.registry import HEURISTICS
from ..puzzle import Puzzle
from ..tables.family import Tables
from .options import SearchOptions

#: the heuristics with tables ``auto`` searches with, by metric, in order of preference: the
#: first whose family has sets of tables on the board gives its ladder (the 15-puzzle in MTM:
#: abstraction tables; elsewhere pattern databases)
AUTO_TABLES = {"stm": ("pdb",), "mtm": ("abstraction", "pdb")}
#: the heuristics that need no tables, by metric, strongest first: ``auto`` searches with the
#: first that fits the board before building tables, and where a board has none
PROBES = {"stm": ("linear-conflict",), "mtm": ("walking-distance", "linear-conflict")}

#: a goal's distance table is used where it is cached, or built first where it is ready within
#: this many seconds (compiling included: the 8-puzzle's is 20 ms once the kernels are compiled)
QUICK_SECONDS = 2.0
#: boards with at most this many arrangements are solved by table-based bidirectional BFS
FLAT_STATES = 50_000_000
#: boards with at most this many cells are solved optimally by ``auto``, whatever it takes
OPTIMAL_CELLS = 16
#: seconds ``auto`` gives a board past :data:`OPTIMAL_CELLS` cells when no time limit is given:
#: its optimal search, a build that fits, then a bounded answer, all within it
DEFAULT_SECONDS = 60.0
#: the share of the budget's time left that a build ``auto`` starts may take, compiling
#: included: the rest is the search's with the tables (a random 5x5 from a new install: the
#: 6-6-6-6 build, 26 s and 14 s of compiling, is not started; 78.6 s to a bounded answer when
#: it was, against 10.9 s without it)
BUILD_SHARE = 0.5
#: the share of the budget's time left a board past :data:`OPTIMAL_CELLS` searches optimally,
#: before it settles for a bounded answer
OPTIMAL_SHARE = 0.5
#: the weight of that bounded answer: at most this many times the optimal length (with tables:
#: a random 5x5 with the 6-6-6-6 pattern databases in seconds) ...
FALLBACK_WEIGHT = 1.5
#: ... and without tables, with the probe's heuristic (a random 5x5 with linear conflict: 110
#: to 142 moves in 3 to 13 s where the constructive method gives 270; a random 6x6: 240 moves
#: in 5 s against 410)
NO_TABLES_WEIGHT = 2.0
#: a board whose probe estimate is more moves than this gets no weighted search without tables
#: (it would not end within a minute): the constructive answer at once
BOUNDED_MAX_ESTIMATE = 250

#: the probe (the search with no tables before a build) gets this share of the seconds the
#: build it would save takes (compiling included) ...
PROBE_SHARE = 0.25
#: ... but at least this many seconds ...
PROBE_MIN = 0.5
#: ... and at most this many
PROBE_MAX = 10.0
#: seconds of optimal search on a board past :data:`OPTIMAL_CELLS` with no tables to build,
#: before the bounded answer
PROBE_NO_TABLES = 5.0
#: a board past :data:`OPTIMAL_CELLS` whose probe estimate is more moves than this is not
#: searched without tables (IDA* with linear conflict does not finish there: a random 5x5
#: starts at 70-100, a 20x20 at 5,000)
PROBE_MAX_ESTIMATE = 80


def small(puzzle: Puzzle) -> bool:
    """At most :data:`OPTIMAL_CELLS` cells: ``auto`` searches it optimally, unbudgeted."""
    return puzzle.width * puzzle.height <= OPTIMAL_CELLS


def time_left(puzzle: Puzzle, clock) -> float | None:
    """Seconds left of the answer's budget: its time limit's; on a board past
    :data:`OPTIMAL_CELLS` without one, :data:`DEFAULT_SECONDS` from the clock's start; None (no
    bound) on smaller boards without one."""
    left = clock.left()
    if left is None and not small(puzzle):
        return DEFAULT_SECONDS - clock.elapsed()
    return left


def fits(spec, puzzle: Puzzle) -> bool:
    """Whether a heuristic fits the board (:attr:`HeuristicSpec.largest`)."""
    return spec.largest is None or (
        puzzle.width <= spec.largest[0] and puzzle.height <= spec.largest[1]
    )


def probe_heuristic(puzzle: Puzzle, metric: str) -> str:
    """The strongest heuristic that needs no table and fits the board (:data:`PROBES`)."""
    return next(name for name in PROBES[metric] if fits(HEURISTICS[name], puzzle))


def auto_heuristic(puzzle: Puzzle, metric: str) -> str:
    """The heuristic ``auto`` and ``solve_all`` search ``puzzle`` with in ``metric``: the first
    of :data:`AUTO_TABLES` whose family has sets of tables for the goal, else the probe's
    (:func:`probe_heuristic`)."""
    for name in AUTO_TABLES[metric]:
        if HEURISTICS[name].tables().sets(puzzle.goal, metric):
            return name
    return probe_heuristic(puzzle, metric)


def choose_method(puzzle: Puzzle, metric: str = "stm") -> tuple[str, str]:
    """``(method, heuristic)`` that ``auto`` uses for this puzzle in ``metric`` (rule 1).

    The goal's distance table where it is cached, or where its space is small enough
    (:data:`slidelab.tables.distance.SMALL_STATES`) and it is ready within
    :data:`QUICK_SECONDS` (its kernels compiled); else a flat-table bidirectional BFS where the
    arrangements are at most :data:`FLAT_STATES`; otherwise IDA*, cheapest first
    (:func:`slidelab.search.auto.solve_auto`).

    Examples
    --------
    >>> choose_method(Puzzle("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))
    ('idastar', 'pdb')
    >>> choose_method(Puzzle("2 1 3/4 5 6/7 8 0"))[0] in ("table", "bidirectional")
    True
    """
    if distance_table_now(puzzle, metric):
        return "table", "manhattan"
    if puzzle.n_arrangements <= FLAT_STATES:
        return "bidirectional", "manhattan"
    return "idastar", auto_heuristic(puzzle, metric)


def distance_table_now(puzzle: Puzzle, metric: str) -> bool:
    """Whether the goal's distance table answers now: it is cached, or its space is small
    enough (:data:`slidelab.tables.distance.SMALL_STATES`) and it is ready within
    :data:`QUICK_SECONDS`, compiling included."""
    from ..tables.distance import SMALL_STATES
    from ..tables.index import Space

    table = Tables("distance", puzzle.goal, metric)
    if table.ready():
        return True
    if Space(puzzle.goal).states > SMALL_STATES or table.building():  # another's build: rule 4
        return False
    return table.cost().seconds <= QUICK_SECONDS


@dataclass(frozen=True)
class Rung:
    """One heuristic ``auto`` may search with, and the set of tables it looks up (None: it
    needs none)."""

    heuristic: str
    tables: Tables | None = None

    def ready(self) -> bool:
        """Whether its tables are cached (a heuristic without tables is always ready)."""
        return self.tables is None or self.tables.ready()

    def seconds(self) -> float:
        """Seconds making its tables ready takes here, now: building and compiling; infinite
        while another process builds them (rule 4: not ready, and not waited for)."""
        if self.tables is None:
            return 0.0
        return math.inf if self.tables.building() else self.tables.cost().seconds

    def name(self) -> str:
        """What it searches with, for the log."""
        return self.heuristic if self.tables is None else self.tables.describe()

    def options(self) -> dict:
        """The heuristic's options that look its tables up."""
        return {} if self.tables is None else self.tables.options()


def tables_for(puzzle: Puzzle, heuristic: str, metric: str, options: dict) -> Tables | None:
    """The set of tables ``heuristic`` looks up on ``puzzle`` with its ``options`` (a partition,
    classes), or None where it needs none."""
    spec = HEURISTICS[heuristic]
    if spec.family is None:
        return None
    family = spec.tables()
    which = options.get(family.option) if family.option else None
    if isinstance(which, list):
        which = tuple(tuple(w) if isinstance(w, list) else w for w in which)
    return Tables(spec.family, puzzle.goal, metric if family.metric_bound else "stm", which)


def rungs(puzzle: Puzzle, options: SearchOptions | None = None, heuristic: str | None = None):
    """The rungs ``auto`` may search ``puzzle`` with, weakest first, each buildable here.

    A heuristic or partition asked for: its tables alone.  Otherwise the ladder of
    :func:`auto_heuristic`'s family (:meth:`~slidelab.tables.family.Family.sets`: the
    15-puzzle's 6-6-3, 7-7-1, 7-8 pattern databases in STM; its abstraction tables, one, two,
    two stronger, in MTM); empty where the board has none."""
    from .options import check_options

    options = check_options() if options is None else options
    metric = options.metric
    name = heuristic or options.heuristic or auto_heuristic(puzzle, metric)
    spec = HEURISTICS[name]
    if spec.family is None:
        return [Rung(name)]
    if options.heuristic is not None or options.partition is not None:
        given = {"partition": options.partition} if options.partition is not None else {}
        return [Rung(name, tables_for(puzzle, name, metric, given))]
    family = spec.tables()
    bound = metric if family.metric_bound else "stm"
    return [
        Rung(name, Tables(spec.family, puzzle.goal, bound, which))
        for which in family.sets(puzzle.goal, metric)
    ]


def ready_heuristic(puzzle: Puzzle, options: SearchOptions) -> tuple[str, dict]:
    """The heuristic (and its options) ``auto`` would search ``puzzle`` with now, building
    nothing: the strongest rung whose tables are cached, else the probe's heuristic (needing
    none), in the metric of ``options`` (which name no heuristic).  A comparison's default, so
    that its methods search as a solve would."""
    for rung in reversed(rungs(puzzle, options)):
        if rung.tables is not None and rung.ready():
            return rung.heuristic, rung.options()
    return probe_heuristic(puzzle, options.metric), {}


def may_build(puzzle: Puzzle, tables: Tables, clock) -> bool:
    """Whether ``auto`` may start building ``tables`` now (rule 2): it fits
    :data:`BUILD_SHARE` of the time left of the answer's budget (:func:`time_left`), compiling
    included, leaving the rest to the search with them (and its own compiling)."""
    return build_fits(puzzle, tables.cost().seconds, clock)


def build_fits(puzzle: Puzzle, seconds: float, clock) -> bool:
    """Whether a build of ``seconds`` (compiling included) fits :data:`BUILD_SHARE` of the time
    left of the answer's budget (:func:`time_left`; always, where the budget is unbounded)."""
    left = time_left(puzzle, clock)
    return left is None or seconds <= BUILD_SHARE * max(left, 0.0)


def server_tables() -> tuple[list[Tables], list[Tables]]:
    """The tables a server builds while it warms up (rule 4): those it builds before it says it
    is ready (the 8-puzzle's distance tables in both metrics, then the first rung of the
    15-puzzle's pattern databases for both goals a page offers, the blank last and first: a few
    seconds each), and those it builds after (the 15-puzzle's first abstraction table in MTM
    for both goals: under a minute each).  Each only where the machine's memory allows
    (:func:`slidelab.memory.default_max_bytes`)."""
    from ..board import Board
    from ..memory import default_max_bytes
    from .options import check_options

    eight = Board.solved(3, 3)
    first = [Tables("distance", eight, "stm"), Tables("distance", eight, "mtm")]
    later = []
    for metric, into in (("stm", first), ("mtm", later)):
        for blank_first in (False, True):
            goal = Board.solved(4, 4, blank_first)
            ladder = rungs(Puzzle(goal, goal), check_options(metric=metric))
            if ladder and ladder[0].tables is not None:
                into.append(ladder[0].tables)
    limit = default_max_bytes()
    return (
        [t for t in first if t.cost().peak_bytes <= limit],
        [t for t in later if t.cost().peak_bytes <= limit],
    )


__all__ = [
    "AUTO_TABLES",
    "BOUNDED_MAX_ESTIMATE",
    "BUILD_SHARE",
    "DEFAULT_SECONDS",
    "FALLBACK_WEIGHT",
    "FLAT_STATES",
    "NO_TABLES_WEIGHT",
    "OPTIMAL_CELLS",
    "OPTIMAL_SHARE",
    "PROBES",
    "PROBE_MAX",
    "PROBE_MAX_ESTIMATE",
    "PROBE_MIN",
    "PROBE_NO_TABLES",
    "PROBE_SHARE",
    "QUICK_SECONDS",
    "Rung",
    "auto_heuristic",
    "build_fits",
    "choose_method",
    "distance_table_now",
    "may_build",
    "probe_heuristic",
    "rungs",
    "server_tables",
    "small",
    "tables_for",
    "time_left",
]
