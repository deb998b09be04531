"""The last bad inputs (issue 25, item 5): each a one-line error, or the right answer, with a test.

The command line through ``test_validation``'s helpers (its runner and its one-line check), the
Python API, and the web API where the item reaches it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import slidelab
from slidelab.errors import SearchLimitError, SlidelabError
from slidelab.units import counted, format_bytes
from test_validation import one_line_error, quickly


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
    with quickly(), pytest.raises(SearchLimitError, match=r"needs \d\.\d\de\+\d+ bytes"):
        slidelab.solve(board, method=method)
    with quickly():
        code, out, err = run("solve", board.format(), "--method", method)
    one_line_error(code, err, "limit reached", "bytes for a visited table", exit_code=code)
    assert code != 0 and out == ""


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
    from slidelab.heuristics.pdb import MAX_BUILD_BYTES, pattern_database  # noqa: F401

    with quickly(5):
        code, out, err = run("tables", "build", "100x100")
    one_line_error(code, err, "too large to build here", "198 moves", "125 moves")
    assert out == "" and not list(cache.iterdir())
    puzzle = slidelab.Puzzle(slidelab.Board.solved(100, 100))
    with quickly(5), pytest.raises(SlidelabError, match="too large to build here"):
        pattern_database(puzzle)


def test_tables_build_says_what_it_builds_before_it_starts(cache):
    # the program itself (a process of its own, in the test's cache): it shows the library's
    # notices on stderr
    run = [sys.executable, "-m", "slidelab", "tables", "build", "3x3"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=600)
    code, err = done.returncode, done.stderr
    assert code == 0, err
    err = "\n".join(line for line in err.splitlines() if "compiling kernels" not in line)
    first = err.splitlines()[0]
    assert first.startswith(
        "building the automatic pattern databases for the 3x3 goal 1 2 3/4 5 6/7 8 0: 1 table,"
        " 354 KiB, about "
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
    with quickly(), pytest.raises(SlidelabError) as caught:
        slidelab.positions_at_distance(distance, 1, size, metric=metric, time_limit=5)
    assert str(caught.value) == words
    with quickly():
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
    with quickly(), pytest.raises(SlidelabError) as caught:
        solution.to_gif(tmp_path / "replay.gif", **keywords)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)
    assert not list(tmp_path.iterdir())


def test_gif_to_a_directory_or_another_extension_is_refused(tmp_path):
    solution = slidelab.solve("1 2 3/4 5 6/0 7 8")
    with pytest.raises(SlidelabError, match="it is a directory"):
        solution.to_gif(tmp_path)
    with pytest.raises(SlidelabError, match=r"must end in \.gif"):
        solution.to_gif(tmp_path / "replay.png")


def test_gif_of_millions_of_moves_is_refused_before_its_frames_are_made():
    from slidelab.draw import MAX_GIF_FRAMES

    board = slidelab.Board.solved(2, 2)
    moves = "U L D R " * 650_000  # 2.6 million moves, back to the start
    solution = slidelab.Solution(board, board, slidelab.moves.parse_moves(moves))
    with quickly(), pytest.raises(SlidelabError, match="2,600,000 moves is too long"):
        solution.to_gif("replay.gif")
    assert MAX_GIF_FRAMES == 10_001


# ------------------------------------------------------------------- the web's per-client cap


def test_the_docs_say_the_per_client_cap_goes_by_ip_address_only():
    from pathlib import Path

    text = " ".join((Path(__file__).parent.parent / "docs/how-to/web.md").read_text().split())
    assert "The allowance goes by IP address only" in text
    assert "clients behind one address (a NAT, a proxy elsewhere) share one allowance" in text
