"""Complete state-space analysis of several boards: seconds and peak memory per board.

Each board is analysed in a fresh process (so its peak resident memory is its
own), after an untimed warm-up in that process that loads the compiled kernels
(serial and parallel) from numba's cache.  Prints a Markdown table, then the
hardest positions of the boards that have at most 20.

Run: ``python benchmarks/analyze.py`` (all boards: about two and a half minutes on the
2-core development machine), ``--quick`` for the small ones, or ``--boards 3x3,2x5``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

BOARDS = ["3x3", "2x3", "2x5", "3x4", "2x6", "ABA_/CDCD/ABAB/CDCD"]
QUICK = ["3x3", "2x3", "2x5", "AAB/BCC/DD_"]


def one(goal: str) -> dict:
    """Analyse one board in this process; the record printed as JSON."""
    from slidelab.analysis import analyze
    from slidelab.tables.index import space_of
    from slidelab.tables.layers import search_layers

    search_layers(space_of("2x3"))  # load the kernels off the clock
    search_layers(space_of("2x3"), parallel=True)
    search_layers(space_of("AB/BA/A_"))
    search_layers(space_of("AB/BA/A_"), parallel=True)
    began = time.perf_counter()
    stats = analyze(goal, hardest=20)
    wall = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    record = stats.as_dict()
    record.update(wall=wall, peak=peak)
    return record


def run(goal: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--one", goal],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", help="comma-separated goals or sizes (WxH)")
    parser.add_argument("--quick", action="store_true", help="only the small boards")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one)))
        return
    boards = args.boards.split(",") if args.boards else QUICK if args.quick else BOARDS
    import numba

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" numba {numba.__version__}, {numba.config.NUMBA_NUM_THREADS} threads\n"
    )
    print("| board | goal | states | diameter | hardest | mean | seconds | peak memory MB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    records = []
    for goal in boards:
        r = run(goal)
        records.append(r)
        print(
            f"| {r['size']} | `{r['goal']}` | {r['states']:,} | {r['diameter']} | {r['n_hardest']:,} |"
            f" {r['mean']:.3f} | {r['seconds']:.3f} | {r['peak'] / 1e6:.0f} |",
            flush=True,
        )
    for r in records:
        if r["n_hardest"] <= 20 and r["states"] > 1000:
            print(
                f"\n{r['size']} `{r['goal']}`: {r['n_hardest']} hardest at distance {r['diameter']}:"
            )
            for b in r["hardest"]:
                print(f"- `{b}`")


if __name__ == "__main__":
    main()
