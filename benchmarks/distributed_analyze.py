"""The whole-space search on a Dask cluster of this machine, checked layer by layer.

Starts a Dask ``LocalCluster`` of ``--workers`` worker processes (``--threads`` each, a
``--memory-limit`` each, Dask's spilling and pausing off: the codes are not Dask data), runs
the partitioned search (:mod:`slidelab.analysis.cluster_space`, one partition a worker) of an
expectation file's goal, and prints a Markdown row per layer as it is found: the count, the
published count (OEIS) where there is one, the in-memory run's count where a stored run is
given (``--in-memory``, a ``layer_counts.py`` output), the layer's seconds, positions a second a
worker, and the neighbours sent between partitions.  Then the totals against the file's, the
peak memory of each worker, the time beside the in-memory run's, and a plan for larger spaces
from the measured rates (``--plan``).

Run: ``python benchmarks/distributed_analyze.py benchmarks/data/a090167.txt --workers 2``
(the 6x2; under a minute once the kernels are compiled), or the 7x2 on four 4 GB workers, below
its 10.9 GB of codes::

    python benchmarks/distributed_analyze.py benchmarks/data/a346736.txt --workers 4 \\
        --memory-limit 4GB --in-memory benchmarks/data/a346736_run.txt --plan
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import sys
import time
from pathlib import Path

from layer_counts import read_expectation

#: targets of the plan: (name, goal, published diameter, source)
PLAN_SPACES = [
    ("3x5", "3x5", 84, "OEIS A346737"),
    ("15-puzzle", "4x4", 80, "Korf and Schultze 2005"),
]
#: the machine the plan counts in (a common cloud node)
PLAN_MACHINE = {"cores": 16, "memory": 64 * 2**30, "usable": 48 * 2**30, "network": 10e9 / 8}


def stored_run(path: Path) -> tuple[dict[int, int], float | None]:
    """``(counts, seconds)`` of a stored ``layer_counts.py`` output: its table's positions per
    depth and its "N s in all" line."""
    counts: dict[int, int] = {}
    seconds = None
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].isdigit():
            counts[int(cells[0])] = int(cells[1].replace(",", ""))
        found = re.search(r"([\d.]+) s in all", line)
        if found:
            seconds = float(found.group(1))
    return counts, seconds


def leaving_fraction(goal: str, parts: int, samples: int, seed: int = 1) -> tuple[float, int]:
    """``(fraction, places)``: of the moves from random positions of ``goal``'s space searched
    as analyze searches it (on its side when wider than tall), the share whose position lies
    in another partition when the space is split in ``parts``; and the places that split uses."""
    import random

    from slidelab.tables.index import Space, space_of
    from slidelab.tables.partition import Split

    space = space_of(goal)
    if space.width > space.height:
        space = Space(space.goal.transposed())
    split = Split.of(space, parts)
    rng = random.Random(seed)
    moves = leaving = 0
    for _ in range(samples):
        index = rng.randrange(space.states)
        board = space.board(index)
        home = split.owner(index)[0]
        for move in board.legal_moves():
            moves += 1
            leaving += split.owner(space.index(board.move(move)))[0] != home
    return leaving / moves, split.places


def plan(measured: dict, samples: int) -> list[str]:
    """Lines of the plan for :data:`PLAN_SPACES` from the measured rates: ``measured`` holds
    ``cpu_ns`` and ``wall_ns`` (a position's cost in one core's nanoseconds: the workers' CPU
    time, and the wall time times the cores used), ``bytes_per_state`` (sent between
    partitions), ``listed_per_state``, ``leaving`` (the share of moves that leave a partition
    in the split measured), ``workers`` and ``cores``."""
    from slidelab.tables.index import space_of

    m = PLAN_MACHINE
    lines = [
        "",
        "## Plan past this machine (issue 29, point 3)",
        "",
        f"Measured here: a position cost {measured['cpu_ns']:.0f} ns of a core in the workers' CPU"
        f" time (the kernels, listing, batches and claims), {measured['wall_ns']:.0f} ns in wall"
        f" time times the {measured['cores']} cores ({measured['workers']} workers sharing them"
        " with other jobs on this machine: the waits, Dask and the other jobs included);"
        f" {measured['bytes_per_state']:.3f} bytes were sent between partitions a position"
        f" ({measured['listed_per_state']:.3f} neighbours listed), the share of moves that leave"
        f" a partition being {measured['leaving']:.4f} in that split (sampled).",
        f"Machine counted: {m['cores']} cores, {m['memory'] / 2**30:.0f} GiB"
        f" ({m['usable'] / 2**30:.0f} GiB for codes), {m['network'] * 8 / 1e9:.0f} Gb/s; one"
        " worker a machine with a thread a core (dask worker --nthreads 16), as many machines"
        " as the codes need; the bytes sent scale with the leaving share, sampled"
        f" ({samples:,} positions) for each split below; the compute at the two rates above.",
        "",
        "| space | positions | codes | machines | leading places | leaving share | sent |"
        " compute (CPU rate) | compute (wall rate) | network |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, goal, diameter, source in PLAN_SPACES:
        space = space_of(goal)
        codes = space.states / 4
        machines = max(2, math.ceil(codes / m["usable"]))
        leaving, places = leaving_fraction(goal, machines, samples)
        scale = leaving / measured["leaving"] if measured["leaving"] else 1.0
        sent = space.states * measured["bytes_per_state"] * scale
        cores = machines * m["cores"]
        low, high = (space.states * measured[k] * 1e-9 / cores for k in ("cpu_ns", "wall_ns"))
        network = sent / (machines * m["network"])
        lines.append(
            f"| {name} ({source}: diameter {diameter}) | {space.states:,} |"
            f" {codes / 2**30:,.0f} GiB | {machines} | {places} | {leaving:.4f} |"
            f" {sent / 1e12:.2f} TB | {low / 60:.0f} min | {high / 60:.0f} min |"
            f" {network / 60:.1f} min |"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("expectation", type=Path, help="a file like benchmarks/data/a346736.txt")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1, help="threads a worker (default 1)")
    parser.add_argument("--memory-limit", default="auto", help="a worker's, e.g. 4GB")
    parser.add_argument("--in-memory", type=Path, help="a stored layer_counts.py run to compare")
    parser.add_argument("--plan", action="store_true", help="print the plan for 3x5 and 4x4")
    parser.add_argument("--samples", type=int, default=4000, help="positions sampled a plan row")
    args = parser.parse_args()
    fields, published = read_expectation(args.expectation)
    stored, stored_seconds = stored_run(args.in_memory) if args.in_memory else ({}, None)

    import dask
    import distributed
    import numba

    from slidelab.analysis.cluster_space import search_cluster
    from slidelab.tables.index import Space, space_of

    blank_first = fields.get("blank-first", "no") == "yes"
    space = space_of(fields["goal"], blank_first=blank_first)
    # searched as analyze searches it: on its side when wider than tall (cheaper vertical moves)
    searched = Space(space.goal.transposed()) if space.width > space.height else space
    cores = os.cpu_count() or 1
    print(
        f"machine: {platform.machine()}, {cores} cores, Python {platform.python_version()},"
        f" numba {numba.__version__}, dask {distributed.__version__}; goal {fields['goal']}"
        f"{' blank first' if blank_first else ''}, {space.states:,} positions"
        f" ({space.states / 4 / 1e9:.2f} GB of two-bit codes); {args.workers} workers x"
        f" {args.threads} thread(s), memory limit {args.memory_limit} each\n",
        flush=True,
    )
    rows: list[dict] = []
    wrong: list[str] = []
    began = time.perf_counter()

    def on_layer(entry: dict) -> None:
        depth, found, seconds = entry["depth"], entry["found"], entry["seconds"]
        if not rows:  # the workers' start, and their kernels' loading, before the first layer
            rows.append({"start": time.perf_counter() - began - seconds})
        if found == 0:
            return
        parts = entry["parts"]
        listed = sum(p.listed for p in parts)
        sent = sum(p.sent for p in parts)
        busiest = max(p.seconds for p in parts)
        spent = {k: sum(getattr(p, k) for p in parts) for k in ("walking", "listing", "waiting")}
        spent["claiming"] = sum(p.claiming for p in parts)
        cpu = sum(p.cpu for p in parts)
        rows.append({"depth": depth, "found": found, "listed": listed, "sent": sent, "cpu": cpu})
        want, again = published.get(depth), stored.get(depth)
        for name, value in (("published", want), ("in memory", again)):
            if value is not None and value != found:
                wrong.append(f"depth {depth}: {found:,} found, {value:,} {name}")
        rate = found / seconds / args.workers if seconds > 0 else 0.0
        mark = "" if want in (None, found) and again in (None, found) else " MISMATCH"
        print(
            f"| {depth} | {entry['mode']} | {found:,} | {'' if want is None else f'{want:,}'} |"
            f" {'' if again is None else f'{again:,}'} | {seconds:.2f} | {busiest:.2f} |"
            f" {rate / 1e6:.2f} | {listed / 1e6:.2f} | {sent / 1e6:.1f} |"
            f" {' / '.join(f'{v:.1f}' for v in spent.values())} |"
            f" {cpu / found * 1e9:.0f} |{mark}",
            flush=True,
        )

    print(
        "| depth | way | positions | published | in memory | seconds | busiest worker s |"
        " M positions/s a worker | M listed | MB sent | walk / list / wait / claim s |"
        " CPU ns a position |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    settings = {f"distributed.worker.memory.{k}": False for k in ("target", "spill", "pause")}
    with (
        dask.config.set(settings),
        distributed.LocalCluster(
            n_workers=args.workers,
            threads_per_worker=args.threads,
            memory_limit=args.memory_limit,
            processes=True,
            dashboard_address=None,
        ) as cluster,
    ):
        limits = [w["memory_limit"] for w in cluster.scheduler_info["workers"].values()]
        layers = search_cluster(searched, cluster.scheduler_address, limit=1, log_layer=on_layer)
    wall = time.perf_counter() - began
    start = rows[0]["start"]
    rows = rows[1:]
    hardest = searched.board(int(layers.last[0]))
    if searched is not space:
        hardest = hardest.transposed()
    if published.get(0, 1) != layers.counts[0]:
        wrong.append("depth 0")
    checks = [
        ("positions", sum(layers.counts), int(fields["states"])),
        ("diameter", len(layers.counts) - 1, int(fields["diameter"])),
    ]
    if "hardest" in fields:
        checks.append(("hardest", hardest.format(), fields["hardest"]))
    print()
    for name, found, want in checks:
        print(f"- {name}: {found} ({'as published' if found == want else f'published: {want}'})")
        if found != want:
            wrong.append(name)
    diameter = len(layers.counts) - 1
    compared = sum(1 for d in published if d <= diameter)
    again = sum(1 for d in stored if d <= diameter)
    print(
        f"- {wall:.1f} s in all ({wall / 60:.1f} min), of which {start:.1f} s before the first"
        f" layer (the workers' start, their kernels loaded or compiled); {compared} published"
        f" layer counts and {again} of the in-memory run's compared"
    )
    print(
        "- peak memory of each worker: "
        + ", ".join(f"{p / 1e9:.2f} GB" for p in layers.peak_bytes)
        + f" (limits {', '.join(f'{lim / 1e9:.1f} GB' for lim in limits)}; the whole space's"
        f" codes {space.states / 4 / 1e9:.2f} GB)"
    )
    if stored_seconds is not None:
        print(
            f"- the in-memory search of the same space in one process (stored run,"
            f" {args.in_memory}): {stored_seconds:.1f} s ({stored_seconds / 60:.1f} min)"
        )
    listed = sum(r["listed"] for r in rows)
    sent = sum(r["sent"] for r in rows)
    print(
        f"- between partitions: {listed:,} neighbours listed ({listed / space.states:.3f} a"
        f" position), {sent / 1e9:.2f} GB sent ({sent / space.states:.3f} bytes a position)"
    )
    if args.plan:
        used = min(cores, args.workers * args.threads)
        measured = {
            "cpu_ns": sum(r["cpu"] for r in rows) / space.states * 1e9,
            "wall_ns": (wall - start) * used / space.states * 1e9,
            "workers": args.workers,
            "cores": used,
            "bytes_per_state": sent / space.states,
            "listed_per_state": listed / space.states,
            "leaving": leaving_fraction(fields["goal"], args.workers, args.samples)[0],
        }
        print("\n".join(plan(measured, args.samples)))
    if wrong:
        print("MISMATCH: " + "; ".join(wrong[:10]))
        return 1
    print("every compared count matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
