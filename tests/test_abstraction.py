"""The abstraction heuristic: the exact distance of a relabelled goal, over the board's images.

Checked against exact distances of every position (a plain dictionary search,
:func:`reference.exact_distances`, on the 2x4 and a lettered board; the engine's own
distance table on the 3x3), in both metrics, with classes coarse enough that the estimate
is not the distance itself.
"""

from __future__ import annotations

import importlib
import logging

import numpy as np
import pytest

import slidelab
from reference import exact_distances
from slidelab import Board, Puzzle
from slidelab.analysis import DistanceTable
from slidelab.errors import SlidelabError
from slidelab.generate import scramble
from slidelab.heuristics import make_heuristic
from slidelab.heuristics.abstraction import abstraction
from slidelab.moves import legal_moves
from slidelab.puzzle import goal_board
from slidelab.search.options import check_options
from slidelab.tables.abstraction import (
    FIFTEEN,
    FINE,
    MAX_STATES,
    ROKICKI,
    ROWS,
    abstraction_goal,
    abstraction_goals,
    goal_symmetries,
    named_relabellings,
)
from slidelab.tables.family import Cost, Tables
from slidelab.tables.index import Space

pytestmark = pytest.mark.usefixtures("module_cache")

#: (goal, classes): a relabelling that merges tiles, on boards small enough to enumerate
COARSE = [
    ("1 2 3 4/5 6 7 0", "1 1 2 2/3 3 2 0"),
    ("A B A B/B A 0 A", "1 1 1 1/1 1 0 1"),
]


def _solved(size: str, blank_first: bool = False) -> Puzzle:
    goal = goal_board(size=size, blank_first=blank_first)
    return Puzzle(goal, goal)


def _codes(puzzle: Puzzle, cells) -> list[int]:
    code = {label: i + 1 for i, label in enumerate(puzzle.labels)}
    code[0] = 0
    return [code[c] for c in cells]


@pytest.mark.parametrize("metric", ["stm", "mtm"])
@pytest.mark.parametrize(("goal", "classes"), COARSE)
def test_a_coarse_abstraction_never_overestimates_anywhere(goal, classes, metric):
    dist = exact_distances(Board(goal), metric)
    puzzle = Puzzle(Board(goal), Board(goal))
    h = abstraction(puzzle, metric, classes=classes)
    assert h.metric == metric and h.admissible
    values = {cells: h.value(_codes(puzzle, cells)) for cells in dist}
    assert values[Board(goal).cells] == 0
    over = [(cells, v, dist[cells]) for cells, v in values.items() if v > dist[cells]]
    assert not over[:5]
    assert any(v < dist[cells] for cells, v in values.items())  # an estimate, not the table


@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_several_tables_give_the_largest_of_their_estimates(metric):
    goal = "1 2 3 4/5 6 7 0"
    dist = exact_distances(Board(goal), metric)
    puzzle = Puzzle(Board(goal), Board(goal))
    one, two = "1 1 2 2/3 3 2 0", "1 2 2 1/1 2 2 0"
    both = abstraction(puzzle, metric, classes=[one, two])
    alone = [abstraction(puzzle, metric, classes=c) for c in (one, two)]
    gained = 0
    for cells, d in dist.items():
        codes = _codes(puzzle, cells)
        values = [h.value(codes) for h in alone]
        assert both.value(codes) == max(values) <= d
        gained += values[1] > values[0]
    assert gained  # the second table is higher somewhere


@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_the_estimate_is_the_largest_over_the_mirror_images(metric):
    """On the 3x3 (blank in a corner) the images are the board and its transpose, the tiles
    renamed: each read from the relabelled goal's table as a board of its own."""
    goal = Board("1 2 3/4 5 6/7 8 0")
    classes = "1 1 2/1 2 2/3 3 0"
    puzzle = Puzzle(goal, goal)
    h = abstraction(puzzle, metric, classes=classes)
    table = DistanceTable.build(abstraction_goal(puzzle, classes), metric=metric)
    exact = DistanceTable.build(goal, metric=metric)
    images = goal_symmetries(puzzle.goal_codes, 3, 3)
    assert len(images) == 2
    cls = {1: 1, 2: 1, 3: 2, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3, 0: 0}
    rng = np.random.default_rng(5)
    higher = 0
    for _ in range(200):
        board = Board.from_cells(tuple(rng.permutation(9).tolist()), 3, 3)
        if not slidelab.is_solvable(board, goal):
            continue
        cells = board.cells
        reads = []
        for cell_map, sigma in images:
            image = [0] * 9
            for c in range(9):
                image[int(cell_map[c])] = cls[sigma[cells[c]]]
            reads.append(table.distance(Board.from_cells(tuple(image), 3, 3)))
        value = h.value(_codes(puzzle, cells))
        assert value == max(reads) <= exact.distance(board)
        higher += reads[1] > reads[0]
    assert higher > 0  # the transpose pays somewhere


