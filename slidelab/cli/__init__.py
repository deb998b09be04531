"""The ``slidelab`` command line: the ``main`` group and its commands.

One module per command or command group (:mod:`.solve`, :mod:`.check`,
:mod:`.generate`, :mod:`.analyze`, :mod:`.batch`, :mod:`.serve`,
:mod:`.moves`, :mod:`.tables`); what they share is in :mod:`.common` (exit
codes, reading boards, the goal and search options) and :mod:`.progress`
(progress on stderr); the program's start-up in :mod:`.program`.

Exit codes: 0 ok, 1 unsolvable or no solution within the limits, 2 bad input.
Commands that take a BOARD read one board per line from standard input when
the argument is absent (blank lines and ``#`` comments are skipped).

Start-up time matters for a command line, so each command imports what it
needs when it runs (declared with :func:`.program.needs`): ``slidelab moves
...`` or ``slidelab check`` never load numba, and ``slidelab --help`` stays
quick.
"""

from __future__ import annotations

import click

from .. import __version__
from .analyze import analyze_command
from .batch import batch_command
from .check import check_command
from .compare import compare_command
from .count import count_command
from .generate import generate_command
from .hint import hint_command
from .moves import moves_group
from .optimize import optimize_command
from .program import ProgramGroup
from .progress import QUIET_SECONDS
from .review import review_command
from .serve import serve_command
from .solve import solve_command
from .tables import tables_group

__all__ = ["main", "QUIET_SECONDS"]


@click.group(cls=ProgramGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="slidelab")
def main():
    """slidelab: solve, check and generate sliding-tile puzzles of any size.

    Boards are written row by row: "1 2 3/4 5 6/7 8 0", "ABA_/CDCD/ABAB/CDCD";
    the blank may be 0 _ . x or *.  Moves name the direction the tile goes
    (U D L R; R3 = RRR).
    """


for _command in (
    solve_command,
    check_command,
    compare_command,
    hint_command,
    review_command,
    optimize_command,
    count_command,
    generate_command,
    analyze_command,
    batch_command,
    serve_command,
    moves_group,
    tables_group,
):
    main.add_command(_command)
del _command
