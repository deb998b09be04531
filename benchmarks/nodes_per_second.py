"""Raw IDA* kernel speed: IDA* + Manhattan distance on the first Korf instances.

Prints per instance: length, nodes generated, seconds, million nodes per second
(an iteration of 0.5 s or more is shared by the cores, as ``solve`` does).  Kernels
are compiled (or loaded from numba's cache) before timing.
Run: ``python benchmarks/nodes_per_second.py [-n 10] [--heuristic manhattan]``.
"""

from __future__ import annotations

import argparse
import time

from _korf import korf100

from slidelab import solve


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=10, help="how many instances (default 10)")
    parser.add_argument("--heuristic", default="manhattan")
    args = parser.parse_args()
    solve("1 2 3/4 5 6/0 7 8", method="idastar", heuristic=args.heuristic)  # warm the kernels
    print(f"IDA* + {args.heuristic}, Korf's instances 1..{args.n}\n")
    print("| # | length | generated | seconds | M nodes/s |")
    print("|---:|---:|---:|---:|---:|")
    nodes = seconds = 0.0
    for number, puzzle, known in korf100(args.n):
        t0 = time.perf_counter()
        s = solve(puzzle, method="idastar", heuristic=args.heuristic)
        dt = time.perf_counter() - t0
        assert s.length == known, (number, s.length, known)
        nodes += s.stats.generated
        seconds += dt
        print(
            f"| {number} | {s.length} | {s.stats.generated:,} | {dt:.2f} | {s.stats.generated / dt / 1e6:.1f} |"
        )
    print(
        f"\ntotal: {nodes:,.0f} nodes in {seconds:.1f} s = {nodes / seconds / 1e6:.1f} million nodes/s"
    )


if __name__ == "__main__":
    main()