def _byte_tables(monkeypatch):
    """MTM tables built from here on keep a byte a position, as those cached before the two-bit
    encoding did."""
    from slidelab.tables import pack

    monkeypatch.setattr(pack, "pack_mod3", lambda depth: depth)


@pytest.mark.slow  # A* in MTM with abstraction tables: a kernel of its own, 74-80 s of compiling
@pytest.mark.parametrize("goal", ["1 2 3/4 5 6/7 8 0", "A B A B/B A 0 A"])
def test_two_bit_tables_estimate_as_the_bytes_in_every_search(goal, monkeypatch):
    """The MTM tables keep each distance modulo 3, decoded from the parent's distance: the
    estimates, and so every search's nodes, are those of a byte a position.  Both kinds of
    table in one set are read too (each decoded by its own encoding)."""
    from slidelab.search.astar import astar
    from slidelab.search.idastar import idastar
    from slidelab.tables.pack import pack_mod3 as two_bits

    puzzle = Puzzle(Board(goal), Board(goal))
    classes = ["1 1 2/1 2 2/3 3 0", "1 2 2/1 1 2/3 3 0"] if "1" in goal else None
    two = abstraction(puzzle, "mtm", classes=classes, cache=False)
    _byte_tables(monkeypatch)
    byte = abstraction(puzzle, "mtm", classes=classes, cache=False)
    g = Board(goal)
    dist = exact_distances(g, "mtm")
    rng = np.random.default_rng(7)
    cells = list(dist)
    for i in rng.choice(len(cells), min(300, len(cells)), replace=False):
        codes = _codes(puzzle, cells[i])
        assert two.value(codes) == byte.value(codes) <= dist[cells[i]]
    for i in rng.choice(len(cells), 6, replace=False):
        board = Board.from_cells(cells[i], g.width, g.height)
        p = Puzzle(board, g)
        for search in (idastar, astar):
            a, b = (search(p, heuristic=h, metric="mtm") for h in (two, byte))
            assert a.length == b.length == dist[cells[i]]
            assert a.stats.generated == b.stats.generated, search
    if classes is not None:  # the first table in two bits, the second a byte a position
        from slidelab.tables import pack

        made = []
        monkeypatch.setattr(
            pack,
            "pack_mod3",
            lambda depth: made.append(1) or (depth if len(made) > 1 else two_bits(depth)),
        )
        mixed = abstraction(puzzle, "mtm", classes=classes, cache=False)
        assert len(made) == 2
        for i in rng.choice(len(cells), 300, replace=False):
            codes = _codes(puzzle, cells[i])
            assert mixed.value(codes) == byte.value(codes)
        board = Board.from_cells(cells[int(rng.integers(len(cells)))], g.width, g.height)
        a, b = (idastar(Puzzle(board, g), heuristic=h, metric="mtm") for h in (mixed, byte))
        assert a.stats.generated == b.stats.generated


def test_a_two_bit_distance_table_reads_distances_by_walking_to_the_goal():
    """A two-bit table's distance is the walk downhill to the goal: the solution read from it
    is as long, and positions the goal cannot reach are said so."""
    table = DistanceTable.build("3x2", metric="mtm", cache=False)
    assert table.encoding == "2-bit" and table.nbytes == (360 + 3) // 4
    dist = exact_distances(Board("1 2 3/4 5 0"), "mtm")
    for cells, d in list(dist.items())[::7]:
        board = Board.from_cells(cells, 3, 2)
        assert table.distance(board) == d == table.solve(board).length
        for move in legal_moves(3, 2, cells.index(0), "mtm"):
            near = board.apply([move])
            assert table.beside(near, d) == dist[near.cells]  # one read
    with pytest.raises(slidelab.UnsolvableError):
        table.distance("2 1 3/4 5 0")


def test_the_15_puzzles_relabelling_turned_to_the_goals_blank():
    ordered = _solved("4x4")
    assert abstraction_goal(ordered).cells == FINE
    # Rokicki's, with its pair apart (and tile 13 apart: the fine one)
    assert tuple(0 if a == 0 else max(1, a - 1) for a in FIFTEEN) == ROKICKI
    assert tuple(4 if a == 6 else a for a in FINE) == FIFTEEN
    assert [b.cells for b in abstraction_goals(ordered)] == [FINE]
    korf = _solved("4x4", blank_first=True)
    assert abstraction_goal(korf) == Board("0 5 5 6/5 5 4 4/3 3 4 4/3 3 2 1")
    turned = named_relabellings(korf, [FIFTEEN, ROWS])
    assert tuple(turned[0]) == Board("0 5 5 4/5 5 4 4/3 3 4 4/3 3 2 1").cells
    assert tuple(turned[1]) == Board("0 5 3 3/4 3 3 3/2 2 2 2/1 1 1 1").cells
    assert Space(abstraction_goal(ordered), "mtm").states == 1_513_512_000
    assert Space(Board.from_cells(FIFTEEN, 4, 4), "mtm").states == 302_702_400
    assert Space(Board.from_cells(ROKICKI, 4, 4), "mtm").states == 151_351_200


