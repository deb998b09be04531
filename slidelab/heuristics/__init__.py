"""Heuristics: admissible estimates of the distance to the goal, selectable by name.

The heuristics are declared in :mod:`slidelab.heuristics.registry` (name, aliases,
builder, admissibility, the boards it fits); :func:`~.make.make_heuristic` builds
one for a puzzle from its entry (names here are imported on first use, so the
registry loads without numba).  Each is a compiled move function that updates the
estimate per move (see :mod:`slidelab.heuristics.base`):

``manhattan``
    Tile distances to their goal cells (nearest cell for repeated labels).
``linear-conflict``
    Manhattan plus two moves per tile that must leave its goal row or column.
``pdb``
    Additive disjoint pattern databases, maximised with their reflection on
    symmetric square goals (default partitions: 3x3 one full table, 4x4 6-6-3,
    ``7-7-1`` and ``7-8`` selectable; automatic elsewhere).
``zero``
    No estimate (uniform-cost search / iterative deepening).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "base": ["Heuristic"],
    "make": ["heuristic_table", "make_heuristic"],
    "manhattan": ["manhattan_table", "table_sum"],
    "registry": ["HEURISTICS", "HeuristicSpec", "heuristic_name"],
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_WHERE)
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


if TYPE_CHECKING:
    from .base import Heuristic
    from .make import heuristic_table, make_heuristic
    from .manhattan import manhattan_table, table_sum
    from .registry import HEURISTICS, HeuristicSpec, heuristic_name
