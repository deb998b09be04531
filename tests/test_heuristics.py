"""Heuristics: admissibility against exact distances, incremental updates, pattern databases."""

import random

import numpy as np
import pytest

from korf import instances
from reference import exact_distances, successors
from slidelab import Board, Puzzle, make_heuristic, random_board, solve, solve_all
from slidelab.heuristics.pdb import pattern_database
from slidelab.tables.pdb.layout import parse_partition, reflection


@pytest.fixture(scope="module")
def spaces():
    return {size: exact_distances(Board.solved(*size)) for size in ((3, 3), (4, 2))}


HEURISTIC_CASES = [
    ("manhattan", None),
    ("linear-conflict", None),
    ("pdb", None),
    ("pdb", "1,2,3,4/5,6,7"),
    ("pdb", "1,2/3,4,5/6,7"),
]


@pytest.mark.parametrize("name,partition", HEURISTIC_CASES)
@pytest.mark.parametrize("size", [(3, 3), (4, 2)])
def test_admissible_on_2000_random_states(spaces, size, name, partition):
    dist = spaces[size]
    goal = Board.solved(*size)
    puzzle = Puzzle(goal, goal)
    if partition is not None and size == (3, 3):
        partition += ",8"
    heur = make_heuristic(puzzle, name, partition=partition)
    assert heur.admissible
    rng = random.Random(hash((size, name, partition)) & 0xFFFF)
    states = rng.sample(sorted(dist), 2000)
    exact_hits = 0
    for cells in states:
        value = heur.value(puzzle.encode(Board.from_cells(cells, *size)))
        assert value <= dist[cells], (cells, name, value, dist[cells])
        exact_hits += value == dist[cells]
    if name == "pdb" and partition is None:  # a full table on 8 cells is exact
        assert exact_hits == 2000


@pytest.mark.parametrize("name", ["manhattan", "linear-conflict", "pdb"])
def test_incremental_updates_match_recomputation(name):
    goal = Board.solved(4, 4, blank_first=True)  # shares its tables with the Korf tests
    puzzle = Puzzle(goal, goal)
    heur = make_heuristic(puzzle, name)
    rng = random.Random(3)
    codes = puzzle.encode(random_board(goal=goal, seed=4))
    data, h = heur.prepare(codes, 200)
    nbr = puzzle.neighbours
    blank = int(np.flatnonzero(codes == 0)[0])
    for depth in range(150):
        nb = int(rng.choice([c for c in nbr[blank] if c >= 0]))
        tile = int(codes[nb])
        codes[blank], codes[nb] = tile, 0
        h = heur.move(data, codes, depth, h, tile, nb, blank)
        assert h == heur.value(codes)
        blank = nb


def test_default_partitions():
    korf = Puzzle("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", blank_first=True, size="4x4")
    groups = parse_partition(korf, None)
    assert sorted(len(g) for g in groups) == [3, 6, 6]
    assert sorted(len(g) for g in parse_partition(korf, "7-8")) == [7, 8]
    assert reflection(korf) is not None
    assert reflection(Puzzle("1 2 3/4 5 6/7 0 8")) is not None
    assert parse_partition(Puzzle("1 2 3/4 5 6/7 0 8"), None) == [[1, 2, 3, 4, 5, 6, 7, 8]]
    with pytest.raises(ValueError, match="every tile label in exactly one group"):
        parse_partition(korf, "1,2,3/4,5")


def test_pdb_tables_cached(cache, monkeypatch):
    import importlib

    from slidelab.cache import list_tables

    loaded = importlib.import_module("slidelab.tables.loaded")
    puzzle = Puzzle("1 2 3/4 5 6/7 0 8")
    seen = []
    pattern_database(puzzle, "1,2,3,4/5,6,7,8", progress=lambda f, m: seen.append(f))
    assert seen and len(list_tables()) == 2 and all(t["valid"] for t in list_tables())
    monkeypatch.setattr(loaded, "LOADED", loaded.Loaded())
    again = []
    pattern_database(puzzle, "1,2,3,4/5,6,7,8", progress=lambda f, m: again.append(f))
    assert again == []  # loaded, not rebuilt


