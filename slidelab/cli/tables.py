"""``slidelab tables``: the cached tables (every family of :mod:`slidelab.tables.registry`):
list, build, clear."""

from __future__ import annotations

import json
import sys

import click

from ..errors import SlidelabError
from ..tables.registry import FAMILIES, PARTITION_HELP, SUMMARIES
from ..units import format_bytes
from .common import fail
from .program import needs
from .progress import TableBar


@click.group("tables")
def tables_group():
    """Manage cached tables (pattern databases, distance and abstraction tables): list, build,
    clear.

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
@click.option(
    "--family",
    type=click.Choice(list(FAMILIES)),
    default=None,
    help="Which tables: "
    + "; ".join(f"{name}, {summary}" for name, summary in SUMMARIES.items())
    + ".  [default: pdb]",
)
@click.option("--heuristic", type=click.Choice(["pdb", "abstraction"]), hidden=True)
@click.option("--partition", default=None, help=f"The pattern databases' groups: {PARTITION_HELP}.")
@click.option(
    "--metric",
    type=click.Choice(["stm", "mtm"], case_sensitive=False),
    default=None,
    help="The distances' metric, for the tables that count one (distance, abstraction);"
    " default: the family's (abstraction tables are for MTM searches).",
)
@click.option(
    "--classes",
    multiple=True,
    metavar="BOARD",
    help="An abstraction table's relabelled goal (repeat for several; default: the board's set).",
)
@needs("slidelab.tables.family", "slidelab.puzzle")
def tables_build(goal, blank_first, family, heuristic, partition, metric, classes):
    """Build tables for GOAL (a board, or a size WxH for the ordered goal) ahead of time: the
    pattern databases by default, or the goal's distance table, or its abstraction tables.
    Says what it builds, how big and about how long, before it starts."""
    from ..puzzle import Puzzle, goal_board
    from ..tables.family import Tables
    from ..tables.registry import family as family_of

    name = family or heuristic or "pdb"  # --heuristic: the option's name before --family
    kind = family_of(name)
    chosen = {"partition": partition, "classes": tuple(classes) or None}
    for option, value in chosen.items():
        if value is not None and kind.option != option:
            takers = [f for f in FAMILIES if family_of(f).option == option]
            fail(
                f"--{option} is for "
                + " or ".join(f"{SUMMARIES[f].split(' (')[0]} (--family {f})" for f in takers)
                + f", not {SUMMARIES[name].split(' (')[0]}"
            )
    which = chosen.get(kind.option) if kind.option else None
    try:
        board = goal_board(goal, blank_first=blank_first)
        metric = (metric or kind.default_metric).lower() if kind.metric_bound else "stm"
        tables = Tables(name, board, metric, which)
        # the family refuses tables too large to build before anything else, and says what it
        # builds, how big and about how long before it starts (the bar comes after)
        bar = TableBar(live=sys.stderr.isatty())
        tables.build(bar)
        bar.close()
    except SlidelabError as exc:
        fail(str(exc))
    cost = tables.cost()
    click.echo(
        f"{tables.describe()}, {format_bytes(cost.disk_bytes)}, for goal"
        f" {Puzzle(board, board).goal.format()}: ready"
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
