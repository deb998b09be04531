"""Korf's 100 random 15-puzzle instances, solved optimally (goal: blank first).

Prints per instance: length (checked against the known optimum), nodes
generated, seconds; then totals.  The one-time table build (or load from the
cache) is timed separately, and kernels are loaded before the timings.

Run: ``python benchmarks/korf100.py [--heuristic pdb] [--partition 6-6-3] [--weight 1.0] [-n 100]``.
"""

from __future__ import annotations

import argparse
import platform
import resource
import time

from _korf import korf100

from slidelab import solve
from slidelab.heuristics import make_heuristic


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--heuristic", default="pdb")
    parser.add_argument("--partition", default=None)
    parser.add_argument("--weight", type=float, default=1.0)
    parser.add_argument("--quiet", action="store_true", help="totals only")
    args = parser.parse_args()
    instances = korf100(args.n)
    t0 = time.perf_counter()
    make_heuristic(instances[0][1], args.heuristic, partition=args.partition)
    tables = time.perf_counter() - t0
    solve(
        instances[0][1],
        method="idastar",
        heuristic=args.heuristic,
        partition=args.partition,
        weight=args.weight,
    )  # load the kernels
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()};"
        f" heuristic {args.heuristic} {args.partition or '(default partition)'}, weight {args.weight:g}"
    )
    print(f"tables built or loaded in {tables:.2f} s\n")
    if not args.quiet:
        print("| # | length | known | generated | seconds |")
        print("|---:|---:|---:|---:|---:|")
    nodes = seconds = total_len = known_len = 0
    wrong = []
    for number, puzzle, known in instances:
        t = time.perf_counter()
        s = solve(
            puzzle,
            method="idastar",
            heuristic=args.heuristic,
            partition=args.partition,
            weight=args.weight,
        )
        dt = time.perf_counter() - t
        nodes += s.stats.generated
        seconds += dt
        total_len += s.length
        known_len += known
        if args.weight == 1 and s.length != known:
            wrong.append(number)
        if not args.quiet:
            print(f"| {number} | {s.length} | {known} | {s.stats.generated:,} | {dt:.3f} |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"\n{len(instances)} instances: {nodes:,} nodes, search {seconds:.2f} s"
        f" ({nodes / seconds / 1e6:.1f} M nodes/s), mean length {total_len / len(instances):.2f}"
        f" (optimal {known_len / len(instances):.2f}, +{100 * (total_len / known_len - 1):.1f}%),"
        f" peak memory {peak:.0f} MB"
    )
    if wrong:
        print(f"NOT OPTIMAL: {wrong}")


if __name__ == "__main__":
    main()
