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

#: public name -> the submodule that defines it
_EXPORTS = {
    "analysis": ["DistanceTable", "SpaceStats", "analyze"],
    "batch": ["Instance", "ResultsFile", "read_instances", "solve_batch", "summarize"],
    "board": ["Board"],
    "errors": ["ArgumentError", "BoardError", "CacheError", "IllegalMoveError", "MismatchError",
               "ParseError", "SearchInterrupted", "SearchLimitError", "SlidelabError",
               "SpaceTooLargeError", "UnsolvableError"],
    "generate": ["fix_parity", "iter_random_boards", "random_board", "random_boards", "scramble"],
    "heuristics": ["HEURISTICS", "Heuristic", "heuristic_table", "make_heuristic", "manhattan_table"],
    "moves": ["Move", "apply_moves", "expand", "format_moves", "invert", "moved_tiles", "mtm",
              "parse_moves", "runs", "simplify", "stm"],
    "parse": ["parse_cells", "parse_size"],
    "puzzle": ["Puzzle"],
    "ranking": ["count_arrangements", "multiset_rank", "multiset_unrank", "permutation_rank",
                "permutation_unrank"],
    "search": ["METHODS", "Limits", "SearchOptions", "astar", "best_first_search", "bfs",
               "bidirectional_bfs", "constructive", "idastar", "prepare", "solve", "solve_all",
               "weighted_astar"],
    "solution": ["Solution", "Stats"],
    "solvability": ["Check", "check", "is_solvable"],
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_WHERE)


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


if TYPE_CHECKING:  # the same names, for type checkers and IDEs
    from .analysis import DistanceTable, SpaceStats, analyze
    from .batch import Instance, ResultsFile, read_instances, solve_batch, summarize
    from .board import Board
    from .errors import (ArgumentError, BoardError, CacheError, IllegalMoveError, MismatchError,
                         ParseError, SearchInterrupted, SearchLimitError, SlidelabError,
                         SpaceTooLargeError, UnsolvableError)
    from .generate import fix_parity, iter_random_boards, random_board, random_boards, scramble
    from .heuristics import HEURISTICS, Heuristic, heuristic_table, make_heuristic, manhattan_table
    from .moves import (Move, apply_moves, expand, format_moves, invert, moved_tiles, mtm,
                        parse_moves, runs, simplify, stm)
    from .parse import parse_cells, parse_size
    from .puzzle import Puzzle
    from .ranking import (count_arrangements, multiset_rank, multiset_unrank, permutation_rank,
                          permutation_unrank)
    from .search import (METHODS, Limits, SearchOptions, astar, best_first_search, bfs,
                         bidirectional_bfs, constructive, idastar, prepare, solve, solve_all,
                         weighted_astar)
    from .solution import Solution, Stats
    from .solvability import Check, check, is_solvable
