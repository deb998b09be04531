"""slidelab: solve, check, generate and analyse sliding-tile puzzles of any size.

Examples
--------
>>> import slidelab
>>> s = slidelab.solve("8 6 7/2 5 4/3 0 1")
>>> s.length, s.optimal
(31, True)
>>> slidelab.check("1 2 3/4 5 6/8 7 0").solvable
False
"""

from .board import Board
from .errors import (BoardError, IllegalMoveError, MismatchError, ParseError, SearchLimitError,
                     SlidelabError, UnsolvableError)
from .generate import fix_parity, random_board, random_boards, scramble
from .heuristics import HEURISTICS, Heuristic, heuristic_table, make_heuristic, manhattan_table
from .moves import (Move, apply_moves, expand, format_moves, invert, moved_tiles, mtm, parse_moves,
                    runs, simplify, stm)
from .parse import parse_cells, parse_size
from .puzzle import Puzzle
from .ranking import (count_arrangements, multiset_rank, multiset_unrank, permutation_rank,
                      permutation_unrank)
from .search import (METHODS, Limits, SearchInterrupted, astar, best_first_search, bfs,
                     bidirectional_bfs, constructive, idastar, solve, solve_all, weighted_astar)
from .solution import Solution, Stats
from .solvability import Check, check, is_solvable

__version__ = "0.1.0"

__all__ = [
    "Board", "BoardError", "Check", "HEURISTICS", "Heuristic", "make_heuristic", "IllegalMoveError", "Limits", "METHODS",
    "MismatchError", "Move", "ParseError", "Puzzle", "SearchLimitError", "SlidelabError",
    "Solution", "Stats", "UnsolvableError", "apply_moves", "astar", "best_first_search", "bfs",
    "bidirectional_bfs", "check", "count_arrangements", "expand", "fix_parity", "format_moves",
    "heuristic_table", "idastar", "invert", "is_solvable", "manhattan_table", "moved_tiles", "mtm",
    "multiset_rank", "multiset_unrank", "parse_cells", "parse_moves", "parse_size",
    "permutation_rank", "permutation_unrank", "random_board", "random_boards", "runs", "scramble",
    "simplify", "solve", "stm", "weighted_astar", "SearchInterrupted", "constructive", "solve_all",
]
