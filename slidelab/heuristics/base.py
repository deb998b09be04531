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
    options : dict
        The builder's options that make this same estimate for another goal of the
        same tiles: ``make_heuristic(other, name, **options)`` (pattern databases:
        their groups, as lists of labels; the others take none).  Bidirectional
        searches build the backward estimate (the distance to the start) this way.
    """

    name: str
    admissible: bool
    move: Callable
    init: Callable
    description: str = ""
    options: dict = field(default_factory=dict)

    def prepare(self, codes: np.ndarray, max_depth: int):
        """``(data, h0)`` for a search from ``codes`` no deeper than ``max_depth``."""
        return self.init(np.asarray(codes, dtype=np.int16), int(max_depth))

    def value(self, codes) -> int:
        """The estimate of one board (label codes)."""
        return int(self.prepare(codes, 1)[1])

    def __repr__(self):
        return f"<Heuristic {self.name}{'' if self.admissible else ' (inadmissible)'}>"
