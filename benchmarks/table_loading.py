"""Loading a heuristic's tables: memory-mapped from the cache (what slidelab does) against read
into the process's memory (huge pages, where the system gives them: what it did before).

Each row is a fresh process (tables cached and in the page cache, kernels compiled), the two
ways taking turns for ``--rounds`` rounds:

- **the 15-puzzle, 7-8** (goal blank first): the tables made ready plus Korf's #1 solved (what
  a first solve waits for), then Korf's 100 as one stream on every core (``solve_many``);
- **the 24-puzzle, 6-6-6-6**: the tables made ready, then IDA* on Korf and Felner's #1 for
  ``--seconds`` on one core and on every core, nodes generated a second;
- **the 15-puzzle in MTM, abstraction tables**: the tables made ready plus a first solve, then
  eleven random positions (seeds 1-11);

each with the process's peak resident memory and the memory it holds in huge pages.  Then the
whole command a person runs, ``slidelab solve --blank-first`` (default options) on Korf's #1
and on all 100, as shipped (mapped), the median of ``--repeat`` runs after an untimed one.

Run: ``python benchmarks/table_loading.py [--rounds 3] [--seconds 10] [--repeat 5]``.
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

WORKS = ("fifteen", "twenty-four", "mtm")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="24-puzzle search time")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of the whole command")
    parser.add_argument("--child", nargs=2, metavar=("WORK", "WAY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child, args.seconds)))
        return
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python"
        f" {platform.python_version()}, Linux {platform.release()}\n"
    )
    rows: dict = {}
    for _ in range(args.rounds):
        for work in WORKS:
            for way in ("mapped", "read"):
                argv = [sys.executable, __file__, "--seconds", str(args.seconds)]
                done = subprocess.run(
                    argv + ["--child", work, way], capture_output=True, text=True, check=True
                )
                rows.setdefault((work, way), []).append(json.loads(done.stdout))
    print("| work | tables | made ready (+ first solve) s | search | peak MB | huge pages MB |")
    print("|---|---|---:|---|---:|---:|")
    for (work, way), runs in rows.items():
        ready = ", ".join(f"{r['ready']:.2f}" for r in runs)
        search = "; ".join(r["search"] for r in runs)
        peak = max(r["peak_mb"] for r in runs)
        huge = max(r["huge_mb"] for r in runs)
        print(f"| {work} | {way} | {ready} | {search} | {peak:.0f} | {huge:.0f} |")
    whole_command(args.repeat)


def child(work: str, way: str, seconds: float) -> dict:
    """One row, in this (fresh) process."""
    import numpy as np

    if way == "read":  # the tables read into memory, as slidelab did before
        from slidelab.tables import family

        mapped = family._load
        family._load = lambda part, progress=None: _read_only(np.array(mapped(part, progress)))
    sys.path.insert(0, os.path.dirname(__file__))
    from _korf import korf24, korf100

    from slidelab import Board, Puzzle, random_board, solve, solve_many
    from slidelab.errors import SearchLimitError
    from slidelab.search import check_options

    if work == "fifteen":
        instances = korf100()
        options = check_options(method="idastar", heuristic="pdb", partition="7-8")
        began = time.perf_counter()
        solve(instances[0][1], options=options)
        ready = time.perf_counter() - began
        began = time.perf_counter()
        nodes = sum(
            s.stats.generated for s in solve_many([p for _, p, _ in instances], options=options)
        )
        search = f"Korf's 100 in {time.perf_counter() - began:.3f} s ({nodes:,} nodes)"
    elif work == "twenty-four":
        from slidelab.heuristics import make_heuristic

        _, puzzle, _ = korf24()[0]
        began = time.perf_counter()
        make_heuristic(puzzle, "pdb")
        ready = time.perf_counter() - began
        rates = []
        for cores in (1, os.cpu_count()):
            os.sched_setaffinity(0, set(range(cores)))
            try:
                solve(puzzle, method="idastar", heuristic="pdb", time_limit=seconds)
            except SearchLimitError as stopped:
                rates.append(stopped.stats.generated / stopped.stats.seconds / 1e6)
        search = " / ".join(f"{r:.1f}" for r in rates) + " M nodes/s (1 / all cores)"
    else:
        goal = Board.solved(4, 4)
        boards = [Puzzle(random_board("4x4", seed=s), goal) for s in range(12)]
        options = check_options(method="idastar", heuristic="abstraction", metric="mtm")
        began = time.perf_counter()
        solve(boards[0], options=options)
        ready = time.perf_counter() - began
        took = nodes = 0
        for puzzle in boards[1:]:
            s = solve(puzzle, options=options)
            took, nodes = took + s.stats.seconds, nodes + s.stats.generated
        search = f"11 positions in {took:.2f} s ({nodes / took / 1e6:.1f} M nodes/s)"
    huge = 0
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("AnonHugePages:"):
                huge = int(line.split()[1]) / 1024
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"ready": ready, "search": search, "peak_mb": peak, "huge_mb": huge}


def _read_only(table):
    table.flags.writeable = False
    return table


def whole_command(repeat: int) -> None:
    """``slidelab solve --blank-first`` on Korf's #1 and on all 100, default options."""
    sys.path.insert(0, os.path.dirname(__file__))
    from _korf import korf100

    slidelab = shutil.which("slidelab") or sys.exit("the slidelab command is not on PATH")
    lines = [p.start.format("flat") + "\n" for _, p, _ in korf100()]
    print(f"\nthe whole command, as shipped, {repeat} runs after an untimed one:\n")
    print("| command | median s | fastest s | slowest s | peak MB |")
    print("|---|---:|---:|---:|---:|")
    for count in (1, 100):
        stdin = "".join(lines[:count])
        walls, peaks = [], []
        for run in range(repeat + 1):
            began = time.perf_counter()
            done = subprocess.run(
                ["/usr/bin/time", "-f", "%M", slidelab, "solve", "--blank-first", "--json"],
                input=stdin, capture_output=True, text=True, check=True,
            )  # fmt: skip
            if run:
                walls.append(time.perf_counter() - began)
                peaks.append(int(done.stderr.split()[-1]) / 1024)
        walls.sort()
        print(
            f"| `slidelab solve --blank-first --json` < {count} instance{'s' * (count > 1)} |"
            f" {statistics.median(walls):.3f} | {walls[0]:.3f} | {walls[-1]:.3f} |"
            f" {max(peaks):.0f} |"
        )


if __name__ == "__main__":
    main()
