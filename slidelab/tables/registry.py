"""The table families, declared once: what each is, and the named sets ``auto`` climbs.

This module imports no numba, so the front ends read it at start-up.
"""

from __future__ import annotations

#: each board's named pattern-database partitions, weakest (and quickest to build) first:
#: ``auto`` starts at the first and climbs a rung when its search is expected to take longer
#: than the next rung's build (the groups are in :mod:`slidelab.tables.pdb.layout`)
PARTITION_LADDER = {(4, 4): ("6-6-3", "7-7-1", "7-8"), (5, 5): ("6-6-6-6",)}
#: what ``--partition`` takes, for help and error texts
PARTITION_HELP = (
    ", ".join(f"{'/'.join(names)} ({w}x{h})" for (w, h), names in PARTITION_LADDER.items())
    + ", full, auto or '1,2,3/4,5,...'"
)
