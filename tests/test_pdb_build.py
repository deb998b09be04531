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
    assert layers[-1]["regions"] == 0
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
        check_build_size(korf, codes)  # 8 tiles: 1.04 GB of two-bit words + 0.26 GB
    with pytest.raises(SlidelabError, match="choose smaller groups"):
        check_build_size(korf, list(range(1, 10)))


@given(st.data())
def test_moved_index_matches_a_full_rank(data):
    w, h = data.draw(st.sampled_from([(3, 3), (4, 4), (5, 5), (4, 3), (2, 5)]))
    n = w * h
    k = data.draw(st.integers(2, min(8, n - 2)))
    cells = data.draw(st.permutations(range(n)))
    pos = np.array(cells[:k], dtype=np.int64)
    mult = np.array([math.perm(n - j - 1, k - j - 1) for j in range(k)], dtype=np.int64)
    tile_at = np.full(n, -1, dtype=np.int64)
    tile_at[pos] = np.arange(k)
    p = pdb_build._index(pos, k, mult)
    j = data.draw(st.integers(0, k - 1))
    t = int(pos[j])
    r, c = divmod(t, w)
    moves = [
        to
        for to, ok in ((t - w, r > 0), (t + w, r < h - 1), (t - 1, c > 0), (t + 1, c < w - 1))
        if ok and tile_at[to] < 0
    ]
    if not moves:
        return
    to = data.draw(st.sampled_from(moves))
    moved = pos.copy()
    moved[j] = to
    assert pdb_build._moved(p, j, t, to, w, tile_at, mult) == pdb_build._index(moved, k, mult)


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


MIRRORED = [
    ("0 1 2 3/4 5 6 7", [4, 5, 6, 7]),  # left-right
    ("0 1 2/3 4 5/6 7 8", [8, 7, 6, 3, 5]),
    ("1 2 3/4 0 5/6 7 8", [1, 3, 6, 8]),  # blank in the middle: several mirrors
    ("0 1 2 3/4 5 6 7/8 9 10 11", [5, 6, 9, 10]),  # the 4x3 with four tiles: 11,880 placements
    # eight tiles of the 4x3: 19,958,400 placements, three builds of them, the scan's the
    # slowest (about 50 s on 2 cores)
    pytest.param("0 1 2 3/4 5 6 7/8 9 10 11", [4, 5, 6, 7, 8, 9, 10, 11], marks=pytest.mark.slow),
]


@pytest.mark.parametrize("goal, codes", MIRRORED)
def test_mirror_pairs_stored_once_give_the_same_table(goal, codes):
    puzzle = Puzzle(goal, goal)
    layers = []
    mirrored = pdb_build.build_distinct_table(puzzle, codes, log=layers.append)
    assert layers[0]["mirror"]
    plain = pdb_build.build_distinct_table(puzzle, codes, symmetry=False)
    old = build_by_scan(puzzle, codes)
    reached = old < 127
    assert np.array_equal(mirrored[reached], old[reached])
    assert np.array_equal(plain[reached], old[reached])


def test_no_mirror_for_a_lopsided_group():
    puzzle = Puzzle("0 1 2/3 4 5/6 7 8")
    layers = []
    pdb_build.build_distinct_table(puzzle, [6, 7, 5], log=layers.append)
    assert not layers[0]["mirror"]
