"""Making a heuristic for a puzzle from its registry entry."""

from __future__ import annotations

import dataclasses

from .. import _args
from ..errors import SearchLimitError, SlidelabError
from ..moves import metric_name, reach
from ..puzzle import Puzzle
from .base import Heuristic
from .registry import HEURISTICS, heuristic_name


def make_heuristic(
    puzzle: Puzzle,
    name: str = "manhattan",
    *,
    partition=None,
    classes=None,
    progress=None,
    cache: bool = True,
    metric: str = "stm",
) -> Heuristic:
    """The heuristic ``name`` for this puzzle, built by its registry entry (pattern databases are
    built or loaded: ``progress(fraction, message)`` is called meanwhile).

    ``partition`` (pattern databases) and ``classes`` (abstraction) choose a heuristic's
    tables; None: the board's default.

    ``metric="mtm"``: an estimate of multi-tile moves.  A heuristic whose entry takes the
    metric counts MTM moves itself; any other is its STM estimate divided by the most tiles
    one move slides (see :attr:`Heuristic.divisor`): admissible, but weaker.

    An allocation the operating system refuses ends with :class:`SearchLimitError`.

    Examples
    --------
    >>> make_heuristic(Puzzle("8 6 7/2 5 4/3 0 1"), "lc")
    <Heuristic linear-conflict>
    >>> make_heuristic(Puzzle("8 6 7/2 5 4/3 0 1"), "manhattan", metric="mtm").divisor
    2
    """
    _args.instance(puzzle, "puzzle", Puzzle)
    # a canonical name (the search options resolved it once) is not resolved again
    canonical = isinstance(name, str) and name in HEURISTICS
    spec = HEURISTICS[name if canonical else heuristic_name(_args.text(name, "name"))]
    _args.callback(progress, "progress")
    cache = _args.boolean(cache, "cache")
    metric = metric_name(metric)
    if partition is not None and "partition" not in spec.options:
        raise SlidelabError("a partition applies to the pdb heuristic only")
    if classes is not None and "classes" not in spec.options:
        raise SlidelabError("classes apply to the abstraction heuristic only")
    options: dict = {"partition": partition} if "partition" in spec.options else {}
    if "classes" in spec.options:
        options["classes"] = classes
    if spec.family is not None:
        options.update(progress=progress, cache=cache)
    if "metric" in spec.options:
        options["metric"] = metric
    try:
        heur = spec.load()(puzzle, **options)
        if metric != heur.metric:  # an STM estimate: a multi-tile move is at most `reach` moves
            heur = dataclasses.replace(
                heur, metric=metric, divisor=reach(metric, puzzle.width, puzzle.height)
            )
        return heur
    except MemoryError:
        raise SearchLimitError(
            f"limit reached: out of memory making the {spec.name} heuristic"
            f" of a {puzzle.size} board"
        ) from None


def heuristic_table(puzzle: Puzzle, name: str = "manhattan"):
    """Per-tile table of a heuristic that is a sum of one entry per tile (``manhattan``,
    ``zero``: :attr:`Heuristic.table`)."""
    _args.instance(puzzle, "puzzle", Puzzle)
    table = make_heuristic(puzzle, name).table
    if table is None:
        raise SlidelabError(f"{name} is not a per-tile table heuristic")
    return table
