"""``slidelab compare``: several methods on one position, side by side."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from .common import (
    Outcome,
    each_answer,
    fail,
    goal_options,
    json_option,
    metric_option,
    option_names,
    time_limit_option,
)
from .program import needs


@click.command("compare")
@click.argument("board", required=False)
@goal_options
@click.option(
    "--methods",
    default=None,
    metavar="M1,M2,...",
    help="Methods to compare, comma-separated (default: bfs, bidirectional, astar,"
    " weighted-astar, bidirectional-astar, idastar).",
)
@click.option(
    "--heuristic",
    default=None,
    help="For the methods that take one (default: the one a solve would search the board"
    " with now, its tables cached).",
)
@metric_option("What a move is: one tile (stm), or a slide of tiles in a line (mtm).")
@time_limit_option("Seconds for each method's answer.")
@click.option(
    "--phases",
    is_flag=True,
    help="Under each method, its layers (breadth-first) or iterations (IDA*).",
)
@json_option()
@needs("slidelab.search.compare")
def compare_command(
    board, goal, blank_first, size, methods, heuristic, metric, time_limit, phases, as_json
):
    """Solve BOARD with several methods and print them side by side: length, proven optimal,
    nodes expanded and generated, states stored, memory, and times (the search alone, the
    whole answer, the set-up of kernels and tables before it)."""
    from ..search.compare import compare_request, method_names
    from ..search.request import read_options, read_request

    try:  # read once, before any board
        names = method_names(methods)
        options = read_options(
            heuristic=heuristic, metric=metric, time_limit=time_limit, names=option_names()
        )
    except SlidelabError as exc:
        fail(str(exc))
    outcome = Outcome()

    def request(puzzle):
        return read_request(puzzle, options=options)

    for _, checked in each_answer(board, goal, blank_first, size, as_json, outcome, request):
        result = compare_request(checked, names)
        if as_json:
            click.echo(json.dumps(result.as_dict()))
        else:
            click.echo(result.format(phases=phases))
    sys.exit(outcome.code)