def test_elsewhere_the_most_classes_that_fit():
    for goal, expected in [
        ("1 2 3/4 5 6/7 8 0", "1 2 3/4 5 6/7 8 0"),  # the whole space fits: the exact table
        # the line puzzle's 252,252,000 do not: cut into quarters of the tiles, B and C share
        # one (a label is never split); 7,207,200 positions
        ("ABA_/CDCD/ABAB/CDCD", "1 2 1 0/2 3 2 3/1 2 1 2/2 3 2 3"),
    ]:
        assert abstraction_goal(Puzzle(Board(goal), Board(goal))) == Board(expected)
    five = abstraction_goal(_solved("5x3"))
    assert Space(five).states <= MAX_STATES
    assert len(set(five.cells)) - 1 == 4  # 4 classes of 14 tiles: 63,063,000 positions
    assert Space(five).states == 63_063_000


@pytest.mark.parametrize(
    ("classes", "why"),
    [
        ("1 1 2 2/3 3 4 0", "not of a 3x3 board"),
        ("0 1 2/2 3 3/4 4 1", "blank on the goal's"),
        ("1 1 2/2 3 3/4 4 0", None),
    ],
)
def test_classes_are_checked(classes, why):
    puzzle = _solved("3x3")
    if why is None:
        assert abstraction_goal(puzzle, classes) == Board(classes)
        return
    with pytest.raises(SlidelabError, match=why):
        abstraction_goal(puzzle, classes)


def test_classes_may_not_split_a_label():
    puzzle = Puzzle(Board("A B A B/B A 0 A"), Board("A B A B/B A 0 A"))
    with pytest.raises(SlidelabError, match="split a label"):
        abstraction_goal(puzzle, "1 2 1 2/2 1 0 3")


def test_made_by_name_in_mtm_with_no_divisor():
    h = make_heuristic(Puzzle("8 6 7/2 5 4/3 0 1"), "abs", metric="mtm")
    assert (h.name, h.metric, h.divisor) == ("abstraction", "mtm", 1)
    assert h.value(Puzzle("8 6 7/2 5 4/3 0 1").start_codes) == 20  # the 3x3: the exact table


# ---------------------------------------------------------------------------- auto, and the CLI

#: a relabelling of the 15-puzzle that builds at once (102,960 positions), standing in for
#: the two used (303 million positions each, 89 s to build both) where a test builds the table
COARSE_FIFTEEN = [1] * 8 + [2] * 7 + [0]


@pytest.fixture
def coarse(monkeypatch, cache):
    module = importlib.import_module("slidelab.tables.abstraction")
    monkeypatch.setattr(module, "FIFTEEN_TABLES", (COARSE_FIFTEEN,))
    monkeypatch.setattr(module, "FIFTEEN_LADDER", ((COARSE_FIFTEEN,),))
    return cache


def test_auto_in_mtm_solves_a_near_fifteen_puzzle_without_the_table(coarse, caplog):
    near = scramble(12, "4x4", seed=3)
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = slidelab.solve(near, metric="mtm")
    assert s.optimal and s.metric == "mtm"
    assert "building the abstraction table" not in caplog.text
    assert not list(coarse.rglob("*.slt"))


def test_auto_in_mtm_probes_then_builds_the_abstraction_table_saying_so(
    coarse, caplog, monkeypatch
):
    policy = importlib.import_module("slidelab.search.policy")
    monkeypatch.setattr(policy, "PROBE_MIN", 0.0)  # the probe gives up at once
    far = scramble(80, "4x4", seed=4)
    with caplog.at_level(logging.INFO, logger="slidelab"):
        s = slidelab.solve(far, metric="mtm")
    assert "searching with walking-distance alone" in caplog.text
    announce = caplog.text.index("building the abstraction table of the 4x4 goal (MTM, ")
    assert "102,960 positions" in caplog.text[announce:]
    assert s.optimal
    exact = slidelab.solve(far, method="idastar", heuristic="walking-distance", metric="mtm")
    assert s.length == exact.length


