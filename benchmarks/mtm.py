"""The multi-tile metric (MTM) on the 15-puzzle: optimal solves with the default options.

Parts (each prints a table; choose with ``--parts``, default all but ``korf``):

``build``
    The abstraction tables built from an empty cache (a temporary one): the one ``auto``
    builds first, then the default set (the fine relabelling's table, 378 MB in two bits: what
    ``slidelab tables build`` makes, and ``auto`` climbs to for a position whose search with
    the first would take longer than its build), then the third rung's two (the fine one and
    the rows'); seconds, size and peak memory of a fresh process each.
``random``
    ``-n`` uniformly random 15-puzzles (``--seed``), each solved by ``slidelab.solve(board,
    metric="mtm")`` with nothing else asked for (``auto``: IDA* with the abstraction table, on
    every core), one after the other in this process after one untimed solve; per board the
    MTM length, nodes generated and the answer's seconds; then the median and the largest.
``antipode``
    The MTM antipode ``1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0`` (43 moves, Norskog and
    Davidson 2010), with ``--antipode-limit`` seconds.
``astar``
    A* in MTM on the 8-puzzle ``8 6 7/2 5 4/3 0 1`` (20 moves), default heuristic, the median
    of 5 answers.
``korf``
    Korf's 100 (goal: blank first) in MTM, each optimal, with their known STM lengths beside;
    ``--save FILE`` writes ``number, MTM length, STM length`` per instance.
``line``
    The line puzzle ``ABA_/CDCD/ABAB/CDCD``'s whole space in MTM (``slidelab analyze ...
    --metric mtm``), in a fresh process: seconds and peak memory.
``generate``
    ``slidelab generate 4x4 --distance D --metric mtm -n 3`` for several ``D``
    (``--distances``): random walks, each end solved MTM-optimally with the default options,
    until three lie at ``D``; seconds per answer, tables cached (one untimed solve first).

Run: ``python benchmarks/mtm.py [--parts random,astar] [-n 100] [--seed 2026]
[--antipode-limit 900] [--save benchmarks/data/korf100_mtm.txt] [--distances 20,30,35,38]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _korf import korf100

import slidelab
from slidelab.generate import random_boards

ANTIPODE = "1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--parts", default="build,random,antipode,astar")
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--antipode-limit", type=float, default=900.0)
    parser.add_argument("--save", default=None, help="korf: write the lengths here")
    parser.add_argument("--distances", default="20,30,35,38", help="generate: the distances")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python"
        f" {platform.python_version()}, slidelab {slidelab.__version__}"
    )
    parts = args.parts.split(",")
    for name in parts:
        PARTS[name](args)


def build(args) -> None:
    """The abstraction tables from an empty cache, each set in a fresh process."""
    print("\n## The abstraction tables from an empty cache\n")
    print("| what | tables | seconds | cache files | peak memory |")
    print("|---|---|---:|---:|---:|")
    rows = (
        ("`auto`'s first: one table", "rungs[0]"),
        (
            "`slidelab tables build 4x4 --heuristic abstraction --metric mtm`: the default set",
            "None",
        ),
        ("`auto`'s third rung, from nothing", "rungs[2]"),
    )
    for what, classes in rows:
        code = (
            "import resource, time, slidelab\n"
            "from slidelab.tables.abstraction import ladder_sets\n"
            "from slidelab.heuristics import make_heuristic\n"
            "puzzle = slidelab.Puzzle('1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0')\n"
            "rungs = [[b.format() for b in r] for r in ladder_sets(puzzle.goal)]\n"
            "t = time.perf_counter()\n"
            f"h = make_heuristic(puzzle, 'abstraction', metric='mtm', classes={classes})\n"
            "print(f'{time.perf_counter() - t:.1f}', resource.getrusage(resource.RUSAGE_SELF)"
            ".ru_maxrss // 1024, h.description)\n"
        )
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, SLIDELAB_CACHE=cache)
            done = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            files = sum(p.stat().st_size for p in Path(cache).rglob("*") if p.is_file())
        seconds, peak, description = done.stdout.split(" ", 2)
        print(
            f"| {what} | {description.strip()} | {seconds} | {files / 1e6:,.0f} MB"
            f" | {int(peak):,} MB |",
            flush=True,
        )


def random(args) -> None:
    """``-n`` random 15-puzzles, default options, MTM."""
    boards = random_boards(args.n, "4x4", seed=args.seed)
    slidelab.solve(boards[0], metric="mtm")  # tables loaded, kernels compiled: not timed
    print(f"\n## {args.n} uniformly random 15-puzzles (seed {args.seed}), MTM, default options\n")
    print("| # | MTM length | generated | seconds |")
    print("|---:|---:|---:|---:|")
    times, lengths, nodes = [], [], []
    for i, board in enumerate(boards, start=1):
        began = time.perf_counter()
        s = slidelab.solve(board, metric="mtm")
        took = time.perf_counter() - began
        assert s.optimal and s.metric == "mtm", board
        times.append(took)
        lengths.append(s.length)
        nodes.append(s.stats.generated)
        print(f"| {i} | {s.length} | {s.stats.generated:,} | {took:.3f} |", flush=True)
    print(
        f"\nall {len(boards)} optimal; mean length {statistics.mean(lengths):.2f};"
        f" seconds: median {statistics.median(times):.3f}, largest {max(times):.2f},"
        f" total {sum(times):.1f}; nodes: median {int(statistics.median(nodes)):,},"
        f" largest {max(nodes):,}"
    )


def antipode(args) -> None:
    """The MTM antipode."""
    print(f"\n## The MTM antipode {ANTIPODE}, time limit {args.antipode_limit:g} s\n")
    slidelab.solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", metric="mtm")  # loaded, compiled
    began = time.perf_counter()
    try:
        s = slidelab.solve(ANTIPODE, metric="mtm", time_limit=args.antipode_limit)
        print(
            f"{s.length} moves, optimal {s.optimal}, {s.stats.generated:,} nodes,"
            f" {time.perf_counter() - began:.1f} s"
        )
    except slidelab.SlidelabError as exc:
        print(f"not solved: {exc} ({time.perf_counter() - began:.1f} s)")


def astar(args) -> None:
    """A* in MTM on the 8-puzzle's hard position."""
    board = "8 6 7/2 5 4/3 0 1"
    slidelab.solve(board, method="astar", metric="mtm")
    times = []
    for _ in range(5):
        began = time.perf_counter()
        s = slidelab.solve(board, method="astar", metric="mtm")
        times.append(time.perf_counter() - began)
    print(f"\n## A* in MTM on {board}\n")
    print(
        f"{s.length} moves, optimal {s.optimal}, {s.stats.expanded:,} expanded, median of 5:"
        f" {1000 * statistics.median(times):.1f} ms"
    )


