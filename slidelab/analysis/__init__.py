"""State-space analysis: statistics of a whole space, its plot, and the search on a cluster.

The search itself and the tables it makes are the tables' layer's (:mod:`slidelab.tables`:
the numbering of positions, the two-bit layered search, partitions, distance tables); here:

- :mod:`.stats`: :func:`analyze` and :class:`SpaceStats` (positions by distance, the hardest);
- :mod:`.cluster_space`: the partitions of :mod:`slidelab.tables.partition` on a Dask cluster, one
  a worker;
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
    "stats": ["SpaceStats", "analyze"],
    # the tables' layer's, reached from here too (``.tables.x`` is ``slidelab.tables.x``)
    ".tables.budget": ["Estimate", "SpaceTooLargeError", "estimate"],
    ".tables.distance": ["DistanceTable"],
}

__all__ = sorted(name for names in _EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

if TYPE_CHECKING:
    from ..tables.budget import Estimate, SpaceTooLargeError, estimate
    from ..tables.distance import DistanceTable
    from .stats import SpaceStats, analyze
