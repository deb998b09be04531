"""Bad input, fuzzed: each section is a class of failures, fixed as a class, and each case is a
one-line error (or the right answer), never a traceback:

- unbounded work or memory (sizes, counts, walks) is refused against stated limits, before the
  work (a bound on memory held, not on the clock);
- huge spaces and allocation failures are one line; the default memory budget;
- nonsense options (weights, partitions, empty input, blank symbols) are refused;
- a batch's output path that is not a regular file;
- the public Python API checks its arguments at the door;
- sizes past the largest byte unit, runs longer than any board, number words, tables too large
  to build, positions at a distance, ``Solution.to_gif``'s arguments, the web's per-client cap.

The hypothesis fuzz tests of the command line and of the API are in ``test_fuzz.py``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import stat
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

import slidelab
from slidelab.errors import ArgumentError, SearchLimitError, SlidelabError
from slidelab.heuristics import make_heuristic
from slidelab.search.options import MAX_WEIGHT
from slidelab.units import counted, format_bytes

ROOT = Path(__file__).resolve().parent.parent
HARDEST = "8 6 7/2 5 4/3 0 1"


def one_line_error(code, err, *fragments, exit_code=2):
    """The command failed with ``exit_code`` and one ``error: ...`` line holding ``fragments``."""
    assert code == exit_code, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def program(*args, input=None, timeout=60, **kwargs):
    """``slidelab ARGS`` as its own process (the real entry point)."""
    return subprocess.run(
        [sys.executable, "-m", "slidelab", *map(str, args)],
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        **kwargs,
    )


@contextlib.contextmanager
def little_work(megabytes: int = 200):
    """A context that fails the test when its body holds more than ``megabytes`` at once of
    Python's and numpy's memory (tracemalloc): "refused at once" is a bound on the work done
    before the refusal, not on the clock (the inputs here would take gigabytes)."""
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        yield
        _, peak = tracemalloc.get_traced_memory()
    finally:
        if not tracing:
            tracemalloc.stop()
    assert peak < megabytes * 2**20, f"{peak / 2**20:,.0f} MB held"


# ----------------------------------------------------------------------- unbounded work or memory


@pytest.mark.parametrize(
    "size", ["100000x100000", "99999999999999999999x3", "3x" + "9" * 5000, "1000001x1", "2x500001"]
)
def test_sizes_over_the_board_limit_are_refused_at_once(cli, size):
    from slidelab.parse import MAX_BOARD_CELLS, parse_size

    with little_work(), pytest.raises(SlidelabError) as caught:
        parse_size(size)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    if not size.endswith("x1"):
        assert f"{MAX_BOARD_CELLS:,}" in message
    with little_work():
        r = cli("generate", size)
    one_line_error(r.exit_code, r.stderr)


def test_a_time_limit_holds_the_constructive_answer_of_a_huge_board_too():
    """``solve <100x100> --time-limit 2`` took 28 s: after its search, ``auto``'s last resort,
    the constructive method (half a minute on that board), ran on no clock; and ``hint`` with
    ``time_limit=2`` waited for it, then discarded it.  With a time limit it now stops at it,
    as the searches do: a limit reached, or the hint's lower bound."""
    board = slidelab.random_board("100x100", seed=7)
    with pytest.raises(SearchLimitError, match="constructive stopped at the 2 s time limit"):
        slidelab.solve(board, time_limit=2)
    from slidelab.search.hint import hint as best_move

    hint = best_move(board, time_limit=2)
    assert hint.distance is None and hint.lower_bound > 0


def test_the_largest_board_is_allowed():
    from slidelab.parse import MAX_BOARD_CELLS, parse_size

    assert parse_size(f"2x{MAX_BOARD_CELLS // 2}") == (2, MAX_BOARD_CELLS // 2)
    assert parse_size((181, 181)) == (181, 181)
    with pytest.raises(SlidelabError, match="32,768"):
        parse_size((182, 181))


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["3x3", "-n", "1000000000000000"], "-n"),
        (["3x3", "--moves", "1000000000000000"], "--moves"),
        (["3x3", "-n", "-1"], "-n"),
    ],
)
def test_counts_over_their_limits_are_refused_at_once(cli, args, fragment):
    with little_work():
        r = cli("generate", *args)
    one_line_error(r.exit_code, r.stderr, fragment)
    assert r.stdout == ""


