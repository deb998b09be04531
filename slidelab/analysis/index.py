"""Numbering every position of a puzzle for flat tables: ``index = blank_cell * H + r``.

A position is its blank cell ``b`` and its *tile sequence*: the tiles read in
board order, skipping the blank.  ``r`` is the lexicographic rank of that
sequence among the arrangements of the tiles (a permutation rank, or a
multiset-permutation rank when labels repeat), and ``H`` is how many
arrangements there are.

With distinct tiles only half of the sequences can stand with the blank on a
given cell (their parity is fixed by the blank's row: a horizontal move keeps
the sequence, a vertical one rotates ``w`` of its tiles), and the two
sequences of ranks ``2r`` and ``2r + 1`` differ by the order of the last two
tiles, which flips the parity: so ``r`` is the rank halved, and the index
numbers exactly the reachable positions (the 8-puzzle's 181,440 in
``0 .. 181,439``).  With repeated labels every arrangement is reachable.

Why this numbering: a horizontal move keeps ``r`` (only the blank's cell
changes), and a vertical one changes the few digits of the rank that belong to
the rotated tiles, so a neighbour's index costs a handful of operations
(:func:`_neighbour`); and consecutive indices are consecutive arrangements,
so the breadth-first kernels walk a range of indices by stepping to the next
permutation instead of unranking each one (:func:`_step`).

Ranking uses *count codes*: a multiset of tiles is one integer, the counts of
its labels in mixed radix (``radix[v]`` per label ``v``), so ``Tab[code]``
(the arrangements of that multiset) and ``S[code, v]`` (the arrangements of it
that start with a label smaller than ``v``) are table look-ups, and a rank is
``sum S[code_k, s[k]]`` over the positions ``k``: no division.  With distinct
tiles the codes are subsets and ``S`` gives the Lehmer digits times factorials.

The ``_``-prefixed functions are numba kernels over the arrays of
:meth:`Space.kernel_args`.

Examples
--------
>>> from slidelab import Board
>>> space = Space(Board("1 2 3/4 5 6/7 8 0"))
>>> space.states, space.per_blank, space.index(Board("1 2 3/4 5 6/7 8 0"))
(181440, 20160, 161280)
>>> space.board(0), space.board(1)
(Board('0 1 2/3 4 5/6 7 8'), Board('0 1 2/3 4 5/7 8 6'))
>>> space.index(space.board(12345))
12345
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from .._jit import njit
from ..board import Board
from ..errors import UnsolvableError
from ..geometry import taxicab_table
from ..puzzle import Puzzle

#: largest number of tiles the int64 tables can rank (20! < 2**63)
MAX_TILES = 20


class Space:
    """The positions reachable from ``goal`` and their numbering.

    Attributes
    ----------
    goal : Board
    width, height, cells, tiles : int
    distinct : bool
        True when no label repeats (then indices count half the arrangements).
    per_blank : int
        ``H``: indices per blank cell.
    states : int
        ``cells * H``: the size of flat tables (every index is a position;
        with distinct tiles all of them are reachable).

    The sizes are Python integers, so a space far too large for any table can
    still be described (and refused) without overflow; the numba arrays are
    built only by :meth:`kernel_args`.
    """

    def __init__(self, goal: Board):
        self.goal = goal
        self.puzzle = Puzzle(goal, goal)
        self.width, self.height = goal.width, goal.height
        self.cells = goal.width * goal.height
        self.tiles = self.cells - 1
        counts = [int(c) for c in self.puzzle.label_counts[1:]]
        self.label_counts = counts
        self.distinct = all(c == 1 for c in counts)
        self._args = None

    @cached_property
    def per_blank(self) -> int:
        """``H``: indices per blank cell (computed when first asked: a factorial of the tiles)."""
        arrangements = math.factorial(self.tiles) // math.prod(
            math.factorial(c) for c in self.label_counts
        )
        return arrangements // 2 if self.distinct else arrangements

    @cached_property
    def states(self) -> int:
        return self.cells * self.per_blank

    def log10_states(self) -> float:
        """``log10(states)``, without computing the (possibly enormous) count itself."""
        ln = math.lgamma(self.tiles + 1) - sum(math.lgamma(c + 1) for c in self.label_counts)
        ln += math.log(self.cells) - (math.log(2) if self.distinct else 0.0)
        return ln / math.log(10)

    def __repr__(self):
        return f"Space({self.goal.format()!r})"

    # ------------------------------------------------------------------ arrays

    def kernel_args(self) -> tuple:
        """The tuple every kernel takes (built on first use)."""
        if self._args is None:
            if self.tiles > MAX_TILES:
                raise ValueError(f"{self.tiles} tiles cannot be ranked in 64 bits")
            self._args = _build_args(self)
        return self._args

    # ------------------------------------------------------------------ boards

    def sequence(self, board) -> tuple[np.ndarray, int]:
        """``(tile values 0..K-1 in board order without the blank, blank cell)`` of a board.

        Raises
        ------
        MismatchError
            The board is not of this puzzle (size or tiles differ).
        """
        board = board if isinstance(board, Board) else self._board(board)
        codes = self._codes
        try:
            values = [codes[c] for c in board.cells]
        except (KeyError, TypeError):
            values = None
        if (
            values is None
            or board.width != self.width
            or board.height != self.height
            or sorted(values) != self._sorted
        ):
            self._board(board)  # raises the mismatch
        b = values.index(-1)
        del values[b]
        return np.array(values, dtype=np.int64), b

    @cached_property
    def _codes(self) -> dict:
        """label -> tile value (0..K-1); the blank -> -1."""
        codes = {label: i for i, label in enumerate(self.puzzle.labels)}
        codes[0] = -1
        return codes

    @cached_property
    def _sorted(self) -> list:
        return sorted(self._codes[c] for c in self.goal.cells)

    def index(self, board) -> int:
        """The index of a board of this puzzle.

        Raises
        ------
        MismatchError
            The board is not of this puzzle (size or tiles differ).
        UnsolvableError
            The board cannot reach the goal (distinct tiles, wrong parity).
        """
        board = board if isinstance(board, Board) else self._board(board)
        seq, b = self.sequence(board)
        idx = int(_index_of(seq, b, self.kernel_args()))
        if idx < 0:
            raise UnsolvableError(
                f"{board} cannot reach the goal {self.goal}"
                " (its permutation parity is the other one)"
            )
        return idx

    def board(self, index: int) -> Board:
        """The board with this index (inverse of :meth:`index`)."""
        if not 0 <= index < self.states:
            raise ValueError(f"index {index} is outside 0..{self.states - 1}")
        g = self.kernel_args()
        s = np.empty(self.tiles, np.int64)
        L = np.zeros(self.tiles, np.int64)
        c = np.empty(len(self.label_counts), np.int64)
        b = int(_load(int(index), s, L, c, g))
        return self._decode(s, b)

    def boards(self, indices) -> list[Board]:
        return [self.board(int(i)) for i in indices]

    def _decode(self, s, b) -> Board:
        codes = np.insert(np.asarray(s, np.int64) + 1, b, 0)
        return self.puzzle.decode(codes)

    def _board(self, board) -> Board:
        from ..puzzle import as_board, check_compatible

        board = as_board(board, self.goal.size)
        check_compatible(board, self.goal)
        return board


def _build_args(space: Space) -> tuple:
    """``(n, m, w, H, distinct, nbr, F, radix, S, Tab, counts, full, needpar, md, goal_blank)``."""
    n, m, w = space.cells, space.tiles, space.width
    counts = np.array(space.label_counts, dtype=np.int64)
    K = len(counts)
    radix = np.ones(K, dtype=np.int64)
    for v in range(1, K):
        radix[v] = radix[v - 1] * (counts[v - 1] + 1)
    ncodes = int(radix[-1] * (counts[-1] + 1))
    codes = np.arange(ncodes, dtype=np.int64)
    C = (codes[:, None] // radix[None, :]) % (counts + 1)[None, :]  # counts of each code
    fact = np.array([math.factorial(i) for i in range(m + 1)], dtype=np.int64)
    Tab = fact[C.sum(axis=1)]
    for v in range(K):
        Tab = Tab // fact[C[:, v]]
    S = np.zeros((ncodes, K), dtype=np.int64)
    run = np.zeros(ncodes, dtype=np.int64)
    for v in range(K):
        S[:, v] = run
        present = C[:, v] > 0
        run = run + np.where(present, Tab[np.where(present, codes - radix[v], 0)], 0)
    full = int((counts * radix).sum())
    F = np.array([math.factorial(m - 1 - k) for k in range(m)], dtype=np.int64)
    nbr = space.puzzle.neighbours.astype(np.int64)
    goal_codes = space.puzzle.goal_codes.astype(np.int64)
    g_blank = int(np.flatnonzero(goal_codes == 0)[0])
    goal_seq = np.delete(goal_codes, g_blank) - 1
    needpar = np.zeros(n, dtype=np.int64)
    if space.distinct:
        inversions = sum(int(a > b) for i, a in enumerate(goal_seq) for b in goal_seq[i + 1 :])
        for b in range(n):
            needpar[b] = (inversions + abs(b // w - g_blank // w) * (w - 1)) & 1
    # md[v, cell]: distance of a tile of label v on cell to the nearest goal cell of its label
    md = np.ascontiguousarray(taxicab_table(goal_codes, w)[1:])
    return (
        n,
        m,
        w,
        space.per_blank,
        space.distinct,
        nbr,
        F,
        radix,
        S,
        Tab,
        counts,
        full,
        needpar,
        md,
        g_blank,
    )


# ---------------------------------------------------------------------------- kernels


@njit(cache=True)
def _rank_tiles(s, g):
    """Lexicographic (multiset) rank of the tile sequence ``s``."""
    radix, S, full = g[7], g[8], g[11]
    code = full
    t = 0
    for k in range(s.shape[0]):
        v = s[k]
        t += S[code, v]
        code -= radix[v]
    return t


@njit(cache=True)
def _parity(s):
    """Parity of the inversions of ``s`` (distinct values)."""
    p = 0
    m = s.shape[0]
    for i in range(m):
        for j in range(i + 1, m):
            if s[j] < s[i]:
                p ^= 1
    return p


@njit(cache=True)
def _index_of(s, b, g):
    """Index of (tile sequence, blank cell), or -1 when that position is unreachable."""
    H, distinct, needpar = g[3], g[4], g[12]
    t = _rank_tiles(s, g)
    if distinct:
        if _parity(s) != needpar[b]:
            return -1
        return b * H + (t >> 1)
    return b * H + t


@njit(cache=True)
def _load(idx, s, L, c, g):
    """Write into ``s`` (and ``L``, its Lehmer digits) the tiles of state ``idx``; return the blank cell.

    ``c`` is scratch space (one entry per label).
    """
    return _load_at(idx, s, L, c, g[1], g[3], g[4], g[7], g[9], g[10], g[11], g[12])


@njit(cache=True, inline="always")
def _load_at(idx, s, L, c, m, H, distinct, radix, Tab, counts, full, needpar):
    """:func:`_load` with the arrays it needs (what the kernels call)."""
    b = idx // H
    t = idx - b * H
    if distinct:
        t *= 2
    K = counts.shape[0]
    for u in range(K):
        c[u] = counts[u]
    code = full
    for k in range(m):
        lesser = 0
        for u in range(K):
            if c[u] == 0:
                continue
            block = Tab[code - radix[u]]
            if t < block:
                s[k] = u
                L[k] = lesser
                c[u] -= 1
                code -= radix[u]
                break
            t -= block
            lesser += 1
    if distinct:
        p = 0
        for k in range(m):
            p += L[k]
        if (p & 1) != needpar[b]:
            s[m - 2], s[m - 1] = s[m - 1], s[m - 2]
            L[m - 2] = 1
    return b


@njit(cache=True, inline="always")
def _next_perm(s, L, m):
    """Next arrangement of ``s`` in lexicographic order (repeats allowed), Lehmer digits updated."""
    a = m - 2
    while a >= 0 and s[a] >= s[a + 1]:
        a -= 1
    if a < 0:
        return False
    j = m - 1
    while s[j] <= s[a]:
        j -= 1
    s[a], s[j] = s[j], s[a]
    lo = a + 1
    hi = m - 1
    while lo < hi:
        s[lo], s[hi] = s[hi], s[lo]
        lo += 1
        hi -= 1
    L[a] += 1
    for k in range(a + 1, m):
        L[k] = 0
    return True


@njit(cache=True, inline="always")
def _step(s, L, m, distinct, need):
    """Move ``s`` to the next index (same blank cell, ``need``: the parity its tiles must have)."""
    if distinct:
        if s[m - 2] < s[m - 1]:  # the even member of the pair: go to the odd one first
            s[m - 2], s[m - 1] = s[m - 1], s[m - 2]
            L[m - 2] = 1
        _next_perm(s, L, m)  # rank 2(r + 1): the last two ascending
        p = 0
        for k in range(m - 2):
            p += L[k]
        if (p & 1) != need:
            s[m - 2], s[m - 1] = s[m - 1], s[m - 2]
            L[m - 2] = 1
    else:
        _next_perm(s, L, m)


@njit(cache=True, inline="always")
def _tile_rank(idx, base, L, m, distinct):
    """Rank of the tile sequence of state ``idx`` (``base``: first index of its blank cell)."""
    if distinct:
        return 2 * (idx - base) + L[m - 2]
    return idx - base


@njit(cache=True, inline="always")
def _delta_distinct(s, L, F, i, j, down):
    """Change of the permutation rank when ``s[j]`` moves to ``i`` (down) or ``s[i]`` to ``j`` (up)."""
    delta = 0
    cnt = 0
    if down:
        x = s[j]
        for k in range(i, j):
            y = s[k]
            if y < x:
                cnt += 1
                delta += (L[k] - L[k + 1]) * F[k + 1]
            else:
                delta += (L[k] - 1 - L[k + 1]) * F[k + 1]
        delta += (L[j] + cnt - L[i]) * F[i]
    else:
        x = s[i]
        for k in range(i + 1, j + 1):
            y = s[k]
            if y < x:
                cnt += 1
                delta += (L[k] - L[k - 1]) * F[k - 1]
            else:
                delta += (L[k] + 1 - L[k - 1]) * F[k - 1]
        delta += (L[i] - cnt - L[j]) * F[j]
    return delta


@njit(cache=True, inline="always")
def _delta_multiset(s, m, radix, S, i, j, down):
    """Change of the multiset rank for the same rotation (positions ``i .. j`` re-ranked)."""
    code = 0
    for k in range(i, m):
        code += radix[s[k]]
    old = 0
    cc = code
    for k in range(i, j + 1):
        v = s[k]
        old += S[cc, v]
        cc -= radix[v]
    new = 0
    cc = code
    if down:
        v = s[j]
        new += S[cc, v]
        cc -= radix[v]
        for k in range(i, j):
            v = s[k]
            new += S[cc, v]
            cc -= radix[v]
    else:
        for k in range(i + 1, j + 1):
            v = s[k]
            new += S[cc, v]
            cc -= radix[v]
        v = s[i]
        new += S[cc, v]
    return new - old


@njit(cache=True, inline="always")
def _neighbour(idx, base, t, b, d, nb, s, L, m, w, H, distinct, F, radix, S):
    """Index of the state after the blank moves from ``b`` in direction ``d`` to ``nb``.

    ``idx`` is the state's index, ``base`` the first index of its blank cell,
    ``t`` the rank of its tiles.  Called from kernels specialised on a constant
    ``distinct`` (where the other branch, and its cost, is compiled away).
    """
    if d >= 2:  # sideways: the tile sequence stays
        return nb * H + (idx - base)
    down = d == 1
    if down:
        i = b
        j = b + w - 1
    else:
        i = b - w
        j = b - 1
    if distinct:
        return nb * H + ((t + _delta_distinct(s, L, F, i, j, down)) >> 1)
    return nb * H + t + _delta_multiset(s, m, radix, S, i, j, down)


@njit(cache=True)
def _heuristic(s, b, g):
    """Lower bound on the distance with the parity of the distance (see :mod:`.table`)."""
    return _heuristic_at(s, b, g[2], g[4], g[13], g[14])


@njit(cache=True, inline="always")
def _heuristic_at(s, b, w, distinct, md, gb):
    """:func:`_heuristic` with the arrays it needs."""
    h = 0
    for k in range(s.shape[0]):
        cell = k if k < b else k + 1
        h += md[s[k], cell]
    if not distinct:  # nearest-cell distances: fix the parity by the blank's
        bd = abs(b // w - gb // w) + abs(b % w - gb % w)
        if (h - bd) & 1:
            h -= 1
    return h


def space_of(goal, size: str | None = None, blank_first: bool = False) -> Space:
    """A :class:`Space` for a goal given as a board, board text, or a size ``WxH`` (ordered goal;
    read by :func:`slidelab.puzzle.goal_board`, as everywhere)."""
    from ..puzzle import goal_board

    if isinstance(goal, Space):
        return goal
    if isinstance(goal, Puzzle):
        return Space(goal.goal)
    return Space(goal_board(goal, size=size, blank_first=blank_first))
