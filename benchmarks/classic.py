"""Classic searches on the 8-puzzle: the ten blank-first cases and the two 31-move boards.

Prints one Markdown table per method: length, nodes expanded, states stored, seconds.
Run: ``python benchmarks/classic.py`` (kernels are compiled once before timing).
"""

from __future__ import annotations

import argparse
import platform
import time

from slidelab import solve

BLANK_FIRST_START = "0 1 2/3 4 5/6 7 8"
CASES = [
    (BLANK_FIRST_START, goal)
    for goal in (
        "3 1 2/4 7 5/6 0 8",
        "3 1 2/4 7 0/6 8 5",
        "0 1 5/3 2 8/6 4 7",
        "3 1 5/2 4 8/6 0 7",
        "3 1 0/2 7 5/6 8 4",
        "3 0 1/2 7 5/6 8 4",
        "0 1 2/4 7 5/6 3 8",
        "7 6 2/1 5 0/3 4 8",
        "4 2 8/1 0 5/6 7 3",
        "4 0 5/1 8 2/6 7 3",
    )
] + [("8 6 7/2 5 4/3 0 1", "1 2 3/4 5 6/7 8 0"), ("6 4 7/8 5 0/3 2 1", "1 2 3/4 5 6/7 8 0")]
METHODS = [
    ("bfs", None),
    ("bidirectional", None),
    ("astar", None),
    ("idastar", None),
    ("weighted-astar", 1.5),
    ("idastar", 1.5),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the best time counts")
    args = parser.parse_args()
    for method, weight in METHODS:  # compile/load the kernels outside the timings
        solve("1 2 3/4 5 6/0 7 8", method=method, weight=weight)
    print(
        f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    for method, weight in METHODS:
        label = method if weight is None else f"{method} (weight {weight})"
        print(f"\n### {label}\n")
        print("| start | goal | length | expanded | stored | seconds |")
        print("|---|---|---:|---:|---:|---:|")
        total = 0.0
        for start, goal in CASES:
            best = None
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                s = solve(start, goal, method=method, weight=weight)
                elapsed = time.perf_counter() - t0
                best = elapsed if best is None else min(best, elapsed)
            total += best
            print(
                f"| `{start}` | `{goal}` | {s.length} | {s.stats.expanded:,} | {s.stats.stored:,}"
                f" | {best:.4f} |"
            )
        print(f"\ntotal {total:.3f} s")


if __name__ == "__main__":
    main()