def test_api_counts_over_their_limits_are_refused_at_once():
    from slidelab.generate import MAX_BOARDS, MAX_WALK

    with little_work():
        for call in (
            lambda: slidelab.random_boards(MAX_BOARDS + 1, "3x3"),
            lambda: slidelab.scramble(MAX_WALK + 1, "3x3"),
            lambda: slidelab.random_boards(2, "3x3", moves=MAX_WALK + 1),
            lambda: slidelab.random_board("100000x100000"),
        ):
            with pytest.raises(SlidelabError):
                call()


def test_generate_streams_its_output():
    """The first board is printed long before a million are made."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "slidelab", "generate", "3x3", "-n", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 8.0)
        assert ready, "nothing printed within 8 s"
        first = proc.stdout.readline().decode()
        assert slidelab.Board(first).size == "3x3"
    finally:
        proc.kill()
        proc.communicate()


# ------------------------------------------------------------- huge spaces and failed allocations


@pytest.mark.parametrize("goal", ["100x100", "30x30", "181x181", "5x5"])
def test_analyze_of_a_huge_space_is_one_line(cli, goal):
    with little_work():
        r = cli("analyze", goal)
    one_line_error(r.exit_code, r.stderr, "positions")
    assert len(r.stderr) < 400
    with little_work(), pytest.raises(slidelab.SpaceTooLargeError):
        slidelab.analyze(goal)


def test_an_allocation_that_fails_is_a_limit_reached(monkeypatch):
    astar_module = importlib.import_module("slidelab.search._bestfirst_run")

    def no_memory(self, n):
        raise MemoryError

    monkeypatch.setattr(astar_module._Nodes, "grow_nodes", no_memory)
    with pytest.raises(SearchLimitError, match="limit reached") as caught:
        slidelab.solve(HARDEST, method="astar")
    assert caught.value.stats is not None and caught.value.stats.expanded > 0


def test_an_allocation_that_fails_in_breadth_first_search_is_a_limit_reached(monkeypatch):
    import numpy as np

    bfs_module = importlib.import_module("slidelab.search.bfs")
    real_full = np.full

    def failing_full(shape, *args, **kwargs):
        if np.prod(shape) > 1000:
            raise MemoryError
        return real_full(shape, *args, **kwargs)

    monkeypatch.setattr(bfs_module.np, "full", failing_full)
    for method in ("bfs", "bidirectional"):
        with pytest.raises(SearchLimitError, match="limit reached"):
            slidelab.solve(HARDEST, method=method)


@pytest.mark.slow  # 5 s
def test_astar_under_a_process_memory_limit_stops_cleanly():
    """No --max-memory, an address-space limit: a one-line 'limit reached', exit 1."""
    code = (
        "import resource, sys\n"
        "from slidelab.cli import main\n"
        "import slidelab.search.astar, slidelab.search._bestfirst, numpy\n"
        "used = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
        "resource.setrlimit(resource.RLIMIT_AS, (used + 400 * 2**20, resource.RLIM_INFINITY))\n"
        "main(['solve', '14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3', '--blank-first',"
        " '--method', 'astar', '--heuristic', 'manhattan'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert "limit reached" in done.stderr


def test_the_default_memory_budget_follows_the_available_memory(tmp_path, monkeypatch):
    from slidelab import memory as _common

    meminfo = tmp_path / "meminfo"
    meminfo.write_text(
        "MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   13000000 kB\n"
    )
    monkeypatch.setattr(_common, "MEMINFO", str(meminfo))
    budget = _common.default_max_bytes()
    assert 0 < budget <= 13_000_000 * 1024 * 0.8
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:   23000000 kB\n")
    assert _common.default_max_bytes() <= 24_000_000 * 1024 // 2  # never more than half
    assert slidelab.Limits().bytes_allowed == _common.default_max_bytes()


# ------------------------------------------------------------------------------- nonsense options


@pytest.mark.parametrize("weight", ["inf", "-inf", "nan", "0.5", "1e400", "1e308", "1001"])
def test_weights_must_be_from_one_to_the_cap(cli, weight):
    # past the cap (1000) a weighted search is greedy; 1e308 searched the 8-puzzle a million
    # expansions long and answered a 20-move MTM board with 32,407 moves
    with little_work():
        r = cli("solve", HARDEST, "--weight", weight, "--time-limit", "5")
    one_line_error(r.exit_code, r.stderr, "--weight")
    assert r.stdout == ""
    with pytest.raises(SlidelabError, match="weight"):
        slidelab.solve(HARDEST, weight=float(weight))
    r = cli("batch", "-", "--weight", weight, input=HARDEST + "\n")
    one_line_error(r.exit_code, r.stderr, "--weight")


@pytest.mark.parametrize("weight", [float("inf"), 1e308])
def test_api_weights_are_capped_everywhere(weight):
    puzzle = slidelab.Puzzle(HARDEST)
    for call in (
        lambda: slidelab.weighted_astar(puzzle, weight=weight),
        lambda: slidelab.idastar(puzzle, heuristic="manhattan", weight=weight),
        lambda: slidelab.prepare(puzzle, weight=weight),
    ):
        with pytest.raises(SlidelabError, match="weight"):
            call()
    # the cap itself is a weight like any other
    assert slidelab.solve(HARDEST, method="astar", weight=MAX_WEIGHT).length >= 31


@pytest.mark.parametrize(
    "partition, fragment",
    [
        ("junk", "junk"),
        ("1,2/3", "every tile"),
        ("7-8", "7-8"),
        ("1,2,3,4,5,6,7,99/8", "99"),
    ],
)
@pytest.mark.parametrize("method", ["auto", "bfs", "table", "constructive"])
def test_partitions_are_checked_whatever_method_runs(cli, partition, fragment, method):
    r = cli("solve", HARDEST, "--partition", partition, "--method", method)
    one_line_error(r.exit_code, r.stderr, fragment)
    with pytest.raises(SlidelabError, match="partition"):
        slidelab.solve(HARDEST, method=method, partition=partition)
    with pytest.raises(SlidelabError, match="partition"):
        slidelab.prepare(slidelab.Puzzle(HARDEST), method=method, partition=partition)


def test_a_good_partition_still_solves():
    assert slidelab.solve(HARDEST, partition="full").length == 31
    assert (
        slidelab.solve(
            HARDEST, method="idastar", heuristic="pdb", partition="1,2,3,4/5,6,7,8"
        ).length
        == 31
    )


@pytest.mark.parametrize(
    "command", [["solve"], ["solve", "--json"], ["check"], ["check", "--json"]]
)
@pytest.mark.parametrize("text", ["", "\n\n# only a comment\n"])
def test_no_positions_on_standard_input_is_an_error(cli, command, text):
    r = cli(*command, input=text)
    one_line_error(r.exit_code, r.stderr, "no positions read")
    assert r.stdout == ""


def test_an_endless_line_on_standard_input_is_refused():
    """``solve < /dev/zero``: one line that never ends is read up to a limit, then refused."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with open("/dev/zero") as zero:
        done = subprocess.run(
            [sys.executable, "-m", "slidelab", "check"],
            stdin=zero,
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "line 1" in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("blank", ["12", "5", "A", "1", "B", "", "xx", "0 0"])
def test_a_blank_symbol_that_does_not_read_back_is_refused(cli, blank):
    r = cli("generate", "3x3", "--blank", blank, "--seed", "1")
    assert r.exit_code == 2 and r.stdout == "" and "Traceback" not in r.stderr
    assert "--blank" in r.stderr


@pytest.mark.parametrize("blank", ["0", "_", ".", "x", "*"])
@pytest.mark.parametrize("style", ["slash", "flat", "lines", "contest", "json"])
def test_every_allowed_blank_reads_back(cli, blank, style):
    r = cli("generate", "3x3", "-n", "3", "--blank", blank, "--format", style, "--seed", "2")
    assert r.exit_code == 0, r.stderr
    expected = slidelab.random_boards(3, "3x3", seed=2)
    if style == "lines":
        texts = ["/".join(r.stdout.splitlines()[3 * i : 3 * i + 3]) for i in range(3)]
    else:
        texts = r.stdout.splitlines()
    assert [slidelab.Board(t) for t in texts] == expected


# ----------------------------------------------------------------------------- batch output paths


def _instances(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("1 2 3/4 5 6/0 7 8\n1 2 3/4 5 6/7 0 8\n")
    return source


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_is_written_without_resume(tmp_path, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    # no time asserted: the batch compiles its kernels (a cold cache); the timeout is for a hang
    done = program("batch", _instances(tmp_path), "-o", device, "--workers", "1", timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "not a regular file" in done.stderr and "without resume" in done.stderr
    assert "solved" in done.stdout


def test_a_full_device_is_a_clear_error(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    done = program("batch", _instances(tmp_path), "-o", "/dev/full", "--workers", "1", timeout=300)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "cannot write /dev/full" in done.stderr


def test_results_file_of_a_device_reads_nothing_back():
    batch = slidelab.read_instances(["1 2 3/4 5 6/0 7 8"])
    for device in ("/dev/zero", "/dev/full", "/dev/null"):
        if os.path.exists(device):
            with little_work():
                results = slidelab.ResultsFile(device, batch)
            assert results.done == {} and not results.resumable
    with pytest.raises(SlidelabError, match="redo-failed|regular file"):
        slidelab.ResultsFile("/dev/null", batch, redo_failed=True)


def test_a_named_pipe_nobody_reads_is_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = program("batch", _instances(tmp_path), "-o", fifo, "--workers", "1", timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "pipe" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_named_pipe_with_a_reader_gets_the_results(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []

    def read():
        fd = os.open(fifo, os.O_RDONLY)  # blocks until the batch opens its end
        with os.fdopen(fd) as f:
            got.extend(f.read().splitlines())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(0.2)
    done = program("batch", _instances(tmp_path), "-o", fifo, "--workers", "1", timeout=120)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert sorted(json.loads(line)["length"] for line in got) == [1, 2]


def test_an_endless_input_is_refused(cli, monkeypatch):
    """INPUT /dev/zero (or a pipe that never ends) is read up to a stated limit, then refused."""
    from slidelab.batch import instances

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    monkeypatch.setattr(instances, "MAX_INPUT_CHARS", 1 << 20)  # the same code path, sooner
    with little_work():
        r = cli("batch", "/dev/zero", "--workers", "1")
    one_line_error(r.exit_code, r.stderr, "/dev/zero", "1,048,576")
    with little_work():
        r = cli("batch", "-", "--workers", "1", input="\n" * ((1 << 20) + 5))
    one_line_error(r.exit_code, r.stderr, "standard input")


def test_a_directory_is_refused(cli, tmp_path):
    r = cli("batch", _instances(tmp_path), "-o", tmp_path)
    one_line_error(r.exit_code, r.stderr, str(tmp_path))
    assert stat.S_ISDIR(os.stat(tmp_path).st_mode)


# --------------------------------------------------------------------- the Python API at the door


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: slidelab.astar(None, limits=slidelab.Limits()), "puzzle"),
        (lambda: slidelab.astar(slidelab.Puzzle(HARDEST), limits="none"), "limits"),
        (lambda: slidelab.idastar("1 2 3/4 5 6/7 8 0", limits=slidelab.Limits()), "puzzle"),
        (lambda: slidelab.bfs(slidelab.Puzzle(HARDEST), limits={}), "limits"),
        (lambda: slidelab.make_heuristic(None), "puzzle"),
        (lambda: slidelab.make_heuristic(slidelab.Puzzle(HARDEST), 5), "name"),
        (lambda: slidelab.manhattan_table(None), "puzzle"),
        (lambda: slidelab.read_instances([None]), "lines"),
        (lambda: slidelab.read_instances(None), "lines"),
        (lambda: slidelab.read_instances("1 2 3/4 5 6/7 8 0"), "lines"),
        (lambda: slidelab.solve_batch([1, 2]), "instances"),
        (lambda: slidelab.summarize([None]), "records"),
        (lambda: slidelab.permutation_rank([0.5, 1, 2]), "perm"),
        (lambda: slidelab.permutation_rank(None), "perm"),
        (lambda: slidelab.permutation_unrank(1.5, 3), "rank"),
        (lambda: slidelab.permutation_unrank(1, 2.0), "n"),
        (lambda: slidelab.multiset_unrank("1", "AAB"), "rank"),
        (lambda: slidelab.count_arrangements([1.5, 2]), "counts"),
        (lambda: slidelab.Limits(time_limit="x"), "time_limit"),
        (lambda: slidelab.Limits(max_states=2.5), "max_states"),
        (lambda: slidelab.Limits(progress=5), "progress"),
        (lambda: slidelab.solve(HARDEST, time_limit="x"), "time_limit"),
        (lambda: slidelab.solve(HARDEST, max_bytes=1.5), "max_bytes"),
        (lambda: slidelab.solve(HARDEST, method=5), "method"),
        (lambda: slidelab.solve(HARDEST, progress="yes"), "progress"),
        (lambda: slidelab.solve_all(HARDEST, limit=1.5), "limit"),
        (lambda: slidelab.random_board("3x3", seed=[1]), "seed"),
        (lambda: slidelab.random_boards(2.5, "3x3"), "n"),
        (lambda: slidelab.scramble(2.5, "3x3"), "moves"),
        (lambda: slidelab.analyze("2x3", hardest=1.5), "hardest"),
        (lambda: slidelab.analyze("2x3", max_bytes="x"), "max_bytes"),
        (lambda: slidelab.parse_size((2.5, 3)), "size"),
        (lambda: slidelab.parse_size(None), "size"),
    ],
)
def test_wrong_types_are_named_at_the_door(call, argument):
    with pytest.raises(ArgumentError) as caught:
        call()
    assert isinstance(caught.value, (SlidelabError, TypeError))
    assert argument in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: list(slidelab.solve_batch([], workers=0)), "workers"),
        (lambda: slidelab.solve_batch([], workers=-3), "workers"),
        (lambda: slidelab.Limits(max_bytes=-5), "max_bytes"),
        (lambda: slidelab.Limits(time_limit=0), "time_limit"),
        (lambda: slidelab.Limits(time_limit=float("nan")), "time_limit"),
        (lambda: slidelab.summarize([{}]), "records[0]"),
        (
            lambda: slidelab.summarize([{"line": 1, "input": "x", "error": None, "length": "7"}]),
            "length",
        ),
        (lambda: slidelab.permutation_unrank(0, 10**30), "n"),
        (lambda: slidelab.count_arrangements([10**30]), "counts"),
        (lambda: slidelab.permutation_rank(list(range(10**5))), "perm"),
    ],
)
def test_bad_values_are_named_at_the_door(call, fragment):
    with little_work(), pytest.raises(SlidelabError) as caught:
        call()
    assert fragment in str(caught.value)


def test_solve_batch_checks_its_arguments_before_it_is_iterated():
    with pytest.raises(SlidelabError, match="workers"):
        slidelab.solve_batch([], workers=0)  # no next() needed


def test_search_limit_error_is_a_slidelab_error(cli):
    assert issubclass(SearchLimitError, SlidelabError)
    assert issubclass(SearchLimitError, RuntimeError)  # as before
    assert issubclass(ArgumentError, SlidelabError) and issubclass(ArgumentError, TypeError)
    # the command line still tells a limit (exit 1) from bad input (exit 2)
    r = cli("solve", HARDEST, "--method", "bfs", "--max-states", "1000")
    assert r.exit_code == 1 and "limit reached" in r.stderr


def test_the_readme_states_the_declared_limits(cli):
    from slidelab.generate import MAX_BOARDS, MAX_WALK
    from slidelab.parse import MAX_BOARD_CELLS

    readme = (ROOT / "README.md").read_text()
    for limit in (MAX_BOARD_CELLS, MAX_BOARDS, MAX_WALK):
        assert f"{limit:,}" in readme
    r = cli("generate", "--help")
    assert (
        f"{MAX_BOARDS:,}" in r.stdout
        and f"{MAX_WALK:,}" in r.stdout
        and f"{MAX_BOARD_CELLS:,}" in r.stdout
    )


# -- move strings and sequences (issue 12.17, 12.13) -------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda sl: sl.parse_moves(None),
        lambda sl: sl.invert(5),
        lambda sl: sl.stm(None),
        lambda sl: sl.mtm([1]),
        lambda sl: sl.runs(object()),
        lambda sl: sl.format_moves(5),
        lambda sl: sl.simplify("R" + "9" * 5000),
        lambda sl: sl.expand("R99999999999999"),
        lambda sl: sl.parse_moves("R3", 5),
        lambda sl: sl.Move("R", 2.0),
        lambda sl: sl.Move("R", 10**9),
        lambda sl: sl.Board.solved(100_000, 100_000),
    ],
)
def test_move_functions_check_their_arguments(call):
    import slidelab

    with pytest.raises(slidelab.SlidelabError):
        call(slidelab)


