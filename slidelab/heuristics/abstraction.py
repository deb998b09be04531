"""Abstraction heuristics: the exact distance of the goal with its tiles merged into classes.

Relabel the goal so that several tiles share a label (a *class*): every real
move is a move of the relabelled board, so the relabelled board's exact
distance (in either metric) never exceeds the real one.  That distance is read
from the relabelled goal's :class:`~slidelab.tables.distance.DistanceTable`
(the whole space searched once by the layered engine on every core, and
cached): one look-up per position, through the multiset numbering of
:mod:`slidelab.tables.index`.

**Symmetric images.**  A reflection ``T`` of the board that maps the goal onto
itself up to renaming its labels (``goal[T c] = sigma(goal[c])``) maps every
position to one as far from the goal; its relabelling is another lower bound,
read from the same table.  The estimate is the largest over the images (on
the 15-puzzle: the board and its transpose, as Tomas Rokicki and the Rust crate
slidy do).

**Classes.**  On a 4x4 board of distinct tiles whose blank is in a corner, two
tables (:data:`FIFTEEN_TABLES`, turned to the blank's corner):
``1 2 3 3/4 4 3 3/4 4 5 5/4 5 5 0``, Tomas Rokicki's relabelling
``1 1 2 2/3 3 2 2/3 3 4 4/3 4 4 0`` with its pair of tiles apart (302,702,400
positions, a byte each, against his 151,351,200), and the rows'
``1 1 1 1/2 2 2 2/3 3 3 4/3 3 5 0`` (as many); the estimate is the largest of four
look-ups, each table on the board and its transpose (``benchmarks/mtm_heuristics.py``
compares them).  Elsewhere the labels in goal order, cut into the most classes
whose space has at most :data:`MAX_STATES` positions (every label its own class,
the exact table, where the whole space fits).  A label is never split: a class is
a union of labels.  ``classes`` takes one relabelled goal, or a list of them.

The heuristic lives with the analysis, not with the other heuristics: its table is a
whole-space search's (the heuristics' layer is below the engines').  It is registered like
every heuristic (:data:`slidelab.heuristics.registry.HEURISTICS`).

Examples
--------
>>> from slidelab import Puzzle
>>> puzzle = Puzzle("8 6 7/2 5 4/3 0 1")
>>> abstraction_goal(puzzle)
Board('1 2 3/4 5 6/7 8 0')
>>> h = abstraction(puzzle, cache=False)
>>> h.value(puzzle.start_codes)
31
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable

import numpy as np

from ..board import Board
from ..errors import SlidelabError
from ..moves import metric_name
from ..puzzle import Puzzle
from ..tables.distance import DistanceTable, goal_table
from ..tables.index import Space
from .abstraction_kernels import abstraction_move
from .base import Heuristic

log = logging.getLogger(__name__)

#: the heuristics made in this process, by goal, metric, relabelled goals and cache folder:
#: their tables are read (and copied into memory) once a process, not once a solve
LOADED: dict = {}

#: the most positions an automatic relabelling's table may have (a byte each)
MAX_STATES = 200_000_000
#: Tomas Rokicki's relabelling of the 15-puzzle, the blank in the bottom-right corner (151,351,200
#: positions)
ROKICKI = (1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 3, 4, 4, 0)
#: Rokicki's with its pair of tiles apart (302,702,400 positions, a byte each; built in 44 s on
#: 2 cores): 1.5 to 4 times fewer nodes than his on four random 15-puzzles
#: (``benchmarks/mtm_heuristics.py``)
FIFTEEN = (1, 2, 3, 3, 4, 4, 3, 3, 4, 4, 5, 5, 4, 5, 5, 0)
#: by rows: the first, the second, the last two but for their last tiles, and those two apart
#: (302,702,400 positions too)
ROWS = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 3, 3, 5, 0)
#: the relabellings of the 15-puzzle's tables, the estimate the largest over them and their
#: transposes: with :data:`ROWS` beside :data:`FIFTEEN`, 3 to 9 times fewer nodes and 1.5 to
#: 2.6 times less time on four random 15-puzzles (``benchmarks/mtm_heuristics.py``), the antipode
#: in 176 s instead of 384 on 2 cores, for twice the memory (605 MB) and a build of 89 s instead
#: of 44 (``benchmarks/mtm.py``).  The set ``--heuristic abstraction`` and ``slidelab tables
#: build`` make; ``auto`` climbs :data:`FIFTEEN_LADDER`
FIFTEEN_TABLES = (FIFTEEN, ROWS)
#: :data:`FIFTEEN` with tile 13 apart too (1,513,512,000 positions, a byte each: 1.5 GB, built
#: in 11 min on a busy 2-core machine, 3 GB at its peak): beside :data:`ROWS`, 11 times fewer
#: nodes than the default set on the antipode's iteration to 40 (``benchmarks/mtm.py``)
FINE = (1, 2, 3, 3, 4, 4, 3, 3, 4, 4, 5, 5, 6, 5, 5, 0)
#: the sets of tables ``auto`` climbs on the 15-puzzle (:func:`ladder`), weakest first
FIFTEEN_LADDER = ((FIFTEEN,), FIFTEEN_TABLES, (FINE, ROWS))
#: the most positions of a table of classes asked for (a byte each)
MAX_TABLE_STATES = 2_000_000_000


# ---------------------------------------------------------------------------- symmetry


def board_symmetries(width: int, height: int) -> list[np.ndarray]:
    """The reflections and turns of a ``width x height`` board as cell maps (identity first):
    four on a rectangle, eight on a square."""
    cells = np.arange(width * height)
    r, c = divmod(cells, width)
    maps = [
        cells,
        r * width + (width - 1 - c),
        (height - 1 - r) * width + c,
        (height - 1 - r) * width + (width - 1 - c),
    ]
    if width == height:
        n = width - 1
        maps += [c * width + r, (n - c) * width + (n - r), c * width + (n - r), (n - c) * width + r]
    return [np.asarray(m, np.int64) for m in maps]


def goal_symmetries(goal: np.ndarray, width: int, height: int) -> list[tuple[np.ndarray, dict]]:
    """``(T, sigma)`` for each board symmetry ``T`` that maps the goal (label codes) onto itself
    up to a renaming ``sigma`` of its labels (the blank kept): ``goal[T[c]] == sigma[goal[c]]``."""
    found = []
    for cell_map in board_symmetries(width, height):
        sigma: dict[int, int] = {}
        ok = True
        for c in range(goal.size):
            a, b = int(goal[c]), int(goal[cell_map[c]])
            if sigma.setdefault(a, b) != b or (a == 0) != (b == 0):
                ok = False
                break
        if ok and len(set(sigma.values())) == len(sigma):
            found.append((cell_map, sigma))
    return found


# ---------------------------------------------------------------------------- classes


def _states(counts) -> int:
    """Positions of a board with these class sizes and one blank."""
    n = sum(counts) + 1
    return n * math.factorial(n - 1) // math.prod(math.factorial(k) for k in counts)


def named_relabellings(puzzle: Puzzle, named=None) -> list[list[int]] | None:
    """``named`` (15-puzzle relabellings, a class per goal cell each, blank last: by default
    :data:`FIFTEEN_TABLES`) turned so that their blank is the goal's, on a 4x4 board of distinct
    tiles whose blank is in a corner; None elsewhere."""
    if (puzzle.width, puzzle.height) != (4, 4) or puzzle.has_repeats:
        return None
    blank = int(np.flatnonzero(puzzle.goal_codes == 0)[0])
    for cell_map in board_symmetries(4, 4):
        if cell_map[15] == blank:
            patterns = []
            for one in FIFTEEN_TABLES if named is None else named:
                pattern = [0] * 16
                for c in range(16):
                    pattern[int(cell_map[c])] = one[c]
                patterns.append(pattern)
            return patterns
    return None


def _merge_to_labels(goal: np.ndarray, pattern: list[int]) -> dict[int, int]:
    """Each label code's class, merging the classes that one label's cells fall in."""
    parent = {q: q for q in set(pattern) if q}

    def root(q):
        while parent[q] != q:
            q = parent[q]
        return q

    first: dict[int, int] = {}
    for c, code in enumerate(goal.tolist()):
        if code == 0:
            continue
        q = root(pattern[c])
        p = root(first.setdefault(code, q))
        if p != q:
            parent[max(p, q)] = min(p, q)
    roots = sorted({root(q) for q in first.values()})
    number = {q: i + 1 for i, q in enumerate(roots)}
    return {code: number[root(q)] for code, q in first.items()}


def _chunked(puzzle: Puzzle) -> dict[int, int]:
    """The labels in goal order cut into the most classes whose space fits :data:`MAX_STATES`."""
    goal = puzzle.goal_codes
    order: list[int] = []
    for code in goal.tolist():
        if code and code not in order:
            order.append(code)
    counts = puzzle.label_counts
    tiles = int(counts[1:].sum())
    for q in range(len(order), 0, -1):
        # cut where the running tile count passes each multiple of tiles / q
        classes: dict[int, int] = {}
        run = 0
        for code in order:
            classes[code] = min(q, 1 + (run * q) // tiles)
            run += int(counts[code])
        ids = sorted(set(classes.values()))
        renumber = {v: i + 1 for i, v in enumerate(ids)}
        classes = {k: renumber[v] for k, v in classes.items()}
        sizes = [0] * len(ids)
        for code, v in classes.items():
            sizes[v - 1] += int(counts[code])
        if _states(sizes) <= MAX_STATES:
            return classes
    return {code: 1 for code in order}


def label_classes(puzzle: Puzzle, classes=None) -> dict[int, int]:
    """Each label code's class (1, 2, ...): from ``classes`` (a relabelled goal, a board or its
    text, or a class per goal cell), or the automatic choice (see the module)."""
    goal = puzzle.goal_codes
    if classes is None:
        patterns = named_relabellings(puzzle)
        return _chunked(puzzle) if patterns is None else _merge_to_labels(goal, patterns[0])
    board = classes if isinstance(classes, Board) else Board(classes)
    if (board.width, board.height) != (puzzle.width, puzzle.height):
        raise SlidelabError(
            f"the classes {board.format()!r} are not of a {puzzle.size} board like the goal"
        )
    cells = list(board.cells)
    if [c == 0 for c in cells] != [int(v) == 0 for v in goal]:
        raise SlidelabError(f"the classes {board.format()!r} must put the blank on the goal's")
    names = sorted({c for c in cells if c != 0}, key=str)
    pattern = [0 if c == 0 else names.index(c) + 1 for c in cells]
    merged = _merge_to_labels(goal, pattern)
    if len(set(merged.values())) != len(names):
        raise SlidelabError(
            f"the classes {board.format()!r} split a label of the goal between classes"
        )
    return merged


def abstraction_goal(puzzle: Puzzle, classes=None) -> Board:
    """The relabelled goal: each tile replaced by its class (see :func:`label_classes`)."""
    merged = label_classes(puzzle, classes)
    goal = puzzle.goal_codes
    return Board(
        [[0 if goal[r * puzzle.width + c] == 0 else merged[int(goal[r * puzzle.width + c])]
          for c in range(puzzle.width)] for r in range(puzzle.height)]
    )  # fmt: skip


def abstraction_goals(puzzle: Puzzle, classes=None) -> list[Board]:
    """The relabelled goals whose tables the heuristic takes the largest of: those of
    ``classes`` (one relabelling, or a list of them), else the automatic ones (see the
    module)."""
    if classes is None:
        patterns = named_relabellings(puzzle)
        if patterns is not None:
            return [abstraction_goal(puzzle, Board.from_cells(p, 4, 4)) for p in patterns]
        return [abstraction_goal(puzzle)]
    if isinstance(classes, (list, tuple)):
        return [abstraction_goal(puzzle, one) for one in classes]
    return [abstraction_goal(puzzle, classes)]


# ---------------------------------------------------------------------------- the builder


def _spaces(puzzle: Puzzle, metric: str, classes=None) -> list[Space]:
    """The relabelled goals' spaces, each refused when too large for a table."""
    spaces = []
    for relabelled in abstraction_goals(puzzle, classes):
        space = Space(relabelled, metric)
        if space.tiles > 20 or space.states > MAX_TABLE_STATES:
            raise SlidelabError(
                f"the abstraction {relabelled.format()!r} has {space.states:,} positions,"
                " too many for a table; choose fewer classes"
            )
        spaces.append(space)
    return spaces


