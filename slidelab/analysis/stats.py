"""``analyze``: a puzzle's whole state space in numbers (:class:`SpaceStats`), in this machine's
memory or on a Dask cluster."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..board import Board
from ..cluster import check_scheduler
from ..errors import SlidelabError
from ..moves import metric_keyword, metric_name
from ..tables.budget import check_budget
from ..tables.index import Space, space_of
from ..tables.layers import search_layers

#: hardest positions listed by default (all of them are counted)
DEFAULT_HARDEST = 100


@dataclass(frozen=True, repr=False)
class SpaceStats:
    """The distance distribution of every position reachable from a goal.

    Attributes
    ----------
    goal : Board
    size : str
        ``"WxH"``.
    states : int
        Positions reachable from the goal (and so able to reach it).
    diameter : int
        The largest distance (single-tile moves).
    mean : float
        The mean distance over all reachable positions.
    counts : tuple of int
        ``counts[d]``: positions at distance ``d``.
    hardest : tuple of Board
        Positions at the largest distance, in index order (at most the number asked for).
    n_hardest : int
        How many positions lie at the largest distance.
    seconds : float
        Wall-clock time of the search.
    metric : str
        The metric of the distances: ``stm`` (single-tile moves) or ``mtm``.

    Examples
    --------
    >>> st = SpaceStats(Board("1 2/3 0"), "2x2", 12, 6, 3.0, (1, 2, 2, 2, 2, 2, 1),
    ...                 (Board("0 3/2 1"),), 1, 0.001)
    >>> st
    SpaceStats(goal=Board('1 2/3 0'), states=12, diameter=6, mean=3.0, n_hardest=1, seconds=0.001)
    >>> st.as_dict()["hardest"]
    ['0 3/2 1']
    """

    goal: Board
    size: str
    states: int
    diameter: int
    mean: float
    counts: tuple
    hardest: tuple
    n_hardest: int
    seconds: float
    metric: str = "stm"

    def __repr__(self):
        return (
            f"SpaceStats(goal={self.goal!r}, states={self.states}, diameter={self.diameter}, "
            f"mean={round(self.mean, 4)!r}, n_hardest={self.n_hardest}, "
            f"seconds={round(self.seconds, 3)!r}{metric_keyword(self.metric)})"
        )

    def as_dict(self) -> dict:
        """The ``analyze --json`` fields."""
        return {
            "goal": self.goal.format(),
            "size": self.size,
            "states": self.states,
            "diameter": self.diameter,
            "mean": round(self.mean, 6),
            "counts": list(self.counts),
            "hardest": [b.format() for b in self.hardest],
            "n_hardest": self.n_hardest,
            "seconds": round(self.seconds, 6),
            "metric": self.metric,
        }

    def plot(self, path=None, log: bool = False):
        """Draw the distance distribution (needs matplotlib): to ``path`` (``.png`` or
        ``.svg``), or, without one, return the matplotlib ``Figure`` (Jupyter shows it)."""
        from .plot import distribution_figure, plot_distribution

        if path is None:
            return distribution_figure(self, log)
        plot_distribution(self, path, log=log)
        return None


def analyze(
    goal,
    progress: Callable[[dict], None] | None = None,
    *,
    hardest: int = DEFAULT_HARDEST,
    save: bool = False,
    blank_first: bool = False,
    max_bytes: int | None = None,
    max_seconds: float | None = None,
    metric: str | None = None,
    scheduler=None,
) -> SpaceStats:
    """Enumerate every position reachable from ``goal`` by breadth-first search.

    Parameters
    ----------
    goal : Board, str or Puzzle
        The goal board, its text, or a size ``"WxH"`` (tiles in order, blank last,
        or first with ``blank_first``).
    progress : callable, optional
        Called after each layer with ``{"depth", "layer", "states", "total",
        "fraction", "rate", "seconds"}``: the depth reached, the states in that
        layer, the states found so far, the number of indices (all reachable
        with distinct tiles), their ratio, states per second, and seconds.
    hardest : int
        List at most this many of the hardest positions (all are counted).
    save : bool
        Also keep every position's distance, and store the distance table in
        the cache (see :class:`.table.DistanceTable`).
    max_bytes, max_seconds : optional
        Refuse (before starting) a search estimated to need more memory or
        time (defaults: three quarters of the memory available, at most half the
        machine's; one hour).
    metric : {"stm", "mtm"}, optional
        Count distances in single-tile moves, or in multi-tile moves (a slide of
        several tiles in a line is one move, made by the same kernels: :mod:`.layers`).  Default: a given
        space's own, else ``stm``.
    scheduler : str or distributed.Client, optional
        Search on the Dask cluster at this address (``tcp://host:8786``), the space split
        into one partition a worker, each worker holding only its own (:mod:`.cluster_space`):
        the same counts, for spaces larger than one machine's memory.  ``max_bytes`` then
        limits what one worker needs, and ``max_seconds`` the estimate on the cluster's
        threads.  Not with ``save`` (a distance table is made in this machine's memory).

    Returns
    -------
    SpaceStats

    Raises
    ------
    SpaceTooLargeError
        The space does not fit this machine (a one-line message with a suggestion).
    SlidelabError
        With ``scheduler``: the cluster cannot be reached, a partition does not fit its
        worker, or a worker failed or left during the search (one line).

    Examples
    --------
    >>> st = analyze("2x3")
    >>> st.states, st.diameter, st.n_hardest, st.hardest
    (360, 21, 1, (Board('2 1/4 3/0 5'),))
    >>> analyze("3x3", metric="mtm").diameter
    24
    """
    from .. import _args

    _args.callback(progress, "progress")
    hardest = _args.integer(hardest, "hardest", minimum=0)
    save = _args.boolean(save, "save")
    blank_first = _args.boolean(blank_first, "blank_first")
    metric = None if metric is None else metric_name(metric)
    check_scheduler(scheduler)
    if scheduler is not None and save:
        raise SlidelabError(
            "a distance table is made in this machine's memory: --save does not go with --scheduler"
        )
    space = space_of(goal, blank_first=blank_first, metric=metric)
    if scheduler is None:
        check_budget(space, table=save, max_bytes=max_bytes, max_seconds=max_seconds)
    began = time.perf_counter()
    searched = space
    if not save and space.metric == "stm" and space.width > space.height:
        # the same graph turned on its side: narrower rows are cheaper to search (a vertical
        # move reorders a row's worth of tiles; a sideways one keeps them: .layers)
        searched = Space(space.goal.transposed(), space.metric)
    if scheduler is None:
        layers = search_layers(searched, progress=progress, record=save, limit=hardest)
    else:
        from .cluster_space import search_cluster

        layers = search_cluster(
            searched,
            scheduler,
            progress=progress,
            limit=hardest,
            max_bytes=max_bytes,
            max_seconds=max_seconds,
        )
    seconds = time.perf_counter() - began
    if save:
        from ..tables.distance import DistanceTable

        DistanceTable.from_layers(space, layers)
        layers.depth = None
    counts = tuple(int(c) for c in layers.counts)
    states = sum(counts)
    mean = sum(d * c for d, c in enumerate(counts)) / states
    return SpaceStats(
        space.goal,
        f"{space.width}x{space.height}",
        states,
        len(counts) - 1,
        mean,
        counts,
        _hardest(space, searched, layers.last),
        counts[-1],
        seconds,
        space.metric,
    )


def _hardest(space: Space, searched: Space, last) -> tuple[Board, ...]:
    """The boards of indices ``last`` of ``searched``, as boards of ``space`` in its index order."""
    boards = searched.boards(last)
    if searched is space:
        return tuple(boards)
    return tuple(sorted((b.transposed() for b in boards), key=space.index))