# == the last bad inputs (issue 25, item 5) ====================================================


@pytest.fixture
def run(cli):
    """``(exit code, stdout, stderr)`` of ``slidelab ARGS`` in this process (conftest's ``cli``)."""

    def go(*args, input=None):
        result = cli(*args, input=input)
        return result.exit_code, result.stdout, result.stderr

    return go


BIG = "14x14"  # its visited table: 196!/2 bytes, past any unit of format_bytes and any float


# ------------------------------------------- a search's memory need past the largest byte unit


def test_sizes_past_the_largest_unit_are_written_as_a_power_of_ten():
    assert format_bytes(1024**7 - 1) == "1024 EiB"
    assert format_bytes(1024**7) == "1.18e+21 bytes"
    assert format_bytes(10**400) == "1.00e+400 bytes"  # a float holds at most about 1.8e308


@pytest.mark.parametrize("method", ["bfs", "bidirectional"])
def test_breadth_first_search_of_a_huge_board_is_a_limit_reached(method, run):
    board = slidelab.random_board(BIG, seed=1)
    with little_work(), pytest.raises(SearchLimitError, match=r"needs \d\.\d\de\+\d+ bytes"):
        slidelab.solve(board, method=method)
    with little_work():
        code, out, err = run("solve", board.format(), "--method", method)
    one_line_error(code, err, "limit reached", "bytes for a visited table", exit_code=code)
    assert code != 0 and out == ""


