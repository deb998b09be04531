"""IDA*'s pruning of duplicate paths: nodes and seconds by the length of the refused strings.

The automaton refuses blank-move strings of up to 12 moves (:mod:`slidelab.search.move_pruning`,
shipped in ``refused_moves.txt``).  Here the same searches with the automata of the shipped
strings of up to 0 (none: every path walked but the straight-back ones), 8, 10 and 12 moves,
and with ``--search 14`` the strings of up to 14 moves found again by the breadth-first search
(a minute or more of Python, several GB): Korf's 100 with the 7-8 pattern databases and
reflection (tables cached: ``slidelab tables build 4x4 --blank-first --partition 7-8``), and
Korf's #1 with Manhattan distance.  Seconds are the searches' own; each row is run twice (the
second counts), one search at a time.

Run: ``python benchmarks/move_pruning.py [--search 14]``.
"""

from __future__ import annotations

import argparse
import importlib
import time

from _korf import korf100

from slidelab.heuristics import make_heuristic
from slidelab.search.idastar import idastar
from slidelab.search.move_pruning import SIDE, automaton_of, refused, shipped

IDASTAR = importlib.import_module("slidelab.search.idastar")  # the module, not its function


def measure(table, instances, pdb, manhattan) -> tuple:
    """Nodes and seconds on Korf's 100 (``pdb``) and on Korf's #1 (``manhattan``)."""
    IDASTAR.automaton = lambda: table
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


if __name__ == "__main__":
    main()
