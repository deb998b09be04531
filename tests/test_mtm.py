"""The multi-tile metric (MTM): a slide of several tiles in one line is one move.

Every MTM answer is checked against a plain dictionary breadth-first search
(:func:`reference.exact_distances` with ``metric="mtm"``): the distance tables on every
position of the 3x3, the 2x4 and a lettered board; the whole-space analysis (the 3x3's MTM
diameter is 24); every optimal method; every heuristic's admissibility on every position;
and the count of all optimal solutions against a count of shortest paths.
"""

from __future__ import annotations

import functools
import random

import pytest

import slidelab
from reference import exact_distances, successors
from slidelab import Board, Puzzle
from slidelab.analysis import DistanceTable, analyze
from slidelab.heuristics import make_heuristic
from slidelab.heuristics.registry import HEURISTICS
from slidelab.search.registry import METHODS
from slidelab.tables.layers import search_layers

#: goals whose every position is checked: the ordered 3x3 and 2x4, and a board with repeated labels
GOALS = ("1 2 3/4 5 6/7 8 0", "1 2 3 4/5 6 7 0", "A B A B/B A 0 A")
#: positions each optimal method solves per goal (plus the goal's hardest position)
SOLVED = 12


#: the tables built here go to a cache of this module (conftest's ``module_cache``)
pytestmark = pytest.mark.usefixtures("module_cache")


@functools.cache
def exact(goal: str) -> dict:
    return exact_distances(Board(goal), "mtm")


def _boards(goal: str, n: int, seed: int) -> list[Board]:
    dist = exact(goal)
    cells = sorted(dist, key=lambda c: (-dist[c], str(c)))
    rng = random.Random(seed)
    picked = [cells[0]] + rng.sample(cells, n)
    g = Board(goal)
    return [Board.from_cells(c, g.width, g.height) for c in picked]


@pytest.mark.parametrize(
    "goal",
    # the 8-puzzle's 181,440 positions against a plain Python search
    [pytest.param(GOALS[0], marks=pytest.mark.slow), *GOALS[1:]],
)
def test_distance_table_matches_a_plain_search_on_every_position(goal):
    """Every position's distance read from a byte a position; the two-bit table holds exactly
    those distances modulo 3; its reader (a walk down to the goal, a Python loop a move) on the
    hardest position and a sample, every position where the space is small."""
    from slidelab.tables.pack import pack_mod3

    dist = exact(goal)
    table = DistanceTable.build(goal, metric="mtm")
    assert table.metric == "mtm" and table.encoding == "2-bit"
    space = table.space
    assert space.states == len(dist) and table.nbytes == (space.states + 3) // 4
    # a table cached before the two-bit encoding: a byte a position, read as it is
    depths = search_layers(space, record=True, limit=0).depth
    legacy = DistanceTable(space, depths)
    assert legacy.encoding == "byte"
    assert (table.data == pack_mod3(depths)).all()  # every position, modulo 3
    g = Board(goal)
    cells = sorted(dist, key=lambda c: (-dist[c], str(c)))
    sample = cells if len(cells) <= 2000 else cells[:1] + random.Random(3).sample(cells, 400)
    for each, positions in ((legacy, cells), (table, sample)):
        wrong = [
            (c, dist[c])
            for c in positions
            if each.distance(Board.from_cells(c, g.width, g.height)) != dist[c]
        ]
        assert not wrong[:5]


def test_the_3x3_in_mtm_has_diameter_24():
    stats = analyze("3x3", metric="mtm")
    dist = exact("1 2 3/4 5 6/7 8 0")
    assert stats.diameter == 24 == max(dist.values())
    assert list(stats.counts) == [
        sum(1 for d in dist.values() if d == k) for k in range(stats.diameter + 1)
    ]
    assert stats.hardest == (Board("1 4 7/2 0 8/3 6 5"),) and stats.metric == "mtm"
    # the STM analysis of the same goal is unchanged
    assert analyze("3x3").diameter == 31


@pytest.mark.parametrize(
    "name", [m for m, entry in METHODS.items() if entry.optimal and "mtm" in entry.metrics]
)
@pytest.mark.parametrize("goal", GOALS)
def test_optimal_methods_give_exact_mtm_lengths(name, goal):
    dist = exact(goal)
    for board in _boards(goal, SOLVED, seed=len(name)):
        s = slidelab.solve(board, Board(goal), method=name, metric="mtm")
        assert s.metric == "mtm" and s.optimal, (name, board)
        assert s.length == dist[board.cells], (name, board, s.notation)
        assert s.length == s.length_mtm <= s.length_stm


#: (heuristic, goal) pairs whose whole-space check is the slow step's: 10-15 s each of Python
#: looking every 8-puzzle position up one by one
_SLOW_CHECKS = {("walking-distance", GOALS[0]), ("pdb", GOALS[0]), ("pdb-dual", GOALS[0])}


@pytest.mark.parametrize(
    ("goal", "name"),
    [
        pytest.param(goal, name, marks=[pytest.mark.slow] if (name, goal) in _SLOW_CHECKS else [])
        for goal in GOALS
        for name in [h for h in HEURISTICS if HEURISTICS[h].admissible]
    ],
)
def test_admissible_heuristics_never_overestimate_mtm_anywhere(name, goal):
    """Every position of the board, not a sample."""
    dist = exact(goal)
    puzzle = Puzzle(Board(goal), Board(goal))
    h = make_heuristic(puzzle, name, metric="mtm")
    assert h.metric == "mtm"
    codes = {label: i + 1 for i, label in enumerate(puzzle.labels)}
    codes[0] = 0
    over = []
    for cells, d in dist.items():
        value = h.value([codes[c] for c in cells])
        if value > d:
            over.append((cells, value, d))
    assert not over[:5]


