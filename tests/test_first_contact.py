"""A newcomer's first ten minutes (issue 12, items 1-6): set-up, first run, typos."""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import slidelab
from slidelab import Board, Puzzle, check
from slidelab.errors import BoardError

PACKAGE = Path(slidelab.__file__).resolve().parent


# -- 1. compiled kernels are cached outside the installed package ---------------------------


def test_kernels_are_cached_outside_the_package():
    from slidelab._jit import kernel_cache_dir

    kernels = []
    for name in (
        "slidelab.heuristics.manhattan",
        "slidelab.search._ida",
        "slidelab.search.bfs",
        "slidelab.heuristics.pdb",
        "slidelab.analysis.layers",
        "slidelab.ranking",
    ):
        module = importlib.import_module(name)
        kernels += [
            v for v in vars(module).values() if hasattr(getattr(v, "_cache", None), "_cache_path")
        ]
    assert len(kernels) > 10
    for kernel in kernels:
        where = Path(kernel._cache._cache_path).resolve()
        assert PACKAGE not in where.parents, where
        assert kernel_cache_dir().resolve() in where.parents or "slidelab-kernels" in str(where)


def test_no_cache_files_in_the_package_after_a_solve(tmp_path):
    # (without NUMBA_CACHE_DIR from the developer's shell, which would send the kernels there)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path), SLIDELAB_CACHE=str(tmp_path / "t"))
    before = {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")}
    run = subprocess.run(
        [sys.executable, "-m", "slidelab", "solve", "1 2 3/4 5 6/0 7 8", "--method", "idastar"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    after = {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")}
    assert after - before == set()
    assert list((tmp_path / "slidelab" / "kernels").rglob("*.nbi"))


# -- 2. the first run says it is compiling, stops cleanly on Ctrl-C, compiles what it needs --


def _fresh_env(tmp_path) -> dict:
    """A process with empty kernel and table caches (as on a fresh install)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), SLIDELAB_CACHE=str(tmp_path / "tables"))
    return env


def _slidelab(env, *args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "slidelab", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_first_run_says_it_compiles_and_a_3x3_compiles_only_its_table_build(tmp_path):
    env = _fresh_env(tmp_path)
    first = _slidelab(env, "solve", "8 6 7/2 5 4/3 0 1")
    assert first.returncode == 0, first.stderr
    assert "31 moves" in first.stdout and "method table" in first.stdout
    assert first.stderr.count("compiling kernels for first use") == 1
    kernels = {p.name.split(".")[0] for p in (tmp_path / "xdg").rglob("*.nbi")}
    # the breadth-first build of its distance table; no search, no pattern databases
    assert kernels and kernels <= {"_layers", "layers", "index_kernels", "pack"}, kernels
    second = _slidelab(env, "solve", "8 6 7/2 5 4/3 0 1")
    assert second.returncode == 0 and "compiling" not in second.stderr


def test_ctrl_c_while_compiling_stops_cleanly(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "slidelab", "solve", "8 6 7/2 5 4/3 0 1", "--method", "table"],
        env=_fresh_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()  # the notice comes as the first kernel starts compiling
        assert "compiling kernels" in line
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err.strip() == "interrupted" and "Traceback" not in err


# -- 3. a long search is never silent --------------------------------------------------------


def test_a_slow_search_reports_on_stderr_when_not_a_terminal(capsys):
    from slidelab.cli import QUIET_SECONDS, _ProgressLine

    line = _ProgressLine(live=False)
    line.start()
    info = {
        "method": "idastar",
        "bound": 62,
        "generated": 10_000_000,
        "expanded": 5_000_000,
        "stored": 60,
        "stronger_partition": "7-8",
    }
    for seconds in (0.5, 1.0, QUIET_SECONDS + 0.1, QUIET_SECONDS + 0.2, 2 * QUIET_SECONDS + 0.5):
        line({**info, "seconds": seconds})
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3, err  # the hint once, then a line at 5 s and at 10 s
    assert "--partition 7-8" in err[0]
    assert err[1].startswith("idastar: bound 62, 10,000,000 nodes (") and "M/s" in err[1]


def test_search_progress_names_stronger_tables():
    from slidelab import solve
    from slidelab.heuristics.pdb import stronger_partition

    korf = Puzzle("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3", blank_first=True)
    assert stronger_partition(korf) == "7-8" and stronger_partition(korf, "7-8") is None
    seen = []
    solve(
        "8 6 7/2 5 4/3 0 1",
        method="idastar",
        heuristic="pdb",
        partition="1,2,3,4/5,6,7,8",
        progress=seen.append,
    )
    assert seen and all("stronger_partition" in info for info in seen)


def test_killed_solve_says_what_it_knew(tmp_path):
    env = {**os.environ}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "slidelab",
            "solve",
            "--method",
            "idastar",
            "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(6)
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "interrupted: idastar searched to bound" in err and "Traceback" not in err


# -- 4. a Korf line without --blank-first ---------------------------------------------------


def test_unsolvable_to_one_ordered_goal_names_the_other(cli):
    result = cli("solve", "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3")
    assert result.exit_code == 1
    assert "solvable to the ordered goal with the blank first" in result.output
    reason = check("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", blank_first=True).reason
    assert reason.endswith("solvable to the ordered goal with the blank last (the default goal)")
    assert "ordered goal" not in check("1 2 3/4 5 6/8 7 0").reason  # odd width: no other class


# -- 5. tables clear asks first ---------------------------------------------------------------


def test_tables_clear_asks_and_says_what_it_removed(cli, cache, monkeypatch):
    from slidelab.cache import list_tables

    assert cli("analyze", "2x3", "--save").exit_code == 0
    assert len(list_tables()) == 1
    refused = cli("tables", "clear")  # no terminal to ask on
    assert refused.exit_code == 2 and "--yes" in refused.output and len(list_tables()) == 1
    monkeypatch.setattr("slidelab.cli.tables._can_ask", lambda: True)
    kept = cli("tables", "clear", input="n\n")
    assert "distance 2x3" in kept.output and "nothing deleted" in kept.output
    assert len(list_tables()) == 1
    done = cli("tables", "clear", "--yes")
    assert (
        done.exit_code == 0 and "deleted 1 table" in done.output and "distance 2x3" in done.output
    )
    assert list_tables() == []


# -- 6. typos do not become other puzzles -----------------------------------------------------


@pytest.mark.parametrize(
    "board, message",
    [
        ("8 8 7/2 5 4/3 0 1", "tile 8 appears twice (row 1, column 1 and row 1, column 2)"),
        ("1 2 3/4 5 6/7 7 0", "tile 7 appears twice (row 3, column 1 and row 3, column 2)"),
        ("1 2 3/4 5 6/7 9 0", "8 is missing and 9 is too large"),
    ],
)
def test_a_repeated_or_foreign_number_without_a_goal_is_refused(cli, board, message):
    with pytest.raises(BoardError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Puzzle(board)
    for command in ("solve", "check"):
        result = cli(command, board)
        assert result.exit_code == 2 and message in result.output
    goal = "1 2 3/4 5 6/7 8 0"
    assert Puzzle(board, board).goal == Board(board)  # with the goal given, labels may repeat
    del goal


def test_repeated_letters_need_their_goal():
    with pytest.raises(BoardError, match="tile 'A' appears 4 times"):
        Puzzle("ABA_/CDCD/ABAB/CDCD")
    assert check("ABA_/CDCD/ABAB/CDCD", "ACA_/CDCA/DBAB/CDBD").solvable


# -- 7. huge numbers are input errors, not crashes ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1 2 3/4 5 6/7 " + "9" * 5000 + " 0",
        "[" + "9" * 5000 + ", 1, 2, 0]",
        [10**5000, 1, 2, 0],
        "[NaN, 1, 2, 0]",
        "[Infinity, 1, 2, 0]",
        "x" * 1_000_000,
    ],
)
def test_huge_or_odd_numbers_are_parse_errors(text):
    from slidelab.errors import SlidelabError
    from slidelab.parse import parse_cells

    with pytest.raises(SlidelabError) as info:
        parse_cells(text)
    assert len(str(info.value)) < 200


# -- 8. compiling prints nothing but the notice ------------------------------------------------


@pytest.mark.slow  # compiles A* with pattern databases into an empty cache: 60-200 s on 2 cores
def test_compiling_a_search_kernel_warns_nothing(tmp_path):
    """Inlining a heuristic's move into A*'s kernel makes numba's SSA pass raise pedantic
    'not in scope' warnings (NumbaIRAssumptionWarning, ten of them here); slidelab ignores that
    one category, so a first run says it compiles, and nothing more."""
    env = _fresh_env(tmp_path)
    first = _slidelab(
        env, "solve", "1 2 3/4 5 6/0 7 8", "--method", "astar", "--heuristic", "pdb",
        "--partition", "1,2,3,4/5,6,7,8",
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert "not in scope" not in first.stderr and "Warning" not in first.stderr, first.stderr
    assert first.stderr.count("compiling kernels for first use") == 1


def test_numbas_not_in_scope_warnings_are_ignored_wherever_reported():
    """The filter the slow test above relies on, without compiling anything."""
    # numba reports some at the kernel's line (MM's: search/_mm.py), not in its own module;
    # pytest's own warning filters stand in front in this process: ask a fresh one
    check = (
        "import warnings, slidelab._jit\n"
        "from numba.core.errors import NumbaIRAssumptionWarning as W\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.warn_explicit(W(\"variable 'x.1' is not in scope.\"), W,"
        " 'slidelab/search/_mm.py', 338)\n"
        "print(len(caught))\n"
    )
    shown = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert shown.stdout.strip() == "0", shown.stderr


def test_the_kernel_cache_is_keyed_by_content_and_package_layout(tmp_path):
    """Another checkout or a reinstall of the same sources finds the kernels compiled before:
    the cache's folders follow the package's layout and its stamp the files' contents."""

    from slidelab import _jit

    ida = Path(_jit.__file__).resolve().parent / "search" / "_ida.py"
    assert _jit._KernelLocator.package_subpath(ida) == "slidelab_search"
    assert _jit._KernelLocator.package_subpath(Path(_jit.__file__)) == "slidelab"
    (tmp_path / "a.py").write_text("x = 1")
    before = _jit.package_stamp(tmp_path, ["a.py"])
    os.utime(tmp_path / "a.py", (1, 1))  # written at another time: the same code
    assert _jit.package_stamp(tmp_path, ["a.py"]) == before
