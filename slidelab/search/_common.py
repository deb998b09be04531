"""The door every public search goes through: :func:`search_entry` checks its arguments.

The limits a search keeps, :class:`~slidelab.search.limits.Limits`, are in :mod:`.limits`.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import threading

from .. import _args
from ..heuristics.base import Heuristic
from ..moves import metric_name
from ..puzzle import Puzzle
from .limits import Limits, out_of_memory

_searching = threading.local()


def kernel_key(method: str, heuristic: str | None, metric: str) -> str:
    """The name of the set of kernels a registered method searches with (``astar-pdb-stm``,
    ``bfs-mtm``): the ledger's key (:func:`slidelab._jit.kernels_compiled`)."""
    return "-".join(part for part in (method, heuristic, metric) if part)


@contextlib.contextmanager
def _kernels(method: str, arguments: dict):
    """The search's kernels as a set (:func:`slidelab._jit.kernel_set`: the compile notice
    names it, the ledger records it), for a registered method searching with its heuristic in
    its metric; a search inside another (a method calling another) is the outer one's.  A
    method with no kernels (``compile_seconds`` 0: the table's lookup) stays off numba."""
    from .registry import METHODS

    if getattr(_searching, "on", False) or not getattr(METHODS.get(method), "compile_seconds", 0):
        yield
        return
    from .._jit import kernel_set

    heuristic = arguments.get("heuristic")
    name = getattr(heuristic, "name", None)
    key = kernel_key(method, name, arguments.get("metric", "stm"))
    what = f"the {method} search" + ("" if name is None else f" with {name}")
    _searching.on = True
    try:
        with kernel_set(key, METHODS[method].compile_model(name), what):
            yield
    finally:
        _searching.on = False


def search_entry(method: str):
    """Decorator of the public search functions (``astar(puzzle, heuristic=..., limits=...)``
    and the others).

    At the door: ``puzzle`` must be a :class:`Puzzle` and ``limits`` a
    :class:`Limits` (None: no limits); a ``heuristic`` given by name is made
    here, once (:func:`slidelab.heuristics.make_heuristic`), so the search
    below works on a :class:`~slidelab.heuristics.Heuristic`.  A wrong argument
    is an :class:`~slidelab.errors.ArgumentError` naming it.  Inside: an
    allocation the operating system refuses (a ``MemoryError``, say under
    ``ulimit -v``) ends the search with a :class:`SearchLimitError`, as the
    memory limit does.
    """

    def wrap(fn):
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def checked(*args, **kwargs):
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise _args.ArgumentError(f"{fn.__name__}: {exc}") from None
            bound.apply_defaults()
            arguments = bound.arguments
            puzzle = _args.instance(arguments.get("puzzle"), "puzzle", Puzzle)
            if arguments.get("limits") is None:
                arguments["limits"] = Limits()
            _args.instance(arguments["limits"], "limits", Limits)
            if "metric" in arguments:
                arguments["metric"] = metric_name(arguments["metric"])
            if "heuristic" in arguments and not isinstance(arguments["heuristic"], Heuristic):
                from ..heuristics import make_heuristic

                arguments["heuristic"] = make_heuristic(
                    puzzle, arguments["heuristic"], metric=arguments.get("metric", "stm")
                )
            try:
                with _kernels(method, arguments):
                    return fn(*bound.args, **bound.kwargs)
            except MemoryError:
                raise out_of_memory(method, "its search") from None

        return checked

    return wrap