@pytest.mark.slow  # 5 s
def test_the_web_answers_a_limit_reached_not_500(session_cache, monkeypatch):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from slidelab.web import create_app
    from test_web_api import error_of, wait_ready

    # as test_web_api's client: the warm-up's tables from the cache the run already has
    monkeypatch.setenv("SLIDELAB_CACHE", session_cache)
    board = slidelab.random_board(BIG, seed=1).format()
    with TestClient(create_app(workers=1, max_time_limit=20, grace=5)) as client:
        wait_ready(client)
        for method in ("bfs", "bidirectional"):
            answer = client.post("/api/solve", json={"board": board, "method": method})
            assert "bytes for a visited table" in error_of(answer, 422)


# ------------------------------------------------------ runs longer than the longest move


def test_a_run_longer_than_any_board_stays_several_moves(run):
    text = "R " * 40_000
    assert slidelab.moves.runs(text) == (slidelab.Move("R", 32_768), slidelab.Move("R", 7_232))
    assert (slidelab.moves.stm(text), slidelab.moves.mtm(text)) == (40_000, 2)
    assert slidelab.moves.simplify(text + "L " * 7_233) == (slidelab.Move("R", 32_767),)
    code, out, err = run("moves", "length", text)
    assert (code, out, err) == (0, "40000 STM, 2 MTM\n", "")
    code, out, err = run("moves", "convert", "--compact", text)
    assert (code, out, err) == (0, "R32768 R7232\n", "")
    code, out, err = run("moves", "simplify", text)
    assert (code, out, err) == (0, "R32768 R7232\n", "")


