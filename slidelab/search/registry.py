"""The search methods, declared once.

Each :class:`Method` names a method, its aliases, what it does, whether it
claims optimal solutions, the search options it takes, what it needs built
before its clock starts, and the function that runs it.  Everything else is
derived from :data:`METHODS`: :func:`slidelab.solve`'s dispatch and option
checks, the command line's ``--method`` help, the web page's menu and the API's
validation, batch, the docs, and the contract test that runs every registered
method.  This module imports no numba (the function is named, and imported
when the method runs), so front ends can read it at start-up.

To add a method: write its module (a function ``f(puzzle, *, limits, ...)``
returning a :class:`~slidelab.solution.Solution`, taking ``heuristic`` and
``weight`` keywords if it declares them) and add one entry here.

Examples
--------
>>> method_name("IDA*"), METHODS["idastar"].optimal, METHODS["bfs"].options
('idastar', True, ())
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import _args
from .._lazy import load
from ..errors import SlidelabError
from ..moves import METRICS

#: the options that shape a search (limits apply to every method)
SHAPING_OPTIONS = ("heuristic", "partition", "weight")


@dataclass(frozen=True)
class Method:
    """One search method as the rest of slidelab sees it.

    Attributes
    ----------
    name : str
        The canonical name (``--method NAME``).
    summary : str
        One line for help texts and menus.
    function : str or None
        ``"module:function"`` run as ``f(puzzle, limits=..., **options)``; None for
        ``auto``, which picks another method per board (:func:`~.solve.choose_method`).
    optimal : bool
        Its solutions are proven shortest (with weight 1 and an admissible heuristic).
    aliases : tuple of str
        Other spellings accepted (case-insensitive).
    options : tuple of str
        Which of :data:`SHAPING_OPTIONS` it takes (``time_limit``, ``max_states`` and
        ``max_bytes`` apply to all).
    tables : str or None
        What is built or loaded before its clock starts: ``"heuristic"`` (the
        heuristic, passed as ``heuristic=``) or ``"distance"`` (the goal's
        distance table, passed as ``table=``).
    stores : bool
        A *storing* search: its memory grows with the states it keeps (BFS,
        bidirectional BFS, A*), so ``max_states`` and ``max_bytes`` bound it, and
        :func:`~.many.solve_many` runs one at a time.  The others keep a path.
    metrics : tuple of str
        The metrics it searches in (:data:`slidelab.moves.METRICS`): its function
        takes ``metric=`` and, if ``optimal``, is optimal in each of them.
    cluster : bool
        It runs on a Dask cluster (the ``scheduler`` option): its function takes ``split=``,
        the runner of its iterations' subtrees (:mod:`slidelab.search.cluster_idastar`).  IDA*,
        and ``auto`` where it picks IDA*.
    records : bool
        It records the nodes it visits for playing its search back when asked
        (:attr:`~.limits.Limits.record`: A*'s expansions, a breadth-first search's layers).
    compile_seconds : float
        Seconds of one core compiling its kernels from nothing (with Manhattan distance or
        linear conflict, in one metric), on the 2-core development machine: the compile
        notice's estimate.
    compile_with : tuple of (str, float)
        The same with a heuristic whose look-ups inline far more code, where measured
        (``python benchmarks/estimates.py``'s search rows: the search's kernels compiled from
        nothing after its heuristic's tables were built, on the 8-puzzle's hardest; fitted to
        A* with pattern databases 17.0 s, IDA* with them 6.0 s, IDA* with abstraction tables in
        MTM 15.9 s, the machine idle).
    """

    name: str
    summary: str
    function: str | None
    optimal: bool
    aliases: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    tables: str | None = None
    stores: bool = False
    metrics: tuple[str, ...] = METRICS
    cluster: bool = False
    records: bool = False
    compile_seconds: float = 0.0
    compile_with: tuple[tuple[str, float], ...] = ()

    def compile_model(self, heuristic: str | None) -> float:
        """:attr:`compile_seconds`, or :attr:`compile_with`'s seconds for ``heuristic``."""
        return dict(self.compile_with).get(heuristic or "", self.compile_seconds)

    def load(self) -> Callable:
        """The method's function (its module is imported now)."""
        if self.function is None:
            raise SlidelabError(f"{self.name} picks a method per board; it has no function")
        return load(self.function)


