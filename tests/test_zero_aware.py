"""Zero-aware pattern databases: the builder's regions above the least, against a plain search.

A group's zero-aware count is the fewest moves of its tiles that bring them home from a
placement *with the blank on a given cell* (moving the blank through the cells the group leaves
free costs nothing). The reference here is a 0-1 breadth-first search over (placement, blank
cell); the builder gives the least over the blank (its table) and a bit per free cell where the
count is above it.
"""

import math
from collections import deque

import numpy as np
import pytest

import slidelab
from slidelab import Puzzle
from slidelab.analysis import DistanceTable
from slidelab.board import apply_moves
from slidelab.generate import random_board, random_boards
from slidelab.heuristics.pdb import pattern_database
from slidelab.heuristics.pdb.lookup import pdb_distinct_move
from slidelab.search.idastar import idastar
from slidelab.tables.pdb import distinct
from slidelab.tables.pdb.layout import GroupLayout, placement_index

GROUPS = [
    ("1 2 3/4 5 6/7 8 0", [1, 2, 3, 4]),
    ("1 2 3/4 5 6/7 8 0", [8, 6, 2, 5, 1, 3, 4]),  # two free cells: some placements unreachable
    ("1 2 3 4/5 6 7 0", [1, 2, 3, 4, 5]),
    ("0 1 2/3 4 5/6 7 8", [5, 7, 8]),
    ("1 2 3/4 5 6/7 8 9/10 11 0", [11, 3]),
    # 18 free cells, about as many as the 24-puzzle's 6-tile groups leave (19)
    ("1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 0", [1, 7]),
]


def zero_aware_counts(puzzle: Puzzle, codes: list[int]) -> dict:
    """``{(cells of the group's tiles, blank cell): count}`` for every state reached."""
    goal = puzzle.goal_codes
    home = tuple(int(np.flatnonzero(goal == c)[0]) for c in codes)
    start = (home, int(puzzle.goal.blank))
    count = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        cells, blank = state
        for nb in puzzle.neighbours[blank]:
            nb = int(nb)
            if nb < 0:
                continue
            cost = 0
            moved = cells
            if nb in cells:  # a group tile slides into the blank: one move
                cost = 1
                moved = tuple(blank if c == nb else c for c in cells)
            after = (moved, nb)
            if after not in count or count[after] > count[state] + cost:
                count[after] = count[state] + cost
                if cost:
                    queue.append(after)
                else:
                    queue.appendleft(after)
    return count


