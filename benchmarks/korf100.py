"""Korf's 100 random 15-puzzle instances, solved optimally (goal: blank first).

Two parts, in one run:

1. **In this process**: the tables built or loaded (timed apart), the kernels loaded, then
   the 100 instances as one stream through :func:`slidelab.solve_many` on ``--workers``
   threads (default: every core), answers in order.  Prints per instance the length
   (checked against the known optimum), nodes generated and the search's seconds; then the
   stream's wall time ("search") and the node rate per core (nodes over the sum of the
   searches' own seconds, each search on one core).
2. **The whole command** a user runs: one ``slidelab solve --blank-first`` process reading
   the instances on standard input (start-up, table load, every search, output), then the
   same with the default options (``auto``: the strongest tables cached), beside
   ``python -c pass`` in the same run, the median of ``--repeat`` runs after one untimed
   run; the lengths are checked against the known optima.  ``--no-whole-command`` skips it.

Run: ``python benchmarks/korf100.py [--partition 7-8] [--heuristic pdb] [--weight 1.0] [-n 100]
[--workers N] [--repeat 5] [--quiet]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time

from _korf import korf100

from slidelab import solve, solve_many
from slidelab.heuristics import make_heuristic
from slidelab.memory import usable_cores
from slidelab.search import check_options


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--heuristic", default="pdb")
    parser.add_argument("--partition", default=None)
    parser.add_argument("--weight", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    parser.add_argument("--quiet", action="store_true", help="totals only")
    parser.add_argument(
        "--no-whole-command", action="store_true", help="skip timing the whole command"
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of the whole command")
    args = parser.parse_args()
    instances = korf100(args.n)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python"
        f" {platform.python_version()}; heuristic {args.heuristic}"
        f" {args.partition or '(default partition)'}, weight {args.weight:g}"
    )
    in_process(args, instances)
    if not args.no_whole_command:
        whole_command(args, instances)


def in_process(args, instances) -> None:
    """The instances as one stream in this process (see the module)."""
    t0 = time.perf_counter()
    make_heuristic(instances[0][1], args.heuristic, partition=args.partition)
    tables = time.perf_counter() - t0
    options = check_options(
        method="idastar", heuristic=args.heuristic, partition=args.partition, weight=args.weight
    )
    solve(instances[0][1], options=options)  # load the kernels
    print(f"tables built or loaded in {tables:.2f} s\n")
    if not args.quiet:
        print("| # | length | known | generated | seconds |")
        print("|---:|---:|---:|---:|---:|")
    nodes = searches = total_len = known_len = 0
    wrong = []
    t0 = time.perf_counter()
    stream = solve_many((p for _, p, _ in instances), options=options, workers=args.workers)
    for (number, _, known), s in zip(instances, stream, strict=True):
        nodes += s.stats.generated
        searches += s.stats.seconds
        total_len += s.length
        known_len += known
        if args.weight == 1 and s.length != known:
            wrong.append(number)
        if not args.quiet:
            print(
                f"| {number} | {s.length} | {known} | {s.stats.generated:,} |"
                f" {s.stats.seconds:.3f} |"
            )
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = args.workers or usable_cores()  # solve_many's default
    print(
        f"\n{len(instances)} instances on {workers} threads: {nodes:,} nodes, search {wall:.2f} s"
        f" ({searches:.2f} s of searches, {nodes / searches / 1e6:.1f} M nodes/s per core),"
        f" mean length {total_len / len(instances):.2f} (optimal {known_len / len(instances):.2f},"
        f" +{100 * (total_len / known_len - 1):.1f}%), peak memory {peak:.0f} MB"
    )
    if wrong:
        print(f"NOT OPTIMAL: {wrong}")


def whole_command(args, instances) -> None:
    """The whole ``slidelab solve`` command over the instances, beside ``python -c pass``."""
    lines = "".join(p.start.format("flat") + "\n" for _, p, _ in instances)
    slidelab = shutil.which("slidelab") or sys.exit("the slidelab command is not on PATH")
    command = [slidelab, "solve", "--blank-first", "--json", "--method", "idastar"]
    command += ["--heuristic", args.heuristic]
    if args.partition:
        command += ["--partition", args.partition]
    if args.weight != 1:
        command += ["--weight", str(args.weight)]

    def timed(argv, stdin=None):
        began = time.perf_counter()
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-500:]}")
        return time.perf_counter() - began, done.stdout

    # and the same with the default options, as a person runs it first (optimal: auto)
    commands = [command] + ([command[:4]] if args.weight == 1 else [])
    baseline = statistics.median(timed([sys.executable, "-c", "pass"])[0] for _ in range(5))
    print(f"\nthe whole command, {args.repeat} runs after an untimed one:\n")
    print("| command | median s | fastest s | slowest s |")
    print("|---|---:|---:|---:|")
    print(f"| `python -c pass` | {baseline:.3f} | | |")
    wrong = set()
    for argv in commands:
        timed(argv, lines)  # untimed: tables built or loaded into the page cache, kernels cached
        runs = [timed(argv, lines) for _ in range(args.repeat)]
        lengths = [json.loads(line)["length"] for line in runs[0][1].splitlines()]
        wrong |= {n for (n, _, known), got in zip(instances, lengths, strict=True) if got != known}
        walls = sorted(wall for wall, _ in runs)
        print(
            f"| `slidelab {' '.join(argv[1:])}` < {len(instances)} instances |"
            f" {statistics.median(walls):.3f} | {walls[0]:.3f} | {walls[-1]:.3f} |"
        )
    if args.weight == 1:
        print(f"NOT OPTIMAL: {sorted(wrong)}" if wrong else "\nall lengths optimal")


if __name__ == "__main__":
    main()
