"""``slidelab compare``: several methods on one position, side by side."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from .common import (
    Outcome,
    fail,
    failure_code,
    goal_options,
    inputs,
    metric_option,
    option_names,
    report_failure,
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
@click.option(
    "--time-limit",
    type=float,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds for each method's answer.",
)
@click.option(
    "--phases",
    is_flag=True,
    help="Under each method, its layers (breadth-first) or iterations (IDA*).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per board.")
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
    for number, text in inputs(board):
        try:
            request = read_request(text, goal, blank_first=blank_first, size=size, options=options)
        except SlidelabError as exc:
            code = failure_code(exc)
            report_failure({"start": text}, str(exc), number, as_json, outcome, code)
            continue
        result = compare_request(request, names)
        if as_json:
            click.echo(json.dumps(result.as_dict()))
        else:
            click.echo(result.format(phases=phases))
    sys.exit(outcome.code)