# ------------------------------------------------------------------------- number words


def test_a_search_past_its_patience_says_by_how_much():
    # "expected to take about 1.2 s in all, past the 1.2 s of patience": both rounded alike
    from slidelab.errors import SearchTooLong
    from slidelab.search.limits import Limits
    from slidelab.solution import Stats

    with pytest.raises(SearchTooLong, match=r"about 1\.24 s in all, past the 1\.2 s of patience"):
        Limits(patience=1.2).predict(Stats(seconds=0.5), "idastar", 0.74, 40)


def test_counts_of_one_are_singular():
    assert counted(1, "move") == "1 move" and counted(2, "move") == "2 moves"
    assert counted(0, "move") == "0 moves" and counted(10_000, "board") == "10,000 boards"


def test_check_says_one_move(run):
    code, out, _ = run("check", "1 2 3/4 5 6/7 0 8")
    assert code == 0 and "the blank is 1 move from its goal cell" in out
    assert "1 moves" not in slidelab.check("1 2 3/4 5 6/7 0 8").reason
    assert "is 2 moves from" in slidelab.check("1 2 3/4 5 6/0 7 8").reason


# ------------------------------------------------------------- tables too large to build


def test_tables_of_a_huge_board_are_refused_at_once(cache, run):
    from slidelab.heuristics.pdb import pattern_database  # noqa: F401

    with little_work():
        code, out, err = run("tables", "build", "100x100")
    one_line_error(code, err, "too large to build here", "198 moves", "125 moves")
    assert out == "" and not list(cache.iterdir())
    puzzle = slidelab.Puzzle(slidelab.Board.solved(100, 100))
    with little_work(), pytest.raises(SlidelabError, match="too large to build here"):
        pattern_database(puzzle)


