"""Compiled kernels: cached outside the installed package and keyed by the sources' contents;
on first use compiled with one notice and nothing more, and a Ctrl-C while compiling stops cleanly."""

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

PACKAGE = Path(slidelab.__file__).resolve().parent


# -- cached outside the installed package ------------------------------------------------------


def test_kernels_are_cached_outside_the_package():
    from slidelab._jit import kernel_cache_dir

    kernels = []
    for name in (
        "slidelab.heuristics.manhattan",
        "slidelab.search._ida",
        "slidelab.search.bfs",
        "slidelab.heuristics.pdb",
        "slidelab.tables.layers",
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


# -- the first run says it is compiling, stops cleanly on Ctrl-C, compiles what it needs -------


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


def test_two_processes_compile_a_kernel_once(tmp_path):
    """Two processes that need the same kernels from an empty cache: one compiles them, the
    other says it waits, then loads what the first saved (each kernel saved once, not twice)."""
    env = {**_fresh_env(tmp_path), "NUMBA_DEBUG_CACHE": "1"}
    args = [sys.executable, "-m", "slidelab", "solve", "8 6 7/2 5 4/3 0 1", "--method", "bfs"]
    first = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    for line in iter(first.stdout.readline, b""):  # until it starts compiling
        lines.append(line.decode())
        if line.startswith(b"compiling"):
            break
    second = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    rest, _ = first.communicate(timeout=300)
    out = "".join(lines) + rest.decode()
    assert first.returncode == 0 and second.returncode == 0, out + second.stdout + second.stderr
    both = out + second.stdout + second.stderr
    saved = [line for line in both.splitlines() if line.startswith("[cache] data saved")]
    assert saved and len(saved) == len(set(saved)), saved  # no kernel compiled twice
    # the locks are a kernel's each, taken as its compile starts: the second may come to a later
    # kernel of the set before the first does, and compile it (saying so) while the first waits
    # for it (a clean-clone CI run); what holds is that none is compiled twice, and that the
    # second waited for the one the first was compiling
    assert "another slidelab process is compiling kernels this needs: waiting" in second.stderr


@pytest.mark.slow  # it compiles the kernels of one search from an empty kernel cache: 5-20 s
def test_the_readme_s_first_command_compiles_one_search_and_builds_nothing(tmp_path):
    """From an empty HOME, the README's first command answers by a search whose kernels compile
    in seconds (bidirectional BFS): the distance table would answer at once, but its kernels
    take a minute to compile (the policy: a first answer never waits for a build or a compile
    it does not need).  It says what it compiles, once; nothing is built."""
    env = _fresh_env(tmp_path)
    first = _slidelab(env, "solve", "8 6 7/2 5 4/3 0 1")
    assert first.returncode == 0, first.stderr
    assert "31 moves" in first.stdout and "method bidirectional" in first.stdout
    said = [line for line in first.stderr.splitlines() if line.startswith("compiling")]
    assert len(said) == 1 and said[0].startswith(
        "compiling the kernels of the bidirectional search for first use, once: about"
    ), first.stderr
    kernels = {p.name.split(".")[0] for p in (tmp_path / "xdg").rglob("*.nbi")}
    assert kernels and kernels <= {"bfs", "ranking"}, kernels  # one search; no table build
    assert not list((tmp_path / "tables").rglob("*.slt"))
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
        line = proc.stderr.readline()  # the build's notice, then the compiling's, as it starts
        while line and not line.startswith("compiling"):
            line = proc.stderr.readline()
        assert line.startswith("compiling the kernels of the breadth-first search"), line
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err.strip() == "interrupted" and "Traceback" not in err


# -- compiling prints nothing but the notice ---------------------------------------------------


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
    said = [line for line in first.stderr.splitlines() if line.startswith("compiling")]
    assert said and all("for first use, once" in line for line in said), first.stderr


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
    assert _jit.KernelLocator.package_subpath(ida) == "slidelab_search"
    assert _jit.KernelLocator.package_subpath(Path(_jit.__file__)) == "slidelab"
    (tmp_path / "a.py").write_text("x = 1")
    before = _jit.package_stamp(tmp_path, ["a.py"])
    os.utime(tmp_path / "a.py", (1, 1))  # written at another time: the same code
    assert _jit.package_stamp(tmp_path, ["a.py"]) == before
