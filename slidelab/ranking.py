"""Perfect hashing of states: rank and unrank permutations and multiset permutations.

A board with distinct tiles is a permutation of its cells; its rank is the
lexicographic index of that permutation (the Lehmer code read as a factorial-base
number), in ``0 .. n!-1``.  A board with repeated labels is a permutation of a
multiset; its rank is its lexicographic index among the distinct arrangements,
in ``0 .. n! / prod(c_i!) - 1``.  Ranks index flat arrays in the searches.

The numba kernels work on int arrays (values ``0..k``), unchecked: :func:`arrangement_rank` and
:func:`arrangement_unrank` are the ranks of :meth:`Puzzle.rank <slidelab.puzzle.Puzzle.rank>` and
the searches; the Python functions check their arguments and call them.
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

from . import _args
from ._jit import njit
from .errors import SlidelabError
from .parse import MAX_BOARD_CELLS

_MAX_ARRANGEMENTS = 2**62
#: the most items a permutation may have for its rank to fit 63 bits (20: 20! < 2**62 < 21!)
MAX_PERMUTATION = max(n for n in range(1, 64) if factorial(n) <= _MAX_ARRANGEMENTS)


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
def arrangement_rank(state, counts, total):
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
def arrangement_unrank(rank, counts, total, out):
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
    """``n! / prod(c!)``: distinct arrangements of a multiset with these counts.

    The counts are whole numbers of at most :data:`~slidelab.parse.MAX_BOARD_CELLS` items in all.
    """
    counts = [
        _args.integer(c, f"counts[{i}]", minimum=0)
        for i, c in enumerate(_args.items(counts, "counts", what="a list of whole numbers"))
    ]
    if sum(counts) > MAX_BOARD_CELLS:
        raise SlidelabError(
            f"counts sum to {_args.show(sum(counts))} items, over the limit of"
            f" {MAX_BOARD_CELLS:,} (the most cells a board may have)"
        )
    return factorial(sum(counts)) // prod(factorial(c) for c in counts)


def _check_fits(total: int) -> None:
    if total > _MAX_ARRANGEMENTS:
        raise SlidelabError(f"{total} arrangements do not fit a 63-bit rank")


def _sequence(values, name: str, limit: int) -> list:
    """``values`` as a list of at most ``limit`` items (text is refused: not a sequence of items)."""
    if isinstance(values, np.ndarray):
        values = values.tolist()
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise _args.ArgumentError(f"{name} must be a list, got {_args.show(values)}")
    if len(values) > limit:
        raise SlidelabError(
            f"{name} has {len(values):,} items; at most {limit:,} fit a 63-bit rank"
        )
    return list(values)


def permutation_rank(perm) -> int:
    """Lexicographic rank of a permutation of ``0..n-1`` (at most :data:`MAX_PERMUTATION` items)."""
    values = _sequence(perm, "perm", MAX_PERMUTATION)
    values = [_args.integer(v, f"perm[{i}]") for i, v in enumerate(values)]
    n = len(values)
    if sorted(values) != list(range(n)):
        raise SlidelabError(f"perm is not a permutation of 0..{n - 1}: {values}")
    return int(_perm_rank(np.array(values, dtype=np.int64)))


def permutation_unrank(rank: int, n: int) -> tuple[int, ...]:
    """The permutation of ``0..n-1`` with lexicographic rank ``rank``."""
    n = _args.integer(
        n,
        "n",
        minimum=0,
        maximum=MAX_PERMUTATION,
        why=" (larger permutations do not fit a 63-bit rank)",
    )
    rank = _args.integer(rank, "rank")
    if not 0 <= rank < factorial(n):
        raise SlidelabError(f"rank {_args.show(rank)} is outside 0..{factorial(n) - 1}")
    out = np.empty(n, np.int64)
    _perm_unrank(rank, out)
    return tuple(int(v) for v in out)


def _codes(items):
    values = sorted(set(items))
    index = {v: i for i, v in enumerate(values)}
    return values, np.array([index[v] for v in items], dtype=np.int64)


def _multiset(items, name: str) -> list:
    """``items`` as a list of at most :data:`~slidelab.parse.MAX_BOARD_CELLS` sortable items."""
    if isinstance(items, np.ndarray):
        items = items.tolist()
    out = (
        list(_args.items(items, name, what="a list of items"))
        if not isinstance(items, str)
        else list(items)
    )
    if len(out) > MAX_BOARD_CELLS:
        raise SlidelabError(f"{name} has {len(out):,} items, over the limit of {MAX_BOARD_CELLS:,}")
    try:
        sorted(set(out))
    except TypeError:
        raise _args.ArgumentError(
            f"{name} must hold items that can be sorted and compared"
            f" (all numbers or all text), got {_args.show(out)}"
        ) from None
    return out


def multiset_rank(items) -> int:
    """Lexicographic rank of ``items`` among the distinct arrangements of its elements."""
    items = _multiset(items, "items")
    values, codes = _codes(items)
    counts = np.bincount(codes, minlength=len(values)).astype(np.int64)
    total = count_arrangements(counts)
    _check_fits(total)
    return int(arrangement_rank(codes, counts, total))


def multiset_unrank(rank: int, multiset) -> tuple:
    """The arrangement of ``multiset``'s elements with lexicographic rank ``rank``."""
    rank = _args.integer(rank, "rank")
    counter = Counter(_multiset(multiset, "multiset"))
    values = sorted(counter)
    counts = np.array([counter[v] for v in values], dtype=np.int64)
    total = count_arrangements(counts)
    _check_fits(total)
    if not 0 <= rank < total:
        raise SlidelabError(f"rank {_args.show(rank)} is outside 0..{total - 1}")
    out = np.empty(int(counts.sum()), np.int64)
    arrangement_unrank(rank, counts, total, out)
    return tuple(values[int(v)] for v in out)
