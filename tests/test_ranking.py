from math import factorial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab import (
    count_arrangements,
    multiset_rank,
    multiset_unrank,
    permutation_rank,
    permutation_unrank,
)


@pytest.mark.parametrize(
    "perm,rank",
    [
        ((0, 1, 2, 3, 4, 5, 6, 7, 8), 0),
        ((8, 7, 6, 5, 4, 3, 2, 1, 0), 362879),
        ((1, 2, 3, 4, 5, 6, 7, 8, 0), 46233),
        ((5, 4, 6, 3, 7, 2, 8, 1, 0), 225089),
    ],
)
def test_known_ranks(perm, rank):
    assert permutation_rank(perm) == rank
    assert permutation_unrank(rank, 9) == perm
    assert multiset_rank(perm) == rank  # distinct elements: the same order


def test_line_puzzle_space_size():
    from collections import Counter

    counts = Counter("ABA_CDCDABABCDCD")
    assert count_arrangements(counts.values()) == 252_252_000


def test_multiset_small():
    arrangements = sorted(set(__import__("itertools").permutations("AABC")))
    for i, a in enumerate(arrangements):
        assert multiset_rank(a) == i
        assert multiset_unrank(i, "AABC") == a


@given(st.permutations(list(range(10))))
def test_permutation_rank_bijection(perm):
    r = permutation_rank(perm)
    assert 0 <= r < factorial(10)
    assert permutation_unrank(r, 10) == tuple(perm)


@given(
    st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, factorial(n) - 1)))
)
def test_permutation_unrank_bijection(nr):
    n, r = nr
    assert permutation_rank(permutation_unrank(r, n)) == r


@given(st.lists(st.integers(0, 4), min_size=1, max_size=16))
def test_multiset_rank_bijection(items):
    r = multiset_rank(items)
    total = count_arrangements([items.count(v) for v in set(items)])
    assert 0 <= r < total
    assert list(multiset_unrank(r, items)) == items


def test_rank_is_lexicographic_order():
    from itertools import permutations

    perms = list(permutations(range(5)))
    assert [permutation_rank(p) for p in perms] == list(range(120))


def test_bad_rank_input():
    with pytest.raises(ValueError):
        permutation_rank([0, 0, 1])
    with pytest.raises(ValueError):
        permutation_unrank(120, 5)


def test_puzzle_rank_is_a_perfect_hash():
    from slidelab import Puzzle, random_board

    p = Puzzle("1 2 3/4 5 6/7 8 0")
    assert p.rank("0 1 2/3 4 5/6 7 8") == 0
    assert p.rank("8 7 6/5 4 3/2 1 0") == 362879
    line = Puzzle("ABA_/CDCD/ABAB/CDCD", "ACA_/CDCA/DBAB/CDBD")
    assert line.n_arrangements == 252_252_000
    seen = set()
    for seed in range(200):
        b = random_board(goal=line.goal, seed=seed)
        r = line.rank(b)
        assert line.unrank(r) == b
        seen.add(r)
    assert len(seen) == 200


@given(st.integers(0, 252_252_000 - 1))
def test_line_puzzle_unrank_rank(r):
    from slidelab import Puzzle

    line = Puzzle("ABA_/CDCD/ABAB/CDCD", "ACA_/CDCA/DBAB/CDBD")
    assert line.rank(line.unrank(r)) == r
