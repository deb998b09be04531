"""Korf's 100 15-puzzle instances with weight 1.5: solution quality against time, per method.

Prints a Markdown table: method, heuristic, mean length, mean optimal length
(the published optima in ``data/korf100.txt``), excess over optimal, total
seconds (wall clock and CPU), nodes expanded and generated.  Every solution is
replayed by ``solve`` (or ``verify``) and checked against the weight bound.
Tables are loaded and kernels compiled before the timings.

Rows: weighted IDA* (``idastar``), weighted A* without polishing
(``weighted-astar, raw``: :func:`slidelab.search.astar.weighted_astar` with
``polish=False``) and weighted A* as ``solve`` runs it (polished: windows of up
to ``WINDOW`` = 44 moves that start or end on a corner-blank board re-solved
optimally).  ``--windows 32,40`` adds polished rows with other window lengths;
``--optimal`` adds optimal IDA* for reference.

Run: ``python benchmarks/weighted.py [-n 100] [--weight 1.5] [--only pdb] [--skip-slow]``.
"""

from __future__ import annotations

import argparse
import platform
import time

from _korf import korf100

from slidelab import solve
from slidelab.heuristics import make_heuristic
from slidelab.search._polish import WINDOW, WINDOW_NODES
from slidelab.search.astar import weighted_astar

HEURISTICS = ("pdb", "linear-conflict", "manhattan")


def rows(args):
    """``(label, heuristic, solver)``; ``solver(puzzle, heur) -> Solution``."""
    w = args.weight
    out = []
    for h in HEURISTICS:
        if args.only and h not in args.only:
            continue
        if h == "pdb":
            out.append(
                (
                    "idastar (weighted IDA*)",
                    h,
                    lambda p, heur: solve(p, method="idastar", heuristic="pdb", weight=w),
                )
            )
        slow = h == "manhattan"
        if slow and args.skip_slow:
            continue
        out.append(
            (
                "weighted-astar, raw",
                h,
                lambda p, heur: weighted_astar(p, weight=w, heuristic=heur, polish=False),
            )
        )
        out.append(
            (
                f"weighted-astar (polished, windows <= {WINDOW})",
                h,
                lambda p, heur, h=h: solve(p, method="weighted-astar", heuristic=h, weight=w),
            )
        )
        for size in args.windows:
            opts = {
                "window": size,
                "window_nodes": max(WINDOW_NODES, WINDOW_NODES * size // WINDOW),
            }
            out.append(
                (
                    f"weighted-astar (polished, windows <= {size})",
                    h,
                    lambda p, heur, o=opts: weighted_astar(
                        p, weight=w, heuristic=heur, polish_options=o
                    ),
                )
            )
    if args.optimal:
        out.append(
            (
                "idastar, weight 1 (optimal)",
                "pdb",
                lambda p, heur: solve(p, method="idastar", heuristic="pdb"),
            )
        )
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--weight", type=float, default=1.5)
    parser.add_argument("--only", nargs="*", choices=HEURISTICS, help="heuristics to run")
    parser.add_argument("--skip-slow", action="store_true", help="no weighted A* with Manhattan")
    parser.add_argument(
        "--windows",
        type=lambda s: [int(x) for x in s.split(",") if x],
        default=[],
        help="extra polishing window lengths, e.g. 32,48",
    )
    parser.add_argument("--optimal", action="store_true", help="add optimal IDA* for reference")
    args = parser.parse_args()
    instances = korf100(args.n)
    first = instances[0][1]
    heuristics = {h: make_heuristic(first, h) for h in HEURISTICS}  # tables built or loaded
    table = rows(args)
    for _, h, solver in table:  # compile or load every kernel outside the timings
        solver(first, heuristics[h])
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()};"
        f" Korf's {len(instances)} instances, weight {args.weight:g}\n"
    )
    print(
        "| method | heuristic | mean length | mean optimal | excess | seconds | CPU s"
        " | expanded | generated |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, h, solver in table:
        total = known_total = expanded = generated = 0
        wall = cpu = 0.0
        weight = 1.0 if "optimal" in label else args.weight
        for number, puzzle, known in instances:
            t, c = time.perf_counter(), time.process_time()
            s = solver(puzzle, heuristics[h])
            wall += time.perf_counter() - t
            cpu += time.process_time() - c
            s.verify()
            if not known <= s.length <= weight * known:
                raise SystemExit(
                    f"instance {number}: length {s.length} outside [{known}, {weight * known:g}]"
                )
            total += s.length
            known_total += known
            expanded += s.stats.expanded
            generated += s.stats.generated
        n = len(instances)
        print(
            f"| {label} | {h} | {total / n:.2f} | {known_total / n:.2f}"
            f" | +{100 * (total / known_total - 1):.1f}% | {wall:.2f} | {cpu:.2f}"
            f" | {expanded:,} | {generated:,} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
