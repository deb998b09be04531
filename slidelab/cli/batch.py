"""``slidelab batch``: solve a file of instances on local workers or a Dask cluster, resumably."""

from __future__ import annotations

import functools
import json
import os
import signal
import sys
import time

import click

from ..errors import SlidelabError
from ..units import counted
from .common import (
    FAILED,
    OK,
    SearchCommand,
    fail,
    failure_code,
    goal_options,
    read_search_options,
    scheduler_option,
    search_options,
)
from .program import interrupt_handler, needs
from .progress import BatchBar


@click.command("batch", cls=SearchCommand)
@click.argument("input_file", metavar="INPUT")
@click.option(
    "-o",
    "--output",
    default=None,
    metavar="FILE",
    help="Results, one JSON object per line, written as each instance finishes;"
    " run again with the same FILE to go on where a run stopped."
    " Default: standard output.",
)
@goal_options
@search_options
@click.option(
    "--workers",
    "-j",
    type=click.IntRange(1, 4096),
    default=None,
    help="Local worker processes (default: one per core).",
)
@scheduler_option("Solve")
@click.option(
    "--redo-failed",
    is_flag=True,
    help="Solve again the instances whose result in the output file is an error.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr (default: when stderr is a terminal).",
)
@needs("slidelab.batch", "slidelab.batch.run")
def batch_command(
    input_file,
    output,
    goal,
    blank_first,
    size,
    workers,
    scheduler,
    redo_failed,
    progress,
    **_search,  # search_options': read_search_options reads them, with the goal's, once
):
    """Solve every instance of INPUT (a file, or - for standard input), one per line.

    A line holds a board, optionally followed by '; GOAL' and '; ID' (or fields
    goal=..., id=..., known=...), or Korf's benchmark layout: the tiles as
    numbers, optionally preceded by the instance's number and followed by the
    known optimal length, which is then checked.  Blank lines and # comments
    are skipped.  A summary table follows the results.
    """
    from ..batch import ResultsFile, Summary, solve_batch
    from ..batch.instances import count_instances, iter_instances
    from ..batch.run import default_workers

    source = None
    try:
        if redo_failed and output is None:
            raise SlidelabError("--redo-failed goes with -o (an output file to read back)")
        if scheduler is not None and workers is not None:
            raise SlidelabError("--workers is for local processes; a Dask cluster has its own")
        # batch's --scheduler runs each instance on a worker of the cluster, not the subtrees
        # of its search (the search option of that name: solve --scheduler)
        options = read_search_options({**click.get_current_context().params, "scheduler": None})
        source = _open_input(input_file)
        if output is not None and input_file != "-" and _same_file(input_file, output):
            raise SlidelabError("the output file is the input file")
        results = ResultsFile(output, redo_failed=redo_failed) if output is not None else None
    except SlidelabError as exc:
        if source is not None and source is not sys.stdin:
            source.close()
        fail(str(exc))
    if results is not None and not results.resumable:
        click.echo(
            f"note: {output} is not a regular file: the results are written there"
            " without resume (nothing is read back)",
            err=True,
        )
    done = len(results.done) if results is not None else 0
    workers = None if scheduler is not None else (workers or default_workers())
    show = sys.stderr.isatty() if progress is None else progress
    # the input is read as the workers go: a regular file is counted first (a quick pass over
    # its bytes) for the progress bar's total; standard input is not (the bar shows no total)
    total = None
    if show and source is not sys.stdin and os.path.isfile(input_file):
        try:
            total = count_instances(input_file)
        except OSError:
            total = None
    where = _where(scheduler, workers, None)
    if show:
        earlier = f", {done:,} done in an earlier run" if done else ""
        if total is None:
            click.echo(
                f"reading instances from {_name(input_file)}{earlier}; solving on {where}", err=True
            )
        else:
            left = total - done
            doing = (
                f"solving {left:,} on {_where(scheduler, workers, left)}"
                if left > 0
                else "nothing left to solve"
            )
            click.echo(f"{total:,} instances{earlier}; {doing}", err=True)
    bar = BatchBar(total, done, show and (total is None or total > done))
    this_run = Summary()
    interrupted = False
    previous = signal.signal(signal.SIGTERM, interrupt_handler)  # kill: stop as cleanly as Ctrl-C
    began = time.perf_counter()
    records = None
    try:
        instances = iter_instances(_lines(source, input_file), size)
        todo = results.todo(instances) if results is not None else instances
        records = solve_batch(
            todo,
            goal=goal,
            blank_first=blank_first,
            size=size,
            options=options,
            workers=workers,
            scheduler=scheduler,
            table_progress=bar.tables,
        )
        if results is not None:
            results.__enter__()
        for record in records:
            if results is not None:
                results.append(record)
            else:
                click.echo(json.dumps(record))
            this_run.add(record)
            bar.update(record)
    except KeyboardInterrupt:
        interrupted = True
    except SlidelabError as exc:  # the cluster cannot be reached, the output cannot be written,
        bar.close()  # the input is another's or too long
        kept = ""
        if results is not None and this_run.instances:  # what was solved is not lost
            kept = (
                f" ({counted(this_run.instances, 'result')} of this run kept in {output}:"
                " run the same command again to go on)"
            )
        fail(str(exc) + kept, failure_code(exc))
    finally:
        if records is not None:
            records.close()  # stops the workers
        bar.close()
        if results is not None:
            results.__exit__(None, None, None)
        if source is not sys.stdin:
            source.close()
        signal.signal(signal.SIGTERM, previous)
    seconds = time.perf_counter() - began
    summary = results.summary if results is not None else this_run
    echo = functools.partial(click.echo, err=results is None)
    echo(summary.table())
    count = this_run.instances
    rate = f", {count / seconds:.2f} per second" if seconds > 0 and count else ""
    if count or interrupted:
        echo(
            f"this run: {counted(count, 'instance')} in {seconds:.1f} s on"
            f" {_where(scheduler, workers, count)}{rate}"
        )
    if interrupted:
        again = "; run the same command again to go on" if results is not None else ""
        if total is not None:
            echo(f"interrupted with {max(0, total - summary.instances):,} instances left{again}")
        else:
            echo(f"interrupted{again}")
        sys.exit(130)
    sys.exit(FAILED if summary.failed or summary.mismatches else OK)


def _where(scheduler, workers, count) -> str:
    """Where a batch runs: the cluster, or its worker processes (no more than ``count``)."""
    if scheduler:
        return f"the Dask cluster at {scheduler}"
    if count:
        workers = min(workers, count)
    return f"{workers} worker process{'es' if workers != 1 else ''}"


def _name(input_file: str) -> str:
    return "standard input" if input_file == "-" else input_file


def _open_input(input_file: str):
    """INPUT open for reading (standard input for ``-``): read a line at a time, as solved."""
    if input_file == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise SlidelabError("INPUT is - but nothing is on standard input")
        return sys.stdin
    try:
        return open(input_file, encoding="utf-8")
    except OSError as exc:
        raise SlidelabError(f"cannot read {input_file}: {exc.strerror}") from None


def _lines(source, input_file: str):
    """The lines of INPUT, as they are read (up to stated sizes: see iter_lines)."""
    from ..batch.instances import iter_lines

    try:
        yield from iter_lines(source, _name(input_file))
    except OSError as exc:
        raise SlidelabError(f"cannot read {input_file}: {exc.strerror}") from None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
