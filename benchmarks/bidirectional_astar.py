"""Bidirectional A* (MM) against A* and bidirectional breadth-first search.

Prints a Markdown table: board, instance, method, heuristic, length, nodes
expanded forward, backward and in all, states stored, and seconds of search
(``Stats.seconds``: tables are loaded and kernels compiled before the clock
starts, except MM's backward estimate, which is built per start and counted;
the last column times that build once more, apart, to show its share).

Boards: the 8-puzzle's two hardest positions (31 moves from the blank-last
goal) and the ``-n`` shortest of Korf's 100 15-puzzles (blank-first goal; the
published optima in ``data/korf100.txt``), which A* finishes.  Bidirectional BFS
keeps a byte per arrangement, so it runs on the 8-puzzle only (the 15-puzzle
would need 10 TB).  Every solution is replayed by ``solve`` and its length
checked against the known optimum.

Run: ``python benchmarks/bidirectional_astar.py [-n 8] [--heuristics pdb,manhattan]``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import time

from _korf import korf100

from slidelab import Puzzle, solve
from slidelab.heuristics import make_heuristic

HARDEST_8 = ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"]
PARTITION = {"pdb": "6-6-3"}


def instances(count):
    """``(board, instance, puzzle, known optimum)``."""
    out = [("3x3", board, Puzzle(board), 31) for board in HARDEST_8]
    korf = sorted(korf100(), key=lambda t: (t[2], t[0]))[:count]
    out += [("4x4", f"Korf #{number}", puzzle, known) for number, puzzle, known in korf]
    return out


def runs(size, heuristics):
    """``(method, heuristic)`` pairs for a board size."""
    if size == "3x3":
        return [
            ("astar", "manhattan"),
            ("bidirectional", None),
            ("bidirectional-astar", "manhattan"),
        ]
    return [(m, h) for h in heuristics for m in ("astar", "bidirectional-astar")]


def backward_build_seconds(puzzle, heuristic):
    """Seconds to build MM's backward estimate for this start (pattern databases: a build)."""
    mm = importlib.import_module("slidelab.search.bidirectional_astar")
    forward = make_heuristic(puzzle, heuristic, partition=PARTITION.get(heuristic))
    started = time.perf_counter()
    mm.backward_heuristic(puzzle, forward)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=8, help="Korf instances, shortest first")
    parser.add_argument("--heuristics", default="pdb,manhattan", help="for the 15-puzzles")
    args = parser.parse_args()
    heuristics = [h for h in args.heuristics.split(",") if h]

    # compile the kernels (both heuristics' specialisations) outside the timings
    warm = Puzzle("1 0 2 3/4 5 6 7/8 9 10 11/12 13 14 15", blank_first=True)
    for h in heuristics:
        for m in ("astar", "bidirectional-astar"):
            solve(warm, method=m, heuristic=h, partition=PARTITION.get(h))
    solve(HARDEST_8[0], method="bidirectional")

    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}\n"
    )
    print(
        "| board | instance | method | heuristic | length | expanded forward | expanded backward"
        " | expanded | stored | seconds | backward tables alone (s) |"
    )
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for size, name, puzzle, known in instances(args.n):
        for method, heuristic in runs(size, heuristics):
            s = solve(
                puzzle, method=method, heuristic=heuristic, partition=PARTITION.get(heuristic)
            )
            if s.length != known or not s.optimal:
                raise SystemExit(f"{method} on {name}: {s.length} moves, known optimum {known}")
            st = s.stats
            if method == "astar":
                forward, backward = st.expanded, 0
            else:
                forward, backward = st.expanded_forward, st.expanded_backward
            label = heuristic or "-"
            if heuristic in PARTITION:
                label = f"{heuristic} {PARTITION[heuristic]}"
            tables = ""
            if method == "bidirectional-astar":
                tables = f"{backward_build_seconds(puzzle, heuristic):.3f}"
            print(
                f"| {size} | {name} | {method} | {label} | {s.length} | {forward:,} |"
                f" {backward:,} | {st.expanded:,} | {st.stored:,} | {st.seconds:.3f} | {tables} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
