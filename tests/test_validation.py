"""Bad input, fuzzed (issue 12, items 13-17): each item is a class of failures, fixed as a class.

13. unbounded work or memory (sizes, counts, walks) is refused against stated limits;
14. no traceback: huge spaces, allocation failures; the default memory budget;
15. nonsense options (weights, partitions, empty input, blank symbols) are refused;
16. a batch's output path that is not a regular file;
17. the public Python API checks its arguments at the door.

The hypothesis fuzz tests of the command line and of the API are in ``test_fuzz.py``.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import slidelab
from slidelab.errors import ArgumentError, SearchLimitError, SlidelabError

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


def quickly(seconds=5.0):
    """A context that fails the test when its body takes longer than ``seconds``."""

    class _Clock:
        def __enter__(self):
            self.began = time.perf_counter()

        def __exit__(self, *exc):
            took = time.perf_counter() - self.began
            if exc[0] is None:
                assert took < seconds, f"took {took:.1f} s"

    return _Clock()


# ----------------------------------------------------------------- 13. unbounded work or memory


@pytest.mark.parametrize(
    "size", ["100000x100000", "99999999999999999999x3", "3x" + "9" * 5000, "1000001x1", "2x500001"]
)
def test_sizes_over_the_board_limit_are_refused_at_once(cli, size):
    from slidelab.parse import MAX_BOARD_CELLS, parse_size

    with quickly(), pytest.raises(SlidelabError) as caught:
        parse_size(size)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    if not size.endswith("x1"):
        assert f"{MAX_BOARD_CELLS:,}" in message
    with quickly():
        r = cli("generate", size)
    one_line_error(r.exit_code, r.stderr)


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
    with quickly():
        r = cli("generate", *args)
    one_line_error(r.exit_code, r.stderr, fragment)
    assert r.stdout == ""


def test_api_counts_over_their_limits_are_refused_at_once():
    from slidelab.generate import MAX_BOARDS, MAX_WALK

    with quickly():
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


# ------------------------------------------------------------------------- 14. tracebacks


@pytest.mark.parametrize("goal", ["100x100", "30x30", "181x181", "5x5"])
def test_analyze_of_a_huge_space_is_one_line(cli, goal):
    with quickly(8.0):
        r = cli("analyze", goal)
    one_line_error(r.exit_code, r.stderr, "positions")
    assert len(r.stderr) < 400
    with quickly(8.0), pytest.raises(slidelab.SpaceTooLargeError):
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


# --------------------------------------------------------------------- 15. nonsense accepted


@pytest.mark.parametrize("weight", ["inf", "-inf", "nan", "0.5", "1e400"])
def test_weights_must_be_finite_and_at_least_one(cli, weight):
    with quickly(20.0):
        r = cli("solve", HARDEST, "--weight", weight, "--time-limit", "5")
    one_line_error(r.exit_code, r.stderr, "--weight")
    assert r.stdout == ""
    with pytest.raises(SlidelabError, match="weight"):
        slidelab.solve(HARDEST, weight=float(weight))
    r = cli("batch", "-", "--weight", weight, input=HARDEST + "\n")
    one_line_error(r.exit_code, r.stderr, "--weight")


def test_api_weights_must_be_finite_everywhere():
    puzzle = slidelab.Puzzle(HARDEST)
    for call in (
        lambda: slidelab.weighted_astar(puzzle, weight=float("inf")),
        lambda: slidelab.idastar(puzzle, heuristic="manhattan", weight=float("inf")),
        lambda: slidelab.prepare(puzzle, weight=float("inf")),
    ):
        with pytest.raises(SlidelabError, match="weight"):
            call()


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
    with open("/dev/zero") as zero, quickly(20.0):
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


# ------------------------------------------------------------------ 16. batch output paths


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
            with quickly():
                results = slidelab.ResultsFile(device, batch)
            assert results.done == {} and not results.resumable
    with pytest.raises(SlidelabError, match="redo-failed|regular file"):
        slidelab.ResultsFile("/dev/null", batch, redo_failed=True)


def test_a_named_pipe_nobody_reads_is_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with quickly(30.0):
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
    with quickly(10.0):
        r = cli("batch", "/dev/zero", "--workers", "1")
    one_line_error(r.exit_code, r.stderr, "/dev/zero", "1,048,576")
    with quickly(10.0):
        r = cli("batch", "-", "--workers", "1", input="\n" * ((1 << 20) + 5))
    one_line_error(r.exit_code, r.stderr, "standard input")


def test_a_directory_is_refused(cli, tmp_path):
    r = cli("batch", _instances(tmp_path), "-o", tmp_path)
    one_line_error(r.exit_code, r.stderr, str(tmp_path))
    assert stat.S_ISDIR(os.stat(tmp_path).st_mode)


# ------------------------------------------------------------------- 17. the Python API


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
    with quickly(), pytest.raises(SlidelabError) as caught:
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
