"""The two-bit parallel pattern-database builder against the byte-per-state scan."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from slidelab import Puzzle, _bits
from slidelab.errors import SlidelabError
from slidelab.tables.pdb import distinct as pdb_build
from slidelab.tables.pdb.build import build_by_scan, build_group_table, check_build_size
from slidelab.tables.pdb.layout import parse_partition

GROUPS = [
    ("1 2 3/4 5 6/7 8 0", [1, 2, 3, 4]),
    ("1 2 3/4 5 6/7 8 0", [8, 6, 2, 5, 1, 3, 4]),  # two free cells: some placements unreachable
    ("1 2 3 4/5 6 7 0", [1, 2, 3, 4, 5]),
    ("0 1 2/3 4 5/6 7 8/9 10 11", [9, 10, 11, 6, 7]),
    ("1 2 3/4 5 6/7 8 9/10 11 0", [11, 3]),
    ("1 2 3 4 5/6 7 8 9 0", [6, 7, 8, 9, 5, 4]),
]


@pytest.mark.parametrize("goal, codes", GROUPS)
def test_same_table_as_the_scan_builder(goal, codes):
    puzzle = Puzzle(goal)
    assert pdb_build.suitable(puzzle, codes)
    new = pdb_build.build_distinct_table(puzzle, codes)
    old = build_by_scan(puzzle, codes)
    reached = old < 127  # the scan marks unreachable placements 127; nobody looks them up
    assert new.shape == old.shape
    assert np.array_equal(new[reached], old[reached])


def test_layers_are_logged_and_progress_reported():
    puzzle = Puzzle("1 2 3/4 5 6/7 8 0")
    layers, fractions = [], []
    table = pdb_build.build_distinct_table(
        puzzle, [1, 2, 3, 4, 5], lambda f, m: fractions.append(f), log=layers.append
    )
    assert layers[-1]["states"] == 0
    assert sum(layer["placements"] for layer in layers) + 1 == table.shape[0] == math.perm(9, 5)
    assert fractions[-1] == 1.0


@pytest.mark.slow  # 4 s
def test_repeated_labels_go_to_the_scan_builder():
    puzzle = Puzzle("ABA_/CDCD/ABAB/CDCD", "ACA_/CDCA/DBAB/CDBD")
    codes = parse_partition(puzzle, "auto")[0]
    assert not pdb_build.suitable(puzzle, codes)
    assert build_group_table(puzzle, codes).dtype == np.uint8


def test_the_7_8_partition_fits_and_bigger_groups_are_refused():
    korf = Puzzle("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15")
    for codes in parse_partition(korf, "7-8"):
        check_build_size(korf, codes)  # 8 tiles with their zero-aware bits: 1.23 GB at the peak
    with pytest.raises(SlidelabError, match="choose smaller groups"):
        check_build_size(korf, list(range(1, 10)))


def _arrangement(r, k):
    """The slot of each tile in arrangement ``r``, by the definition (tile 0 most significant)."""
    free, slots = list(range(k)), []
    for j in range(k):
        digit, r = divmod(r, math.factorial(k - 1 - j))
        slots.append(free.pop(digit))
    return slots


@given(st.data())
def test_a_rotation_moves_one_tile_between_slots(data):
    k = data.draw(st.integers(2, 6))
    a, b = data.draw(st.permutations(range(k)))[:2]
    F = np.array([math.factorial(k - 1 - j) for j in range(k)], dtype=np.int64)
    rot = pdb_build._rotations(k, F, np.array([[a, b]], dtype=np.int64))[0]
    assert sorted(rot.tolist()) == list(range(math.factorial(k)))  # a bijection
    r = data.draw(st.integers(0, math.factorial(k) - 1))
    order = sorted(range(k), key=lambda j: _arrangement(r, k)[j])  # tiles by slot
    order.insert(b, order.pop(a))
    assert _arrangement(int(rot[r]), k) == [order.index(j) for j in range(k)]


@pytest.mark.parametrize("n, k", [(9, 4), (12, 8), (16, 2)])
def test_sets_of_cells_are_numbered_in_order(n, k):
    w = 4 if n % 4 == 0 else 3
    full = (1 << n) - 1
    first_col = sum(1 << (r * w) for r in range(n // w))
    not_first, not_last = full & ~first_col, full & ~(first_col << (w - 1))
    masks, regions, first = pdb_build._sets(math.comb(n, k), n, k, w, not_first, not_last)
    assert masks.tolist() == sorted(m for m in range(1 << n) if bin(m).count("1") == k)
    binom = np.array([[math.comb(x, y) for y in range(k + 2)] for x in range(n + 1)])
    assert [pdb_build.set_rank(m, binom) for m in masks[:: max(1, len(masks) // 50)]] == list(
        range(len(masks))
    )[:: max(1, len(masks) // 50)]
    assert (regions[masks == full >> (n - k)][0][k:] >= 0).all()  # every other cell has a region


@njit
def _pext_pdep(x, mask):
    return _bits.pext(x, mask), _bits.pdep(x, mask)


@given(st.integers(0, (1 << 40) - 1), st.integers(0, (1 << 40) - 1))
def test_bit_gather_and_scatter_loops_match_a_plain_reading(x, mask):
    """The loops that stand in for BMI2's ``pext``/``pdep`` (and the instructions where the
    CPU has them) against the definition, bit by bit."""
    cells = [c for c in range(40) if mask >> c & 1]
    gathered = sum(1 << i for i, c in enumerate(cells) if x >> c & 1)
    scattered = sum(1 << c for i, c in enumerate(cells) if x >> i & 1)
    assert _bits.pext_loop(x, mask) == gathered
    assert _bits.pdep_loop(x, mask) == scattered
    assert _pext_pdep(x, mask) == (gathered, scattered)


LARGER = [
    ("0 1 2 3/4 5 6 7", [4, 5, 6, 7]),
    ("0 1 2/3 4 5/6 7 8", [8, 7, 6, 3, 5]),
    ("1 2 3/4 0 5/6 7 8", [1, 3, 6, 8]),  # blank in the middle
    ("0 1 2 3/4 5 6 7/8 9 10 11", [5, 6, 9, 10]),  # the 4x3 with four tiles: 11,880 placements
    ("0 1 2/3 4 5/6 7 8", [1, 2, 3, 4, 5, 6, 7]),  # seven tiles and two other cells
    # eight tiles of the 4x3: 19,958,400 placements; the scan takes about 50 s on 2 cores
    pytest.param("0 1 2 3/4 5 6 7/8 9 10 11", [4, 5, 6, 7, 8, 9, 10, 11], marks=pytest.mark.slow),
]


@pytest.mark.parametrize("goal, codes", LARGER)
def test_larger_groups_give_the_scan_s_table(goal, codes):
    puzzle = Puzzle(goal, goal)
    table = pdb_build.build_distinct_table(puzzle, codes)
    old = build_by_scan(puzzle, codes)
    reached = old < 127
    assert np.array_equal(table[reached], old[reached])
