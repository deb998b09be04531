"""MTM estimates on the 15-puzzle side by side: nodes, seconds and table memory of IDA* on one core.

The same boards (``slidelab generate 4x4 -n N --seed S``, the first one used to warm up),
each solved MTM-optimally by IDA* on one core with: the walking distance counted in MTM; the
pattern databases (STM tables divided by 3, the most tiles a move slides); and abstraction
tables, each looked up on the board and its transpose: Rokicki's relabelling ``1 1 2 2/3 3 2
2/3 3 4 4/3 4 4 0``, his with the pair apart ``1 2 3 3/4 4 3 3/4 4 5 5/4 5 5 0``, that one and
the rows' ``1 1 1 1/2 2 2 2/3 3 3 4/3 3 5 0`` (the default set until the tables were kept in two
bits); his with the pair and tile 13 apart ``1 2 3 3/4 4 3 3/4 4 5 5/6 5 5 0`` alone (the
default), and with the rows' (``auto``'s third rung).  Each table's memory is its positions in
two bits.  A search past ``--limit`` seconds is stopped ("-", with the bound it had reached).
Tables are built first if missing (not timed).  ``--rows`` picks rows by number (from 1).

Run: ``python benchmarks/mtm_heuristics.py [-n 5] [--seed 11] [--limit 20]
[--partition 7-7-1] [--rows 3,4,5,6,7]``.
"""

from __future__ import annotations

import argparse
import time

import slidelab
from slidelab.generate import random_boards
from slidelab.heuristics import make_heuristic
from slidelab.heuristics.abstraction import abstraction
from slidelab.memory import granted
from slidelab.search import Limits
from slidelab.search.idastar import idastar
from slidelab.tables.abstraction import FIFTEEN, FINE, ROKICKI, ROWS


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--limit", type=float, default=20.0)
    parser.add_argument("--partition", default="7-7-1")
    parser.add_argument(
        "--rows", type=lambda text: {int(x) for x in text.split(",")}, default=None,
        help="the rows to run, by number from 1 (default: all)",
    )  # fmt: skip
    args = parser.parse_args()
    boards = random_boards(args.n, "4x4", seed=args.seed)
    first = slidelab.Puzzle(boards[0])

    def text(pattern):
        return "/".join(" ".join(str(v) for v in pattern[4 * r : 4 * r + 4]) for r in range(4))

    def pdb():
        return make_heuristic(first, "pdb", partition=args.partition, metric="mtm")

    def pdb_bytes():
        return sum(int(t.nbytes) for t in pdb_tables(first, args))

    def classes(*patterns):
        return lambda: abstraction(first, "mtm", classes=[text(p) for p in patterns])

    # name, the heuristic made, its tables' bytes (abstraction: positions in two bits)
    contenders = [
        ("walking distance (MTM)", lambda: make_heuristic(first, "walking-distance", metric="mtm"),
         lambda: 0),
        (f"pdb {args.partition} / 3", pdb, pdb_bytes),
        ("abstraction, Rokicki's", classes(ROKICKI), lambda: 151_351_200 // 4),
        ("abstraction, his with the pair apart", classes(FIFTEEN), lambda: 302_702_400 // 4),
        ("abstraction, that and the rows'", classes(FIFTEEN, ROWS), lambda: 605_404_800 // 4),
        ("abstraction, default: his with the pair and tile 13 apart", classes(FINE),
         lambda: 1_513_512_000 // 4),
        ("abstraction, `auto`'s third rung: that and the rows'", classes(FINE, ROWS),
         lambda: 1_816_214_400 // 4),
    ]  # fmt: skip
    contenders = [
        row for i, row in enumerate(contenders, start=1) if args.rows is None or i in args.rows
    ]
    print(
        f"{args.n - 1} random 15-puzzles (seed {args.seed}), MTM-optimal IDA* on one core,"
        f" {args.limit:g} s each at most\n"
    )
    print("| estimate | table | " + " | ".join(f"#{i}" for i in range(2, args.n + 1)) + " |")
    print("|---|---:|" + "---:|" * (args.n - 1))
    with granted(1):
        for name, make, size_of in contenders:
            heur, nbytes = make(), size_of()
            idastar(first, heuristic=heur, metric="mtm")  # kernels compiled
            cells = []
            for board in boards[1:]:
                began = time.perf_counter()
                try:
                    s = idastar(
                        slidelab.Puzzle(board), heuristic=heur, metric="mtm",
                        limits=Limits(time_limit=args.limit),
                    )  # fmt: skip
                    took = time.perf_counter() - began
                    cells.append(f"{s.length}: {s.stats.generated / 1e6:.2f} M, {took:.2f} s")
                except slidelab.SlidelabError as exc:
                    bound = getattr(exc, "lower_bound", None)
                    cells.append("-" if bound is None else f"- (at least {bound:g})")
            size = f"{nbytes / 1e6:,.0f} MB" if nbytes else "-"
            print(f"| {name} | {size} | " + " | ".join(cells) + " |", flush=True)


def pdb_tables(puzzle, args):
    from slidelab.heuristics.pdb import pattern_database

    return pattern_database(puzzle, args.partition).tables


if __name__ == "__main__":
    main()
