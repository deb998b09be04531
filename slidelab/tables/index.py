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
(:func:`.index_kernels.neighbour`); and consecutive indices are consecutive arrangements,
so the breadth-first kernels walk a range of indices by moving the last
state's tiles on instead of unranking each one (:func:`.index_kernels.seek`).

Ranking uses *count codes*: a multiset of tiles is one integer, the counts of
its labels in mixed radix (``radix[v]`` per label ``v``), so ``Tab[code]``
(the arrangements of that multiset) and ``S[code, v]`` (the arrangements of it
that start with a label smaller than ``v``) are table look-ups, and a rank is
``sum S[code_k, s[k]]`` over the positions ``k``: no division.  With distinct
tiles the codes are subsets and ``S`` gives the Lehmer digits times factorials.

One position is ranked here with numpy (:func:`index_of`, :func:`heuristic_of`),
so reading a table needs no compiled code; the kernels that walk millions of
positions are in :mod:`.index_kernels`, all over the arrays of
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

import functools
import itertools
import math
from functools import cached_property
from typing import NamedTuple

import numpy as np

from ..board import Board
from ..errors import UnsolvableError
from ..geometry import taxicab_table
from ..puzzle import Puzzle

#: largest number of tiles the int64 tables can rank (20! < 2**63)
MAX_TILES = 20
#: distinct tiles: the kernels walk indices by *suffix blocks*, the ``SUFFIX!/2`` consecutive
#: indices that share all but the last ``SUFFIX`` places (:func:`suffix_tables`: 8! arrangements,
#: 650 KB, within a core's second-level cache; 20,160 indices, 630 whole words of two-bit codes)
SUFFIX = 8
#: a byte per position: no depth recorded (the search's depths, byte-encoded tables)
UNREACHED = 255
#: a distance table's encodings (:mod:`.distance`): a byte, four bits (STM), two bits (MTM: the
#: distance modulo 3), and the two-bit code of a position the goal cannot reach
BYTE, NIBBLE, MOD3 = 0, 1, 2
MOD3_UNREACHED = 3


class Space:
    """The positions reachable from ``goal`` and their numbering.

    Attributes
    ----------
    goal : Board
    width, height, cells, tiles : int
    distinct : bool
        True when no label repeats (then indices count half the arrangements).
    metric : str
        The metric its distances are counted in: ``stm`` (single-tile moves) or
        ``mtm`` (a slide of several tiles in a line is one move); the numbering is
        the same, the searches and tables differ.
    reach : int
        The most tiles one move slides (:func:`slidelab.moves.reach`).
    per_blank : int
        ``H``: indices per blank cell.
    states : int
        ``cells * H``: the size of flat tables (every index is a position;
        with distinct tiles all of them are reachable).

    The sizes are Python integers, so a space far too large for any table can
    still be described (and refused) without overflow; the numba arrays are
    built only by :meth:`kernel_args`.
    """

    def __init__(self, goal: Board, metric: str = "stm"):
        from ..moves import metric_name, reach

        self.goal = goal
        self.metric = metric_name(metric)
        self.reach = reach(self.metric, goal.width, goal.height)
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
        metric = "" if self.metric == "stm" else f", {self.metric!r}"
        return f"Space({self.goal.format()!r}{metric})"

    # ------------------------------------------------------------------ arrays

    def kernel_args(self) -> KernelArgs:
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
        board = board if isinstance(board, Board) else self.read_board(board)
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
            self.read_board(board)  # raises the mismatch
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
        board = board if isinstance(board, Board) else self.read_board(board)
        seq, b = self.sequence(board)
        idx = index_of(seq, b, self.kernel_args())
        if idx < 0:
            raise UnsolvableError(
                f"{board.format()} cannot reach the goal {self.goal.format()}"
                " (its permutation parity is the other one)"
            )
        return idx

    def board(self, index: int) -> Board:
        """The board with this index (inverse of :meth:`index`)."""
        if not 0 <= index < self.states:
            raise ValueError(f"index {index} is outside 0..{self.states - 1}")
        from .index_kernels import load

        g = self.kernel_args()
        s = np.empty(self.tiles, np.int64)
        L = np.zeros(self.tiles, np.int64)
        c = np.empty(len(self.label_counts), np.int64)
        b = int(load(int(index), s, L, c, g))
        return self._decode(s, b)

    def boards(self, indices) -> list[Board]:
        return [self.board(int(i)) for i in indices]

    def _decode(self, s, b) -> Board:
        codes = np.insert(np.asarray(s, np.int64) + 1, b, 0)
        return self.puzzle.decode(codes)

    def read_board(self, board) -> Board:
        """``board`` (a :class:`Board` or its text) as a board of this puzzle.

        Raises
        ------
        MismatchError
            The board is not of this puzzle (size or tiles differ).
        """
        from ..puzzle import as_board, check_compatible

        board = as_board(board, self.goal.size)
        check_compatible(board, self.goal)
        return board


