"""Several methods side by side (``slidelab compare``), the hint (distance and best next move),
and the layers and iterations every breadth-first search and IDA* reports."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import slidelab
from slidelab import Board, apply_moves
from slidelab.errors import UnsolvableError
from slidelab.search.compare import DEFAULT_METHODS, compare
from slidelab.search.hint import hint
from slidelab.tables.distance import goal_table

EIGHT = "8 6 7/2 5 4/3 0 1"  # one of the two hardest 8-puzzles: 31 moves, 20 in MTM


@pytest.fixture(scope="module")
def eight():
    return compare(EIGHT, heuristic="manhattan")  # the classic articles' heuristic


def test_by_default_a_comparison_searches_as_a_solve_would():
    """The methods that take a heuristic search with the one a solve would (its tables
    cached), and each row names it (the lab's A*, IDA* and bidirectional A* stopped at 5 s
    with Manhattan on a 15-puzzle a solve answered in under 2 s)."""
    from slidelab.search.options import check_options
    from slidelab.search.policy import ready_heuristic

    ready, _ = ready_heuristic(slidelab.Puzzle(EIGHT), check_options())
    (row,) = compare(EIGHT, methods=["idastar"]).entries  # A*'s kernels with it: the slow step
    assert row.heuristic == ready and row.length == 31 and row.optimal


def test_the_classic_line_up_side_by_side(eight):
    assert [e.method for e in eight.entries] == list(DEFAULT_METHODS)
    for e in eight.entries:
        assert e.error is None and e.solution is not None, e.method
        assert e.solution.optimal == (e.method != "weighted-astar")
        assert e.length == 31 if e.optimal else e.length >= 31
        assert e.stats.expanded > 0 and e.stats.generated >= e.stats.expanded, e.method
        assert e.memory_bytes is not None and e.memory_bytes > 0, e.method
        assert 0 < e.search_seconds <= e.total_seconds
        assert e.heuristic == ("manhattan" if "astar" in e.method else None)
    by = {e.method: e for e in eight.entries}
    # the articles' lesson: BFS stores the whole space, the informed searches a sliver of it
    assert by["bfs"].stats.stored > 10 * by["astar"].stats.stored
    assert by["idastar"].stats.stored < 40  # a path
    assert by["bidirectional"].stats.expanded < by["bfs"].stats.expanded / 10


def test_layers_and_iterations_add_up(eight):
    by = {e.method: e for e in eight.entries}
    for name in ("bfs", "bidirectional", "idastar"):
        stats = by[name].stats
        assert stats.phases, name
        assert sum(p.expanded for p in stats.phases) == stats.expanded, name
        assert sum(p.generated for p in stats.phases) == stats.generated, name
        assert all(p.seconds >= 0 for p in stats.phases)
    bfs = by["bfs"].stats.phases
    assert [p.depth for p in bfs] == list(range(1, 32)) and {p.kind for p in bfs} == {"layer"}
    assert bfs[0].frontier == 3  # the blank on an edge's middle: three moves
    sides = {p.side for p in by["bidirectional"].stats.phases}
    assert sides == {"forward", "backward"}
    assert sum(p.expanded for p in by["bidirectional"].stats.phases if p.side == "forward") == (
        by["bidirectional"].stats.expanded_forward
    )
    bounds = [p.depth for p in by["idastar"].stats.phases]
    assert bounds == sorted(bounds) and bounds[-1] == 31  # Manhattan's 21, then up by two
    contours = by["astar"].stats.phases  # best-first: by rising f, read from its nodes
    assert {p.kind for p in contours} == {"contour"}
    assert [p.depth for p in contours] == sorted(p.depth for p in contours)
    assert sum(p.expanded for p in contours) == by["astar"].stats.expanded
    assert sum(p.generated for p in contours) == by["astar"].stats.stored


def test_a_recorded_search_is_the_search_it_played(eight):
    """The lab plays a search back from the nodes the engine recorded (``record``): A*'s
    expansions in order, each with the g it was expanded at (its distance from the start: a
    consistent estimate), its estimate, f rising contour by contour as its phases say, and
    the open and closed counts; each layer's first states at that distance from their side's
    root.  Recording runs the search again: the counts are those of the search unrecorded."""
    from reference import exact_distances

    start = Board(EIGHT)
    recorded = compare(EIGHT, methods=["astar", "bfs", "bidirectional", "idastar"],
                       heuristic="manhattan", record=20_000)  # fmt: skip
    by = {e.method: e for e in recorded.entries}
    plain = {e.method: e for e in eight.entries}
    from_start = exact_distances(start)
    from_goal = exact_distances(start.goal())
    puzzle = slidelab.Puzzle(EIGHT)
    manhattan = slidelab.make_heuristic(puzzle, "manhattan")
    for name in ("astar", "bfs", "bidirectional", "idastar"):
        assert by[name].stats.expanded == plain[name].stats.expanded, name
    visits = by["astar"].stats.visits
    assert len(visits) == by["astar"].stats.expanded  # every expansion: 6,728 under 20,000
    assert visits[0].board == EIGHT and (visits[0].g, visits[0].h) == (0, 21)
    assert [v.closed for v in visits] == list(range(1, len(visits) + 1))
    assert [v.f for v in visits] == sorted(v.f for v in visits)
    for v in visits[:: len(visits) // 50]:
        board = Board(v.board)
        assert v.kind == "expanded" and v.g == from_start[board.cells] and v.f == v.g + v.h
        assert v.h == manhattan.value(puzzle.encode(board)) and v.open > 0
    contours = {p.depth: p.expanded for p in by["astar"].stats.phases}
    assert {f: sum(v.f == f for v in visits) for f in contours} == contours
    layers = by["bfs"].stats.visits
    assert {v.g for v in layers} == set(range(1, 32)) and all(v.kind == "layer" for v in layers)
    assert all(from_start[Board(v.board).cells] == v.g for v in layers)
    assert [v.open for v in layers if v.g == 1] == [3, 3, 3]  # the layer's three states
    sides = by["bidirectional"].stats.visits
    assert {v.side for v in sides} == {"forward", "backward"}
    for v in sides:
        distance = from_start if v.side == "forward" else from_goal
        assert distance[Board(v.board).cells] == v.g
    assert by["idastar"].stats.visits == []  # its iterations are its phases
    few = compare(EIGHT, methods=["astar", "bfs"], heuristic="manhattan", record=10)
    assert [len(e.stats.visits) for e in few.entries] == [10, 10]
    assert all(not e.stats.visits for e in eight.entries)  # none unless asked for


def test_a_method_that_does_not_search_in_the_metric_is_not_run():
    """``compare --metric mtm`` and the lab ran bidirectional A* in MTM only to print "does not
    search in MTM"; it is not run, and the comparison says so."""
    c = compare(EIGHT, methods="bidirectional-astar,ida*", metric="mtm", heuristic="manhattan")
    (good,) = c.entries
    assert (good.method, good.length, good.optimal) == ("idastar", 20, True)
    assert c.skipped == {"bidirectional-astar": "it does not search in MTM"}
    assert "bidirectional-astar: not run (it does not search in MTM)" in c.format()
    assert c.as_dict()["skipped"] == c.skipped


