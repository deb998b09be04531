"""What a person meets first: the README's first command from an empty HOME, and default solves
of boards too big to solve optimally.

Each row is one ``slidelab`` command in a fresh process with ``HOME`` set to a new empty folder
(so its kernel cache, table cache and timings are empty: nothing compiled, nothing built) and
no ``SLIDELAB_CACHE``/``NUMBA_CACHE_DIR``/``SLIDELAB_TIMINGS`` set, as on a new machine; a
second run of the same command in the same HOME shows it once the kernels are compiled.  Wall
seconds, the child's CPU seconds and peak memory (``os.wait4``), the answer's length and
whether it is optimal, and what the command said on stderr.

========  ======================================================================================
row       command
========  ======================================================================================
readme    ``slidelab solve "8 6 7/2 5 4/3 0 1"`` (the README's first command), twice
5x5       ``slidelab solve <a random 5x5>`` (default options: no tables, a minute at most)
6x6       ``slidelab solve <a random 6x6>``
========  ======================================================================================

Run: ``python benchmarks/first_run.py [--rows readme,5x5,6x6] [--seed 1]``; prints a Markdown
table, then each command's stderr.  With ``PYTHONPATH`` at another checkout, times that one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

README = "8 6 7/2 5 4/3 0 1"


def board(size: str, seed: int) -> str:
    from slidelab import random_board

    return random_board(size, seed=seed).format()


#: runs the command in a process of its own and prints its wall seconds, CPU seconds and peak
#: resident KiB (its own rusage, not this script's), then the command's stdout
WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "wall = time.perf_counter() - t\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "sys.stderr.write(p.stderr)\n"
    "print(wall, u.ru_utime + u.ru_stime, u.ru_maxrss)\n"
    "print(p.stdout)\n"
)


def timed(args: list[str], home: str) -> tuple[float, float, int, dict | None, str]:
    """(wall seconds, CPU seconds, peak bytes, the JSON answer or None, stderr) of ``slidelab
    ARGS --json`` with ``HOME=home`` and none of slidelab's cache variables set."""
    env = dict(os.environ)
    for name in ("SLIDELAB_CACHE", "NUMBA_CACHE_DIR", "SLIDELAB_TIMINGS", "XDG_CACHE_HOME"):
        env.pop(name, None)
    env["HOME"] = home
    command = [sys.executable, "-m", "slidelab", *args, "--json", "--no-progress"]
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),  # not the checkout: ``-m`` would import it before PYTHONPATH
    )
    first, _, out = done.stdout.partition("\n")
    wall, cpu, peak = first.split()
    try:
        answer = json.loads(out)
    except ValueError:
        answer = None
    return float(wall), float(cpu), int(peak) * 1024, answer, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", default="readme,5x5,6x6")
    parser.add_argument("--seed", type=int, default=1, help="the random boards' seed")
    args = parser.parse_args()
    rows = args.rows.split(",")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{platform.node() or 'this machine'}, {os.cpu_count()} cores, load {load:.1f} at the"
        f" start, Python {platform.python_version()}\n"
    )
    print("| row | run | seconds | CPU s | peak MB | answer |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    said = []
    for row in rows:
        home = tempfile.mkdtemp(prefix="slidelab-home-")
        if row == "readme":
            runs = [("first", ["solve", README]), ("again", ["solve", README])]
        else:
            runs = [("first", ["solve", board(row, args.seed)])]
        for name, command in runs:
            wall, cpu, peak, answer, err = timed(command, home)
            if answer is None:
                what = "no answer: " + (err.strip().splitlines() or ["?"])[-1]
            else:
                label = "optimal" if answer["optimal"] else "not optimal"
                what = f"{answer['length']:,} moves, {label}, {answer['method']}"
                if answer.get("remedy"):
                    what += f"; names {answer['remedy']['command']!r}"
            print(f"| {row} | {name} | {wall:.1f} | {cpu:.1f} | {peak / 2**20:,.0f} | {what} |")
            said.append((f"{row}, {name}", err))
    for title, err in said:
        print(f"\n{title}: stderr\n```\n{err.rstrip()}\n```")


if __name__ == "__main__":
    main()