#: a second coarse relabelling (by columns, as many positions) for the ladder's second rung
COARSE_COLUMNS = [1, 2, 1, 2] * 3 + [1, 2, 1, 0]


def test_auto_climbs_to_the_second_table_only_when_the_first_is_too_slow(
    cache, caplog, monkeypatch
):
    """The 15-puzzle's ladder: the first table alone, then both; the second is built only when
    the search with the first is predicted to take longer than that build."""
    module = importlib.import_module("slidelab.tables.abstraction")
    policy = importlib.import_module("slidelab.search.policy")
    monkeypatch.setattr(module, "FIFTEEN_TABLES", (COARSE_FIFTEEN, COARSE_COLUMNS))
    monkeypatch.setattr(
        module, "FIFTEEN_LADDER", ((COARSE_FIFTEEN,), (COARSE_FIFTEEN, COARSE_COLUMNS))
    )
    fifteen = Puzzle(scramble(80, "4x4", seed=4))
    rungs = policy.rungs(fifteen, check_options(metric="mtm"))
    assert [len(r.tables.which) for r in rungs] == [1, 2]
    assert rungs[0].name() == "the abstraction table of the 4x4 goal (MTM, 102,960 positions)"
    assert rungs[1].name() == (
        "the 2 abstraction tables of the 4x4 goal (MTM, 102,960 + 102,960 positions)"
    )

    monkeypatch.setattr(policy, "PROBE_MAX", 0.0)  # the probe gives up at once
    real = Tables.cost

    def costing(seconds):  # the second rung's build "takes" this long
        def cost(self):
            if self.family == "abstraction" and len(self.which) == 2 and not self.ready():
                return Cost(seconds, 0.0, 0, 205_920, 1, 2)
            return real(self)

        monkeypatch.setattr(Tables, "cost", cost)

    costing(3600.0)
    with caplog.at_level(logging.INFO, logger="slidelab"):
        slow = slidelab.solve(fifteen.start, metric="mtm")  # the second build "takes an hour"
    assert caplog.text.count("building the abstraction table of") == 1
    assert rungs[0].tables.ready() and not rungs[1].tables.ready()

    costing(0.0)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="slidelab"):
        quick = slidelab.solve(fifteen.start, metric="mtm")  # the second build is "free"
    assert "on to the 2 abstraction tables" in caplog.text
    assert rungs[1].tables.ready()
    assert slow.optimal and quick.optimal and slow.length == quick.length


def test_tables_build_makes_the_abstraction_table(coarse, cli):
    result = cli("tables", "build", "4x4", "--heuristic", "abstraction")
    assert result.exit_code == 0, result.output
    assert "102,960 positions" in result.output and result.output.rstrip().endswith("ready")
    assert len(list(coarse.rglob("*.slt"))) == 1
    refused = cli("tables", "build", "4x4", "--heuristic", "abstraction", "--partition", "7-8")
    assert refused.exit_code != 0 and "pattern databases" in refused.output
    columns = Board.from_cells(COARSE_COLUMNS, 4, 4).format()
    both = cli(
        "tables", "build", "4x4", "--heuristic", "abstraction", "--classes", columns,
        "--classes", Board.from_cells(COARSE_FIFTEEN, 4, 4).format(),
    )  # fmt: skip
    assert both.exit_code == 0, both.output
    assert "102,960 + 102,960 positions" in both.output
    assert len(list(coarse.rglob("*.slt"))) == 2
    wrong = cli("tables", "build", "4x4", "--classes", columns)
    assert wrong.exit_code == 2 and "abstraction" in wrong.output


@pytest.mark.slow
def test_the_mtm_antipode_is_43_moves():
    """The 15-puzzle's MTM antipode (Norskog and Davidson 2010): 43 moves, proven optimal (the
    tables built first, 30 s and 149 s; the search a quarter of a minute on 2 cores)."""
    s = slidelab.solve("1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0", metric="mtm")
    assert (s.length, s.optimal, s.metric) == (43, True, "mtm")
    assert s.method == "idastar"


def test_chosen_classes_are_in_the_options_that_make_the_same_tables_again(cache):
    """A cluster's worker makes the heuristic again from its name and options: the relabelled
    goals chosen travel with it (the default set needs none)."""
    fifteen = Puzzle(scramble(20, "4x4", seed=5))
    chosen = Board.from_cells(COARSE_FIFTEEN, 4, 4).format()
    h = make_heuristic(fifteen, "abstraction", metric="mtm", classes=[chosen])
    assert h.options == {"classes": [chosen]}
    again = make_heuristic(fifteen, h.name, metric=h.metric, **h.options)
    assert again.description == h.description
    assert again.value(fifteen.start_codes) == h.value(fifteen.start_codes)
