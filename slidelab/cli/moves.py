"""``slidelab moves``: the move algebra (apply, invert, simplify, length, convert); no numba."""

from __future__ import annotations

import click

from ..board import Board
from ..errors import SlidelabError
from ..parse import STYLES
from .common import fail


@click.group("moves")
def moves_group():
    """Move algebra: apply, invert, simplify, measure and convert move strings."""


def _notation_option(f):
    return click.option(
        "--notation",
        "notation",
        type=click.Choice(["tile", "blank"]),
        default="tile",
        show_default=True,
        help="How MOVES is written: tile directions (UDLR) or blank (udlr).",
    )(f)


def _to_option(f):
    return click.option(
        "--to",
        "to",
        type=click.Choice(["tile", "blank", "numbers"]),
        default="tile",
        show_default=True,
        help="How to write the result.",
    )(f)


def _moves_action(action):
    try:
        action()
    except SlidelabError as exc:
        fail(str(exc))


def _rewrite_options(board_help: str):
    """MOVES, ``--notation``, ``--to`` and ``--board``: the options of every command that
    writes MOVES out again (``board_help`` says what ``--board`` is for)."""

    def decorate(f):
        f = click.option("--board", default=None, help=board_help)(f)
        return click.argument("moves")(_notation_option(_to_option(f)))

    return decorate


def _echo_rewritten(change, moves, notation, to, board, sep=" "):
    """Print MOVES after ``change`` (a function of the parsed moves), written as ``--to`` says."""
    from ..moves import format_moves, parse_moves

    _moves_action(
        lambda: click.echo(format_moves(change(parse_moves(moves, notation)), to, sep, board=board))
    )


@moves_group.command("apply")
@click.argument("board")
@click.argument("moves")
@_notation_option
@click.option("--size", metavar="WxH", help="Size of a one-line board.")
@click.option("--format", "style", type=click.Choice(STYLES), default="slash", show_default=True)
def moves_apply(board, moves, notation, size, style):
    """Print BOARD after MOVES."""
    from ..board import apply_moves
    from ..moves import parse_moves

    _moves_action(
        lambda: click.echo(
            apply_moves(Board(board, size), parse_moves(moves, notation)).format(style)
        )
    )


@moves_group.command("invert")
@_rewrite_options("Start board (for --to numbers: the inverse's start).")
def moves_invert(moves, notation, to, board):
    """Print the moves that undo MOVES."""
    from ..moves import invert

    _echo_rewritten(invert, moves, notation, to, board)


@moves_group.command("simplify")
@_rewrite_options("Start board (for --to numbers).")
def moves_simplify(moves, notation, to, board):
    """Merge runs (R R = R2) and cancel moves that undo each other (R L)."""
    from ..moves import simplify

    _echo_rewritten(simplify, moves, notation, to, board)


@moves_group.command("length")
@click.argument("moves")
@_notation_option
def moves_length(moves, notation):
    """Print the length in single-tile (STM) and multi-tile (MTM) moves."""
    from ..moves import mtm, parse_moves, stm

    def run():
        parsed = parse_moves(moves, notation)
        click.echo(f"{stm(parsed)} STM, {mtm(parsed)} MTM")

    _moves_action(run)


@moves_group.command("convert")
@_rewrite_options("Start board (needed for --to numbers).")
@click.option(
    "--expand", "single", is_flag=True, help="Write every single-tile move: R3 becomes R R R."
)
@click.option("--compact", is_flag=True, help="Merge runs: R R R becomes R3.")
@click.option("--sep", default=" ", show_default="a space", help='Between moves ("" writes R3U2L).')
def moves_convert(moves, notation, to, board, single, compact, sep):
    """Rewrite MOVES in another notation (tile, blank, or tile numbers), expanded into
    single-tile moves or compacted into runs.

    \b
    slidelab moves convert "R3 U" --expand          R R R U
    slidelab moves convert "RRRU" --compact --sep ""  R3U
    slidelab moves convert "R3 U" --to blank        l3 d
    """
    from ..moves import expand, runs

    if single and compact:
        fail("--expand and --compact exclude each other")
    change = expand if single else runs if compact else (lambda parsed: parsed)
    _echo_rewritten(change, moves, notation, to, board, sep)
