"""The constructive solver on big random boards: 10x10 and 20x20 (30x30 with ``--with-30``).

Prints a Markdown table (size, seed, length in single-tile moves, seconds) and the
mean length and time per size.  Boards are uniformly random and solvable, seeded,
with the ordered goal (blank last).  Every solution is replayed and checked.
Run: ``python benchmarks/big_boards.py [--seeds 5] [--with-30]``.
"""

from __future__ import annotations

import argparse
import platform
import time
from statistics import mean

from slidelab import Puzzle, random_board
from slidelab.search.constructive import constructive


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=5, help="boards per size (seeds 0..N-1)")
    parser.add_argument("--with-30", action="store_true", help="also solve 30x30 boards")
    parser.add_argument(
        "--sizes",
        nargs="*",
        metavar="WxH",
        help="sizes to run instead of the default 10x10 and 20x20",
    )
    args = parser.parse_args()
    sizes = args.sizes or ["10x10", "20x20"] + (["30x30"] if args.with_30 else [])

    constructive(Puzzle(random_board("4x4", seed=0)))  # load the kernels outside the timings
    print(
        f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}\n"
    )
    print("| size | seed | length (STM) | seconds |")
    print("|---|---:|---:|---:|")
    summary = []
    for size in sizes:
        lengths, times = [], []
        for seed in range(args.seeds):
            puzzle = Puzzle(random_board(size, seed=seed))
            t0 = time.perf_counter()
            solution = constructive(puzzle)
            elapsed = time.perf_counter() - t0
            solution.verify()
            lengths.append(solution.length)
            times.append(elapsed)
            print(f"| {size} | {seed} | {solution.length:,} | {elapsed:.3f} |")
        summary.append((size, mean(lengths), mean(times)))
    print("\n| size | mean length (STM) | mean seconds |")
    print("|---|---:|---:|")
    for size, length, seconds in summary:
        print(f"| {size} | {length:,.0f} | {seconds:.3f} |")


if __name__ == "__main__":
    main()
