"""``slidelab optimize``: a solution shortened, its stretches replaced by optimal ones."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from ..moves import expand, format_moves, parse_moves
from .common import FIX_NAMES, fail, failure_code, goal_options
from .program import needs


@click.command("optimize")
@click.argument("start")
@click.argument("moves")
@goal_options
@click.option(
    "--window",
    type=click.IntRange(2, None),
    default=None,
    metavar="N",
    help="Longest stretch replaced at once (default 44; the solve's length or more: the whole,"
    " an optimal solution).",
)
@click.option(
    "--time-limit", type=float, default=None, metavar="SECONDS", help="Stop shortening then."
)
@click.option("--json", "as_json", is_flag=True, help="The shortened solution as JSON.")
@needs("slidelab.search.optimize")
def optimize_command(start, moves, goal, blank_first, size, window, time_limit, as_json):
    """Shorten the solution MOVES of START: each stretch of it replaced by an optimal one where
    that is shorter, pass after pass; says what it saved (single-tile moves)."""
    from ..search.optimize import optimize_request
    from ..search.request import check_request, read_options, read_puzzle

    try:
        puzzle = read_puzzle(start, goal, blank_first=blank_first, size=size)
        request = check_request(puzzle, read_options(time_limit=time_limit), FIX_NAMES)
        before = len(expand(parse_moves(moves)))
        solution = optimize_request(request, moves, window)
    except SlidelabError as exc:
        fail(str(exc), failure_code(exc))
    saved = before - solution.length
    if as_json:
        click.echo(json.dumps({**solution.as_dict(), "before": before, "saved": saved}))
    else:
        proven = "optimal" if solution.optimal else "not proven optimal"
        click.echo(f"{before} moves -> {solution.length} ({saved} saved; {proven})")
        click.echo(format_moves(solution.moves, sep=""))
    sys.exit(0)
