"""``slidelab generate``: random solvable positions (uniform, or a random walk from the goal)."""

from __future__ import annotations

import sys

import click

from ..errors import SearchLimitError, SlidelabError
from ..parse import BLANK_TOKENS, MAX_BOARD_CELLS, STYLES
from .common import FAILED, fail, metric_option
from .program import needs


class _GenerateOption(click.Option):
    """An option of ``generate`` whose help names a limit of :mod:`slidelab.generate`, looked
    up when the help is shown (so the limit is declared once, and ``--help`` stays quick)."""

    def get_help_record(self, ctx):
        from .. import generate

        self.help = self.help.format(**{k: v for k, v in vars(generate).items() if k.isupper()})
        return super().get_help_record(ctx)


@click.command("generate")
@click.argument("size", required=False)
@click.option("--goal", metavar="BOARD", help="Goal to generate for (default: ordered).")
@click.option("--blank-first", is_flag=True, help="Ordered goal with the blank first.")
@click.option(
    "-n",
    "count",
    type=int,
    default=1,
    show_default=True,
    cls=_GenerateOption,
    help="How many positions (at most {MAX_BOARDS:,}); printed as they are made.",
)
@click.option("--seed", type=int, default=None, help="Random seed (repeatable output).")
@click.option(
    "--moves",
    "-k",
    type=int,
    default=None,
    cls=_GenerateOption,
    help="Random walk of K moves from the goal instead of a uniform random position"
    " (at most {MAX_WALK:,}).",
)
@click.option(
    "--distance",
    "-d",
    type=int,
    default=None,
    help="Positions whose optimal distance to the goal is exactly D: uniformly random among"
    " them where the whole space can be searched (3x3, 2x4, 3x4, lettered boards), else by"
    " random walks checked by an optimal solve.",
)
@click.option(
    "--time-limit",
    type=float,
    default=None,
    cls=_GenerateOption,
    help="Seconds --distance may search on boards too large to search whole"
    " (default {DISTANCE_TIME_LIMIT:g}).",
)
@click.option("--format", "style", type=click.Choice(STYLES), default="slash", show_default=True)
@click.option(
    "--blank",
    default=None,
    help=f"Symbol of the blank: one of {' '.join(sorted(BLANK_TOKENS))}"
    " (default 0; * in contest style).",
)
@metric_option("With --distance: the metric of D (stm: single-tile moves; mtm: multi-tile).")
@needs("slidelab._args", "slidelab.generate")
def generate_command(
    size, goal, blank_first, count, seed, moves, distance, time_limit, style, blank, metric
):
    """Print random solvable positions of a SIZE (WxH) board, one per line."""
    from .. import _args
    from ..generate import MAX_BOARDS, MAX_WALK, iter_random_boards

    try:
        _args.integer(
            count,
            "-n",
            minimum=0,
            maximum=MAX_BOARDS,
            why=" (the most positions one command makes)",
        )
        _args.integer(
            moves,
            "--moves",
            minimum=0,
            maximum=MAX_WALK,
            optional=True,
            why=" (the longest random walk; leave --moves out for a uniformly random position)",
        )
        _args.integer(distance, "--distance", minimum=0, optional=True)
        if blank is not None and blank not in BLANK_TOKENS:
            raise SlidelabError(
                f"--blank {blank!r} would not read back as the blank;"
                f" choose one of {' '.join(sorted(BLANK_TOKENS))}"
            )
        if distance is not None and moves is not None:
            raise SlidelabError("--distance and --moves exclude each other")
        if time_limit is not None and distance is None:
            raise SlidelabError("--time-limit goes with --distance")
        if metric.lower() != "stm" and distance is None:
            raise SlidelabError("--metric goes with --distance")
        # the size and goal are read by slidelab.puzzle.goal_board, as everywhere (a size or
        # a goal, agreeing when both are given)
        if distance is not None:
            from ..generate import DISTANCE_TIME_LIMIT
            from ..search.at_distance import positions_at_distance
            from .progress import AnalysisBar

            bar = AnalysisBar() if sys.stderr.isatty() else None
            try:
                boards = positions_at_distance(
                    distance,
                    count,
                    size,
                    goal,
                    blank_first=blank_first,
                    seed=seed,
                    time_limit=DISTANCE_TIME_LIMIT if time_limit is None else time_limit,
                    progress=bar,
                    metric=metric,
                )
            finally:
                if bar:
                    bar.close()
        else:
            boards = iter_random_boards(
                count, size, goal, moves=moves, blank_first=blank_first, seed=seed
            )
        for b in boards:  # each printed as soon as it is made
            click.echo(b.format(style, blank if blank is not None else "0"))
    except SearchLimitError as exc:  # the time limit: no answer in time, not bad input
        fail(str(exc), FAILED)
    except SlidelabError as exc:
        fail(str(exc))


generate_command.help += (
    f"\n\nSIZE is WxH: both sides at least 2, at most {MAX_BOARD_CELLS:,}"
    " cells in all (for example 181x181)."
)
