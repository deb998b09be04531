"""State-space analysis: complete breadth-first enumeration, distance tables, plots.

- :mod:`.index`: the numbering of positions (blank cell, rank of the tiles), one position with
  numpy; :mod:`.index_kernels`: the kernels that walk it;
- :mod:`.layers`: the two-bit-per-state parallel breadth-first search;
- :mod:`.partition`: the same search split into partitions by rank, each with its own codes;
- :mod:`.distributed`: the partitions on a Dask cluster, one a worker;
- :mod:`.pack`: the search's depths packed into a table's encoding;
- :mod:`.budget`: memory and time estimates, and refusing what does not fit;
- :mod:`.stats`: :func:`analyze` and :class:`SpaceStats`;
- :mod:`.table`: :class:`DistanceTable` (exact distances, optimal solving by descent);
- :mod:`.plot`: the distance distribution as a bar chart (matplotlib).

Examples
--------
>>> from slidelab.analysis import analyze
>>> st = analyze("3x3")
>>> st.states, st.diameter, [b.format() for b in st.hardest]
(181440, 31, ['6 4 7/8 5 0/3 2 1', '8 6 7/2 5 4/3 0 1'])

The names below are imported on first use (PEP 562), so reading a cached
table imports no compiled code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "budget": ["Estimate", "SpaceTooLargeError", "estimate"],
    "stats": ["SpaceStats", "analyze"],
    "table": ["DistanceTable"],
}

__all__ = sorted(name for names in _EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

if TYPE_CHECKING:
    from .budget import Estimate, SpaceTooLargeError, estimate
    from .stats import SpaceStats, analyze
    from .table import DistanceTable
