"""slidelab: solve, check, generate and analyse sliding-tile puzzles of any size.

Examples
--------
>>> import slidelab
>>> s = slidelab.solve("8 6 7/2 5 4/3 0 1")
>>> s.length, s.optimal
(31, True)
>>> slidelab.check("1 2 3/4 5 6/8 7 0").solvable
False

The public names are imported on first use (PEP 562), so ``import slidelab``
is quick and loads neither numpy nor numba; ``slidelab.solve`` loads the
search modules (and numba) the first time it is looked up.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

__version__ = "0.1.0"

#: the public API: name -> the submodule that defines it.  Value types, the front doors
#: (solve, check, generate, analyze, batch), the two registries and the errors; helpers are
#: reached from their modules (``slidelab.moves.stm``, ``slidelab.ranking.permutation_rank``,
#: ``slidelab.search.idastar``, ``slidelab.heuristics.make_heuristic``...)
_EXPORTS = {
    "analysis": ["SpaceStats", "analyze"],
    "batch": ["read_instances", "solve_batch"],
    "board": ["Board", "apply_moves"],
    "errors": [
        "ArgumentError",
        "BoardError",
        "CacheError",
        "ClusterError",
        "IllegalMoveError",
        "MismatchError",
        "ParseError",
        "SearchInterrupted",
        "SearchLimitError",
        "SearchTooLong",
        "SlidelabError",
        "SpaceTooLargeError",
        "UnsolvableError",
    ],
    "generate": ["fix_parity", "iter_random_boards", "random_board", "random_boards", "scramble"],
    "heuristics": ["HEURISTICS"],
    "moves": ["Move", "format_moves", "invert", "parse_moves", "simplify"],
    "puzzle": ["Puzzle"],
    "search": [
        "METHODS",
        "Request",
        "SearchOptions",
        "positions_at_distance",
        "prepare",
        "read_request",
        "count_solutions",
        "hint",
        "optimize",
        "review",
        "solve",
        "solve_all",
        "solve_many",
    ],
    "solution": ["Solution", "Stats"],
    "solvability": ["Check", "check", "is_solvable"],
    "tables": ["DistanceTable"],
}
#: names that were public before the API was thinned, still reachable here (not in ``__all__``,
#: ``dir()`` or the docs) so that existing code keeps working; new code imports them from
#: their modules
_REACHABLE = {
    "batch": ["Instance", "ResultsFile", "summarize"],
    "heuristics": ["Heuristic", "heuristic_table", "make_heuristic", "manhattan_table"],
    "moves": ["expand", "moved_tiles", "mtm", "runs", "stm"],
    "parse": ["parse_cells", "parse_size"],
    "ranking": [
        "count_arrangements",
        "multiset_rank",
        "multiset_unrank",
        "permutation_rank",
        "permutation_unrank",
    ],
    "search": [
        "Limits",
        "astar",
        "best_first_search",
        "bfs",
        "bidirectional_bfs",
        "constructive",
        "idastar",
        "weighted_astar",
    ],
}
__all__ = sorted(name for names in _EXPORTS.values() for name in names)
_WHERE = {
    name: module
    for table in (_EXPORTS, _REACHABLE)
    for module, names in table.items()
    for name in names
}


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    elif not name.startswith("__") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        value = importlib.import_module(f".{name}", __name__)  # ``slidelab.search`` etc.
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # the public names, for type checkers and IDEs
    from .analysis import SpaceStats, analyze
    from .batch import read_instances, solve_batch
    from .board import Board, apply_moves
    from .errors import (
        ArgumentError,
        BoardError,
        CacheError,
        ClusterError,
        IllegalMoveError,
        MismatchError,
        ParseError,
        SearchInterrupted,
        SearchLimitError,
        SearchTooLong,
        SlidelabError,
        SpaceTooLargeError,
        UnsolvableError,
    )
    from .generate import fix_parity, iter_random_boards, random_board, random_boards, scramble
    from .heuristics import HEURISTICS
    from .moves import Move, format_moves, invert, parse_moves, simplify
    from .puzzle import Puzzle
    from .search import (
        METHODS,
        Request,
        SearchOptions,
        positions_at_distance,
        prepare,
        read_request,
        solve,
        solve_all,
        solve_many,
    )
    from .solution import Solution, Stats
    from .solvability import Check, check, is_solvable
    from .tables import DistanceTable