def test_a_time_limit_gives_a_row_with_what_was_done():
    c = compare(
        slidelab.random_board("4x4", seed=5), methods=["idastar"], heuristic="zero", time_limit=0.5
    )
    (row,) = c.entries
    assert row.solution is None and "limit" in row.error and row.stats.expanded > 0
    assert row.stats.phases and row.stats.phases[-1].expanded > 0
    big = compare(slidelab.random_board("4x4", seed=5), methods=["bfs"]).entries[0]
    assert "bfs needs 19 TiB" in big.error and big.solution is None


def test_the_command_prints_the_table_and_json(cli):
    r = cli("compare", EIGHT, "--heuristic", "manhattan")  # (kernels compiled already)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    for name in DEFAULT_METHODS:
        (row,) = [line for line in lines if line.split()[:1] == [name]]
        assert ("31" in row.split()) or name == "weighted-astar", row
    r = cli("compare", EIGHT, "--methods", "bfs,idastar", "--phases", "--metric", "mtm",
            "--heuristic", "manhattan")  # fmt: skip
    assert r.exit_code == 0 and "bound 20" in r.stdout and "depth 20" in r.stdout
    data = json.loads(cli("compare", EIGHT, "--methods", "bidirectional", "--json").stdout)
    (entry,) = data["entries"]
    assert entry["length"] == 31 and entry["optimal"] and entry["phases"][0]["kind"] == "layer"
    assert apply_moves(Board(data["start"]), entry["solution"]) == Board(data["goal"])