class KernelArgs(NamedTuple):
    """What every kernel over a space takes (:meth:`Space.kernel_args`), by name.

    The ranking's tables are over *count codes* (a multiset of tiles as one
    integer, the counts of its labels in mixed radix: see the module's notes).
    """

    #: cells of the board, tiles (cells - 1), its width
    cells: int
    tiles: int
    width: int
    #: indices per blank cell (``H``)
    per_blank: int
    #: no label repeats (then an index counts two arrangements: the rank is halved)
    distinct: bool
    #: ``neighbours[cell, d]``: the cell next to it in direction ``d`` (0 up, 1 down, 2 left,
    #: 3 right), -1 off the board
    neighbours: np.ndarray
    #: ``factorials[k] = (tiles - 1 - k)!``: the weight of Lehmer digit ``k`` (distinct tiles)
    factorials: np.ndarray
    #: ``radix[v]``: what a tile of label ``v`` adds to a count code
    radix: np.ndarray
    #: ``smaller[code, v]``: arrangements of the multiset ``code`` that start with a label below ``v``
    smaller: np.ndarray
    #: ``arrangements[code]``: arrangements of the multiset ``code``
    arrangements: np.ndarray
    #: tiles of each label
    label_counts: np.ndarray
    #: the count code of all the tiles
    full: int
    #: ``parity[b]``: the parity of the inversions a sequence needs with the blank on ``b``
    parity: np.ndarray
    #: ``taxicab[v, cell]``: moves from ``cell`` to the nearest goal cell of label ``v``
    taxicab: np.ndarray
    #: the goal's blank cell
    goal_blank: int


def _build_args(space: Space) -> KernelArgs:
    """The space's :class:`KernelArgs`."""
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
    return KernelArgs(
        cells=n,
        tiles=m,
        width=w,
        per_blank=space.per_blank,
        distinct=space.distinct,
        neighbours=nbr,
        factorials=F,
        radix=radix,
        smaller=S,
        arrangements=Tab,
        label_counts=counts,
        full=full,
        parity=needpar,
        taxicab=md,
        goal_blank=g_blank,
    )


@functools.cache
def suffix_tables(K: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(perm, leh, par)``: the ``K!`` arrangements of ``K`` tiles in lexicographic order.

    ``perm[r, i]`` is which of the ``K`` tiles (0 = smallest) stands in place
    ``i`` of arrangement ``r``, ``leh[r, i]`` its Lehmer digit (how many
    smaller tiles follow it) and ``par[r]`` the digits' sum's parity.  The
    kernels that walk indices by suffix blocks take a state's last ``K`` places
    from these (:func:`.index_kernels.suffix_block`).

    Computed once a process (about 50 ms for ``K = 8`` on the 2-core development machine).

    >>> perm, leh, par = suffix_tables(3)
    >>> perm.tolist()[3], leh.tolist()[3], par.tolist()
    ([1, 2, 0], [1, 1, 0], [0, 1, 1, 0, 0, 1])
    """
    perm = np.array(list(itertools.permutations(range(K))), dtype=np.int8).reshape(-1, K)
    later = np.triu(np.ones((K, K), dtype=bool), 1)  # later[i, j]: place j comes after place i
    leh = ((perm[:, None, :] < perm[:, :, None]) & later).sum(axis=2).astype(np.int8)
    par = (leh.sum(axis=1) & 1).astype(np.int8)
    return perm, leh, par


# ---------------------------------------------------------------------------- one position
# (numpy; the kernels that walk millions of positions are in :mod:`.index_kernels`)


def index_of(s: np.ndarray, b: int, g: tuple) -> int:
    """Index of (tile sequence ``s``, blank cell ``b``), or -1 when that position is unreachable.

    The rank is ``sum S[code_k, s[k]]``, ``code_k`` being the count code of the
    tiles from position ``k`` on; with distinct tiles it is halved, and the
    inversions' parity must be the one the blank's cell asks for.
    """
    H, distinct, radix, S = g.per_blank, g.distinct, g.radix, g.smaller
    full, needpar = g.full, g.parity
    steps = radix[s]
    codes = full - np.cumsum(steps) + steps  # the code before each position
    t = int(S[codes, s].sum())
    if distinct:
        inversions = int(np.count_nonzero(np.triu(s[:, None] > s[None, :], 1)))
        if inversions & 1 != needpar[b]:
            return -1
        return b * H + (t >> 1)
    return b * H + t


def heuristic_of(s: np.ndarray, b: int, g: tuple) -> int:
    """The Manhattan lower bound with the distance's parity (see :mod:`.table`) of one position."""
    w, distinct, md, gb = g.width, g.distinct, g.taxicab, g.goal_blank
    cells = np.arange(s.shape[0])
    cells += cells >= b  # the cell of each tile: the blank's cell is skipped
    h = int(md[s, cells].sum())
    if not distinct:  # nearest-cell distances: fix the parity by the blank's
        bd = abs(b // w - gb // w) + abs(b % w - gb % w)
        h -= (h - bd) & 1
    return h


def space_of(
    goal, size: str | None = None, blank_first: bool = False, metric: str | None = None
) -> Space:
    """A :class:`Space` for a goal given as a board, board text, or a size ``WxH`` (ordered goal;
    read by :func:`slidelab.puzzle.goal_board`, as everywhere), searched in ``metric`` (default:
    a given space's own, else ``stm``)."""
    from ..puzzle import goal_board

    if isinstance(goal, Space):
        return goal if metric in (None, goal.metric) else Space(goal.goal, metric)
    metric = "stm" if metric is None else metric
    if isinstance(goal, Puzzle):
        return Space(goal.goal, metric)
    return Space(goal_board(goal, size=size, blank_first=blank_first), metric)
