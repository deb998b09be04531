"""``slidelab solve``: solve boards, one by one, and show the solutions."""

from __future__ import annotations

import json
import sys
from collections import deque

import click

from ..errors import SlidelabError
from .common import (
    FIX_NAMES,
    Outcome,
    SearchCommand,
    board_record,
    fail,
    failure_code,
    goal_options,
    inputs,
    read_search_options,
    report_failure,
    scheduler_option,
    search_options,
)
from .program import needs
from .progress import ProgressLine, TableBar


@click.command("solve", cls=SearchCommand)
@click.argument("board", required=False)
@goal_options
@search_options
@click.option(
    "--all",
    "all_solutions",
    is_flag=True,
    help="List every distinct optimal solution (IDA*) and their count.",
)
@click.option("--limit", type=int, default=None, help="With --all: stop after N solutions.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress line on stderr (default: when stderr is a terminal).",
)
@click.option(
    "--notation",
    type=click.Choice(["tile", "blank", "numbers"]),
    default="tile",
    show_default=True,
    help="How to write the solution (human output).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per board.")
@scheduler_option("Run IDA*'s long iterations as tasks")
@needs("slidelab.search.many")
def solve_command(
    board,
    goal,
    blank_first,
    size,
    all_solutions,
    limit,
    progress,
    notation,
    as_json,
    scheduler,
    **_search,  # search_options': read_search_options reads them, with the goal's, once
):
    """Find a solution of BOARD (shortest, unless a weight is given)."""
    from ..errors import SearchInterrupted
    from ..search.many import solve_many

    outcome = Outcome()
    try:
        if limit is not None and not all_solutions:
            raise SlidelabError("--limit goes with --all")
        if all_solutions and scheduler is not None:
            raise SlidelabError("--all runs on this machine; --scheduler is for one solution")
        options = read_search_options(click.get_current_context().params)
        if options.scheduler is not None:  # an unreachable one said once, not for each board
            from ..cluster import connect

            connect(options.scheduler).close()
    except SlidelabError as exc:
        fail(str(exc), failure_code(exc))
    show = sys.stderr.isatty() if progress is None else progress
    # --no-progress: silence; otherwise a live line on a terminal, a line now and then elsewhere
    reporter = ProgressLine(live=show) if progress is not False else None
    tables = TableBar(live=show) if reporter else None
    lines: deque = deque()  # (line number, record) of each position given to the solver, in order

    def positions():
        """Each board's request, read once (or why it cannot be solved), in input order."""
        from ..search.request import check_request, read_puzzle

        for number, text in inputs(board):
            try:
                puzzle = read_puzzle(text, goal, blank_first=blank_first, size=size)
            except SlidelabError as exc:
                lines.append((number, {"start": text}))
                yield exc
                continue
            lines.append((number, {**board_record(puzzle), "size": puzzle.size}))
            try:
                yield check_request(puzzle, options, FIX_NAMES)
            except SlidelabError as exc:  # a partition that does not fit, an unsolvable board
                yield exc

    if all_solutions:
        results = _every_solution(positions(), limit, options, reporter, tables)
    else:
        # a stream of boards is solved on every core, answers in input order; on a cluster, one
        # board at a time, with all of it
        workers = 1 if board is not None or scheduler is not None else None
        results = solve_many(
            positions(), options=options, workers=workers, progress=reporter, table_progress=tables
        )
    if reporter:
        reporter.start()
    for result in results:
        number, record = lines.popleft()
        if reporter:
            reporter.clear()
        if tables:
            tables.close()
        if isinstance(result, SearchInterrupted):
            report_failure(record, str(result), number, as_json, outcome, 130)
            break
        if isinstance(result, SlidelabError):
            code = failure_code(result)
            report_failure(record, str(result), number, as_json, outcome, code)
        elif all_solutions:
            _show_all(result, notation, as_json)
        elif as_json:
            click.echo(json.dumps(result.as_dict()))
        else:
            _show_solution(result, notation)
        if reporter:
            reporter.start()
    sys.exit(outcome.code)


def _every_solution(positions, limit, options, reporter, tables):
    """For each position, its list of every optimal solution (or the error), one at a time."""
    from ..errors import SearchInterrupted
    from ..search.solve import solve_all

    for request in positions:
        if isinstance(request, BaseException):
            yield request
            continue
        try:
            yield solve_all(
                request,
                limit=limit,
                heuristic=options.heuristic,
                time_limit=options.time_limit,
                partition=options.partition,
                metric=options.metric,
                progress=reporter,
                table_progress=tables,
            )
        except SearchInterrupted as exc:
            yield exc
            return
        except SlidelabError as exc:
            yield exc


def _show_all(solutions, notation, as_json):
    if as_json:
        record = solutions[0].as_dict()
        record["solutions"] = [s.notation for s in solutions]
        record["count"] = len(solutions)
        click.echo(json.dumps(record))
        return
    first = solutions[0]
    click.echo(f"start ({first.start.size}):\n{first.start.grid()}")
    click.echo(f"goal:\n{first.goal.grid()}")
    click.echo(
        f"{len(solutions)} optimal solution{'s' if len(solutions) != 1 else ''}"
        f" of {first.length} {'MTM ' if first.metric == 'mtm' else ''}moves:"
    )
    for s in solutions:
        click.echo(s.format(notation) or "(already solved)")
    st = first.stats
    click.echo(f"expanded {st.expanded:,}  generated {st.generated:,}  time {st.seconds:.3f} s")
    click.echo("")


def _show_solution(solution, notation):
    s = solution.stats
    status = "optimal" if solution.optimal else "not proven optimal"
    click.echo(f"start ({solution.start.size}):\n{solution.start.grid()}")
    click.echo(f"goal:\n{solution.goal.grid()}")
    click.echo(f"solution: {_moves_text(solution)}, {status}, method {solution.method}")
    click.echo(solution.format(notation) or "(already solved)")
    sides = (
        f" (forward {s.expanded_forward:,}, backward {s.expanded_backward:,})"
        if s.expanded_forward or s.expanded_backward
        else ""
    )
    click.echo(
        f"expanded {s.expanded:,}{sides}  generated {s.generated:,}  stored {s.stored:,}"
        f"  peak frontier {s.peak_frontier:,}  time {s.seconds:.3f} s"
    )
    click.echo("")


def _moves_text(solution) -> str:
    """``31 moves (20 MTM)`` in STM, ``20 MTM moves (31 STM)`` in MTM; thousands separated
    (``19,702 moves (14,454 MTM)``)."""
    n = solution.length
    plural = "" if n == 1 else "s"
    if solution.metric == "mtm":
        return f"{n:,} MTM move{plural} ({solution.length_stm:,} STM)"
    return f"{n:,} move{plural} ({solution.length_mtm:,} MTM)"
