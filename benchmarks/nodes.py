"""Nodes per instance: slidelab's IDA* beside the published figures for the same heuristics.

Issue 41's yardstick.  The published figures (Felner, Korf, Hanan and Holte, "Additive
pattern database heuristics", JAIR 22, 2004, and Felner, Zahavi, Schaeffer and Holte, "Dual
lookups in pattern databases", IJCAI 2005) are nodes *generated* per instance, averaged over
1,000 random 15-puzzles, for IDA* with the 7-8 additive pattern databases (goal: blank first).
Here the same counts (``Stats.generated``, every child made, the parent's excepted) over
Korf's 100 and over ``--random`` seeded uniformly random 15-puzzles, for each heuristic
slidelab has: one look-up a node, the look-up maxed with the reflection's, both with the
tables as published (the least over the blank) and zero-aware (the default: 2 more where the
blank's region is above the least, :mod:`slidelab.tables.pdb.distinct`), and ``pdb-dual``, the
zero-aware look-ups maxed with the dual look-up of the board with its blank walked home; each
with IDA* refusing only to move the blank straight back (as the published searches), and
with its default pruning of duplicate paths (:mod:`slidelab.search.move_pruning`).
``--partitions 7-8,6-6-3`` adds what a first install's tables give (five minutes more).
Tables cached (``slidelab tables build 4x4 --blank-first --partition 7-8``; a missing table is
built first, not timed).

Run: ``python benchmarks/nodes.py [--random 1000] [--partitions 7-8]``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import statistics

from _korf import korf100

import slidelab
from slidelab import Puzzle
from slidelab.heuristics import make_heuristic
from slidelab.heuristics.pdb import pattern_database
from slidelab.search import Limits
from slidelab.search.idastar import idastar
from slidelab.search.move_pruning import walk_every_path

IDASTAR = importlib.import_module("slidelab.search.idastar")  # the module, not its function

#: nodes generated per instance, 7-8 additive pattern databases, 1,000 random 15-puzzles
PUBLISHED = {
    "one look-up": 136_289,
    "with its reflection": 36_710,
    "max of regular, reflected and both dual look-ups": 18_601,
    "dual IDA*": 13_687,
}


#: the row of ``--heuristic pdb-dual``
WITH_DUAL = "with its reflection and the dual look-up (pdb-dual)"


@contextlib.contextmanager
def pruning(prune: bool):
    """IDA* with its pruning of duplicate paths (``prune``), or moving the blank anywhere but
    straight back."""
    kept = IDASTAR.automaton
    if not prune:
        IDASTAR.automaton = walk_every_path
    try:
        yield
    finally:
        IDASTAR.automaton = kept


#: the rows of the zero-aware tables (the default), with one look-up and with the reflection
ZERO_AWARE = "zero-aware"


def heuristic_of(puzzle: Puzzle, partition: str, words: str):
    """The heuristic a row names: the tables (the least over the blank, as published, or
    zero-aware) with one look-up, with the reflection, or with the reflection and the dual
    look-up (``pdb-dual``)."""
    if words == WITH_DUAL:
        return make_heuristic(puzzle, "pdb-dual", partition=partition)
    aware = words.startswith(ZERO_AWARE)
    reflect = not words.endswith("one look-up")
    return pattern_database(puzzle, partition, reflect=reflect, zero_aware=aware).heuristic()


def run(instances: list, partition: str, words: str, prune: bool) -> tuple:
    """Mean and median nodes generated per instance, and the seconds of search in all."""
    heuristic = heuristic_of(instances[0], partition, words)
    idastar(instances[0], heuristic=heuristic)  # kernels loaded
    nodes, seconds = [], 0.0
    with pruning(prune):
        for puzzle in instances:
            s = idastar(puzzle, heuristic=heuristic, limits=Limits())
            nodes.append(s.stats.generated)
            seconds += s.stats.seconds
    return statistics.mean(nodes), statistics.median(nodes), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=1000, help="seeded random 15-puzzles")
    parser.add_argument("--partitions", default="7-8")
    args = parser.parse_args()
    sets = {
        "Korf's 100": [p for _, p, _ in korf100()],
        f"{args.random:,} random": [
            Puzzle(slidelab.random_board("4x4", seed=i, blank_first=True), blank_first=True)
            for i in range(args.random)
        ],
    }
    print(
        "| heuristic | paths walked | instances | generated per instance (mean) | median"
        " | search s | published (1,000 random) |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for partition in args.partitions.split(","):
        rows = ("one look-up", "with its reflection", f"{ZERO_AWARE}, one look-up",
                f"{ZERO_AWARE}, with its reflection", WITH_DUAL)  # fmt: skip
        for words in rows:
            for prune, paths in ((False, "all but straight back"), (True, "duplicates pruned")):
                for name, instances in sets.items():
                    mean, median, seconds = run(instances, partition, words, prune)
                    published = PUBLISHED.get(words) if partition == "7-8" and not prune else None
                    default = " (default)" if words == rows[3] and prune else ""
                    print(
                        f"| {partition}, {words}{default} | {paths} | {name} |"
                        f" {mean:,.0f} | {median:,.0f} | {seconds:.2f} |"
                        f" {'' if published is None else f'{published:,}'} |",
                        flush=True,
                    )
    for words in list(PUBLISHED)[2:]:
        print(f"| 7-8, {words} | | not in slidelab | | | | {PUBLISHED[words]:,} |")


if __name__ == "__main__":
    main()
