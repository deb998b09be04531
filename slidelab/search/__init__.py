"""Search algorithms, one per module, declared in :mod:`.registry`, and :func:`solve`, which
picks among them.

The names below are imported on first use (PEP 562): :mod:`.registry` and
:mod:`.options` (the method table and the checked options) load without numba,
so the command line and the web server can read them at start-up.  Several
functions share their module's name (``bfs``, ``astar``, ``idastar``,
``constructive``): the package attribute is the function, as
``from slidelab.search import bfs`` expects; the module is
``sys.modules["slidelab.search.bfs"]`` (``importlib.import_module``).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "astar": ["astar", "best_first_search", "weighted_astar"],
    "at_distance": ["positions_at_distance"],
    "bfs": ["bfs"],
    "bidirectional": ["bidirectional_bfs"],
    "bidirectional_astar": ["bidirectional_astar"],
    "constructive": ["constructive"],
    "count": ["count_solutions"],
    "hint": ["Hint", "hint"],
    "idastar": ["idastar", "idastar_all"],
    "limits": ["Limits"],
    "many": ["solve_many"],
    "optimize": ["optimize"],
    "options": ["SearchOptions", "check_options"],
    "request": ["Request", "read_request"],
    "registry": ["METHODS", "Method", "method_name"],
    "review": ["Review", "review"],
    "solve": ["choose_method", "prepare", "prepare_request", "solve", "solve_all", "solve_request"],
    "table": ["solve_by_table"],
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_WHERE)
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


class _Package(types.ModuleType):
    """The package, keeping an exported function's name for the function: importing a
    submodule of the same name would otherwise set the module in its place."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and name in _WHERE:
            return  # the submodule stays in sys.modules; the name resolves to the function
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:
    from .astar import astar, best_first_search, weighted_astar
    from .at_distance import positions_at_distance
    from .bfs import bfs
    from .bidirectional import bidirectional_bfs
    from .bidirectional_astar import bidirectional_astar
    from .constructive import constructive
    from .count import count_solutions
    from .hint import Hint, hint
    from .idastar import idastar, idastar_all
    from .limits import Limits
    from .many import solve_many
    from .optimize import optimize
    from .options import SearchOptions, check_options
    from .registry import METHODS, Method, method_name
    from .request import Request, read_request
    from .review import Review, review
    from .solve import choose_method, prepare, prepare_request, solve, solve_all, solve_request
    from .table import solve_by_table
