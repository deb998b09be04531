"""``slidelab hint``: a position's distance and every optimal next move, in both metrics."""

from __future__ import annotations

import json
import sys

import click

from .common import (
    FIX_NAMES,
    Outcome,
    board_record,
    each_answer,
    goal_options,
    json_option,
    metric_option,
    time_limit_option,
)
from .program import needs


@click.command("hint")
@click.argument("board", required=False)
@goal_options
@metric_option("Only this metric (default: both, single-tile and multi-tile moves).", None)
@time_limit_option(
    "Seconds of search for each metric where no distance table answers; past it, a lower bound."
)
@json_option()
@needs("slidelab.search.hint")
def hint_command(board, goal, blank_first, size, metric, time_limit, as_json):
    """How far BOARD is from the goal, and every move that keeps the optimum (the first moves
    of all optimal solutions), in single-tile and multi-tile moves."""
    from ..search.hint import hint_request
    from ..search.request import check_request, read_options

    metrics = [metric.lower()] if metric else ["stm", "mtm"]

    def hints(puzzle):
        return {
            m: hint_request(
                check_request(puzzle, read_options(metric=m, time_limit=time_limit), FIX_NAMES)
            )
            for m in metrics
        }

    outcome = Outcome()
    for puzzle, found in each_answer(board, goal, blank_first, size, as_json, outcome, hints):
        if as_json:
            click.echo(
                json.dumps({**board_record(puzzle), **{m: h.as_dict() for m, h in found.items()}})
            )
            continue
        for m, h in found.items():
            good = ", ".join(str(g) for g in h.good) or "-"
            click.echo(f"{m.upper()}: {h.message}" if not h.exact else
                       f"{m.upper()}: {h.distance} to go ({h.how}); optimal next moves: {good}")  # fmt: skip
    sys.exit(outcome.code)
