"""IDA* on a Dask cluster against this machine's threads: nodes per second per worker, and the
cost of an iteration on the cluster.

The same instances are solved optimally (IDA* with pattern databases, goal blank first, each
length checked against the published one) four ways on this machine: one thread, this
process's threads (one per core, the local default), and a Dask ``LocalCluster`` of 1, then 2,
single-threaded worker processes (``slidelab.solve(..., scheduler=...)``).  On the cluster every
iteration after the first is given to it (``CLUSTER_AFTER`` 0: the default gives it only those
that take a second here), so the rates are the cluster's.  Each cluster is warmed up first by
one solve (its workers load the kernels and the tables from the cache), untimed.

Columns: search seconds (the solution's ``stats.seconds``: tables ready, kernels loaded),
nodes generated, nodes per second, per worker (or thread), and per CPU second of the workers
(their processes' CPU time, asked of them before and after: on a shared machine the wall-clock
rate says how much of the cores the workers got, this one what they did with it).  Overhead
per iteration: for each iteration run on the cluster, its seconds less its nodes at the rate of
this machine's threads on the same instance (what the iteration would take here), the median
over the iterations; and the median seconds of the iterations of fewer than 10,000 nodes, which
are nearly all overhead (tasks sent, scheduled, answered, gathered).

Run: ``python benchmarks/distributed_idastar.py [--fifteen 60,82] [--twentyfour 40]``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import statistics
import time

from _korf import korf24, korf100

from slidelab import solve
from slidelab.memory import granted, usable_cores

dist = importlib.import_module("slidelab.search.cluster_idastar")


def korf(cells: int, number: int):
    """``(label, puzzle, published length, partition)`` of instance ``number`` (from 1) of
    Korf's 15-puzzles (``cells`` 16) or Korf and Felner's 24-puzzles (25)."""
    instances = korf100() if cells == 16 else korf24()
    _, puzzle, known = next(item for item in instances if item[0] == number)
    partition = "6-6-3" if cells == 16 else "6-6-6-6"
    return f"{cells - 1}-puzzle #{number}", puzzle, known, partition


def run(puzzle, known, partition, scheduler=None):
    s = solve(puzzle, method="idastar", heuristic="pdb", partition=partition, scheduler=scheduler)
    if s.length != known or not s.optimal:
        raise SystemExit(f"{s.length} moves, not the published {known}")
    return s


def cpu_seconds(client) -> float:
    """CPU seconds the cluster's worker processes have used so far."""
    return sum(client.run(time.process_time).values())


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fifteen", default="60,82", help="Korf's 15-puzzles (6-6-3 tables)")
    parser.add_argument("--twentyfour", default="40", help="Korf-Felner 24-puzzles (6-6-6-6)")
    args = parser.parse_args()
    import distributed

    instances = [korf(16, int(n)) for n in args.fifteen.split(",") if n]
    instances += [korf(25, int(n)) for n in args.twentyfour.split(",") if n]
    for _, puzzle, known, partition in instances:  # tables loaded (built once), kernels warm
        run(puzzle, known, partition)
    cores = usable_cores()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores ({cores} usable), Python"
        f" {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the start;"
        " idastar, pdb tables, goal blank first"
    )
    print()
    print("| instance | run on | search s | nodes | M nodes/s | per worker | per CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    local_rate = {}
    overheads: list[float] = []
    short: list[float] = []

    def row(label, where, s, workers, cpu=None):
        rate = s.stats.generated / s.stats.seconds
        per_cpu = f"{s.stats.generated / cpu / 1e6:.1f}" if cpu else ""
        print(
            f"| {label} | {where} | {s.stats.seconds:.2f} | {s.stats.generated:,} |"
            f" {rate / 1e6:.1f} | {rate / workers / 1e6:.1f} | {per_cpu} |",
            flush=True,
        )

    for label, puzzle, known, partition in instances:
        with granted(1):
            row(label, "1 thread", run(puzzle, known, partition), 1)
        s = run(puzzle, known, partition)
        local_rate[label] = s.stats.generated / s.stats.seconds
        row(label, f"{cores} threads", s, cores)
    dist.CLUSTER_AFTER = 0.0
    for n in (1, 2):
        with (
            distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            address = cluster.scheduler_address
            for _, puzzle, known, partition in instances:  # the workers load what they need
                run(puzzle, known, partition, address)
            for label, puzzle, known, partition in instances:
                before = cpu_seconds(client)
                s = run(puzzle, known, partition, address)
                where = f"Dask, {n} worker{'s' if n > 1 else ''}"
                row(label, where, s, n, cpu_seconds(client) - before)
                for phase in s.stats.phases[1:]:  # the first runs here
                    overheads.append(phase.seconds - phase.generated / local_rate[label])
                    if phase.generated < 10_000:
                        short.append(phase.seconds)
    print()
    print(
        f"overhead per iteration on the cluster: median {statistics.median(overheads):.2f} s"
        f" beyond its nodes at the local threads' rate ({len(overheads)} iterations)"
    )
    if short:
        print(
            f"iterations of under 10,000 nodes on the cluster: median"
            f" {statistics.median(short):.2f} s ({len(short)} of them)"
        )
    print(
        f"subtree tasks per iteration on the cluster: one per {dist.NODES_PER_TASK:,} nodes"
        f" expected, {dist.MIN_ROOTS_PER_THREAD} to {dist.ROOTS_PER_THREAD} per worker thread;"
        f" load average {os.getloadavg()[0]:.1f} at the end (2 cores, shared with other work)"
    )


if __name__ == "__main__":
    main()