def test_abstraction_tables_of_a_board_past_20_tiles_are_refused_at_once(cache, run):
    # 100x100 was silent for 2 min 55 s, then printed a 20,000-character line with the wrong
    # reason; a one-class 5x5 was refused as "25 positions, too many" (the rule is 20 tiles)
    with little_work():
        code, out, err = run("tables", "build", "100x100", "--heuristic", "abstraction")
    one_line_error(code, err, "at most 20 tiles", "the 100x100 board has 9,999")
    assert out == "" and len(err) < 300
    puzzle = slidelab.Puzzle(slidelab.random_board("5x5", seed=1))
    one_class = "1 1 1 1 1/1 1 1 1 1/1 1 1 1 1/1 1 1 1 1/1 1 1 1 0"
    with pytest.raises(SlidelabError, match="the 5x5 board has 24"):
        make_heuristic(puzzle, "abstraction", classes=one_class)


@pytest.mark.parametrize(
    "classes, fragment",
    [([], "classes is empty"), ((), "classes is empty"), ([None], "classes[0]")],
)
def test_an_empty_or_none_list_of_classes_is_refused(classes, fragment):
    # classes=[] raised "max() arg is an empty sequence"; [None] was accepted
    with pytest.raises(SlidelabError) as caught:
        make_heuristic(slidelab.Puzzle(HARDEST), "abstraction", classes=classes)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_tables_another_process_builds_are_announced_as_waited_for(cache, caplog):
    """``solve --json`` on two boards of one goal (a process each) announced the same build of
    6-6-3 tables twice: where another process holds a table's lock, the build is announced as
    waited for."""
    import logging

    from slidelab.cache import table_path
    from slidelab.cache.locks import locked
    from slidelab.tables.family import Tables, announce

    tables = Tables("pdb", slidelab.Board.solved(3, 3), "stm", "1,2,3,4/5,6,7,8")
    spec = next(iter(tables.kind.specs(tables)))
    path = table_path(spec)
    path.parent.mkdir(parents=True, exist_ok=True)
    with caplog.at_level(logging.INFO, logger="slidelab"):
        announce(tables, tables.cost())
        with locked(path.parent / (path.stem + ".lock")):  # as another process building it
            announce(tables, tables.cost())
    first, second = [r.getMessage() for r in caplog.records][-2:]
    assert first.startswith("building ") and "pattern databases of the 3x3 goal" in first
    assert second.startswith("waiting for ") and "which another process is building" in second


