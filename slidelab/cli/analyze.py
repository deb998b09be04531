"""``slidelab analyze``: enumerate a goal's whole state space (distances, diameter, hardest positions)."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from ..units import parse_bytes, parse_duration
from .common import fail, failure_code, metric_option, scheduler_option
from .program import needs
from .progress import AnalysisBar


@click.command("analyze")
@click.argument("goal", metavar="GOAL_OR_WxH")
@click.option(
    "--blank-first", is_flag=True, help="With a size: the ordered goal with the blank first."
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='One JSON object: {"goal", "size", "states", "diameter", "mean", "counts",'
    ' "hardest", "n_hardest", "seconds"}.',
)
@click.option(
    "--plot",
    "plot_file",
    metavar="FILE",
    help="Draw the distance distribution to FILE (.png or .svg; needs matplotlib).",
)
@click.option("--log", "log_scale", is_flag=True, help="With --plot: a logarithmic count axis.")
@click.option(
    "--save",
    is_flag=True,
    help="Store the distance table in the cache (then solve uses it: --method table / auto).",
)
@click.option(
    "--hardest",
    "n_hardest",
    type=int,
    default=None,
    metavar="N",
    help="List at most N hardest positions (default 100; all are counted).",
)
@click.option(
    "--max-memory",
    default=None,
    metavar="BYTES",
    help="Refuse a search needing more (e.g. 8G; default three quarters of the memory"
    " available, at most half the RAM; with --scheduler, what one worker needs).",
)
@click.option(
    "--max-time",
    default=None,
    metavar="SECONDS",
    help="Refuse a search estimated to take longer (e.g. 2h; default 1h; with --scheduler, on"
    " the cluster's threads).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr (default: when stderr is a terminal).",
)
@metric_option(
    "Count distances in single-tile moves (stm) or multi-tile moves (mtm: a slide of"
    " several tiles in a line is one move)."
)
@scheduler_option("Search, one partition of the space a worker,")
@needs("slidelab.analysis", "slidelab.analysis.stats")
def analyze_command(
    goal,
    metric,
    blank_first,
    as_json,
    plot_file,
    log_scale,
    save,
    n_hardest,
    max_memory,
    max_time,
    progress,
    scheduler,
):
    """Enumerate every position reachable from GOAL (a board, or WxH for the ordered goal):
    the count at each distance, the diameter, the mean distance and the hardest positions."""
    from ..analysis import analyze
    from ..analysis.stats import DEFAULT_HARDEST

    bar = None
    try:
        if n_hardest is not None and n_hardest < 0:
            raise SlidelabError(f"--hardest must be at least 0, got {n_hardest}")
        if log_scale and plot_file is None:
            raise SlidelabError("--log goes with --plot")
        max_bytes = parse_bytes(max_memory) if max_memory is not None else None
        max_seconds = parse_duration(max_time) if max_time is not None else None
        if max_seconds is not None and not max_seconds > 0:
            raise SlidelabError(f"--max-time must be positive, got {max_time!r}")
        if plot_file is not None:
            from ..analysis.plot import check_plot_path, require_matplotlib

            check_plot_path(plot_file)
            require_matplotlib()
        show = sys.stderr.isatty() if progress is None else progress
        bar = AnalysisBar() if show else None
        stats = analyze(
            goal,
            bar,
            hardest=DEFAULT_HARDEST if n_hardest is None else n_hardest,
            save=save,
            blank_first=blank_first,
            max_bytes=max_bytes,
            max_seconds=max_seconds,
            metric=metric,
            scheduler=scheduler,
        )
        if bar:
            bar.close()
        if plot_file is not None:
            stats.plot(plot_file, log=log_scale)
    except SlidelabError as exc:
        if bar:
            bar.close()
        fail(str(exc), failure_code(exc))
    if as_json:
        click.echo(json.dumps(stats.as_dict()))
        return
    _show_stats(stats, save, plot_file)


def _show_stats(stats, saved, plot_file):
    click.echo(f"goal ({stats.size}):\n{stats.goal.grid()}")
    moves = "" if stats.metric == "stm" else " (MTM: a slide of tiles in a line is one move)"
    click.echo(
        f"{stats.states:,} positions, diameter {stats.diameter}, mean distance"
        f" {stats.mean:.4f}{moves}"
    )
    width = max(9, len(f"{max(stats.counts):,}"))
    click.echo(f"distance  {'positions':>{width}}")
    for d, c in enumerate(stats.counts):
        click.echo(f"{d:>8}  {c:>{width},}")
    listed = len(stats.hardest)
    plural = "s" if stats.n_hardest != 1 else ""
    more = f", first {listed} listed" if listed < stats.n_hardest else ""
    unit = "MTM moves" if stats.metric == "mtm" else "moves"
    click.echo(f"{stats.n_hardest:,} hardest position{plural} ({stats.diameter} {unit}{more}):")
    for b in stats.hardest:
        click.echo(b.format())
    if saved:
        click.echo("distance table saved in the cache")
    if plot_file is not None:
        click.echo(f"plot written to {plot_file}")
    click.echo(f"time {stats.seconds:.3f} s")