def table_bytes(puzzle: Puzzle, classes=None) -> tuple[int, int]:
    """How many tables the abstraction of ``classes`` (or the automatic ones) reads, and their
    bytes (a byte a position)."""
    goals = abstraction_goals(puzzle, classes)
    return len(goals), sum(Space(goal).states for goal in goals)


def is_ready(puzzle: Puzzle, metric: str = "stm", classes=None) -> bool:
    """Whether the abstraction tables of ``puzzle``'s goal (``classes``, or the automatic ones)
    are cached."""
    try:
        spaces = _spaces(puzzle, metric_name(metric), classes)
    except SlidelabError:
        return False
    return all(DistanceTable.cached(space) is not None for space in spaces)


def build_seconds(puzzle: Puzzle, metric: str = "stm", classes=None) -> float:
    """About how long building the missing abstraction tables of ``classes`` (or the automatic
    ones) takes here (:func:`.budget.estimate`); 0 when all are cached."""
    from ..tables.budget import estimate

    spaces = _spaces(puzzle, metric_name(metric), classes)
    return sum(
        estimate(space, table=True).seconds
        for space in spaces
        if DistanceTable.cached(space) is None
    )


def ladder(puzzle: Puzzle, metric: str = "mtm") -> list:
    """The classes ``auto`` climbs through, weakest first: on the 15-puzzle the sets of
    :data:`FIFTEEN_LADDER` (one table, built in 44 s on 2 cores; then both of
    :data:`FIFTEEN_TABLES`, the second built in 45 s; then :data:`FINE` and :data:`ROWS`), each
    made only for a position whose search is predicted to take longer than its build, and only
    where its build and its tables fit the memory (:func:`slidelab.memory.default_max_bytes`);
    elsewhere the automatic classes alone (``[None]``)."""
    named_sets = tuple(tuple(tuple(one) for one in named) for named in FIFTEEN_LADDER)
    return list(_ladder(puzzle.goal, metric_name(metric), named_sets))


