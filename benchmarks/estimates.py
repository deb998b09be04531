"""Estimates against measured times: every family's builds, and the compiling of their kernels.

Every build slidelab announces says about how long it takes (``building the 7-8 pattern
databases of the 4x4 goal: 2 tables, 550 MiB, about 2 min``): the family's model, scaled by
this machine's past builds and its load now (:mod:`slidelab.calibration`).  This script puts
each estimate beside the time measured, in a process of its own, with an empty table cache:

- **build rows**: the estimate of :meth:`slidelab.tables.family.Tables.cost` taken just before
  the build (the kernels compiled already: a warm-up build of the same family in another
  folder comes first), and the build's seconds;
- **compile rows**: the kernels of each set compiled from nothing (an empty kernel cache of the
  row's own): the compile estimate against the seconds numba spent compiling; the builds' sets,
  then the searches' (a solve with each method: the estimate its compile notice prints).

A row is within bounds when the measured time is within ±35 % of the estimate.  The machine's
load at each row is printed (the estimates take it into account).  By default the timings of
earlier builds are not used (``SLIDELAB_TIMINGS`` points at an empty file: the models alone);
``--calibrated`` lets each row see the ones before it, as a machine's own record would.

Run: ``python benchmarks/estimates.py [--rows ...] [--calibrated]`` (``--list`` names the
rows); prints a Markdown table.  Takes about 20 minutes on the 2-core development machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

#: name -> (family, goal, metric, which); the goal as the command line takes it
BUILDS = {
    "distance 3x4": ("distance", "3x4", "stm", None),
    "distance line MTM": ("distance", "ABA_/CDCD/ABAB/CDCD", "mtm", None),
    "pdb 6-6-3": ("pdb", "4x4", "stm", None),
    "pdb 7-7-1": ("pdb", "4x4 blank-first", "stm", "7-7-1"),
    "pdb 7-8": ("pdb", "4x4 blank-first", "stm", "7-8"),
    "pdb line (repeated labels)": ("pdb", "ABA_/CDCD/ABAB/CDCD", "stm", None),
    "pdb 6-6-6-6": ("pdb", "5x5", "stm", None),
    "abstraction 15-puzzle MTM": ("abstraction", "4x4", "mtm", None),
}
DEFAULT_BUILDS = [name for name in BUILDS if name != "pdb 6-6-6-6"]

#: name -> (what to run in a fresh kernel cache, the kernel set's key)
COMPILES = {
    "walk STM one thread": ("distance", "3x3", "stm", None),
    "walk MTM one thread": ("distance", "3x3", "mtm", None),
    "walk STM all threads": ("distance", "2x6", "stm", None),
    "pdb distinct": ("pdb", "3x3", "stm", "1,2,3,4/5,6,7,8"),
    "pdb repeated labels": ("pdb", "ABA/B0A/BBA", "stm", None),
}

#: name -> (method, heuristic, board, metric): a search's own kernels compiled from nothing (its
#: heuristic's tables built first, their kernels left out); the heuristics that inline far more
#: have models of their own (``Method.compile_with``)
SEARCHES = {
    "search bfs": ("bfs", None, "8 6 7/2 5 4/3 0 1", "stm"),
    "search bidirectional": ("bidirectional", None, "8 6 7/2 5 4/3 0 1", "stm"),
    "search astar manhattan": ("astar", "manhattan", "8 6 7/2 5 4/3 0 1", "stm"),
    "search astar pdb": ("astar", "pdb", "8 6 7/2 5 4/3 0 1", "stm"),
    "search astar pdb-dual": ("astar", "pdb-dual", "8 6 7/2 5 4/3 0 1", "stm"),
    "search bidirectional-astar manhattan": ("bidirectional-astar", "manhattan", "3x3", "stm"),
    "search idastar linear-conflict": (
        "idastar",
        "linear-conflict",
        "1 2 3 4/5 6 7 8/9 10 0 12/13 14 11 15",
        "stm",
    ),
    "search idastar pdb": ("idastar", "pdb", "8 6 7/2 5 4/3 0 1", "stm"),
    "search idastar pdb-dual": ("idastar", "pdb-dual", "8 6 7/2 5 4/3 0 1", "stm"),
    "search idastar abstraction MTM": ("idastar", "abstraction", "8 6 7/2 5 4/3 0 1", "mtm"),
    "search weighted-astar linear-conflict": ("weighted-astar", "linear-conflict", "4x4", "stm"),
    "search constructive": ("constructive", None, "6x6", "stm"),
}

#: the search's child: the compile notice's estimate, then the seconds compiling took
SEARCH_CHILD = r"""
import json, sys
from slidelab import Puzzle, random_board, solve
from slidelab._jit import compile_estimate, compiling_seconds
from slidelab.calibration import busy_cores
from slidelab.heuristics import make_heuristic
from slidelab.search._common import kernel_key
from slidelab.search.registry import METHODS
method, heuristic, board, metric = json.loads(sys.argv[1])
if "/" not in board:
    board = random_board(board, seed=1)
