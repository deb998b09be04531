"""The works the breadth-first engine and the front door carry: seconds and peak memory each.

Each row is one ``slidelab`` command in a fresh process, timed from outside (wall
seconds and the child's peak resident memory, from ``os.wait4``), with one table
cache (``--cache``, by default a new temporary folder) shared by the rows, so the
7-8 tables the first row builds are the ones Korf's 100 then loads.  Kernels come
from numba's cache; run the script once before timing a change that recompiles them.

========  ==========================================================================
row       command
========  ==========================================================================
pdb78     ``slidelab tables build 4x4 --blank-first --partition 7-8`` (empty cache)
line-mtm  ``slidelab analyze ABA_/CDCD/ABAB/CDCD --metric mtm`` (252,252,000 positions)
line-stm  the same in STM
3x4       ``slidelab analyze 3x4`` (239,500,800 positions)
korf100   ``slidelab solve --blank-first --partition 7-8`` on Korf's 100, one stream
3x3       ``slidelab solve "8 6 7/2 5 4/3 0 1"``
2x7       ``slidelab analyze 7x2`` (43.6 billion positions, 11 GB; only with ``--rows 2x7``)
========  ==========================================================================

Run: ``python benchmarks/structure.py [--rows pdb78,line-mtm,...] [--cache DIR]``; prints a
Markdown table.  With ``PYTHONPATH`` pointing at another checkout it times that one (the
"before" column of a change; the commands run outside the checkout, since ``python -m`` puts
the working folder first).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
KORF = HERE / "data" / "korf100.txt"

ROWS = {
    "pdb78": ["tables", "build", "4x4", "--blank-first", "--partition", "7-8"],
    "line-mtm": ["analyze", "ABA_/CDCD/ABAB/CDCD", "--metric", "mtm"],
    "line-stm": ["analyze", "ABA_/CDCD/ABAB/CDCD"],
    "3x4": ["analyze", "3x4"],
    "korf100": ["solve", "--blank-first", "--partition", "7-8"],
    "3x3": ["solve", "8 6 7/2 5 4/3 0 1"],
    "2x7": ["analyze", "7x2"],
}
DEFAULT = ["pdb78", "line-mtm", "line-stm", "3x4", "korf100", "3x3"]


def korf_boards() -> str:
    """Korf's 100 as one board a line (the data file: 16 tiles, then the optimal length)."""
    lines = []
    for line in KORF.read_text().splitlines():
        fields = line.split()
        if len(fields) == 17 and not line.startswith("#"):
            lines.append(" ".join(fields[:16]))
    return "\n".join(lines) + "\n"


def timed(args: list[str], env: dict, stdin: str | None) -> tuple[float, int, int]:
    """(wall seconds, peak resident bytes, exit code) of ``slidelab ARGS``."""
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "slidelab", *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        cwd=tempfile.gettempdir(),  # not the checkout: ``-m`` would import it before PYTHONPATH
    )
    if stdin is not None:
        child.stdin.write(stdin)
        child.stdin.close()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.stderr.write(child.stderr.read()[-2000:])
    return wall, usage.ru_maxrss * 1024, child.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=",".join(DEFAULT), help="comma-separated rows")
    parser.add_argument("--cache", help="table cache folder (default: a new temporary one)")
    args = parser.parse_args()
    cache = args.cache or tempfile.mkdtemp(prefix="slidelab-structure-")
    env = {**os.environ, "SLIDELAB_CACHE": cache}
    print(f"{platform.node()}, {os.cpu_count()} cores, cache {cache}")
    print("| row | command | seconds | peak MB | exit |")
    print("| --- | --- | ---: | ---: | ---: |")
    for row in args.rows.split(","):
        command = ROWS[row]
        stdin = korf_boards() if row == "korf100" else None
        wall, peak, code = timed(command, env, stdin)
        shown = " ".join(command) + (" < korf100" if stdin else "")
        print(
            f"| {row} | `slidelab {shown}` | {wall:.1f} | {peak / 1e6:,.0f} | {code} |", flush=True
        )


if __name__ == "__main__":
    main()