@functools.lru_cache(maxsize=64)
def _ladder(goal: Board, metric: str, named_sets: tuple) -> tuple:
    """:func:`ladder` of a goal: the same for every board of a stream, so worked out once
    (sizing each rung's spaces takes milliseconds, a few percent of a typical solve)."""
    from ..memory import default_max_bytes
    from ..tables.budget import estimate

    puzzle = Puzzle(goal, goal)
    rungs: list = []
    for named in named_sets:
        patterns = named_relabellings(puzzle, named)
        if patterns is None:
            return (None,)
        boards = tuple(Board.from_cells(p, puzzle.width, puzzle.height) for p in patterns)
        spaces = _spaces(puzzle, metric, boards)
        held = sum(space.states for space in spaces)  # a byte each
        building = max(estimate(space, table=True).bytes for space in spaces)
        if rungs and held + building > default_max_bytes():
            break
        rungs.append(boards)
    return tuple(rungs)


def announce_build(space: Space) -> None:
    """Say (INFO, on the log the command line shows) what is about to be built: which table,
    how big, about how long, and that it is done once."""
    from ..cache import cache_dir
    from ..tables.budget import estimate
    from ..units import format_bytes, format_duration

    cost = estimate(space, table=True)
    log.info(
        "building the abstraction table of the %s goal relabelled %s (%s): %s positions, %s,"
        " about %s; once: cached in %s for later solves",
        f"{space.width}x{space.height}",
        space.goal.format(),
        space.metric.upper(),
        f"{space.states:,}",
        format_bytes(space.states),
        format_duration(cost.seconds),
        cache_dir(),
    )


