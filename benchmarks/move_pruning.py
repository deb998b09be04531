"""IDA*'s pruning of duplicate paths: nodes and seconds by the length of the refused strings.

The automaton refuses blank-move strings of up to 12 moves (:mod:`slidelab.search.move_pruning`,
shipped in ``refused_moves.txt``).  Here the same searches with the automata of the shipped
strings of up to 0 (none: every path walked but the straight-back ones), 8, 10 and 12 moves,
and with ``--search 14`` the strings of up to 14 moves found again by the breadth-first search
(a minute or more of Python, several GB): Korf's 100 with the 7-8 pattern databases and
reflection (tables cached: ``slidelab tables build 4x4 --blank-first --partition 7-8``), and
Korf's #1 with Manhattan distance.  Seconds are the searches' own; each row is run twice (the
second counts), one search at a time.

Then the same in MTM, with the 15-puzzle's shipped strings of moves of 1 to 3 tiles
(``refused_moves_mtm3.txt``) of up to 0, 6, 7 and 8 moves: the MTM antipode
``1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0``, its iterations up to ``--bound`` (40; it is 43 moves
away), and 100 random 15-puzzles (seed 2026) solved, with the abstraction tables
``1 2 3 3/4 4 3 3/4 4 5 5/4 5 5 0`` and ``1 1 1 1/2 2 2 2/3 3 3 4/3 3 5 0`` (the default set when
these rows were measured), on one thread.

Run: ``python benchmarks/move_pruning.py [--search 14] [--bound 40]``.
"""

from __future__ import annotations

import argparse
import importlib
import time

from _korf import korf100

from slidelab import Puzzle
from slidelab.generate import random_boards
from slidelab.heuristics import make_heuristic
from slidelab.search._ida import FOUND, RUNNING
from slidelab.search.idastar import idastar
from slidelab.search.move_pruning import SIDE, automaton_of, refused, shipped

IDASTAR = importlib.import_module("slidelab.search.idastar")  # the module, not its function


def measure(table, instances, pdb, manhattan) -> tuple:
    """Nodes and seconds on Korf's 100 (``pdb``) and on Korf's #1 (``manhattan``)."""
    IDASTAR.automaton = lambda reach=1: table
    for _ in range(2):
        nodes = seconds = 0.0
        for puzzle in instances:
            s = idastar(puzzle, heuristic=pdb)
            nodes += s.stats.generated
            seconds += s.stats.seconds
        one = idastar(instances[0], heuristic=manhattan)
    return nodes, seconds, one.stats.generated, one.stats.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", type=int, default=None, help="strings found again, longest")
    parser.add_argument("--bound", type=int, default=40, help="MTM antipode's last iteration")
    args = parser.parse_args()
    instances = [p for _, p, _ in korf100()]
    pdb = make_heuristic(instances[0], "pdb", partition="7-8")
    manhattan = make_heuristic(instances[0], "manhattan")
    idastar(instances[1], heuristic=pdb)  # kernels loaded
    sets = {n: {k: v for k, v in shipped().items() if k <= n} for n in (0, 8, 10, 12)}
    found = {}
    if args.search is not None:
        began = time.perf_counter()
        sets[args.search] = refused(args.search, SIDE)
        found[args.search] = time.perf_counter() - began
    print(
        "| strings up to | strings | states | Korf's 100, 7-8: nodes | s | Korf's #1, Manhattan: nodes | s |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for length, strings in sets.items():
        table = automaton_of(strings)
        nodes, seconds, one, one_seconds = measure(table, instances, pdb, manhattan)
        count = sum(len(v) for v in strings.values())
        note = f" (found in {found[length]:.0f} s)" if length in found else ""
        print(
            f"| {length}{note} | {count:,} | {table.shape[0]:,} | {nodes:,.0f} | {seconds:.3f}"
            f" | {one:,} | {one_seconds:.2f} |",
            flush=True,
        )

    mtm(args.bound)


def iterations(puzzle, heur, bound=None) -> tuple[int, float]:
    """Nodes generated and seconds of IDA*'s iterations on one thread, up to ``bound`` (or the
    goal)."""
    search = IDASTAR._Search(puzzle.start_codes.copy(), puzzle, heur, 1.0, 64, 3)
    at = int(heur.estimate(search.h0))
    nodes = 0
    began = time.perf_counter()
    while True:
        search.begin(at)
        while (status := search.run(IDASTAR.BUDGET)) == RUNNING:
            pass
        nodes += search.counts[1]
        if status == FOUND or (bound is not None and at >= bound):
            return nodes, time.perf_counter() - began
        at += 1


def mtm(bound: int) -> None:
    """The MTM rows (see the module)."""
    antipode = Puzzle("1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0")
    heur = make_heuristic(
        antipode, "abstraction", metric="mtm",
        classes=["1 2 3 3/4 4 3 3/4 4 5 5/4 5 5 0", "1 1 1 1/2 2 2 2/3 3 3 4/3 3 5 0"],
    )  # fmt: skip
    boards = [Puzzle(b) for b in random_boards(100, "4x4", seed=2026)]
    print(f"\nMTM, {heur.description}; one thread\n")
    print(
        f"| strings up to | strings | states | antipode, iterations to {bound}: nodes | s"
        " | 100 random: nodes | s |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    iterations(boards[0], heur)  # kernels loaded
    for length in (0, 6, 7, 8):
        strings = {k: v for k, v in shipped(3).items() if k <= length}
        table = automaton_of(strings, 12)
        IDASTAR.automaton = lambda reach=1, table=table: table
        nodes, seconds = iterations(antipode, heur, bound)
        each = [iterations(p, heur) for p in boards]
        count = sum(len(v) for v in strings.values())
        print(
            f"| {length} | {count:,} | {table.shape[0]:,} | {nodes:,} | {seconds:.1f}"
            f" | {sum(n for n, _ in each):,} | {sum(s for _, s in each):.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
