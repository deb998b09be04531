"""Search algorithms, one per module, and :func:`solve`, which picks among them."""

from ._common import Limits
from .astar import astar, best_first_search, weighted_astar
from .bfs import bfs
from .bidirectional import bidirectional_bfs
from .idastar import idastar
from .solve import METHODS, choose_method, solve

__all__ = ["Limits", "METHODS", "astar", "best_first_search", "bfs", "bidirectional_bfs",
           "choose_method", "idastar", "solve", "weighted_astar"]