@pytest.mark.parametrize(
    "args, why",
    [
        (("--methods", "dfs"), "unknown method 'dfs'"),
        (("--methods", ","), "no method"),
        (("--metric", "xtm"), "xtm"),
        (("--heuristic", "bogus"), "unknown heuristic 'bogus'"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(cli, args, why):
    r = cli("compare", EIGHT, *args)
    assert r.exit_code != 0 and why in r.output and "Traceback" not in r.output


def test_ctrl_c_ends_a_comparison_and_a_hint_it_is_not_a_row(monkeypatch, cli):
    import importlib

    from slidelab.errors import SearchInterrupted

    def interrupted(*args, **kwargs):
        raise SearchInterrupted("interrupted: idastar searched to bound 40", None, 40)

    monkeypatch.setattr(
        importlib.import_module("slidelab.search.solve"), "solve_request", interrupted
    )
    begun = []
    with pytest.raises(SearchInterrupted):  # a limit would be a row, and bfs would run next
        compare(EIGHT, methods="idastar,bfs", progress=lambda done, name: begun.append(name))
    assert begun == ["idastar"]
    with pytest.raises(SearchInterrupted):  # a limit would be a hint with a lower bound
        hint(slidelab.scramble(6, "4x4", seed=2))
    r = cli("compare", EIGHT, "--methods", "idastar,bfs")  # exit 130, saying what was known
    assert r.exit_code == 130 and r.stdout == "", r.output
    assert r.stderr == "interrupted: idastar searched to bound 40\n"


# ---------------------------------------------------------------------------- read once


@pytest.fixture
def reads(monkeypatch):
    """How often a request is checked to be solvable and its metric resolved (read from what was
    given): the two checks wrapped, counted by name."""
    import collections

    import slidelab.search.options
    import slidelab.solvability

    counts: collections.Counter = collections.Counter()

    def counting(real, what):
        def counted(*args, **kwargs):
            counts[what] += 1
            return real(*args, **kwargs)

        return counted

    for module, name, what in (
        (slidelab.solvability, "check", "solvable"),
        (slidelab.search.options, "metric_name", "metric"),
    ):
        monkeypatch.setattr(module, name, counting(getattr(module, name), what))
    return counts


# bidirectional-astar is left out: its function refuses an unsolvable puzzle itself, for its
# direct callers (Python's), so that each of its answers checks the board again
METHODS = ("bfs", "bidirectional", "astar", "weighted-astar", "idastar")


def test_a_comparison_reads_its_request_once(reads):
    c = compare(EIGHT, methods=METHODS, metric="STM", heuristic="Manhattan")
    assert [e.length for e in c.entries if e.optimal] == [31] * 4
    assert dict(reads) == {"solvable": 1, "metric": 1}  # was 1 and 6: a metric per method


def test_a_comparisons_worker_reads_nothing_again(reads):
    from slidelab.search.compare import method_names
    from slidelab.search.request import read_request
    from slidelab.workers.jobs import compare_job, run_job

    # at the door (Manhattan, whose kernels the run has compiled already: the reading is tested)
    request = read_request(EIGHT, metric="mtm", time_limit=10, heuristic="manhattan")
    names = method_names(",".join(METHODS))
    assert dict(reads) == {"solvable": 1, "metric": 1}
    reads.clear()
    status, result = run_job(*compare_job(request, names))
    assert status == "done" and [e["method"] for e in result["entries"]] == list(METHODS)
    assert dict(reads) == {}  # was 1 and 6 (the web server's door: 1 and 1 more)


def test_a_hint_reads_its_request_once(reads):
    from slidelab.search.request import read_request
    from slidelab.workers.jobs import hint_job, run_job

    assert hint(slidelab.scramble(6, "4x4", seed=2), metric="stm").how == "optimal search"
    assert dict(reads) == {"solvable": 1, "metric": 1}
    reads.clear()
    request = read_request(EIGHT, metric="MTM")  # at the door
    status, result = run_job(*hint_job(request))
    assert status == "done" and result["distance"] == 20
    assert dict(reads) == {"solvable": 1, "metric": 1}  # was 2 and 2 (door, then worker)


def test_the_request_forms_refuse_what_is_not_read():
    from slidelab.errors import ArgumentError
    from slidelab.search.compare import compare_request
    from slidelab.search.hint import hint_request
    from slidelab.search.request import read_request

    with pytest.raises(ArgumentError, match="request must be"):
        hint_request(EIGHT)
    with pytest.raises(ArgumentError, match="request must be"):
        compare_request(EIGHT)
    with pytest.raises(ArgumentError, match="canonical method names"):
        compare_request(read_request(EIGHT), ["IDA*"])


# ---------------------------------------------------------------------------- the hint


def test_the_hint_reads_the_table_where_there_is_one():
    h = hint(EIGHT)
    assert (h.distance, h.exact, h.how, h.metric) == (31, True, "distance table", "stm")
    after = apply_moves(Board(EIGHT), [h.move])
    assert hint(after).distance == 30
    assert h.tile == Board(EIGHT).cells[apply_moves(Board(EIGHT), [h.move]).cells.index(0)]
    assert "31 moves from the goal" in h.message and str(h.move) in h.message
    m = hint(EIGHT, metric="mtm")
    assert (m.distance, m.metric) == (20, "mtm")
    assert hint(apply_moves(Board(EIGHT), [m.move]), metric="mtm").distance == 19


def test_the_hint_at_the_goal_and_on_an_unsolvable_board():
    h = hint("1 2 3/4 5 6/7 8 0")
    assert (h.distance, h.move, h.message) == (0, None, "solved")
    with pytest.raises(UnsolvableError):
        hint("2 1 3/4 5 6/7 8 0")


def test_the_hint_searches_where_no_table_is_and_says_when_the_budget_is_short():
    near = slidelab.scramble(6, "4x4", seed=2)
    h = hint(near)
    assert h.how == "optimal search" and h.exact
    assert h.distance == slidelab.solve(near).length
    far = slidelab.random_board("5x5", seed=1)
    short = hint(far, time_limit=0.5)
    assert short.distance is None and short.move is None and not short.exact
    assert short.lower_bound >= 40  # at least the Manhattan distance
    assert f"at least {short.lower_bound} moves" in short.message
    assert json.dumps(short.as_dict())


def test_a_hint_s_seconds_leave_its_compiling_out(monkeypatch):
    """A server's first hint compiled its search's kernels and said "no optimal solution within
    9.4 s" for a 2 s limit: its seconds counted the compiling its limit leaves out.  On a clock
    of the test's own, a search that compiles 9.4 s and searches 0.5 s takes a hint 0.5 s."""
    import importlib
    from types import SimpleNamespace

    from slidelab import _clock
    from slidelab.errors import SearchLimitError

    solve_module = importlib.import_module("slidelab.search.solve")

    now = [100.0]
    monkeypatch.setattr(_clock, "time", SimpleNamespace(perf_counter=lambda: now[0]))

    def compiles_then_stops(request):
        _clock.compiling_started()
        now[0] += 9.4
        _clock.compiling_ended()
        now[0] += 0.5
        raise SearchLimitError("stopped at the time limit", lower_bound=40)

    monkeypatch.setattr(solve_module, "solve_request", compiles_then_stops)
    h = hint(slidelab.random_board("5x5", seed=1), time_limit=2)
    assert h.distance is None and h.lower_bound >= 40
    assert h.seconds == pytest.approx(0.5)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_hinted_move_is_one_closer(seed):
    board = slidelab.random_board("3x3", seed=seed)
    table = goal_table(Board("1 2 3/4 5 6/7 8 0"))
    h = hint(board)
    assert h.distance == table.distance(board)
    if h.distance:
        assert table.distance(apply_moves(board, [h.move])) == h.distance - 1


def test_the_command_on_an_unsolvable_board_exits_1(cli):
    r = cli("compare", "2 1 3/4 5 6/7 8 0")
    assert r.exit_code == 1 and "unsolvable" in r.output and "Traceback" not in r.output
