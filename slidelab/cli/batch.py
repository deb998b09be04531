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
from .options import (
    FAILED,
    OK,
    _check_search_options,
    _fail,
    _goal_options,
    _search_options,
    _SearchCommand,
)
from .program import _interrupted, needs
from .progress import _BatchBar


@click.command("batch", cls=_SearchCommand)
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
@_goal_options
@_search_options
@click.option(
    "--workers",
    "-j",
    type=click.IntRange(1, 4096),
    default=None,
    help="Local worker processes (default: one per core).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Solve on a Dask cluster: its scheduler's address (tcp://host:8786).",
)
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
    metric,
    method,
    heuristic,
    partition,
    weight,
    time_limit,
    max_states,
    max_memory,
    workers,
    scheduler,
    redo_failed,
    progress,
):
    """Solve every instance of INPUT (a file, or - for standard input), one per line.

    A line holds a board, optionally followed by '; GOAL' and '; ID' (or fields
    goal=..., id=..., known=...), or Korf's benchmark layout: the tiles as
    numbers, optionally preceded by the instance's number and followed by the
    known optimal length, which is then checked.  Blank lines and # comments
    are skipped.  A summary table follows the results.
    """
    from ..batch import ResultsFile, read_instances, solve_batch, summarize
    from ..batch.run import default_workers

    try:
        if redo_failed and output is None:
            raise SlidelabError("--redo-failed goes with -o (an output file to read back)")
        if scheduler is not None and workers is not None:
            raise SlidelabError("--workers is for local processes; a Dask cluster has its own")
        options = _check_search_options(click.get_current_context().params)
        instances = read_instances(_batch_lines(input_file), size)
        if output is not None and input_file != "-" and _same_file(input_file, output):
            raise SlidelabError("the output file is the input file")
        results = ResultsFile(output, instances, redo_failed) if output is not None else None
    except SlidelabError as exc:
        _fail(str(exc))
    if results is not None and not results.resumable:
        click.echo(
            f"note: {output} is not a regular file: the results are written there"
            " without resume (nothing is read back)",
            err=True,
        )
    done = results.done if results is not None else {}
    todo = [i for i in instances if i.line not in done]
    workers = None if scheduler is not None else (workers or default_workers())
    show = sys.stderr.isatty() if progress is None else progress
    where = (
        f"the Dask cluster at {scheduler}"
        if scheduler
        else f"{min(workers, len(todo)) or workers} worker process{'es' if workers != 1 else ''}"
    )
    if show:
        earlier = f", {len(done):,} done in an earlier run" if done else ""
        doing = f"solving {len(todo):,} on {where}" if todo else "nothing left to solve"
        click.echo(f"{len(instances):,} instances{earlier}; {doing}", err=True)
    bar = _BatchBar(len(instances), len(done), show and bool(todo))
    this_run: list[dict] = []
    interrupted = False
    previous = signal.signal(signal.SIGTERM, _interrupted)  # kill: stop as cleanly as Ctrl-C
    began = time.perf_counter()
    records = None
    try:
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
            this_run.append(record)
            bar.update(record)
    except KeyboardInterrupt:
        interrupted = True
    except SlidelabError as exc:  # the cluster cannot be reached, the output cannot be written
        bar.close()
        _fail(str(exc))
    finally:
        if records is not None:
            records.close()  # stops the workers
        bar.close()
        if results is not None:
            results.__exit__(None, None, None)
        signal.signal(signal.SIGTERM, previous)
    seconds = time.perf_counter() - began
    summary = summarize(done.values() if results is not None else this_run)
    echo = functools.partial(click.echo, err=results is None)
    echo(summary.table())
    rate = f", {len(this_run) / seconds:.2f} per second" if seconds > 0 and this_run else ""
    if todo:
        echo(f"this run: {len(this_run):,} instances in {seconds:.1f} s on {where}{rate}")
    if interrupted:
        left = len(instances) - summary.instances
        echo(
            f"interrupted with {left:,} instances left"
            + ("; run the same command again to go on" if results is not None else "")
        )
        sys.exit(130)
    sys.exit(FAILED if summary.failed or summary.mismatches else OK)


def _batch_lines(input_file: str) -> list[str]:
    """The lines of INPUT, or of standard input for ``-`` (up to a stated size: see read_lines)."""
    from ..batch.instances import read_lines

    if input_file == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise SlidelabError("INPUT is - but nothing is on standard input")
        return read_lines(sys.stdin, "standard input")
    try:
        with open(input_file, encoding="utf-8") as f:
            return read_lines(f, input_file)
    except OSError as exc:
        raise SlidelabError(f"cannot read {input_file}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise SlidelabError(f"{input_file} is not text (UTF-8): byte {exc.start}") from None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
