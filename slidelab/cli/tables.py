"""``slidelab tables``: the cached tables (pattern databases, distance tables): list, build, clear."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from ..tables.registry import PARTITION_HELP
from ..units import format_bytes
from .common import fail
from .program import needs
from .progress import TableBar


@click.group("tables")
def tables_group():
    """Manage cached tables (pattern databases): list, build, clear.

    Tables live in $SLIDELAB_CACHE, or the platform's user cache directory.
    """


@tables_group.command("list")
@click.option("--json", "as_json", is_flag=True)
def tables_list(as_json):
    """List cached tables with their size and whether they are valid."""
    from ..cache import cache_dir, list_tables

    rows = list_tables()
    if as_json:
        click.echo(
            json.dumps([{k: (str(v) if k == "path" else v) for k, v in r.items()} for r in rows])
        )
        return
    click.echo(f"cache: {cache_dir()}")
    for r in rows:
        spec = r["spec"] or {}
        state = "ok" if r["valid"] else f"INVALID ({r['reason']})"
        metric = f" ({spec['metric'].upper()})" if isinstance(spec.get("metric"), str) else ""
        click.echo(
            f"{r['key']}  {spec.get('kind', '?')}{metric} {spec.get('board', '')}"
            f"  {r['bytes']:,} bytes  {state}\n    goal {spec.get('goal', '?')}"
        )
    if not rows:
        click.echo("(no tables)")


@tables_group.command("build")
@click.argument("goal", required=False, default="4x4")
@click.option("--blank-first", is_flag=True, help="Ordered goal with the blank first.")
@click.option("--partition", default=None, help=f"{PARTITION_HELP}.")
@click.option(
    "--heuristic",
    type=click.Choice(["pdb", "abstraction"]),
    default="pdb",
    show_default=True,
    help="The tables of which heuristic: the pattern databases, or the abstraction table.",
)
@click.option(
    "--metric",
    type=click.Choice(["stm", "mtm"], case_sensitive=False),
    default="mtm",
    show_default=True,
    help="The abstraction table's metric.",
)
@click.option(
    "--classes",
    multiple=True,
    metavar="BOARD",
    help="An abstraction table's relabelled goal (repeat for several; default: the board's set).",
)
@needs("slidelab.heuristics.pdb", "slidelab.puzzle")
def tables_build(goal, blank_first, partition, heuristic, metric, classes):
    """Build the pattern databases (or the abstraction table) for GOAL (a board, or a size WxH
    for the ordered goal)."""
    from ..heuristics.pdb import pattern_database
    from ..puzzle import Puzzle, goal_board

    try:
        board = goal_board(goal, blank_first=blank_first)
        puzzle = Puzzle(board, board)
        if heuristic == "abstraction":
            from ..heuristics import make_heuristic

            if partition is not None:
                fail("--partition is for the pattern databases, not the abstraction table")
            bar = TableBar(live=sys.stderr.isatty())
            heur = make_heuristic(
                puzzle,
                "abstraction",
                metric=metric.lower(),
                progress=bar,
                classes=list(classes) or None,
            )
            bar.close()
            click.echo(f"{heur.description} for goal {puzzle.goal.format()}: ready")
            return
        if classes:
            fail("--classes is for the abstraction table, not the pattern databases")
        # pattern_database refuses a partition too large to build before anything else, and
        # says what it builds, how big and about how long before it starts (the bar comes after)
        bar = TableBar(live=sys.stderr.isatty())
        db = pattern_database(puzzle, partition, progress=bar)
        bar.close()
    except SlidelabError as exc:
        fail(str(exc))
    click.echo(
        f"{db.heuristic().description} for goal {puzzle.goal.format()}: ready"
        f" ({sum(int(s) for s in db.layout.sizes):,} entries)"
    )


@tables_group.command("clear")
@click.option("--kind", default=None, help="Only tables of this kind (e.g. pdb).")
@click.option("--yes", "-y", is_flag=True, help="Do not ask (needed when not on a terminal).")
def tables_clear(kind, yes):
    """Delete cached tables (asks first, saying what and how much)."""
    from ..cache import clear_tables

    asked, removing = [], []

    def confirm(tables: list[dict]) -> bool:
        asked.append(True)
        total = format_bytes(sum(t["bytes"] for t in tables))
        plural = "s" if len(tables) != 1 else ""
        if not yes:
            if not _can_ask():
                fail(
                    f"not deleting {len(tables)} table{plural} ({total}) without"
                    " confirmation: run on a terminal, or add --yes"
                )
            for t in tables:
                click.echo(f"  {t['kind']} {t['board']}  {format_bytes(t['bytes'])}  {t['key']}")
            these = "this table" if len(tables) == 1 else f"these {len(tables)} tables"
            if not click.confirm(f"delete {these} ({total})?"):
                return False
        removing.extend(tables)
        return True

    try:
        count = clear_tables(kind, confirm)
    except SlidelabError as exc:
        fail(str(exc))
    if not removing:
        click.echo(
            "nothing deleted"
            if asked
            else "no tables to delete" + (f" of kind {kind}" if kind else "")
        )
        return
    total = format_bytes(sum(t["bytes"] for t in removing))
    click.echo(
        f"deleted {count} table{'s' if count != 1 else ''} ({total}): "
        + ", ".join(f"{t['kind']} {t['board']}".strip() for t in removing)
    )


def _can_ask() -> bool:
    """Whether a person can answer a question: standard input is a terminal."""
    return sys.stdin is not None and sys.stdin.isatty()
