"""A bar chart of the distance distribution (matplotlib, imported only here).

matplotlib is an optional dependency: ``pip install matplotlib``, the plot extra.
"""

from __future__ import annotations

from pathlib import Path

from ..draw import require_matplotlib
from ..errors import SlidelabError

#: file types the plot can be written as
FORMATS = (".png", ".svg")


def check_plot_path(path) -> Path:
    """``path`` as a Path, or :class:`SlidelabError` for a type not in :data:`FORMATS`."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise SlidelabError(f"plot file {str(path)!r} must end in .png or .svg")
    return path


def distribution_figure(stats, log: bool = False):
    """A matplotlib ``Figure`` of ``stats.counts`` as bars, titled with the board and totals
    (what Jupyter shows for :meth:`SpaceStats.plot() <slidelab.analysis.SpaceStats.plot>`).

    Parameters
    ----------
    stats : SpaceStats
    log : bool
        A logarithmic count axis (the small layers at both ends become visible).
    """
    Figure = require_matplotlib()
    counts = list(stats.counts)
    fig = Figure(figsize=(9, 4.8), layout="constrained")
    ax = fig.subplots()
    ax.bar(range(len(counts)), counts, width=0.8, color="#3b6ea8", edgecolor="none")
    ax.set_xlim(-0.8, len(counts) - 0.2)
    if log:
        ax.set_yscale("log")
    else:
        ax.ticklabel_format(axis="y", style="plain")
        ax.yaxis.set_major_formatter(_thousands())
    ax.set_xlabel("distance to the goal (single-tile moves)")
    ax.set_ylabel("positions" + (" (log scale)" if log else ""))
    hardest = f"{stats.n_hardest:,} hardest" if stats.n_hardest != 1 else "1 hardest"
    ax.set_title(
        f"{stats.size} sliding puzzle, goal {goal_text(stats.goal)}\n"
        f"{stats.states:,} positions, diameter {stats.diameter} ({hardest}),"
        f" mean distance {stats.mean:.2f}",
        fontsize=11,
    )
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return fig


def plot_distribution(stats, path, log: bool = False) -> Path:
    """Draw :func:`distribution_figure` to ``path`` (``.png`` or ``.svg``)."""
    path = check_plot_path(path)
    fig = distribution_figure(stats, log)
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise SlidelabError(f"cannot write the plot {str(path)!r}: {e.strerror or e}") from None
    return path


def goal_text(goal) -> str:
    """The goal as people write it: ``ABA_/CDCD/ABAB/CDCD`` for letters, ``1 2 3/4 5 6/7 8 0`` else."""
    cells = [c for c in goal.cells if c != 0]
    if all(isinstance(c, str) and len(c) == 1 for c in cells):
        return goal.format("compact", "_")
    return goal.format()


def _thousands():
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _pos: f"{int(value):,}")