@pytest.mark.parametrize("heuristic", ["pdb", "abstraction"])
def test_tables_asked_for_by_threads_at_once_are_loaded_once(cache, monkeypatch, heuristic):
    # the searches of a stream start together, each asking for its heuristic's tables: one
    # thread loads them while the others wait for it (each had read its own copy: the
    # 15-puzzle's 7-8 tables twice on two cores, 1.2 GB instead of 0.6)
    import importlib
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from slidelab.tables.family import Tables

    loaded = importlib.import_module("slidelab.tables.loaded")
    puzzle = Puzzle("1 2 3/4 5 6/7 0 8")
    make_heuristic(puzzle, heuristic)  # built and cached
    monkeypatch.setattr(loaded, "LOADED", loaded.Loaded())
    loads, real, asked = [], Tables.load, threading.Barrier(4)

    def load(self, progress=None):
        loads.append(self)
        time.sleep(0.3)  # the other threads ask meanwhile
        return real(self, progress)

    def ask(_):
        asked.wait()
        return make_heuristic(puzzle, heuristic).value(puzzle.start_codes)

    monkeypatch.setattr(Tables, "load", load)
    with ThreadPoolExecutor(4) as pool:
        made = list(pool.map(ask, range(4)))
    assert len(loads) == 1 and made == [1] * 4


def test_a_value_whose_make_failed_is_made_by_the_next_thread():
    from slidelab.tables.loaded import Loaded

    held, calls = Loaded(), []

    def make():
        calls.append(1)
        if len(calls) == 1:
            raise OSError("the disk went away")
        return "made", [], 5

    with pytest.raises(OSError):
        held.made(("k",), make)
    assert held.made(("k",), make) == "made" and held.made(("k",), make) == "made"
    assert len(calls) == 2 and held.keys() == [("k",)]


def test_tables_are_mapped_from_the_cache_not_read(cache, monkeypatch):
    # a heuristic's tables are memory-mapped from the cache, whatever their size: read into
    # memory (huge pages) they cost 0.1-1.3 s a process and a copy each, for searches as fast
    # (docs/benchmarks.md#loading-the-tables)
    import importlib

    def mapped(table):  # a view of a memory map, however many views deep
        while table is not None and not isinstance(table, np.memmap):
            table = table.base
        return table is not None

    loaded = importlib.import_module("slidelab.tables.loaded")
    puzzle = Puzzle("1 2 3/4 5 6/7 0 8")
    pattern_database(puzzle, "1,2,3,4/5,6,7,8")  # built, then
    monkeypatch.setattr(loaded, "LOADED", loaded.Loaded())
    db = pattern_database(puzzle, "1,2,3,4/5,6,7,8")  # loaded
    assert all(mapped(t) and not t.flags.writeable for t in db.tables)
    assert solve(puzzle, method="idastar", heuristic="pdb").length == 1


def test_a_group_in_another_order_has_its_own_cached_table(cache, monkeypatch):
    # a table is indexed by its tiles in the group's order: the same tiles in another order
    # must not load it (it gave inadmissible values, and so "optimal" answers that were not)
    import importlib

    loaded = importlib.import_module("slidelab.tables.loaded")
    puzzle = Puzzle("1 2 3/4 5 6/7 0 8")
    forward = pattern_database(puzzle, "1,2,3,4/5,6,7,8", reflect=False).heuristic()
    monkeypatch.setattr(loaded, "LOADED", loaded.Loaded())
    backward = pattern_database(puzzle, "4,3,2,1/8,7,6,5", reflect=False).heuristic()
    rng = random.Random(5)
    for _ in range(200):
        codes = puzzle.encode(Board(random_board("3x3", seed=rng.randrange(10**9))))
        assert forward.value(codes) == backward.value(codes)


