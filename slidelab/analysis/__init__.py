"""State-space analysis: complete breadth-first enumeration, distance tables, plots.

- :mod:`.index`: the numbering of positions (blank cell, rank of the tiles) and its kernels;
- :mod:`.layers`: the two-bit-per-state parallel breadth-first search;
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
"""

from .budget import Estimate, SpaceTooLargeError, estimate
from .stats import SpaceStats, analyze
from .table import DistanceTable

__all__ = ["DistanceTable", "Estimate", "SpaceStats", "SpaceTooLargeError", "analyze", "estimate"]
