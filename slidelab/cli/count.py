"""``slidelab count``: how many solutions a position has, at the optimum and past it."""

from __future__ import annotations

import json
import sys

import click

from .common import FIX_NAMES, Outcome, board_record, each_answer, goal_options, metric_option
from .program import needs


@click.command("count")
@click.argument("board", required=False)
@goal_options
@metric_option("What a move is: one tile (stm), or a slide of tiles in a line (mtm).")
@click.option(
    "--beyond",
    type=click.IntRange(0, 20),
    default=0,
    show_default=True,
    metavar="K",
    help="Also count the solutions up to K moves longer than the optimum (in STM every other"
    " length: +2, +4, ...).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per board.")
@needs("slidelab.search.count")
def count_command(board, goal, blank_first, size, metric, beyond, as_json):
    """How many solutions BOARD has at the optimum (without listing them), and with --beyond
    at each length up to K moves longer: move sequences that reach the goal at their end only,
    detours included.  Exact distances where the goal's distance table is at hand (the
    8-puzzle's size); elsewhere an optimal search first, then the pattern databases' estimates."""
    from ..search.count import count_request
    from ..search.request import check_request, read_options

    def count(puzzle):
        return count_request(check_request(puzzle, read_options(metric=metric), FIX_NAMES), beyond)

    outcome = Outcome()
    for puzzle, counts in each_answer(board, goal, blank_first, size, as_json, outcome, count):
        if as_json:
            click.echo(json.dumps({**board_record(puzzle), "metric": metric, "counts": counts}))
            continue
        optimum = min(counts)
        for length, n in counts.items():
            what = "optimal" if length == optimum else f"+{length - optimum}"
            click.echo(f"{length} moves ({what}): {n:,} solution{'' if n == 1 else 's'}")
    sys.exit(outcome.code)
