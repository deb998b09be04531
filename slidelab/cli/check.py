"""``slidelab check``: whether boards can reach their goal, and why (or a fixed board)."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from .common import (
    BAD_INPUT,
    FAILED,
    FIX_NAMES,
    Outcome,
    goal_options,
    inputs,
    report_failure,
)
from .program import needs


@click.command("check")
@click.argument("board", required=False)
@goal_options
@click.option(
    "--fix",
    type=click.Choice(["swap", "mirror"]),
    default=None,
    help="Print a solvable board instead: swap two tiles or mirror the board.",
)
@click.option(
    "--json", "as_json", is_flag=True, help='One {"solvable", "reason"} object per board.'
)
@needs("slidelab.generate", "slidelab.search.request", "slidelab.solvability")
def check_command(board, goal, blank_first, size, fix, as_json):
    """Say whether BOARD can reach the goal, and why."""
    from ..generate import fix_parity
    from ..search.request import read_puzzle
    from ..solvability import check as check_puzzle

    outcome = Outcome()
    for number, text in inputs(board):
        try:
            puzzle = read_puzzle(text, goal, blank_first=blank_first, size=size)
            if fix:
                click.echo(fix_parity(puzzle.start, puzzle.goal, how=fix).format())
                continue
            verdict = check_puzzle(puzzle, names=FIX_NAMES)
        except SlidelabError as exc:
            report_failure({"start": text}, str(exc), number, as_json, outcome, BAD_INPUT)
            continue
        if not verdict.solvable:
            outcome.note(FAILED)
        if as_json:
            click.echo(json.dumps({"solvable": verdict.solvable, "reason": verdict.reason}))
        else:
            click.echo(verdict.reason)
    sys.exit(outcome.code)
