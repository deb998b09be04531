"""solve_many: a stream of positions on every core, answers in input order."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from slidelab import Puzzle, solve
from slidelab.errors import SearchInterrupted, SearchLimitError, SlidelabError, UnsolvableError
from slidelab.generate import random_board
from slidelab.search.many import solve_many
from slidelab.search.options import check_options

# 15-puzzles (goal: blank first) IDA* with Manhattan takes seconds to minutes on (Korf's #1, #3)
#: Korf's #60 and #88 (66 and 65 moves; goal blank first): minutes with Manhattan distance
#: (#1 and #3, used before, took 5 s once the kernel ran at 88 M nodes/s)
HARD = ["11 14 13 1/2 3 12 4/15 7 9 5/10 6 8 0", "15 2 12 11/14 13 9 5/1 3 8 7/0 10 6 4"]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_answers_come_in_input_order_and_equal_solve(workers):
    boards = [random_board("3x3", seed=s).format() for s in range(12)]
    items = [Puzzle(b) for b in boards]
    items.insert(3, SlidelabError("line 4: unreadable"))  # passed through in its place
    items.insert(7, Puzzle("1 2 3/4 5 6/8 7 0"))  # unsolvable
    results = list(solve_many(items, workers=workers))
    assert len(results) == len(items)
    assert isinstance(results[3], SlidelabError) and str(results[3]) == "line 4: unreadable"
    assert isinstance(results[7], UnsolvableError)
    for item, result in zip(items, results, strict=True):
        if isinstance(item, Puzzle) and not isinstance(result, UnsolvableError):
            assert result.start == item.start
            assert result.length == solve(item).length
            assert result.optimal


def test_storing_searches_and_limits_per_position():
    opts = check_options(method="bfs", max_states=1000)
    boards = ["1 2 3/4 5 6/0 7 8", "8 6 7/2 5 4/3 0 1", "1 2 3/4 0 6/7 5 8"]
    results = list(solve_many([Puzzle(b) for b in boards], options=opts, workers=2))
    assert results[0].length == 2 and results[2].length == 2
    assert isinstance(results[1], SearchLimitError)  # 31 moves: over 1,000 states


def test_options_apply_to_every_position():
    opts = check_options(method="idastar", heuristic="linear-conflict")
    boards = [random_board("4x2", seed=s) for s in range(6)]
    results = list(solve_many([Puzzle(b) for b in boards], options=opts, workers=2))
    assert {r.method for r in results} == {"idastar"}
    assert [r.length for r in results] == [solve(Puzzle(b)).length for b in boards]


def test_a_consumer_that_stops_early_stops_the_searches(monkeypatch):
    """Leaving the stream after the first answer stops the long searches behind it: each one
    that started ends interrupted (minutes of IDA* with Manhattan each), none with an answer."""
    import importlib

    many = importlib.import_module("slidelab.search.many")
    ended = []

    def recorded(request, **kwargs):
        try:
            answer = original(request, **kwargs)
        except BaseException as exc:
            ended.append(type(exc).__name__)
            raise
        ended.append(f"{answer.length} moves")
        return answer

    original = many.solve_request
    monkeypatch.setattr(many, "solve_request", recorded)
    items = [Puzzle("1 2 3/4 5 6/0 7 8")] + [Puzzle(b, blank_first=True) for b in HARD * 2]
    opts = check_options(method="idastar", heuristic="manhattan")
    stream = solve_many(items, options=opts, workers=2)
    assert next(stream).length == 2
    stream.close()
    assert ended[0] == "2 moves" and len(ended) >= 2, ended
    assert all(what in ("KeyboardInterrupt", "SearchInterrupted") for what in ended[1:]), ended


def test_bad_arguments():
    with pytest.raises(SlidelabError):
        list(solve_many([Puzzle("1 2 3/4 5 6/0 7 8")], workers=0))
    with pytest.raises(SlidelabError):
        list(solve_many(["1 2 3/4 5 6/0 7 8"], workers=2))


@pytest.mark.slow  # 6 s
def test_interrupting_a_stream_on_the_command_line(tmp_path):
    """SIGINT while two lines are being searched: the answers before come out, then the
    interruption (exit 130), no traceback."""
    stdin = "\n".join(["1 0 2/3 4 5/6 7 8", *HARD]) + "\n"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "slidelab",
            "solve",
            "--method",
            "idastar",
            "--json",
            "--blank-first",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    try:
        proc.stdin.write(stdin)
        proc.stdin.close()
        proc.stdin = None  # written and closed: communicate() only reads
        time.sleep(6)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert '"length": 1' in out.splitlines()[0]
    assert "interrupted" in out + err and "Traceback" not in err


def test_interrupted_is_ctrl_c_not_a_limit_nor_bad_input():
    # it stops everything, as Ctrl-C does: no handler of slidelab's errors takes it for one
    assert issubclass(SearchInterrupted, KeyboardInterrupt)
    assert not issubclass(SearchInterrupted, (SearchLimitError, SlidelabError, Exception))
    stopped = SearchInterrupted("interrupted: idastar searched to bound 40", None, 40)
    assert (str(stopped), stopped.lower_bound, stopped.stats) == (stopped.args[0], 40, None)


def test_an_answer_comes_while_the_input_waits_for_its_next_line():
    """On a pipe that stays open (a person typing, a program asking one question at a time),
    each answer comes before the next line does: the input is read on its own thread."""
    import queue
    import threading

    lines: queue.Queue = queue.Queue()

    def typed():
        while (line := lines.get()) is not None:
            yield Puzzle(line)

    answers = solve_many(typed(), options=check_options(method="bfs"), workers=2)
    got: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [got.put(a) for a in answers], daemon=True)
    reader.start()
    lines.put("1 2 3/4 5 6/7 0 8")
    first = got.get(timeout=60)  # no second line yet, and the input is still open
    assert first.length == 1
    lines.put("1 2 3/4 5 6/0 7 8")
    assert got.get(timeout=60).length == 2
    lines.put(None)
    reader.join(timeout=60)
    assert not reader.is_alive()
