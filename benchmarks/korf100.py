"""Korf's 100 random 15-puzzle instances, solved optimally (goal: blank first).

Prints per instance: length (checked against the known optimum), nodes
generated, seconds; then totals.  The one-time table build (or load from the
cache) is timed separately, and kernels are loaded before the timings.

Run: ``python benchmarks/korf100.py [--heuristic pdb] [--partition 6-6-3] [--weight 1.0] [-n 100]``.

``--whole-command`` times instead what a user runs: one ``slidelab solve --blank-first``
process reading the instances on standard input (start-up, table load, every search,
output), beside ``python -c pass`` in the same run, the median of ``--repeat`` runs each
after one untimed run; the lengths are checked against the known optima.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time

from _korf import korf100

from slidelab import solve
from slidelab.heuristics import make_heuristic


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--heuristic", default="pdb")
    parser.add_argument("--partition", default=None)
    parser.add_argument("--weight", type=float, default=1.0)
    parser.add_argument("--quiet", action="store_true", help="totals only")
    parser.add_argument(
        "--whole-command", action="store_true", help="time the whole `slidelab solve` command"
    )
    parser.add_argument("--repeat", type=int, default=3, help="with --whole-command: timed runs")
    args = parser.parse_args()
    if args.whole_command:
        whole_command(args)
        return
    instances = korf100(args.n)
    t0 = time.perf_counter()
    make_heuristic(instances[0][1], args.heuristic, partition=args.partition)
    tables = time.perf_counter() - t0
    solve(
        instances[0][1],
        method="idastar",
        heuristic=args.heuristic,
        partition=args.partition,
        weight=args.weight,
    )  # load the kernels
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()};"
        f" heuristic {args.heuristic} {args.partition or '(default partition)'}, weight {args.weight:g}"
    )
    print(f"tables built or loaded in {tables:.2f} s\n")
    if not args.quiet:
        print("| # | length | known | generated | seconds |")
        print("|---:|---:|---:|---:|---:|")
    nodes = seconds = total_len = known_len = 0
    wrong = []
    for number, puzzle, known in instances:
        t = time.perf_counter()
        s = solve(
            puzzle,
            method="idastar",
            heuristic=args.heuristic,
            partition=args.partition,
            weight=args.weight,
        )
        dt = time.perf_counter() - t
        nodes += s.stats.generated
        seconds += dt
        total_len += s.length
        known_len += known
        if args.weight == 1 and s.length != known:
            wrong.append(number)
        if not args.quiet:
            print(f"| {number} | {s.length} | {known} | {s.stats.generated:,} | {dt:.3f} |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"\n{len(instances)} instances: {nodes:,} nodes, search {seconds:.2f} s"
        f" ({nodes / seconds / 1e6:.1f} M nodes/s), mean length {total_len / len(instances):.2f}"
        f" (optimal {known_len / len(instances):.2f}, +{100 * (total_len / known_len - 1):.1f}%),"
        f" peak memory {peak:.0f} MB"
    )
    if wrong:
        print(f"NOT OPTIMAL: {wrong}")


def whole_command(args) -> None:
    """The whole ``slidelab solve`` command over the instances, beside ``python -c pass``."""
    instances = korf100(args.n)
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

    timed(command, lines)  # untimed: tables built or loaded into the page cache, kernels cached
    baseline = statistics.median(timed([sys.executable, "-c", "pass"])[0] for _ in range(5))
    runs = [timed(command, lines) for _ in range(args.repeat)]
    lengths = [json.loads(line)["length"] for line in runs[0][1].splitlines()]
    wrong = [n for (n, _, known), got in zip(instances, lengths, strict=True) if got != known]
    walls = sorted(wall for wall, _ in runs)
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}; {' '.join(command[1:])}"
    )
    print("\n| command | median s | fastest s | slowest s |")
    print("|---|---:|---:|---:|")
    print(f"| `python -c pass` | {baseline:.3f} | | |")
    print(
        f"| `slidelab {' '.join(command[1:])}` < {len(instances)} instances |"
        f" {statistics.median(walls):.3f} | {walls[0]:.3f} | {walls[-1]:.3f} |"
    )
    if args.weight == 1:
        print("NOT OPTIMAL: " + ", ".join(map(str, wrong)) if wrong else "\nall lengths optimal")


if __name__ == "__main__":
    main()