def _in_memory(tables: list[np.ndarray]) -> np.ndarray:
    """The tables end to end as one plain read-only array: read into (huge-page) memory where
    that pays (:func:`slidelab.memory.read_into_memory`: IDA* reads it at random), else one
    table's mapped file as it is (several are joined in memory whatever the case)."""
    from ..memory import read_into_memory

    if len(tables) > 1:
        whole = np.concatenate([np.asarray(t) for t in tables])  # numpy asks for huge pages
    elif read_into_memory(tables[0].nbytes):
        whole = np.array(tables[0])
    else:
        whole = tables[0]
    view = np.asarray(whole, dtype=np.uint8).view(np.ndarray)
    view.flags.writeable = False
    return view


def abstraction(
    puzzle: Puzzle,
    metric: str = "stm",
    *,
    classes=None,
    progress: Callable[[float, str], None] | None = None,
    cache: bool = True,
) -> Heuristic:
    """The abstraction heuristic of ``puzzle`` in ``metric`` (see the module): the relabelled
    goal's distance table is loaded from the cache, or built (``progress(fraction, message)``
    meanwhile) and cached."""
    metric = metric_name(metric)
    w, n = puzzle.width, puzzle.width * puzzle.height
    spaces = _spaces(puzzle, metric, classes)
    key = None
    if cache:
        from ..cache import cache_dir

        key = (puzzle.goal, metric, tuple(space.goal for space in spaces), str(cache_dir()))
        if key in LOADED:
            return LOADED[key]
    if cache:  # the missing tables built one at a time, each let go before the next is built
        for space in spaces:
            if DistanceTable.cached(space) is None:
                announce_build(space)
                goal_table(space, progress, metric)
        tables = [goal_table(space, progress, metric) for space in spaces]  # mapped files
    else:
        tables = [DistanceTable.build(space, cache=False) for space in spaces]
    images = goal_symmetries(puzzle.goal_codes, w, puzzle.height)
    ncodes = len(puzzle.labels) + 1
    views = len(spaces) * len(images)
    src = np.zeros((views, n), np.int64)
    classes_of = np.full((views, ncodes), -1, np.int64)
    table_of = np.zeros(views, np.int64)
    kinds = max(len(space.label_counts) for space in spaces)
    codes = max(space.kernel_args().smaller.shape[0] for space in spaces)
    radix = np.zeros((len(spaces), kinds), np.int64)
    smaller = np.zeros((len(spaces), codes, kinds), np.int64)
    md = np.zeros((len(spaces), kinds, n), np.int64)
    args = np.zeros((len(spaces), 7), np.int64)
    offset = 0
    for r, (space, table) in enumerate(zip(spaces, tables, strict=True)):
        g = space.kernel_args()
        k = len(g.label_counts)
        radix[r, :k] = g.radix
        smaller[r, : g.smaller.shape[0], :k] = g.smaller
        md[r, :k] = g.taxicab
        nibble = int(table.nibble)
        # four bits: an offset in entries, even (a byte holds two)
        args[r] = (g.per_blank, g.full, g.width, g.goal_blank, nibble, int(g.distinct), offset)
        offset += 2 * table.data.shape[0] if nibble else table.data.shape[0]
        merged = label_classes(puzzle, space.goal)
        values = {q: i for i, q in enumerate(space.puzzle.labels)}  # class -> the tile value
        for i, (cell_map, sigma) in enumerate(images):
            v = r * len(images) + i
            src[v, cell_map] = np.arange(n)  # the image's cell T(c) reads the board's cell c
            table_of[v] = r
            for code in range(1, ncodes):
                classes_of[v, code] = values[merged[sigma[code]]]
    if len({t.nibble for t in tables}) > 1:
        raise SlidelabError("the abstraction tables mix four-bit and byte entries")
    nibble = tables[0].nibble
    data = (
        _in_memory([t.data for t in tables]),
        (src, classes_of, table_of),
        (radix, smaller, md, args),
        bool(nibble),
    )

    def init(codes, max_depth):
        board = np.asarray(codes, np.int16)
        return data, int(abstraction_move(data, board, 0, 0, 0, 0, 0))

    names = " and ".join(repr(space.goal.format()) for space in spaces)
    positions = " + ".join(f"{space.states:,}" for space in spaces)
    heuristic = Heuristic(
        "abstraction",
        True,
        abstraction_move,
        init,
        f"exact {metric.upper()} distance of the goal relabelled as {names}"
        f" ({positions} positions), the largest over {len(images)} mirror image"
        + ("s" if len(images) != 1 else ""),
        metric=metric,
        # the same tables made elsewhere (a cluster's worker): the relabelled goals, if chosen
        options={} if classes is None else {"classes": [space.goal.format() for space in spaces]},
    )
    if key is not None:  # one set of tables per goal held: the stronger set replaces the first
        for other in [k for k in LOADED if (k[0], k[1], k[3]) == (key[0], key[1], key[3])]:
            del LOADED[other]
        LOADED[key] = heuristic
    return heuristic
