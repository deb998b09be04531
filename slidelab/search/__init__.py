"""Search algorithms, one per module, and :func:`solve`, which picks among them."""

from ._common import Limits
from .astar import astar, best_first_search, weighted_astar
from .bfs import bfs
from .bidirectional import bidirectional_bfs
from .idastar import SearchInterrupted, idastar, idastar_all
from .constructive import constructive
from .solve import METHODS, choose_method, prepare, solve, solve_all

__all__ = ["Limits", "METHODS", "SearchInterrupted", "astar", "best_first_search", "bfs",
           "bidirectional_bfs", "choose_method", "constructive", "idastar", "idastar_all", "solve",
           "prepare", "solve_all", "weighted_astar"]
