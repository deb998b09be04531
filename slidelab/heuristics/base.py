"""The :class:`Heuristic` interface shared by every estimate.

A heuristic is a compiled *move* function plus the arrays it works on::

    new_h = move(data, board, depth, h, tile, frm, to)

called by a search kernel right after ``tile`` slid from cell ``frm`` to cell
``to`` on ``board`` (a path of ``depth`` moves led to the board before the
move).  Estimates that keep per-node state (line conflicts, pattern database
entries) store it in rows of a stack inside ``data`` indexed by depth: the
move reads row ``depth`` and writes row ``depth + 1``, so undoing a move costs
nothing.  :meth:`Heuristic.prepare` allocates those stacks and fills row 0 for
the start board.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Heuristic:
    """An admissible (or not) estimate of the distance to the goal.

    Attributes
    ----------
    name : str
    admissible : bool
        True when it never overestimates: optimal searches may use it.
    move : numba dispatcher
        ``move(data, board, depth, h, tile, frm, to) -> new h``.
    init : callable
        ``init(codes, max_depth) -> (data, h0)``: the kernel arrays and the
        start board's estimate.
    description : str
    metric : str
        The metric whose moves it estimates (``stm`` or ``mtm``): it is admissible (if
        ``admissible``) for searches in that metric.
    divisor : int
        The search's estimate is ``ceil(h / divisor)`` of the value the move function keeps.
        An STM estimate used in MTM is divided by the most tiles one move slides
        (:func:`slidelab.moves.reach`): a multi-tile move is at most that many single-tile
        moves, so the quotient never overestimates the MTM distance.
    options : dict
        The builder's options that make this same estimate for another goal of the
        same tiles: ``make_heuristic(other, name, **options)`` (pattern databases:
        their groups, as lists of labels; the others take none).  Bidirectional
        searches build the backward estimate (the distance to the start) this way.
    table : numpy.ndarray or None
        ``table[code, cell]`` where the estimate is a sum of one entry per tile (Manhattan,
        none): searches in Python add it up themselves; None for the others.
    """

    name: str
    admissible: bool
    move: Callable
    init: Callable
    description: str = ""
    metric: str = "stm"
    divisor: int = 1
    options: dict = field(default_factory=dict)
    table: np.ndarray | None = field(default=None, repr=False, compare=False)

    def prepare(self, codes: np.ndarray, max_depth: int):
        """``(data, h0)`` for a search from ``codes`` no deeper than ``max_depth`` single-tile
        moves (``h0`` is the move function's value: divide it by :attr:`divisor`)."""
        return self.init(np.asarray(codes, dtype=np.int16), int(max_depth))

    def admissible_in(self, metric: str) -> bool:
        """Never overestimates a distance in ``metric``.  An MTM estimate is admissible in STM
        too (a path of single-tile moves is at least as long in STM as in MTM), not the other
        way round."""
        return self.admissible and self.metric in (metric, "mtm")

    def estimate(self, h: int) -> int:
        """The search's estimate from the move function's value ``h``."""
        return h if self.divisor == 1 else -(-int(h) // self.divisor)

    def value(self, codes) -> int:
        """The estimate of one board (label codes), in moves of :attr:`metric`."""
        return self.estimate(int(self.prepare(codes, 1)[1]))

    def __repr__(self):
        metric = "" if self.metric == "stm" else f" ({self.metric})"
        return f"<Heuristic {self.name}{metric}{'' if self.admissible else ' (inadmissible)'}>"