@pytest.mark.parametrize("goal, codes", GROUPS)
def test_regions_above_the_least_are_the_plain_searchs(goal, codes):
    puzzle = Puzzle(goal)
    n, k = puzzle.width * puzzle.height, len(codes)
    table = distinct.build_distinct_table(puzzle, codes)
    whole = distinct.build_distinct_table(puzzle, codes, zero_aware=True)
    per = distinct.above_bytes(n, k)
    assert whole.shape == (table.shape[0] + distinct.zero_aware_bytes(n, k),)
    marked = whole[: table.shape[0]]
    assert np.array_equal(marked & distinct.VALUE, table)
    above = whole[table.shape[0] :]
    # a placement's entry is marked where, and only where, some bit of its own is set
    assert np.array_equal(
        marked >= distinct.ABOVE, above[: table.shape[0] * per].reshape(-1, per).any(axis=1)
    )
    mult = GroupLayout([codes], puzzle.label_counts, n, len(puzzle.labels) + 1).mult[0, :k]
    bits = above[: table.shape[0] * per]
    regions = above[table.shape[0] * per :].reshape(-1, n)  # a row per set of k cells
    assert regions.shape[0] == math.comb(n, k)
    counts = zero_aware_counts(puzzle, codes)
    least: dict = {}
    for (cells, _), value in counts.items():
        least[cells] = min(value, least.get(cells, value))
    reached = np.zeros(table.shape[0], bool)
    for (cells, blank), value in counts.items():
        index = int(placement_index(np.array(cells, np.int64), k, mult))
        reached[index] = True
        assert table[index] == least[cells]
        rise = value - least[cells]
        assert rise % 2 == 0  # every region of a placement has one parity
        # the set's rank among the sets of k cells in increasing order of mask
        rank = sum(math.comb(c, i + 1) for i, c in enumerate(sorted(cells)))
        region = int(regions[rank, blank])
        assert region != distinct.OUTSIDE and all(
            regions[rank, c] == distinct.OUTSIDE for c in cells
        )
        bit = (bits[index * per + region // 8] >> (region % 8)) & 1
        assert bit == (rise >= 2), (cells, blank, value, least[cells])
    assert not bits.reshape(-1, per)[~reached].any()  # placements never reached: no bits


def test_a_group_with_regions_above_its_least_has_some():
    puzzle = Puzzle("1 2 3/4 5 6/7 8 0")
    whole = distinct.build_distinct_table(puzzle, [1, 2, 3, 4], zero_aware=True)
    assert whole[9 * 8 * 7 * 6 :][: 9 * 8 * 7 * 6].any()


@pytest.mark.parametrize(
    "size, partition",
    [
        ("3x3", "1,2,3,4/5,6,7,8"),
        ("2x4", "1,2,3/4,5,6,7"),
        ("4x3", None),
        # 15 and 16 free cells (more than 8 cells, at most 6 regions: a byte of bits)
        ("5x4", "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19"),
    ],
)
def test_the_search_keeps_the_estimate_it_would_make_afresh(size, partition):
    """Along a random walk, the move kernel's estimate (only the moved tile's group looked up
    again, with the blank where the tile was) equals the estimate made from the board."""
    puzzle = Puzzle(random_board(size, seed=f"zero-aware {size}"))
    db = pattern_database(puzzle, partition, cache=False)
    assert db.fast and db.above[:, 1].all()  # every group has its bits
    codes = puzzle.start_codes.copy()
    data, h = db.distinct_data(codes, 80)
    rng = np.random.default_rng(7)
    blank = int(np.flatnonzero(codes == 0)[0])
    came = -1
    for depth in range(80):
        options = [int(c) for c in puzzle.neighbours[blank] if c >= 0 and c != came]
        nb = options[rng.integers(len(options))]
        tile = int(codes[nb])
        codes[blank], codes[nb] = tile, 0
        h = pdb_distinct_move(data, codes, depth, h, tile, nb, blank)
        assert h == db.distinct_data(codes, 2)[1], (depth, codes)
        came, blank = blank, nb


def test_zero_aware_estimates_are_admissible_and_higher_on_the_8_puzzle():
    """2,000 random 8-puzzle positions: never over the distance, never under the least over
    the blank, above it somewhere."""
    table = DistanceTable.build("3x3")
    puzzle = Puzzle(table.goal)
    aware = pattern_database(puzzle, "1,2,3,4/5,6,7,8", cache=False)
    least = pattern_database(puzzle, "1,2,3,4/5,6,7,8", cache=False, zero_aware=False)
    assert aware.zero_aware and not least.zero_aware
    higher = 0
    for board in random_boards(2000, "3x3", seed="zero-aware 3x3"):
        codes = Puzzle(board).start_codes
        value = aware.distinct_data(codes, 2)[1]
        plain = least.distinct_data(codes, 2)[1]
        assert plain <= value <= table.distance(board)
        higher += value > plain
    assert higher > 100


def test_zero_aware_tables_take_nodes_off_a_search():
    puzzle = Puzzle(random_board("4x3", seed="zero-aware nodes"))
    nodes = {}
    for aware in (True, False):
        db = pattern_database(puzzle, cache=False, zero_aware=aware)
        s = idastar(puzzle, heuristic=db.heuristic())
        nodes[aware] = (s.length, s.stats.generated)
    assert nodes[True][0] == nodes[False][0]
    assert nodes[True][1] < nodes[False][1]


@pytest.mark.parametrize(
    "metric",
    ["stm", pytest.param("mtm", marks=pytest.mark.slow)],  # MTM: its own kernels, 20 s
)
def test_idastar_with_zero_aware_tables_is_exact(metric, module_cache):
    """The registry's contract tests meet the 8-puzzle's one full table (no bits); here a
    partition that has them, in both metrics, against exact distances."""
    table = DistanceTable.build("3x3", metric=metric)
    for board in random_boards(6, "3x3", seed=f"zero-aware exact {metric}"):
        s = slidelab.solve(
            board, method="idastar", heuristic="pdb", partition="1,2,3,4/5,6,7,8", metric=metric
        )
        assert apply_moves(s.start, s.moves) == s.goal
        assert s.length == table.distance(board), board