def test_tables_build_says_what_it_builds_before_it_starts(cache):
    # the program itself (a process of its own, in the test's cache): it shows the library's
    # notices on stderr
    run = [sys.executable, "-m", "slidelab", "tables", "build", "3x3"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=600)
    code, err = done.returncode, done.stderr
    assert code == 0, err
    err = "\n".join(line for line in err.splitlines() if not line.startswith("compiling"))
    first = err.splitlines()[0]
    assert first.startswith(
        "building the automatic pattern databases of the 3x3 goal: 1 table, 354 KiB, about "
    ), err
    assert "once: cached in" in first
    done = subprocess.run(run, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "building" not in done.stderr  # built: nothing to say


# ---------------------------------------------------- positions at a distance: distinct, known


@pytest.mark.parametrize(
    "size, distance, metric, words",
    [
        ("4x4", 81, "stm", "no 4x4 position is 81 moves from its goal: the 15-puzzle's diameter is 80"),
        ("4x4", 44, "mtm", "no 4x4 position is 44 MTM moves from its goal: the 15-puzzle's diameter is 43"),
        ("3x3", 32, "stm", "no 3x3 position is 32 moves from its goal: the 8-puzzle's diameter is 31"),
        ("3x3", 25, "mtm", "no 3x3 position is 25 MTM moves from its goal: the 8-puzzle's diameter is 24"),
    ],
)  # fmt: skip
def test_a_distance_past_the_known_diameter_names_it(size, distance, metric, words, run):
    with little_work(), pytest.raises(SlidelabError) as caught:
        slidelab.positions_at_distance(distance, 1, size, metric=metric, time_limit=5)
    assert str(caught.value) == words
    with little_work():
        code, out, err = run(
            "generate", size, "-d", distance, "--metric", metric, "--time-limit", 5
        )
    one_line_error(code, err, words)
    assert out == ""


def test_boards_at_a_distance_are_distinct(run):
    boards = slidelab.positions_at_distance(30, 200, "3x3", seed=1)  # 272 positions are 30 away
    assert len(set(boards)) == 200
    code, out, err = run("generate", "3x3", "-d", "31", "-n", "2")
    assert code == 0 and len(set(out.split("\n")) - {""}) == 2, err


def test_more_boards_than_there_are_at_a_distance_says_how_many(run):
    message = "asked for 3 boards, but only 2 of the 3x3 positions are 31 moves from the goal"
    with pytest.raises(SlidelabError, match=message):
        slidelab.positions_at_distance(31, 3, "3x3")
    code, out, err = run("generate", "3x3", "-d", "31", "-n", "3")
    one_line_error(code, err, message)
    assert out == ""


def test_the_search_way_gives_distinct_boards_and_says_when_walks_repeat():
    boards = slidelab.positions_at_distance(2, 4, "4x4", seed=1)  # the 4 positions 2 away
    assert len(set(boards)) == 4
    with pytest.raises(SearchLimitError, match="ended on a board found before: there may be no"):
        slidelab.positions_at_distance(1, 3, "4x4", seed=1, time_limit=2)  # only 2 are 1 away


# ---------------------------------------------------------------------------- Solution.to_gif


@pytest.mark.parametrize(
    "keywords, fragment",
    [
        ({"tile": 100_000}, "tile must be at most 1,000 (pixels per cell)"),
        ({"tile": 0}, "tile must be at least 1"),
        ({"seconds_per_move": -1}, "seconds_per_move must be positive"),
        ({"seconds_per_move": float("nan")}, "seconds_per_move must be a number, got nan"),
        ({"seconds_per_move": float("inf")}, "seconds_per_move must be a finite number"),
        ({"seconds_per_move": 1e-9}, "seconds_per_move must be from 0.01 to 600"),
    ],
)
def test_gif_arguments_are_checked_at_the_door(tmp_path, keywords, fragment):
    solution = slidelab.solve("1 2 3/4 5 6/0 7 8")
    with little_work(), pytest.raises(SlidelabError) as caught:
        solution.to_gif(tmp_path / "replay.gif", **keywords)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)
    assert not list(tmp_path.iterdir())


