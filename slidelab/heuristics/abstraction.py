"""The abstraction heuristic: the exact distance of the goal with its tiles merged into classes,
looked up in the relabelled goals' distance tables (:mod:`slidelab.tables.abstraction`).

Every real move is a move of the relabelled board, so a relabelled board's exact distance (in
either metric) never exceeds the real one: one look-up per table and per symmetric image of the
board (:func:`~slidelab.tables.abstraction.goal_symmetries`), through the multiset numbering of
:mod:`slidelab.tables.index`, and the estimate is the largest (on the 15-puzzle: two tables,
each on the board and its transpose, as Tomas Rokicki and the Rust crate slidy do).  The tables
come from the tables' layer (:class:`~slidelab.tables.family.Tables` of the ``abstraction``
family), the made heuristic is kept in the process's loaded tables
(:data:`slidelab.tables.loaded.LOADED`).

Examples
--------
>>> from slidelab import Puzzle
>>> puzzle = Puzzle("8 6 7/2 5 4/3 0 1")
>>> h = abstraction(puzzle, cache=False)
>>> h.value(puzzle.start_codes)
31
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..geometry import neighbour_table
from ..moves import metric_name
from ..puzzle import Puzzle
from ..tables.abstraction import goal_symmetries, label_classes, spaces
from ..tables.distance import DistanceTable
from ..tables.family import Tables
from ..tables.index import NIBBLE
from .abstraction_kernels import abstraction_move, root_values
from .base import Heuristic


def _joined(tables: list[np.ndarray]) -> np.ndarray:
    """The tables end to end as one plain read-only array (the kernel reads one): a table's
    mapped file as it is, several joined in memory."""
    whole = np.concatenate([np.asarray(t) for t in tables]) if len(tables) > 1 else tables[0]
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
    from ..tables.loaded import LOADED

    metric = metric_name(metric)
    found = spaces(puzzle, metric, classes)
    which = tuple(space.goal.format() for space in found)
    tables_set = Tables("abstraction", puzzle.goal, metric, which)
    if not cache:
        tables = [DistanceTable.build(space, cache=False) for space in found]
        return _heuristic(puzzle, metric, classes, found, which, tables)
    from ..cache import cache_dir

    key = (tables_set, str(cache_dir()))

    def make():
        # the missing tables built one at a time (announced), then mapped
        tables = [
            DistanceTable(space, data)
            for space, data in zip(found, tables_set.load(progress), strict=True)
        ]
        heuristic = _heuristic(puzzle, metric, classes, found, which, tables)
        # one set of tables per goal held: the stronger set replaces the first
        for other in LOADED.keys():
            held = other[0]
            if isinstance(held, Tables) and held.family == tables_set.family and other != key:
                if (held.goal, held.metric, other[1]) == (puzzle.goal, metric, key[1]):
                    LOADED.forget(other)
        return heuristic, tables_set.files(), sum(t.nbytes for t in tables)

    return LOADED.made(key, make)


def _heuristic(puzzle: Puzzle, metric: str, classes, found, which, tables) -> Heuristic:
    """The heuristic of the relabelled goals ``found`` (named ``which``), their distance
    ``tables`` loaded."""
    w, n = puzzle.width, puzzle.width * puzzle.height
    images = goal_symmetries(puzzle.goal_codes, w, puzzle.height)
    ncodes = len(puzzle.labels) + 1
    views = len(found) * len(images)
    src = np.zeros((views, n), np.int64)
    classes_of = np.full((views, ncodes), -1, np.int64)
    table_of = np.zeros(views, np.int64)
    kinds = max(len(space.label_counts) for space in found)
    codes = max(space.kernel_args().smaller.shape[0] for space in found)
    radix = np.zeros((len(found), kinds), np.int64)
    smaller = np.zeros((len(found), codes, kinds), np.int64)
    md = np.zeros((len(found), kinds, n), np.int64)
    args = np.zeros((len(found), 7), np.int64)
    before = 0  # bytes of the tables before this one, end to end
    for r, (space, table) in enumerate(zip(found, tables, strict=True)):
        g = space.kernel_args()
        k = len(g.label_counts)
        radix[r, :k] = g.radix
        smaller[r, : g.smaller.shape[0], :k] = g.smaller
        md[r, :k] = g.taxicab
        # the offset in the table's own entries (a byte holds 1, 2 or 4): aligned, as the
        # tables are joined at whole bytes
        per_byte = (1, 2, 4)[table.code]
        args[r] = (g.per_blank, g.full, g.width, g.goal_blank, table.code, int(g.distinct),
                   before * per_byte)  # fmt: skip
        before += table.data.shape[0]
        merged = label_classes(puzzle, space.goal)
        values = {q: i for i, q in enumerate(space.puzzle.labels)}  # class -> the tile value
        for i, (cell_map, sigma) in enumerate(images):
            v = r * len(images) + i
            src[v, cell_map] = np.arange(n)  # the image's cell T(c) reads the board's cell c
            table_of[v] = r
            for code in range(1, ncodes):
                classes_of[v, code] = values[merged[sigma[code]]]
    joined = (
        _joined([t.data for t in tables]),
        (src, classes_of, table_of),
        (radix, smaller, md, args),
        any(t.code == NIBBLE for t in tables),  # the Manhattan bound is wanted
    )
    nbr = neighbour_table(w, puzzle.height)
    reach = max(space.reach for space in found)

    def init(codes, max_depth):
        """The kernel's data, its rows of the views' distances (row 0 the board's), and the
        board's estimate."""
        board = np.asarray(codes, np.int16)
        data = (*joined, np.zeros((max_depth + 2, views), np.int64))
        return data, int(root_values(data, board, nbr, reach))

    names = " and ".join(repr(space.goal.format()) for space in found)
    positions = " + ".join(f"{space.states:,}" for space in found)
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
        options={} if classes is None else {"classes": list(which)},
    )
    return heuristic