def _count_shortest(goal: str, board: Board) -> int:
    """Shortest MTM paths from ``board`` to ``goal``, counted over the exact distances."""
    dist = exact(goal)
    w, h = board.width, board.height

    @functools.cache
    def paths(cells) -> int:
        if dist[cells] == 0:
            return 1
        return sum(
            paths(nxt) for nxt in successors(cells, w, h, "mtm") if dist[nxt] == dist[cells] - 1
        )

    return paths(board.cells)


@pytest.mark.parametrize("goal", GOALS)
def test_all_optimal_solutions_are_every_shortest_path(goal):
    for board in _boards(goal, 4, seed=7):
        # with the metric's Manhattan: IDA*'s kernels with the pattern databases in MTM, 20 s
        # to compile on a first run, are no other test's of the README's run
        solutions = slidelab.solve_all(board, Board(goal), metric="mtm", heuristic="manhattan")
        assert len({s.moves for s in solutions}) == len(solutions)
        assert len(solutions) == _count_shortest(goal, board), board
        assert {s.length for s in solutions} == {exact(goal)[board.cells]}


def test_the_line_puzzle_in_mtm():
    solutions = slidelab.solve_all("ABA_/CDCD/ABAB/CDCD", "ABA_/CABD/ACDB/CDCD", metric="mtm")
    assert [s.length for s in solutions] == [13] * 8
    stm = slidelab.solve_all("ABA_/CDCD/ABAB/CDCD", "ABA_/CABD/ACDB/CDCD")
    assert min(s.length_mtm for s in stm) >= 13


def test_a_heuristic_of_the_wrong_metric_is_not_optimal():
    puzzle = Puzzle("8 6 7/2 5 4/3 0 1")
    stm = make_heuristic(puzzle, "manhattan")
    assert not stm.admissible_in("mtm") and stm.admissible_in("stm")
    mtm = make_heuristic(puzzle, "manhattan", metric="mtm")
    assert mtm.admissible_in("mtm") and mtm.admissible_in("stm") and mtm.divisor == 2
    from slidelab.search.idastar import idastar, idastar_all

    assert not idastar(puzzle, heuristic=stm, metric="mtm").optimal
    with pytest.raises(slidelab.SlidelabError, match="admissible heuristic in MTM"):
        idastar_all(puzzle, heuristic=stm, metric="mtm")


def test_metric_is_checked_at_the_door():
    with pytest.raises(slidelab.SlidelabError, match="unknown metric 'htm'"):
        slidelab.solve("1 2 3/4 5 6/0 7 8", metric="htm")
    stm_only = [m for m, entry in METHODS.items() if entry.metrics == ("stm",)]
    for name in stm_only:  # refused by name, with the methods that do search in MTM
        with pytest.raises(slidelab.SlidelabError, match="does not search in MTM"):
            slidelab.solve("1 2 3/4 5 6/0 7 8", method=name, metric="mtm")
    s = slidelab.solve("1 2 3/4 5 6/0 7 8", metric="MTM")
    assert (s.length, s.length_stm, s.metric) == (1, 2, "mtm")
    names = {n: getattr(slidelab, n) for n in ("Solution", "Board", "Stats")}
    assert eval(repr(s), names) == s


# ---------------------------------------------------------------------------- the command line


def test_cli_solve_analyze_generate_in_mtm(cli, tmp_path):
    import json

    r = cli("solve", "8 6 7/2 5 4/3 0 1", "--metric", "mtm", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and (data["length"], data["metric"], data["length_stm"]) == (
        20,
        "mtm",
        31,
    )
    r = cli("solve", "8 6 7/2 5 4/3 0 1", "--metric", "mtm")
    assert r.exit_code == 0 and "solution: 20 MTM moves (31 STM), optimal" in r.stdout
    r = cli("analyze", "3x3", "--metric", "mtm", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and (data["diameter"], data["metric"]) == (24, "mtm")
    assert data["hardest"] == ["1 4 7/2 0 8/3 6 5"]
    r = cli("generate", "3x3", "-d", "23", "-n", "3", "--metric", "mtm", "--seed", "2")
    assert r.exit_code == 0
    boards = r.stdout.strip().splitlines()
    assert len(boards) == 3
    assert all(exact("1 2 3/4 5 6/7 8 0")[Board(b).cells] == 23 for b in boards)
    r = cli("generate", "3x3", "-d", "25", "--metric", "mtm")
    assert r.exit_code == 2 and "the 8-puzzle's diameter is 24" in r.stderr
    r = cli(
        "solve", "ABA_/CDCD/ABAB/CDCD", "--goal", "ABA_/CABD/ACDB/CDCD", "--all", "--metric", "mtm"
    )
    assert r.exit_code == 0 and "8 optimal solutions of 13 MTM moves" in r.stdout
    r = cli("solve", "1 2 3/4 5 6/0 7 8", "--metric", "htm")
    assert r.exit_code == 2 and "htm" in r.stderr
    path = tmp_path / "in.txt"
    path.write_text("8 6 7/2 5 4/3 0 1\n1 2 3/4 5 6/0 7 8\n")
    out_path = tmp_path / "out.jsonl"
    r = cli("batch", str(path), "-o", str(out_path), "--metric", "mtm", "--workers", "1")
    assert r.exit_code == 0, r.stderr
    records = [json.loads(line) for line in out_path.read_text().splitlines()]
    assert sorted((rec["length"], rec["metric"]) for rec in records) == [(1, "mtm"), (20, "mtm")]
