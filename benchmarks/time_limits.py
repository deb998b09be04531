"""Does ``--time-limit T`` bound the whole answer?  ``solve``, ``generate --distance`` and
``batch`` on boards from 3x3 to 32x32, several methods, each from an empty table cache.

Each command runs as a fresh process with ``--time-limit T`` and its own empty
``SLIDELAB_CACHE`` (so any table a method wants is built on the clock, or refused); the
table gives the wall time of the whole process, its exit code (0 answered, 1 limit reached
or no solution, 2 bad input), its peak memory, the last line it printed on stderr, and
whether it ended within ``T + 5`` s.  Kernels are compiled once per install and are not
counted by a time limit (it says so when it compiles): a first, untimed pass of the same
commands fills numba's kernel cache, so the timed pass measures what a user meets after the
first run.  Random boards are drawn with a fixed seed.

Run: ``python benchmarks/time_limits.py [--limit 5] [--sizes 3x3,4x4,...] [--quick]``.
Exits 1 if any command went past ``T + 5`` s.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

SIZES = ["3x3", "4x4", "7x2", "5x5", "6x6", "10x10", "20x20", "32x32"]
#: (label, extra arguments of ``solve``)
METHODS = [
    ("auto", []),
    ("bfs", ["--method", "bfs"]),
    ("bidirectional", ["--method", "bidirectional"]),
    ("astar pdb", ["--method", "astar", "--heuristic", "pdb"]),
    ("idastar pdb", ["--method", "idastar", "--heuristic", "pdb"]),
    ("bidirectional-astar pdb", ["--method", "bidirectional-astar", "--heuristic", "pdb"]),
]
#: ``generate --distance D``: a distance each board has positions at
DISTANCES = {"3x3": 31, "4x4": 50, "7x2": 50, "5x5": 60, "6x6": 60, "10x10": 60}
SLACK = 5.0


def slidelab() -> list[str]:
    return [sys.executable, "-m", "slidelab"]


def board(size: str) -> str:
    out = subprocess.run(
        slidelab() + ["generate", size, "--seed", "1"], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def run(argv: list[str], stdin: str | None = None) -> tuple[float, int, int, str]:
    """(wall seconds, exit code, peak memory in MB, last stderr line) of one fresh process
    with an empty table cache of its own."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, SLIDELAB_CACHE=cache)
        began = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M"] + argv,
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
        )
        wall = time.perf_counter() - began
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    peak = int(lines[-1]) // 1024 if lines and lines[-1].isdigit() else -1
    said = [line for line in lines[:-1] if not line.startswith(("\r", "Command exited"))]
    return wall, done.returncode, peak, (said[-1] if said else "")[:110]


def cases(sizes: list[str], limit: float):
    for size in sizes:
        start = board(size)
        for label, extra in METHODS:
            yield (
                f"solve {size} {label}",
                slidelab() + ["solve", start, *extra, "--time-limit", str(limit)],
                None,
            )
        if size in DISTANCES:
            yield (
                f"generate {size} -d {DISTANCES[size]}",
                slidelab()
                + ["generate", size, "-d", str(DISTANCES[size]), "--time-limit", str(limit)],
                None,
            )
        for label, extra in METHODS[:1] + METHODS[4:5]:
            yield (
                f"batch {size} {label}",
                slidelab() + ["batch", "-", *extra, "--time-limit", str(limit), "--no-progress"],
                start + "\n",
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=5.0, help="the time limit T (seconds)")
    parser.add_argument("--sizes", default=",".join(SIZES), help="comma-separated sizes")
    parser.add_argument("--quick", action="store_true", help="no untimed warm-up pass")
    args = parser.parse_args()
    sizes = args.sizes.split(",")
    if not args.quick:  # the same commands, so that every kernel they need is compiled
        print("warm-up pass (kernels compiled once, untimed) ...", file=sys.stderr)
        for _, argv, stdin in cases(sizes, args.limit):
            run(argv, stdin)
    print(
        f"`--time-limit {args.limit:g}`, each from an empty table cache;"
        f" {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}\n"
    )
    print("| command | wall s | exit | peak MB | within T+5 | last line on stderr |")
    print("|---|---:|---:|---:|---|---|")
    worst = 0.0
    for name, argv, stdin in cases(sizes, args.limit):
        wall, code, peak, said = run(argv, stdin)
        worst = max(worst, wall)
        ok = "yes" if wall <= args.limit + SLACK else "**no**"
        said = said.replace("|", "/")
        print(f"| {name} | {wall:.1f} | {code} | {peak} | {ok} | {said} |", flush=True)
    print(f"\nslowest: {worst:.1f} s (limit {args.limit:g} s + {SLACK:g} s)")
    return 0 if worst <= args.limit + SLACK else 1


if __name__ == "__main__":
    sys.exit(main())