def _guided(name: str, summary: str, function: str, optimal: bool, **declared) -> Method:
    """A method guided by a heuristic, as A* and IDA* are: it takes every shaping option, and
    its heuristic is built before its clock starts."""
    return Method(
        name, summary, function, optimal, options=SHAPING_OPTIONS, tables="heuristic", **declared
    )


#: every method, by canonical name, in the order help and menus list them
METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method(
            "auto",
            "picks a method for the board, cheapest first: optimal up to the 15-puzzle, beyond"
            " it optimal within a budget (60 s, or half the time limit), then bounded",
            None,
            True,
            options=SHAPING_OPTIONS,
            cluster=True,
        ),
        Method(
            "bfs",
            "breadth-first search (optimal; one byte per arrangement)",
            "slidelab.search.bfs:bfs",
            True,
            aliases=("breadth-first",),
            stores=True,
            records=True,
            compile_seconds=1.85,
        ),
        Method(
            "bidirectional",
            "breadth-first search from both ends (optimal)",
            "slidelab.search.bidirectional:bidirectional_bfs",
            True,
            aliases=("bibfs", "bidirectional-bfs", "bi-bfs"),
            stores=True,
            records=True,
            compile_seconds=1.9,
        ),
        _guided(
            "astar",
            "A* (optimal with an admissible heuristic; with --weight, weighted A*)",
            "slidelab.search.astar:astar",
            True,
            aliases=("a*",),
            stores=True,
            records=True,
            compile_seconds=6.0,
            compile_with=(("pdb", 16.0), ("pdb-dual", 41.0)),
        ),
        Method(
            "bidirectional-astar",
            "bidirectional A* (MM: optimal, the two searches meet in the middle; the"
            " heuristic is built again for the start as goal)",
            "slidelab.search.bidirectional_astar:bidirectional_astar",
            True,
            aliases=("bidirectional-a*", "bae", "mm", "bi-astar"),
            options=("heuristic", "partition"),
            tables="heuristic",
            stores=True,
            metrics=("stm",),
            # 8.5 while its expansion was compiled once per side; once: 8.4 -> 5.2 s with
            # Manhattan, 10.2 -> 6.6 s with linear conflict, on one machine (2026-11-30)
            compile_seconds=5.4,
        ),
        _guided(
            "weighted-astar",
            "weighted A* (at most --weight times optimal; default 1.5)",
            "slidelab.search.astar:weighted_astar",
            False,
            aliases=("wastar", "weighted-a*"),
            stores=True,
            records=True,
            compile_seconds=7.2,
        ),
        _guided(
            "idastar",
            "IDA* (optimal; with --weight > 1, bounded suboptimal)",
            "slidelab.search.idastar:idastar",
            True,
            aliases=("ida*", "ida"),
            cluster=True,
            compile_seconds=2.9,
            compile_with=(("pdb", 5.5), ("pdb-dual", 15.0), ("abstraction", 16.5)),
        ),
        Method(
            "constructive",
            "row-by-row reduction, exact finish (fast, any size, not optimal)",
            "slidelab.search.constructive:constructive",
            False,
            compile_seconds=1.5,
        ),
        Method(
            "table",
            "distance table of the goal (optimal, no search; built once and cached)",
            "slidelab.search.table:solve_by_table",
            True,
            aliases=("distance-table",),
            tables="distance",
        ),
    )
}

_BY_ALIAS = {alias: m.name for m in METHODS.values() for alias in m.aliases}


def method_name(name: str) -> str:
    """Canonical method name (aliases such as ``ida*`` accepted), or an error listing the choices.

    >>> method_name("A*")
    'astar'
    >>> method_name("dfs")
    Traceback (most recent call last):
    ...
    slidelab.errors.SlidelabError: unknown method 'dfs'; choose from auto, bfs, bidirectional, astar, ...
    """
    key = _args.text(name, "method").strip().lower()
    key = _BY_ALIAS.get(key, key)
    if key not in METHODS:
        raise SlidelabError(f"unknown method {name!r}; choose from {', '.join(METHODS)}")
    return key
