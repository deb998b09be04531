"""The heuristics, declared once.

Each :class:`HeuristicSpec` names a heuristic, its aliases, what it is, whether
optimal searches may use it, the boards it fits, the options it takes and the
function that builds it for a puzzle.  Everything else is derived from
:data:`HEURISTICS`: the command line's ``--heuristic`` choices and help, the web
page's menu and the API's validation, :func:`slidelab.heuristics.make_heuristic`,
the docs, and the contract test that every registered heuristic is admissible
where it says so.  This module imports no numba (the builder is named, and
imported when a heuristic is made), so front ends can read it at start-up.

To add a heuristic: write its module (a builder ``f(puzzle, **options) ->
Heuristic``, see :mod:`slidelab.heuristics.base`) and add one entry here.

Examples
--------
>>> heuristic_name("LC"), HEURISTICS["pdb"].options
('linear-conflict', ('partition',))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import _args
from .._lazy import load
from ..errors import SlidelabError


@dataclass(frozen=True)
class HeuristicSpec:
    """One heuristic as the rest of slidelab sees it.

    Attributes
    ----------
    name : str
        The canonical name (``--heuristic NAME``).
    summary : str
        One line for help texts and menus.
    builder : str
        ``"module:function"`` of the builder ``f(puzzle, **options) -> Heuristic``.
    admissible : bool
        Never overestimates: optimal searches may rely on it.
    boards : str
        The boards it fits, in words.
    aliases : tuple of str
        Other spellings accepted (case-insensitive).
    options : tuple of str
        The keyword options its builder takes besides the puzzle (e.g. ``partition``).
    family : str or None
        The family of tables it looks up (a name of
        :data:`slidelab.tables.registry.FAMILIES`), built once and cached: its builder also
        takes ``progress`` and ``cache``.  None: it needs no tables.
    largest : tuple of int or None
        The largest board it fits, ``(width, height)``; None: any.
    informed : bool
        It estimates anything at all (False for ``zero``: IDA* with it searches the whole
        space again for each bound).
    """

    name: str
    summary: str
    builder: str
    admissible: bool = True
    boards: str = "any board"
    aliases: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    family: str | None = None
    largest: tuple[int, int] | None = None
    informed: bool = True

    def load(self) -> Callable:
        """The builder function (its module is imported now)."""
        return load(self.builder)

    def tables(self):
        """The family of tables it looks up (:class:`slidelab.tables.family.Family`), or None."""
        from ..tables.registry import family

        return None if self.family is None else family(self.family)


#: every heuristic, by canonical name, in the order menus list them
HEURISTICS: dict[str, HeuristicSpec] = {
    spec.name: spec
    for spec in (
        HeuristicSpec(
            "manhattan",
            "sum of the tiles' grid distances to their goal cells"
            " (nearest cell for repeated labels)",
            "slidelab.heuristics.manhattan:manhattan",
            aliases=("md", "taxicab"),
        ),
        HeuristicSpec(
            "linear-conflict",
            "Manhattan plus two moves per tile that must leave its"
            " goal row or column to let another pass",
            "slidelab.heuristics.linear_conflict:linear_conflict",
            aliases=("lc", "linear", "linearconflict"),
        ),
        HeuristicSpec(
            "pdb",
            "additive disjoint pattern databases, maximised with their reflection"
            " (built once and cached)",
            "slidelab.heuristics.pdb:pdb",
            boards="any board; tables up to a few hundred MB (7-8 on the 15-puzzle)",
            aliases=("pattern", "pattern-database", "pattern-databases"),
            options=("partition",),
            family="pdb",
        ),
        HeuristicSpec(
            "pdb-dual",
            "pdb maxed with the dual look-up of the board with its blank walked home:"
            " a fifth fewer nodes, five times the search time (distinct tiles)",
            "slidelab.heuristics.pdb.dual:pdb_dual",
            boards="pdb's; on boards with repeated labels it is pdb",
            aliases=("dual", "pdb+dual"),
            options=("partition",),
            family="pdb",
        ),
        HeuristicSpec(
            "abstraction",
            "exact distance of the goal with its tiles merged into classes (on the"
            " 15-puzzle a relabelling after Rokicki's), the largest over the tables and"
            " the board's mirror images; counted in the search's metric (strong in MTM;"
            " built once and cached)",
            "slidelab.heuristics.abstraction:abstraction",
            boards="any board; a table of up to 200 million positions (one of 1.5 billion on"
            " the 15-puzzle, in two bits: 378 MB)",
            aliases=("abs", "relabelling", "relabeling"),
            options=("metric", "classes"),
            family="abstraction",
        ),
        HeuristicSpec(
            "walking-distance",
            "vertical plus horizontal moves of the rows' and columns' tile counts,"
            " counted in the search's metric (strong in MTM)",
            "slidelab.heuristics.walking:walking_distance",
            boards="boards whose row and column counts fit a 64-bit code (up to 4x4)",
            aliases=("wd", "walking"),
            options=("metric",),
            largest=(4, 4),
        ),
        HeuristicSpec(
            "zero",
            "no estimate: A* becomes uniform-cost search, IDA* iterative deepening",
            "slidelab.heuristics.manhattan:zero",
            aliases=("none",),
            informed=False,
        ),
    )
}

_BY_ALIAS = {alias: spec.name for spec in HEURISTICS.values() for alias in spec.aliases}


def known_heuristic(word: str) -> str | None:
    """The canonical name of the heuristic ``word`` names (a name or an alias, in any case,
    spaces around), or None.

    >>> known_heuristic(" WD "), known_heuristic("euclid")
    ('walking-distance', None)
    """
    key = word.strip().lower()
    key = _BY_ALIAS.get(key, key)
    return key if key in HEURISTICS else None


def heuristic_name(name: str) -> str:
    """The canonical name of a heuristic (aliases such as ``lc`` accepted), or an error listing them.

    >>> heuristic_name(" Manhattan ")
    'manhattan'
    >>> heuristic_name("euclid")
    Traceback (most recent call last):
    ...
    slidelab.errors.SlidelabError: unknown heuristic 'euclid'; choose from manhattan, linear-conflict, pdb, ..., zero
    """
    key = known_heuristic(_args.text(name, "heuristic"))
    if key is None:
        raise SlidelabError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")
    return key
