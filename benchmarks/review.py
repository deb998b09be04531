"""The review of a solve and the hint, timed in this process (tables cached).

Issue 40's speed table: a review of a 60-move 15-puzzle solve (a few moves off the optimum) in
single-tile moves and in the multi-tile metric, ``hint`` on random 15-puzzles (every optimal
next move, so up to five optimal searches each), a review on the 8-puzzle (its distance
table), and the solutions of Korf's first 15-puzzle counted to two moves past the optimum.
Each row is run once after a warm-up (kernels and tables loaded); it prints a table.

Run: ``python benchmarks/review.py [--partition 7-8] [--seed N]``.
"""

from __future__ import annotations

import argparse
import time

import slidelab
from slidelab.moves import expand, invert


def solve_of(start, metric: str, **options) -> list:
    """An optimal solve of ``start``, with a two-move detour at its 10th move (4 lost)."""
    best = list(expand(slidelab.solve(start, metric="stm", **options).moves))
    back = list(invert(best[8:9]))
    return [*best[:9], *back, *best[8:]]


def timed(call) -> tuple[float, object]:
    began = time.perf_counter()
    result = call()
    return time.perf_counter() - began, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partition", default=None, help="pattern databases (default: auto's)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    extra = {} if args.partition is None else {"heuristic": "pdb", "partition": args.partition}
    rows = []
    # a 15-puzzle about 60 moves from the goal
    start = None
    for seed in range(args.seed, args.seed + 200):
        board = slidelab.random_board("4x4", seed=seed)
        if 56 <= slidelab.solve(board, **extra).length <= 60:
            start = board
            break
    moves = solve_of(start, "stm", **extra)
    slidelab.review("1 2 3/4 5 6/7 0 8", "L")  # kernels loaded
    for metric in ("stm", "mtm"):
        seconds, r = timed(lambda m=metric: slidelab.review(start, moves, metric=m))
        rows.append((f"review, 15-puzzle, {metric.upper()}", seconds, r.summary))
    boards = [slidelab.random_board("4x4", seed=100 + i) for i in range(5)]
    for board in boards:
        seconds, h = timed(lambda b=board: slidelab.hint(b, time_limit=None))
        rows.append(("hint, random 15-puzzle", seconds, f"{h.distance} to go, good {len(h.good)}"))
    eight = "8 6 7/2 5 4/3 0 1"
    seconds, r = timed(lambda: slidelab.review(eight, slidelab.solve(eight).moves))
    rows.append(("review, 8-puzzle, 31 moves", seconds, r.summary))
    korf1 = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"  # no distance table: a search, the estimates
    slidelab.solve(korf1, blank_first=True)  # its tables ready
    seconds, counts = timed(lambda: slidelab.count_solutions(korf1, blank_first=True, beyond=2))
    rows.append(
        ("count, Korf's #1, +2", seconds, ", ".join(f"{n:,} of {k}" for k, n in counts.items()))
    )
    print(
        f"start: {start.format()}; solve of {len(moves)} moves; tables: {args.partition or 'auto'}"
    )
    print(f"{'work':<30} {'seconds':>8}  answer")
    for what, seconds, said in rows:
        print(f"{what:<30} {seconds:>8.2f}  {said}")


if __name__ == "__main__":
    main()
