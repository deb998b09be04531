"""Korf and Felner's 50 random 24-puzzle instances, solved optimally, the shortest first.

IDA* with the 6-6-6-6 pattern databases and their reflection (goal: blank first), zero-aware
(``--least-only``: the least over the blank only, as published).  The tables are built (or
loaded from the cache) first and timed apart.  Per instance: its number in the file, the
published optimal length, the length found (checked against it), nodes expanded and generated,
seconds, and the published searches' nodes beside (``data/korf24_published.txt``: Döbbelin et
al.'s expansions, Korf and Felner's nodes generated, both with 6-6-6-6 tables); an instance
that passes ``--time-limit`` prints the bound it reached (a lower bound on its length) and the
run goes on, until ``--budget`` seconds of search in all.  A random 24-puzzle can need hours of optimal search: the
defaults (10 min each, 1 h in all) report what finishes on this machine.

Run: ``python benchmarks/korf24.py [-n 10] [--time-limit 600] [--budget 3600]``; one instance:
``python benchmarks/korf24.py --instances 20 --time-limit 3600``; the published tables' way:
``--least-only``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from _korf import korf24, korf24_published

from slidelab.errors import SearchLimitError
from slidelab.heuristics.pdb import pattern_database
from slidelab.search import Limits
from slidelab.search.idastar import idastar


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=10, help="how many, the shortest first")
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per instance")
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds of search in all")
    parser.add_argument("--partition", default="6-6-6-6")
    parser.add_argument(
        "--instances", default="", help="these instances only, by number ('20' or '20,47')"
    )
    parser.add_argument(
        "--least-only",
        action="store_true",
        help="read the tables' least over the blank only, as published (not zero-aware)",
    )
    args = parser.parse_args()
    instances = sorted(korf24(), key=lambda item: (item[2], item[0]))
    if args.instances:
        chosen = {int(n) for n in args.instances.split(",")}
        instances = [item for item in instances if item[0] in chosen]
    else:
        instances = instances[: args.n]
    t0 = time.perf_counter()
    db = pattern_database(instances[0][1], args.partition, zero_aware=not args.least_only)
    heuristic = db.heuristic()
    tables = time.perf_counter() - t0
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python"
        f" {platform.python_version()}; idastar, {heuristic.description}"
    )
    print(f"tables built or loaded in {tables:.1f} s\n")
    published = korf24_published()
    print(
        "| # | published | found | expanded | generated | seconds | M nodes/s"
        " | Döbbelin et al. expanded | Korf and Felner generated |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    spent = 0.0
    solved = []
    for number, puzzle, known in instances:
        theirs = f" {published[number]['doebbelin']:,} | {published[number]['korf_felner']:,} |"
        left = args.budget - spent
        if left <= 0:
            print(
                f"| {number} | {known} | (not started: {args.budget:g} s budget spent) |"
                + " |" * 4
                + theirs
            )
            continue
        bound = [0.0]

        def progress(info, bound=bound):
            bound[0] = max(bound[0], float(info.get("bound", 0)))

        t = time.perf_counter()
        try:
            limits = Limits(time_limit=min(args.time_limit, left), progress=progress)
            s = idastar(puzzle, heuristic=heuristic, limits=limits)
        except SearchLimitError as exc:
            seconds = time.perf_counter() - t
            spent += seconds
            print(
                f"| {number} | {known} | ≥ {bound[0]:g} (stopped) | {exc.stats.expanded:,} |"
                f" {exc.stats.generated:,} |"
                f" {seconds:.1f} | {exc.stats.generated / max(seconds, 1e-9) / 1e6:.1f} |" + theirs
            )
            continue
        seconds = time.perf_counter() - t
        spent += seconds
        assert s.length == known and s.optimal, (number, s.length, known)
        solved.append((number, seconds))
        st = s.stats
        print(
            f"| {number} | {known} | {s.length} | {st.expanded:,} | {st.generated:,} |"
            f" {st.seconds:.1f} |"
            f" {st.generated / max(st.seconds, 1e-9) / 1e6:.1f} |" + theirs
        )
    lengths = ", every length equal to the published one" if solved else ""
    print(
        f"\n{len(solved)} of {len(instances)} solved optimally in {spent:.0f} s of search"
        f" ({spent / 60:.1f} min){lengths}"
    )


if __name__ == "__main__":
    main()