def korf(args) -> None:
    """Korf's 100 in MTM."""
    from slidelab.heuristics import make_heuristic

    instances = korf100()
    make_heuristic(instances[0][1], "abstraction", metric="mtm")  # the blank-first goal's table
    print("\n## Korf's 100 in MTM (goal: blank first), default options\n")
    print("| # | MTM length | STM length | generated | seconds |")
    print("|---:|---:|---:|---:|---:|")
    rows, began_all = [], time.perf_counter()
    for number, puzzle, stm in instances:
        began = time.perf_counter()
        s = slidelab.solve(puzzle.start, blank_first=True, metric="mtm")
        took = time.perf_counter() - began
        assert s.optimal and s.metric == "mtm", number
        rows.append((number, s.length, stm))
        print(f"| {number} | {s.length} | {stm} | {s.stats.generated:,} | {took:.2f} |", flush=True)
    total = time.perf_counter() - began_all
    mean = statistics.mean(r[1] for r in rows)
    print(f"\nall {len(rows)} optimal in {total:.0f} s; mean MTM length {mean:.2f}")
    if args.save:
        lines = ["# Korf's 100 (goal: blank first): number, optimal MTM length, optimal STM length"]
        lines += [f"{n} {m} {s}" for n, m, s in rows]
        Path(args.save).write_text("\n".join(lines) + "\n")


LINE = "ABA_/CDCD/ABAB/CDCD"


def line(args) -> None:
    """The line puzzle's whole space in MTM, in a fresh process."""
    code = (
        "import resource, time\n"
        "from slidelab.analysis import analyze\n"
        "analyze('AB/BA/A_', metric='mtm')\n"  # the kernels loaded off the clock
        "t = time.perf_counter()\n"
        f"s = analyze({LINE!r}, metric='mtm')\n"
        "print(f'{time.perf_counter() - t:.1f}', resource.getrusage(resource.RUSAGE_SELF)"
        ".ru_maxrss // 1024, s.states, s.diameter)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, peak, states, diameter = done.stdout.split()
    print(f"\n## The line puzzle {LINE}, whole space in MTM (a fresh process)\n")
    print(
        f"{int(states):,} positions, diameter {diameter} MTM, {seconds} s,"
        f" peak memory {int(peak):,} MB"
    )


def generate(args) -> None:
    """Positions at MTM distances on the 15-puzzle."""
    from slidelab.search.at_distance import positions_at_distance

    slidelab.solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", metric="mtm")  # loaded, compiled
    print("\n## `slidelab generate 4x4 --distance D --metric mtm -n 3`, tables cached\n")
    print("| D | boards | seconds |")
    print("|---:|---|---:|")
    for distance in (int(d) for d in args.distances.split(",")):
        began = time.perf_counter()
        boards = positions_at_distance(distance, 3, "4x4", seed=7, time_limit=600, metric="mtm")
        took = time.perf_counter() - began
        for b in boards:  # each checked: optimal and at the distance asked
            s = slidelab.solve(b, metric="mtm")
            assert s.optimal and s.length == distance, b
        shown = "; ".join(f"`{b.format()}`" for b in boards)
        print(f"| {distance} | {shown} | {took:.1f} |", flush=True)


PARTS = {
    "build": build,
    "random": random,
    "antipode": antipode,
    "astar": astar,
    "korf": korf,
    "line": line,
    "generate": generate,
}


if __name__ == "__main__":
    main()
