"""Every table made by breadth-first search, and what it costs: the layer below the heuristics.

The whole-space search and its tables:

- :mod:`.driver`: the two-bit breadth-first layer driver (push and pull) the whole-space walks run on;
- :mod:`.index`: the numbering of positions (blank cell, rank of the tiles), one position with
  numpy; :mod:`.index_kernels`: the kernels that walk it;
- :mod:`.layers`: the two-bit-per-state parallel breadth-first search of a whole space;
- :mod:`.partition`: the same search split into partitions by rank, each with its own codes;
- :mod:`.pack`: the search's depths packed into a table's encoding;
- :mod:`.budget`: what a whole-space search costs, and refusing what does not fit;
- :mod:`.distance`: :class:`DistanceTable` (exact distances, optimal solving by descent);
- :mod:`.pdb`: pattern-database groups, their numbering and their builds (by sets of cells);
- :mod:`.registry`: the families of tables, declared once (no numba).

The names below are imported on first use (PEP 562), so reading a cached table imports no
compiled code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "budget": ["Estimate", "estimate"],
    "distance": ["DistanceTable"],
    "index": ["Space"],
}

__all__ = sorted(name for names in _EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

if TYPE_CHECKING:
    from .budget import Estimate, estimate
    from .distance import DistanceTable
    from .index import Space