def test_gif_to_a_directory_or_another_extension_is_refused(tmp_path):
    solution = slidelab.solve("1 2 3/4 5 6/0 7 8")
    with pytest.raises(SlidelabError, match="it is a directory"):
        solution.to_gif(tmp_path)
    with pytest.raises(SlidelabError, match=r"must end in \.gif"):
        solution.to_gif(tmp_path / "replay.png")


@pytest.mark.slow  # about 15 s
def test_gif_of_millions_of_moves_is_refused_before_its_frames_are_made():
    from slidelab.draw import MAX_GIF_FRAMES

    board = slidelab.Board.solved(2, 2)
    moves = "U L D R " * 650_000  # 2.6 million moves, back to the start
    solution = slidelab.Solution(board, board, slidelab.moves.parse_moves(moves))
    with little_work(), pytest.raises(SlidelabError, match="2,600,000 moves is too long"):
        solution.to_gif("replay.gif")
    assert MAX_GIF_FRAMES == 10_001


# ------------------------------------------------------------------- the web's per-client cap


def test_the_docs_say_the_per_client_cap_goes_by_ip_address_only():
    from pathlib import Path

    text = " ".join((Path(__file__).parent.parent / "docs/how-to/web.md").read_text().split())
    assert "The allowance goes by IP address only" in text
    assert "clients behind one address (a NAT, a proxy elsewhere) share one allowance" in text
