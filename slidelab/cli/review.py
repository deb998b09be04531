"""``slidelab review``: a solve judged move by move, as a chess engine reviews a game."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from .common import (
    FIX_NAMES,
    fail,
    failure_code,
    goal_options,
    json_option,
    metric_option,
    time_limit_option,
)
from .program import needs


@click.command("review")
@click.argument("start")
@click.argument("moves")
@goal_options
@metric_option("What a move is: one tile (stm), or a slide of tiles in a line (mtm).")
@click.option(
    "--times",
    default=None,
    metavar="T1,T2,...",
    help="Seconds each move took, comma-separated, one a move as written: the review then"
    " names the slowest.",
)
@time_limit_option(
    "Seconds for each position's optimal search where no distance table answers (default:"
    " none); where the start's optimum is not proven within it, the distances are proven back"
    " from the goal as far as it allows and bounded before that, labelled.",
    None,
)
@json_option("The review as one JSON object.")
@needs("slidelab.search.review")
def review_command(start, moves, goal, blank_first, size, metric, times, time_limit, as_json):
    """Replay MOVES from START and judge each: the distance to the goal before and after it,
    the moves it lost (0 when it kept the optimum) and the moves that would have kept it.  The
    last line sums it up: "52 moves, optimal 48: 4 lost, at moves 7 (2) and 31 (2)"."""
    from ..search.request import check_request, read_options, read_puzzle
    from ..search.review import review_request

    try:
        puzzle = read_puzzle(start, goal, blank_first=blank_first, size=size)
        request = check_request(
            puzzle, read_options(metric=metric, time_limit=time_limit), FIX_NAMES
        )
        seconds = None if times is None else _numbers(times)
        result = review_request(request, moves, seconds)
    except SlidelabError as exc:
        fail(str(exc), failure_code(exc))
    click.echo(json.dumps(result.as_dict()) if as_json else result.format())
    sys.exit(0)


def _numbers(text: str) -> list[float]:
    """``1.2,0.4,...`` as numbers (one line naming the first that is not)."""
    out = []
    for i, part in enumerate(text.replace(" ", "").split(",")):
        try:
            out.append(float(part))
        except ValueError:
            raise SlidelabError(f"--times: {part!r} (time {i + 1}) is not a number") from None
    return out
