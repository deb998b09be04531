"""Perfect hashing of states: rank and unrank permutations and multiset permutations.

A board with distinct tiles is a permutation of its cells; its rank is the
lexicographic index of that permutation (the Lehmer code read as a factorial-base
number), in ``0 .. n!-1``.  A board with repeated labels is a permutation of a
multiset; its rank is its lexicographic index among the distinct arrangements,
in ``0 .. n! / prod(c_i!) - 1``.  Ranks index flat arrays in the searches.

The ``_``-prefixed functions are numba kernels on int arrays (values ``0..k``).
Counts of arrangements must fit in 63 bits (up to 20 distinct cells).

Examples
--------
>>> permutation_rank([1, 2, 3, 4, 5, 6, 7, 8, 0])
46233
>>> permutation_unrank(46233, 9)
(1, 2, 3, 4, 5, 6, 7, 8, 0)
>>> multiset_rank("BAA"), multiset_unrank(2, "AAB")
(2, ('B', 'A', 'A'))
"""

from __future__ import annotations

from collections import Counter
from math import factorial, prod

import numpy as np

from ._jit import njit
from .errors import SlidelabError

_MAX_ARRANGEMENTS = 2**62


@njit(cache=True)
def _perm_rank(perm):
    """Lexicographic rank of a permutation of ``0..n-1`` (Lehmer code)."""
    n = perm.shape[0]
    rank = 0
    for i in range(n):
        smaller = 0
        for j in range(i + 1, n):
            if perm[j] < perm[i]:
                smaller += 1
        rank = rank * (n - i) + smaller
    return rank


@njit(cache=True)
def _perm_unrank(rank, out):
    """Write into ``out`` the permutation of ``0..n-1`` with this rank."""
    n = out.shape[0]
    digits = np.empty(n, np.int64)
    for i in range(n - 1, -1, -1):
        base = n - i
        digits[i] = rank % base
        rank //= base
    used = np.zeros(n, np.bool_)
    for i in range(n):
        d = digits[i]
        for v in range(n):
            if not used[v]:
                if d == 0:
                    out[i] = v
                    used[v] = True
                    break
                d -= 1


@njit(cache=True)
def _multiset_rank(state, counts, total):
    """Rank of ``state`` among arrangements of the multiset ``counts``.

    ``counts[v]`` is how often value ``v`` occurs; ``total`` the number of
    arrangements (``n! / prod(counts!)``).
    """
    n = state.shape[0]
    c = counts.copy()
    m = n
    rank = 0
    for i in range(n):
        v = state[i]
        for u in range(v):
            if c[u] > 0:
                rank += total * c[u] // m
        total = total * c[v] // m
        c[v] -= 1
        m -= 1
    return rank


@njit(cache=True)
def _multiset_unrank(rank, counts, total, out):
    """Write into ``out`` the arrangement of ``counts`` with this rank."""
    n = out.shape[0]
    c = counts.copy()
    m = n
    k = c.shape[0]
    for i in range(n):
        for u in range(k):
            if c[u] == 0:
                continue
            block = total * c[u] // m
            if rank < block:
                out[i] = u
                total = block
                c[u] -= 1
                m -= 1
                break
            rank -= block


def count_arrangements(counts) -> int:
    """``n! / prod(c!)``: distinct arrangements of a multiset with these counts."""
    counts = [int(c) for c in counts]
    return factorial(sum(counts)) // prod(factorial(c) for c in counts)


def _check_fits(total: int) -> None:
    if total > _MAX_ARRANGEMENTS:
        raise SlidelabError(f"{total} arrangements do not fit a 63-bit rank")


def permutation_rank(perm) -> int:
    """Lexicographic rank of a permutation of ``0..n-1``."""
    arr = np.asarray(perm, dtype=np.int64)
    n = arr.shape[0]
    if sorted(arr.tolist()) != list(range(n)):
        raise SlidelabError(f"not a permutation of 0..{n - 1}: {list(perm)}")
    _check_fits(factorial(n))
    return int(_perm_rank(arr))


def permutation_unrank(rank: int, n: int) -> tuple[int, ...]:
    """The permutation of ``0..n-1`` with lexicographic rank ``rank``."""
    _check_fits(factorial(n))
    if not 0 <= rank < factorial(n):
        raise SlidelabError(f"rank {rank} is outside 0..{factorial(n) - 1}")
    out = np.empty(n, np.int64)
    _perm_unrank(rank, out)
    return tuple(int(v) for v in out)


def _codes(items):
    values = sorted(set(items))
    index = {v: i for i, v in enumerate(values)}
    return values, np.array([index[v] for v in items], dtype=np.int64)


def multiset_rank(items) -> int:
    """Lexicographic rank of ``items`` among the distinct arrangements of its elements."""
    items = list(items)
    values, codes = _codes(items)
    counts = np.bincount(codes, minlength=len(values)).astype(np.int64)
    total = count_arrangements(counts)
    _check_fits(total)
    return int(_multiset_rank(codes, counts, total))


def multiset_unrank(rank: int, multiset) -> tuple:
    """The arrangement of ``multiset``'s elements with lexicographic rank ``rank``."""
    counter = Counter(multiset)
    values = sorted(counter)
    counts = np.array([counter[v] for v in values], dtype=np.int64)
    total = count_arrangements(counts)
    _check_fits(total)
    if not 0 <= rank < total:
        raise SlidelabError(f"rank {rank} is outside 0..{total - 1}")
    out = np.empty(int(counts.sum()), np.int64)
    _multiset_unrank(rank, counts, total, out)
    return tuple(values[int(v)] for v in out)
