"""Pattern-database builds of the 15-puzzle, each partition in a fresh process with an empty cache.

Each row runs ``slidelab tables build 4x4 --blank-first --partition P`` in a process of its
own, with ``SLIDELAB_CACHE`` set to a new empty folder, and reports its wall time, CPU time
(user and system, all threads), peak resident memory (``os.wait4``), and the time of each
table: from the start (or the previous table's file) to the moment its file was written in the
cache, so a table's time includes writing it, and the first includes starting Python.

The kernels come from numba's cache: after a change to a kernel, run once before timing (the
first run compiles them, minutes on 2 cores).  With ``PYTHONPATH`` pointing at another
checkout it times that one; the commands run outside the checkout, since ``python -m`` puts the
working folder first.

Run: ``python benchmarks/pdb_build.py [--partitions 7-8,6-6-3,7-7-1] [--repeat N]``; prints a
Markdown table.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = ["7-8", "6-6-3", "7-7-1"]


def build(partition: str) -> dict:
    """Wall and CPU seconds, peak MB and the tables' times of one build in a fresh process."""
    with tempfile.TemporaryDirectory(prefix="slidelab-pdb-build-") as cache:
        env = {**os.environ, "SLIDELAB_CACHE": cache}
        began = time.time()
        start = time.perf_counter()
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "slidelab",
                "tables",
                "build",
                "4x4",
                "--blank-first",
                "--partition",
                partition,
            ],  # fmt: skip
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
            cwd=tempfile.gettempdir(),  # not the checkout: ``-m`` would import it before PYTHONPATH
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.stderr.write(child.stderr.read()[-2000:])
        child.stderr.close()
        files = sorted(
            (p.stat().st_mtime, p.stat().st_size)
            for p in Path(cache).rglob("*")
            if p.is_file() and p.stat().st_size > 1000 and not p.name.startswith(".")
        )
    tables, last = [], began
    for mtime, size in files:
        tables.append((mtime - last, size))
        last = mtime
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak": usage.ru_maxrss * 1024,
        "tables": tables,
        "exit": code,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", default=",".join(DEFAULT), help="comma-separated names")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each partition")
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start"
    )
    print()
    print("| partition | wall s | CPU s | peak MB | tables (s, MB each) | exit |")
    print("| --- | ---: | ---: | ---: | --- | ---: |")
    for partition in args.partitions.split(","):
        for _ in range(args.repeat):
            r = build(partition)
            tables = ", ".join(f"{t:.1f} s ({size / 1e6:,.1f} MB)" for t, size in r["tables"])
            print(
                f"| {partition} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['peak'] / 1e6:,.0f} |"
                f" {tables} | {r['exit']} |",
                flush=True,
            )
    load = os.getloadavg()
    print()
    print(f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")


if __name__ == "__main__":
    main()
