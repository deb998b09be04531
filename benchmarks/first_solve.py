"""One hard 15-puzzle with the default options, from an empty table cache, then again.

What a new user meets: ``slidelab solve BOARD`` (``auto``) on one of the hardest
15-puzzles (80 moves, the maximum), with no pattern databases built yet.  The
command is run twice in a fresh table cache (``SLIDELAB_CACHE``), each as a whole
process (compiled kernels come from numba's cache as usual: run a solve first
after an upgrade); prints wall time, peak memory, the length (checked) and what
the command said on stderr.

Run: ``python benchmarks/first_solve.py [--board BOARD --length N] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

BOARD = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"  # 80 moves to the ordered goal (blank last)


def run(board: str, env: dict) -> tuple[float, float, dict, str]:
    """Seconds, peak resident GiB, the JSON answer and stderr of one ``slidelab solve``."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "wall = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20\n"
        "sys.stderr.write(p.stderr)\n"
        "print(wall, peak)\n"
        "print(p.stdout)\n"
    )
    command = [sys.executable, "-m", "slidelab", "solve", board, "--json", "--no-progress"]
    out = subprocess.run(
        [sys.executable, "-c", code, *command], capture_output=True, text=True, env=env
    )
    first, _, rest = out.stdout.partition("\n")
    wall, peak = map(float, first.split())
    return wall, peak, json.loads(rest.strip().splitlines()[-1]), out.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default=BOARD)
    parser.add_argument("--length", type=int, default=80, help="its known optimal length")
    parser.add_argument(
        "--keep", help="table cache folder to use and keep (default: a temporary one)"
    )
    args = parser.parse_args()
    cache = args.keep or tempfile.mkdtemp(prefix="slidelab-first-solve-")
    env = {**os.environ, "SLIDELAB_CACHE": cache}
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"board: {args.board} ({args.length} moves); table cache {cache} (empty at first)\n")
    print("| run | seconds | peak GiB | length | optimal | search s |")
    print("|---|---:|---:|---:|---|---:|")
    notes = []
    try:
        for label in ("empty cache", "tables cached"):
            wall, peak, answer, err = run(args.board, env)
            assert answer["length"] == args.length and answer["optimal"], answer
            print(
                f"| {label} | {wall:.1f} | {peak:.2f} | {answer['length']} | {answer['optimal']} |"
                f" {answer['stats']['seconds']:.2f} |"
            )
            notes.append((label, err.strip()))
    finally:
        if not args.keep:
            shutil.rmtree(cache, ignore_errors=True)
    for label, err in notes:
        print(f"\nstderr ({label}):\n" + "\n".join("    " + line for line in err.splitlines()))


if __name__ == "__main__":
    main()