LINE = "ABA_/CDCD/ABAB/CDCD"


@pytest.mark.parametrize(
    "goal,length,count",
    [
        ("ABA_/CABD/ACDB/CDCD", 16, 4),
        ("ABA_/CCAD/ADBB/CDCD", 12, 1),
        ("ACA_/CDCA/DBAB/CDBD", 30, 3),
    ],
)
def test_line_puzzle(goal, length, count):
    solutions = solve_all(LINE, goal)
    assert len(solutions) == count
    assert {s.length for s in solutions} == {length}
    assert len({s.notation for s in solutions}) == count
    assert solve(LINE, goal, method="idastar").length == length


def test_line_puzzle_with_pattern_databases():
    solutions = solve_all(LINE, "ABA_/CABD/ACDB/CDCD", heuristic="pdb")
    assert len(solutions) == 4 and solutions[0].length == 16


def count_shortest_paths(start: Board, goal: Board) -> tuple[int, int]:
    dist = exact_distances(goal)
    w, h = goal.width, goal.height
    memo = {}

    def ways(cells):
        if dist[cells] == 0:
            return 1
        if cells not in memo:
            memo[cells] = sum(
                ways(nxt) for nxt in successors(cells, w, h) if dist[nxt] == dist[cells] - 1
            )
        return memo[cells]

    return dist[start.cells], ways(start.cells)


@pytest.mark.parametrize("seed", range(8))
def test_all_solutions_counted_exactly(seed):
    goal = Board.solved(3, 2) if seed % 2 else Board("A A B/B C 0")
    start = random_board(goal=goal, seed=seed)
    length, ways = count_shortest_paths(start, goal)
    solutions = solve_all(start, goal)
    assert len(solutions) == ways and all(s.length == length for s in solutions)
    assert len(solve_all(start, goal, limit=1)) == 1


def _korf(n):
    """Korf's first ``n`` instances: ``(board text, optimal length)``."""
    return [(p.start.format(), known) for _, p, known in instances()[:n]]


@pytest.mark.parametrize("board,known", _korf(20))
def test_korf_instances_with_the_default(board, known):
    s = solve(board, blank_first=True, size="4x4")
    assert s.method == "idastar" and s.optimal
    assert s.length == known


def test_weighted_idastar_with_pdb_is_bounded():
    board, known = _korf(3)[2]
    s = solve(board, blank_first=True, size="4x4", method="idastar", heuristic="pdb", weight=1.5)
    assert known <= s.length <= 1.5 * known and not s.optimal


def test_auto_answers_a_big_board_bounded_without_tables():
    # no table for a 6x6 is worth its build: weighted A* (w = 2) with a heuristic of no table
    s = solve(random_board("6x6", seed=1))
    assert s.method == "weighted-astar" and not s.optimal and s.stats.stored > 0


def test_options_make_the_same_estimate_for_another_goal(cache):
    # Heuristic.options: what make_heuristic needs to build the same estimate for another goal
    # of the same tiles (bidirectional search builds its backward estimate so)
    puzzle = Puzzle("A C B/D 0 E/F G H", "A B C/D E F/G H 0")
    h = make_heuristic(puzzle, "pdb", partition="a,b,c/d,e,f,g,h")
    assert h.options == {"partition": [["A", "B", "C"], ["D", "E", "F", "G", "H"]]}
    turned = Puzzle(puzzle.goal, puzzle.start)
    back = make_heuristic(turned, h.name, cache=False, **h.options)
    assert back.value(turned.goal_codes) == 0 and back.value(turned.start_codes) > 0
    assert len(list(cache.iterdir())) == 2  # the forward groups' tables; none backward
    for name in ("manhattan", "linear-conflict", "zero"):
        assert make_heuristic(puzzle, name).options == {}
