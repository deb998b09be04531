"""Wall time of whole ``slidelab`` commands: start-up, imports, kernel loading, search, exit.

Each command runs as a fresh process several times; the table gives the median wall time
(and the fastest and slowest run) and the median CPU time (user + system) of the process,
which other load on the machine disturbs less.  One untimed run of each command comes
first, so numba's on-disk kernel cache is filled (and the 8-puzzle's distance table and the
15-puzzle's pattern databases built, about 40 s, if they are not cached yet: set
``SLIDELAB_CACHE`` to use a prepared cache).  Prints a Markdown table.

Run: ``python benchmarks/cli_startup.py [--repeat 7] [--module]``.  By default the commands
run the ``slidelab`` script found on ``PATH`` (what a user types; note that a pyenv shim
adds its own start-up, but when this script itself runs under a pyenv ``python`` the real
script comes first on ``PATH``), with ``--module`` they run ``python -m slidelab``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time

BOARD_3X3 = "8 6 7/2 5 4/3 0 1"  # 31 moves; auto: the goal's distance table, read with numpy
BOARD_4X4 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # Korf's #1, 57 moves; auto: IDA* + PDB


def commands(slidelab: list[str]) -> list[tuple[str, list[str]]]:
    python = sys.executable
    return [
        ("python start-up (baseline)", [python, "-c", "pass"]),
        ("`import slidelab`", [python, "-c", "import slidelab"]),
        ("`slidelab --help`", slidelab + ["--help"]),
        ("`slidelab moves length R3U2L`", slidelab + ["moves", "length", "R3U2L"]),
        (f'`slidelab solve "{BOARD_3X3}"`', slidelab + ["solve", BOARD_3X3]),
        (
            f'`slidelab solve "{BOARD_4X4}" --blank-first`',
            slidelab + ["solve", BOARD_4X4, "--blank-first"],
        ),
    ]


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``argv``."""
    cpu = _cpu_of_children()
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return elapsed, _cpu_of_children() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per command")
    parser.add_argument(
        "--module",
        action="store_true",
        help="run `python -m slidelab` instead of the slidelab script on PATH",
    )
    args = parser.parse_args()
    script = shutil.which("slidelab")
    if args.module or script is None:
        slidelab, how = [sys.executable, "-m", "slidelab"], f"{sys.executable} -m slidelab"
    else:
        slidelab, how = [script], script
    rows = []
    for label, argv in commands(slidelab):
        run_once(argv)  # fill the kernel (and table) caches; not timed
        walls, cpus = zip(*(run_once(argv) for _ in range(args.repeat)), strict=True)
        rows.append(
            (label, statistics.median(walls), min(walls), max(walls), statistics.median(cpus))
        )
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}; slidelab = {how};"
        f" {args.repeat} runs each after one untimed run"
    )
    print()
    print("| command | median s | fastest s | slowest s | median CPU s |")
    print("|---|---:|---:|---:|---:|")
    for label, median, fastest, slowest, cpu in rows:
        print(f"| {label} | {median:.3f} | {fastest:.3f} | {slowest:.3f} | {cpu:.3f} |")


if __name__ == "__main__":
    main()
