"""``slidelab hint``: a position's distance and every optimal next move, in both metrics."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from .common import (
    FIX_NAMES,
    Outcome,
    failure_code,
    goal_options,
    inputs,
    metric_option,
    report_failure,
)
from .program import needs


@click.command("hint")
@click.argument("board", required=False)
@goal_options
@metric_option("Only this metric (default: both, single-tile and multi-tile moves).", None)
@click.option(
    "--time-limit",
    type=float,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds of search for each metric where no distance table answers; past it, a lower"
    " bound.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per board.")
@needs("slidelab.search.hint")
def hint_command(board, goal, blank_first, size, metric, time_limit, as_json):
    """How far BOARD is from the goal, and every move that keeps the optimum (the first moves
    of all optimal solutions), in single-tile and multi-tile moves."""
    from ..search.hint import hint_request
    from ..search.request import check_request, read_options, read_puzzle

    metrics = [metric.lower()] if metric else ["stm", "mtm"]
    outcome = Outcome()
    for number, text in inputs(board):
        try:
            puzzle = read_puzzle(text, goal, blank_first=blank_first, size=size)
            hints = {}
            for m in metrics:
                options = read_options(metric=m, time_limit=time_limit)
                hints[m] = hint_request(check_request(puzzle, options, FIX_NAMES))
        except SlidelabError as exc:
            report_failure({"start": text}, str(exc), number, as_json, outcome, failure_code(exc))
            continue
        if as_json:
            record = {"start": puzzle.start.format(), "goal": puzzle.goal.format()}
            click.echo(json.dumps({**record, **{m: h.as_dict() for m, h in hints.items()}}))
            continue
        for m, h in hints.items():
            good = ", ".join(str(g) for g in h.good) or "-"
            click.echo(f"{m.upper()}: {h.message}" if not h.exact else
                       f"{m.upper()}: {h.distance} to go ({h.how}); optimal next moves: {good}")  # fmt: skip
    sys.exit(outcome.code)