if heuristic:  # its tables built (and their kernels compiled) before the search's are timed
    make_heuristic(Puzzle(board), heuristic, metric=metric)
key = kernel_key(method, heuristic, metric)
busy = busy_cores()
estimate = compile_estimate(key, METHODS[method].compile_model(heuristic))
began = compiling_seconds()
solve(board, method=method, metric=metric, **({"heuristic": heuristic} if heuristic else {}))
print(json.dumps({
    "describe": f"the {method} search" + (f" with {heuristic}" if heuristic else ""),
    "busy": busy, "compile_estimate": estimate, "compile": compiling_seconds() - began,
}))
"""

#: the child: the estimate, then the build, each printed as JSON
CHILD = r"""
import json, sys, time
from slidelab._clock import compile_seconds
from slidelab._jit import compiling_seconds
from slidelab.calibration import busy_cores
from slidelab.puzzle import goal_board
from slidelab.tables.family import Tables
family, goal, metric, which = json.loads(sys.argv[1])
blank_first = goal.endswith(" blank-first")
board = goal_board(goal.removesuffix(" blank-first"), blank_first=blank_first)
tables = Tables(family, board, metric, which)
busy = busy_cores()
cost = tables.cost()
began, compiled, loading = time.perf_counter(), compiling_seconds(), compile_seconds()
tables.build()
wall = time.perf_counter() - began
print(json.dumps({
    "describe": tables.describe(), "busy": busy,
    "build_estimate": cost.build_seconds, "compile_estimate": cost.compile_seconds,
    "build": wall - (compile_seconds() - loading), "compile": compiling_seconds() - compiled,
}))
"""


def child(args: tuple, env: dict, code: str = CHILD) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
    )
    if done.returncode != 0:
        raise SystemExit(f"{args}: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def within(estimate: float, measured: float) -> str:
    if estimate <= 0:
        return "-"
    ratio = measured / estimate
    return f"{ratio:.2f} {'yes' if 1 / 1.35 <= ratio <= 1.35 else 'NO'}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", help="comma-separated row names (default: all but 6-6-6-6)")
    parser.add_argument("--list", action="store_true", help="name the rows and stop")
    parser.add_argument("--calibrated", action="store_true", help="keep one record of timings")
    args = parser.parse_args()
    if args.list:
        print("\n".join([*BUILDS, *COMPILES, *SEARCHES]))
        return
    rows = args.rows.split(",") if args.rows else [*DEFAULT_BUILDS, *COMPILES, *SEARCHES]
    base = dict(os.environ)
    base["SLIDELAB_TIMINGS"] = os.path.join(tempfile.mkdtemp(), "timings.json")
    print(f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}\n")
    print("| row | tables | busy cores | estimate s | measured s | measured / estimate, ±35 % |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for name in rows:
        env = dict(base)
        if not args.calibrated:
            env["SLIDELAB_TIMINGS"] = os.path.join(tempfile.mkdtemp(), "timings.json")
        if name in BUILDS:
            family, goal, metric, which = BUILDS[name]
            warm = dict(env, SLIDELAB_CACHE=tempfile.mkdtemp())  # its kernels compiled first
            small = {"distance": "2x3", "pdb": "3x3", "abstraction": "2x3"}[family]
            if family == "pdb" and any(c.isalpha() for c in goal):  # the scan's kernels
                small = "ABA/B0A/BBA"
            child((family, small, metric, None), warm)
            env["SLIDELAB_CACHE"] = tempfile.mkdtemp()
            got = child(BUILDS[name], env)
            estimate, measured = got["build_estimate"], got["build"]
            shutil.rmtree(warm["SLIDELAB_CACHE"])
        else:
            env["SLIDELAB_CACHE"] = tempfile.mkdtemp()
            env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp()
            if name in SEARCHES:
                got = child(SEARCHES[name], env, SEARCH_CHILD)
            else:
                got = child(COMPILES[name], env)
            estimate, measured = got["compile_estimate"], got["compile"]
            shutil.rmtree(env["NUMBA_CACHE_DIR"])
        shutil.rmtree(env["SLIDELAB_CACHE"])  # (a 7-8 build leaves 550 MiB)
        print(
            f"| {name} | {got['describe']} | {got['busy']:.1f} | {estimate:.1f} | {measured:.1f}"
            f" | {within(estimate, measured)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
