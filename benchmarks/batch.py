"""Batch solving of Korf's 100 15-puzzle instances: the speed-up of more workers.

Each row solves the whole set with ``slidelab.batch.solve_batch`` (IDA* with
pattern databases, goal blank first, every length checked against the known
optimum): once with 1 local worker process, once with 2, and optionally on a
Dask ``LocalCluster`` of 2 single-threaded worker processes (``--dask``).
Wall time runs from the call to the last result, worker start-up included;
the tables are built or loaded once before the timings, and the kernels are
compiled into numba's cache by a first small batch.

Run: ``python benchmarks/batch.py [--partition 6-6-3] [--workers 1,2] [--dask] [-n 100]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

from slidelab import Puzzle
from slidelab.batch import read_instances, solve_batch, summarize
from slidelab.search.solve import prepare

KORF100 = Path(__file__).parent / "data" / "korf100.txt"


def run(instances, scheduler=None, workers=None, partition=None):
    began = time.perf_counter()
    first = None
    records = []
    for record in solve_batch(
        instances, blank_first=True, partition=partition, workers=workers, scheduler=scheduler
    ):
        if first is None:
            first = time.perf_counter() - began
        records.append(record)
    wall = time.perf_counter() - began
    summary = summarize(records)
    if summary.solved != len(instances) or summary.mismatches:
        raise SystemExit(f"not all solved optimally: {summary.table()}")
    return wall, first, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=100, help="first N instances")
    # 6-6-3 named: with none, auto would take the strongest tables in the cache (7-8, say)
    parser.add_argument("--partition", default="6-6-3", help="pattern databases (default 6-6-3)")
    parser.add_argument("--workers", default="1,2", help="local worker counts to time")
    parser.add_argument("--dask", action="store_true", help="also a Dask LocalCluster, 2 workers")
    args = parser.parse_args()
    instances = read_instances(KORF100.read_text().splitlines())[: args.n]
    t0 = time.perf_counter()
    prepare(Puzzle(instances[0].start, blank_first=True), partition=args.partition)
    tables = time.perf_counter() - t0
    run(instances[:2], workers=1, partition=args.partition)  # numba's cache is warm
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()};"
        f" IDA* + pdb {args.partition}; {len(instances)} instances"
    )
    print(f"tables built or loaded in {tables:.2f} s\n")
    print(
        "| run | wall s | first result s | search s (sum) | nodes generated | instances/s | speed-up |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = None
    rows = [
        (f"{w} local worker{'s' if w != 1 else ''}", dict(workers=w))
        for w in map(int, args.workers.split(","))
    ]
    cluster = None
    if args.dask:
        from distributed import LocalCluster

        cluster = LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        rows.append(("Dask LocalCluster, 2 workers", dict(scheduler=cluster.scheduler_address)))
    try:
        for name, where in rows:
            wall, first, s = run(instances, partition=args.partition, **where)
            base = base or wall
            print(
                f"| {name} | {wall:.2f} | {first:.2f} | {s.seconds:.2f} | {s.generated:,} |"
                f" {len(instances) / wall:.2f} | {base / wall:.2f}x |"
            )
    finally:
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
