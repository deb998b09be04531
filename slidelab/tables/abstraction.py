"""Abstraction tables: the distance tables of the goal with its tiles merged into classes.

Relabel the goal so that several tiles share a label (a *class*): every real move is a move of
the relabelled board, so the relabelled board's exact distance (in either metric) never exceeds
the real one.  That distance is read from the relabelled goal's distance table
(:class:`~slidelab.tables.distance.DistanceTable`: the whole space searched once by the
layered engine on every core, and cached); the heuristic that looks positions up in them is
:mod:`slidelab.heuristics.abstraction`.

**Symmetric images.**  A reflection ``T`` of the board that maps the goal onto itself up to
renaming its labels (``goal[T c] = sigma(goal[c])``) maps every position to one as far from the
goal; its relabelling is another lower bound, read from the same table (:func:`goal_symmetries`).

**Classes.**  On a 4x4 board of distinct tiles whose blank is in a corner, two tables
(:data:`FIFTEEN_TABLES`, turned to the blank's corner): ``1 2 3 3/4 4 3 3/4 4 5 5/4 5 5 0``,
Tomas Rokicki's relabelling ``1 1 2 2/3 3 2 2/3 3 4 4/3 4 4 0`` with its pair of tiles apart
(302,702,400 positions, a byte each, against his 151,351,200), and the rows'
``1 1 1 1/2 2 2 2/3 3 3 4/3 3 5 0`` (as many); ``auto`` climbs :data:`FIFTEEN_LADDER`.
Elsewhere the labels in goal order, cut into the most classes whose space has at most
:data:`MAX_STATES` positions (every label its own class, the exact table, where the whole space
fits).  A label is never split: a class is a union of labels.  ``classes`` takes one relabelled
goal, or a list of them.

Examples
--------
>>> from slidelab import Puzzle
>>> abstraction_goal(Puzzle("8 6 7/2 5 4/3 0 1"))
Board('1 2 3/4 5 6/7 8 0')
>>> FAMILY.sets(Board("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "mtm")[:2]
(('1 2 3 3/4 4 3 3/4 4 5 5/4 5 5 0',), ('1 2 3 3/4 4 3 3/4 4 5 5/6 5 5 0',))
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..board import Board
from ..errors import SlidelabError
from ..moves import metric_name
from ..puzzle import Puzzle
from .family import Family, Part, Tables, goal_argument, goal_words
from .index import MAX_TILES, Space

#: the most positions an automatic relabelling's table may have
MAX_STATES = 200_000_000
#: Tomas Rokicki's relabelling of the 15-puzzle, the blank in the bottom-right corner (151,351,200
#: positions)
ROKICKI = (1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 3, 4, 4, 0)
#: Rokicki's with its pair of tiles apart (302,702,400 positions, 76 MB in two bits; built in
#: 30 s on 2 cores): 1.5 to 4 times fewer nodes than his on four random 15-puzzles
#: (``benchmarks/mtm_heuristics.py``); the first rung of :data:`FIFTEEN_LADDER`
FIFTEEN = (1, 2, 3, 3, 4, 4, 3, 3, 4, 4, 5, 5, 4, 5, 5, 0)
#: by rows: the first, the second, the last two but for their last tiles, and those two apart
#: (302,702,400 positions too)
ROWS = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 3, 3, 5, 0)
#: :data:`FIFTEEN` with tile 13 apart too (1,513,512,000 positions, 378 MB in two bits; built in
#: 149 s on the quiet 2-core machine, 2 GB at its peak)
FINE = (1, 2, 3, 3, 4, 4, 3, 3, 4, 4, 5, 5, 6, 5, 5, 0)
#: the relabellings of the 15-puzzle's default set, the estimate the largest over them and their
#: transposes: the set ``--heuristic abstraction`` and ``slidelab tables build`` make.
#: :data:`FINE` alone: against :data:`FIFTEEN` and :data:`ROWS` (the default before the tables
#: were kept in two bits: 605 MB then), the antipode in 19.5 s instead of 95 s and 100 random
#: 15-puzzles in 5.6 s instead of 9.2 (``benchmarks/mtm.py``, docs/benchmarks.md#mtm)
FIFTEEN_TABLES = (FINE,)
#: the sets of tables ``auto`` climbs on the 15-puzzle (:func:`ladder_sets`), weakest first: the
#: last with :data:`ROWS` beside :data:`FINE` (454 MB; the antipode in 13.7 s)
FIFTEEN_LADDER = ((FIFTEEN,), FIFTEEN_TABLES, (FINE, ROWS))
#: the most positions of a table of classes asked for
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
        if not classes:
            raise SlidelabError(
                "classes is empty: give a relabelled goal, a list of them, or None (the"
                " automatic ones)"
            )
        for i, one in enumerate(classes):
            if one is None:
                raise SlidelabError(
                    f"classes[{i}] is None: each of a list of classes is a relabelled goal"
                    " (None, the automatic ones, goes alone)"
                )
        return [abstraction_goal(puzzle, one) for one in classes]
    return [abstraction_goal(puzzle, classes)]


def spaces(puzzle: Puzzle, metric: str, classes=None) -> list[Space]:
    """The relabelled goals' spaces (``classes``, or the automatic ones) in ``metric``, each
    refused when too large for a table."""
    tiles = puzzle.width * puzzle.height - 1
    if tiles > MAX_TILES:  # whatever the classes: refused before they are chosen
        raise SlidelabError(
            f"abstraction tables are for boards of at most {MAX_TILES} tiles (their positions"
            f" are ranked in 64 bits); the {puzzle.size} board has {tiles:,}"
        )
    spaces = []
    for relabelled in abstraction_goals(puzzle, _classes(classes)):
        space = Space(relabelled, metric_name(metric))  # its tiles: the board's, checked above
        if space.states > MAX_TABLE_STATES:
            raise SlidelabError(
                f"the abstraction {relabelled.format()!r} has {space.states:,} positions,"
                f" over the {MAX_TABLE_STATES:,} of a table; choose fewer classes"
            )
        spaces.append(space)
    return spaces


def ladder_sets(goal: Board, metric: str = "mtm") -> tuple:
    """The sets of relabelled goals ``auto`` climbs through on ``goal``, weakest first (boards):
    on the 15-puzzle those of :data:`FIFTEEN_LADDER` (:data:`FIFTEEN`, built in 30 s on 2 cores;
    then :data:`FINE`, in 149 s; then :data:`ROWS` beside it, in 21 s), each where its build and
    its tables fit the memory
    (:func:`slidelab.memory.default_max_bytes`); elsewhere none."""
    named_sets = tuple(tuple(tuple(one) for one in named) for named in FIFTEEN_LADDER)
    return _ladder(goal, metric_name(metric), named_sets)


@functools.lru_cache(maxsize=64)
def _ladder(goal: Board, metric: str, named_sets: tuple) -> tuple:
    """:func:`ladder_sets` of a goal: the same for every board of a stream, so worked out once
    (sizing each rung's spaces takes milliseconds, a few percent of a typical solve)."""
    from ..memory import default_max_bytes
    from .budget import estimate
    from .distance import table_bytes

    puzzle = Puzzle(goal, goal)
    rungs: list = []
    for named in named_sets:
        patterns = named_relabellings(puzzle, named)
        if patterns is None:
            return ()
        boards = tuple(Board.from_cells(p, puzzle.width, puzzle.height) for p in patterns)
        found = spaces(puzzle, metric, boards)
        held = sum(table_bytes(space) for space in found)
        building = max(estimate(space, table=True).bytes for space in found)
        if rungs and held + building > default_max_bytes():
            break
        rungs.append(boards)
    return tuple(rungs)


class AbstractionFamily(Family):
    """Abstraction tables: the distance tables of the goal relabelled into classes, one table a
    relabelling, in the search's metric."""

    name = "abstraction"
    option = "classes"
    default_metric = "mtm"  # the search they serve best

    def parts(self, tables: Tables) -> list[Part]:
        from .distance import FAMILY as DISTANCE

        parts = []
        for space in spaces(tables.puzzle, tables.metric, tables.which):
            (part,) = DISTANCE.parts(Tables("distance", space.goal, space.metric))
            part.what = f"the table of the goal relabelled {space.goal.format()}"
            parts.append(part)
        return parts

    def sets(self, goal: Board, metric: str) -> tuple:
        """On the 15-puzzle (:data:`FIFTEEN_LADDER`), each set as its relabelled goals' texts;
        elsewhere none (``auto`` searches other boards with pattern databases)."""
        return tuple(tuple(b.format() for b in boards) for boards in ladder_sets(goal, metric))

    def describe(self, tables: Tables) -> str:
        found = spaces(tables.puzzle, tables.metric, tables.which)
        count = (
            "the abstraction table" if len(found) == 1 else f"the {len(found)} abstraction tables"
        )
        positions = " + ".join(f"{space.states:,}" for space in found)
        metric = tables.metric.upper()
        return f"{count} of {goal_words(tables.goal)} ({metric}, {positions} positions)"

    def command(self, tables: Tables) -> str:
        how = (
            f"slidelab tables build {goal_argument(tables.goal)} --family abstraction"
            f" --metric {tables.metric}"
        )
        if tables.which is not None:
            how += "".join(f" --classes '{goal}'" for goal in tables.which)
        return how


def _classes(which):
    """A set's ``which`` (relabelled goals' texts, a tuple) as the ``classes`` the functions
    above take (a list of them); anything else as it is."""
    return list(which) if isinstance(which, tuple) else which


FAMILY = AbstractionFamily()
