"""The table families, declared once: which there are, and the named sets ``auto`` climbs.

Every table slidelab builds by breadth-first search is one family's
(:class:`~slidelab.tables.family.Family`; one set of its tables is a
:class:`~slidelab.tables.family.Tables`):

``distance``
    the goal's distance table: every position's exact distance (:mod:`slidelab.tables.distance`);
``pdb``
    additive pattern databases: a table per group of tiles (:mod:`slidelab.tables.pdb`);
``abstraction``
    the distance tables of the goal with its tiles merged into classes
    (:mod:`slidelab.tables.abstraction`).

A heuristic that looks tables up names its family (``HeuristicSpec.family``); the ``table``
method reads the ``distance`` family's.  This module imports no numba (families are named as
``"module:attribute"`` and loaded on first use), so the front ends read it at start-up.

Examples
--------
>>> family("pdb").option, family("abstraction").option, family("distance").option
('partition', 'classes', None)
"""

from __future__ import annotations

import functools

from .._lazy import load

#: every family, by name: where its :class:`~slidelab.tables.family.Family` is
FAMILIES = {
    "pdb": "slidelab.tables.pdb:FAMILY",
    "distance": "slidelab.tables.distance:FAMILY",
    "abstraction": "slidelab.tables.abstraction:FAMILY",
}
#: one line on each, for help texts (without loading them)
SUMMARIES = {
    "pdb": "pattern databases (a table per group of tiles)",
    "distance": "the goal's distance table (every position's exact distance)",
    "abstraction": "the distance tables of the goal with its tiles merged into classes",
}


@functools.cache
def family(name: str):
    """The family ``name`` (a key of :data:`FAMILIES`), its module imported now."""
    return load(FAMILIES[name])


#: each board's named pattern-database partitions, weakest (and quickest to build) first:
#: ``auto`` starts at the first and climbs a rung when its search is expected to take longer
#: than the next rung's build (the groups are in :mod:`slidelab.tables.pdb.layout`)
PARTITION_LADDER = {(4, 4): ("6-6-3", "7-7-1", "7-8"), (5, 5): ("6-6-6-6",)}
#: what ``--partition`` takes, for help and error texts
PARTITION_HELP = (
    ", ".join(f"{'/'.join(names)} ({w}x{h})" for (w, h), names in PARTITION_LADDER.items())
    + ", full, auto or '1,2,3/4,5,...'"
)

__all__ = ["FAMILIES", "PARTITION_HELP", "PARTITION_LADDER", "SUMMARIES", "family"]
