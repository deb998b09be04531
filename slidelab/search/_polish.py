"""Polishing a bounded-suboptimal solution: stretches of the path replaced by optimal ones.

Weighted A* finds a path at most ``w`` times optimal, but an informed estimate
(pattern databases) and a large weight make it greedy: the path wanders.  The
polisher replaces *windows* of the path (the moves between its states ``s_i``
and ``s_j``) by optimal paths between the same two boards when those are
shorter.  It never lengthens the path, so the weighted bound still holds.

**Windows against the real goal's heuristic.**  An optimal search between two
arbitrary boards would need an estimate of the distance to an arbitrary
board; the pattern databases only estimate the distance to the puzzle's goal.
But the distance between two boards does not change when the same symmetry of
the rectangle (flips; on a square board also transposes and rotations) is
applied to both, nor when tiles are renamed consistently.  So when a symmetry
takes the blank of board ``s_j`` to the goal's blank cell, renaming the tiles
of the reflected ``s_j`` to the goal's makes it *the goal*, and the distance
from ``s_i`` (reflected and renamed the same way) is found by A* with the
search's own heuristic, tables included.  On the 15-puzzle with the blank
first, every board whose blank is in a corner is such an *anchor*; the goal
itself is one.  Windows run from ``s_{j-L}`` to an anchor ``s_j`` and from an
anchor to ``s_{j+L}`` (searched backwards: moves are reversible).  A window
is searched by A* (weight 1) with the search's heuristic, dropping nodes
whose ``g + h`` reaches the window's length (no shorter path through them;
a window whose first estimate already equals its length is not searched at
all).  A window whose search stores more than a node budget is given up and
retried three quarters as long, and later windows start no longer.  Only
boards with distinct tiles are polished (renaming identical tiles is not a
bijection).

Passes over the path repeat until one finds nothing shorter (at most
``MAX_PASSES``), within a total budget of expansions.  The searches' work is
added to the solution's statistics.  A time limit reached while polishing ends
the polishing, and the path found so far is returned.
"""

from __future__ import annotations

import numpy as np

from ..errors import SearchLimitError
from ..heuristics import Heuristic
from ..puzzle import Puzzle
from ..solution import Stats
from ._bestfirst_run import Packing, WindowCapped, run_kernel
from .limits import Limits

#: longest window searched
WINDOW = 44
#: shortest window tried after a window ran over the node budget
MIN_WINDOW = 12
#: nodes a window's search may store before it is given up (and retried shorter)
WINDOW_NODES = 200_000
#: passes over the path at most
MAX_PASSES = 4
#: nodes all the windows of one path may expand together
POLISH_NODES = 5_000_000


class _Spent(Exception):
    """The polishing budget is used up."""


def symmetries(width: int, height: int) -> list[np.ndarray]:
    """Cell maps ``sigma`` (cell ``x`` goes to ``sigma[x]``) of the W x H rectangle.

    Examples
    --------
    >>> [m.tolist() for m in symmetries(2, 2)][:3]
    [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1]]
    >>> len(symmetries(3, 2)), len(symmetries(3, 3))
    (4, 8)
    """
    r, c = np.divmod(np.arange(width * height), width)
    out = []
    for transpose in (False, True) if width == height else (False,):
        for flip_r in (False, True):
            for flip_c in (False, True):
                rr = height - 1 - r if flip_r else r
                cc = width - 1 - c if flip_c else c
                if transpose:
                    rr, cc = cc, rr
                out.append((rr * width + cc).astype(np.int64))
    return out


def _cells_to_dirs(cells, width: int) -> list[int]:
    """Blank directions (0 up, 1 down, 2 left, 3 right) of a sequence of blank cells."""
    step = {-width: 0, width: 1, -1: 2, 1: 3}
    return [step[b - a] for a, b in zip(cells, cells[1:], strict=False)]


class Polisher:
    """Shortens a path window by window (see the module notes).

    ``search(start_codes, cap, shorter_than)`` runs an optimal search from
    ``start_codes`` to the puzzle's goal and returns its blank directions, or
    None when no path is shorter than ``shorter_than`` moves (it raises
    :class:`~slidelab.search._bestfirst_run.WindowCapped` past ``cap`` stored nodes).
    """

    def __init__(
        self,
        puzzle: Puzzle,
        search,
        window: int = WINDOW,
        window_nodes: int = WINDOW_NODES,
        max_passes: int = MAX_PASSES,
    ):
        self.puzzle = puzzle
        self.search = search
        self.window = window
        self.window_nodes = window_nodes
        self.max_passes = max_passes
        self.width = puzzle.width
        self.nbr = puzzle.neighbours
        self.goal = puzzle.goal_codes.astype(np.int64)
        goal_blank = int(np.flatnonzero(self.goal == 0)[0])
        self.sym_for = {}  # blank cell -> a symmetry taking it to the goal's blank cell
        for sigma in symmetries(puzzle.width, puzzle.height):
            for cell in range(sigma.shape[0]):
                if sigma[cell] == goal_blank:
                    self.sym_for.setdefault(cell, sigma)
        self.known: set = set()  # windows already optimal
        self.size = window  # longest window tried now
        self.cells: list[int] = []

    @staticmethod
    def applies(puzzle: Puzzle) -> bool:
        return not puzzle.has_repeats

    # -- paths as boards --------------------------------------------------------------

    def _boards(self, start, cells):
        boards = [np.array(start, dtype=np.int64)]
        board = boards[0].copy()
        for a, b in zip(cells, cells[1:], strict=False):
            board[a] = board[b]
            board[b] = 0
            boards.append(board.copy())
        return boards

    def _transform(self, anchor):
        """``(sigma, rename)`` making ``anchor`` the goal, or None if it is no anchor."""
        blank = int(np.flatnonzero(anchor == 0)[0])
        sigma = self.sym_for.get(blank)
        if sigma is None:
            return None
        seen = np.empty_like(anchor)
        seen[sigma] = anchor
        rename = np.empty_like(anchor)
        rename[seen] = self.goal
        return sigma, rename

    def _optimal(self, other, anchor, transform, limit):
        """Blank cells of an optimal path from ``other`` to ``anchor`` when it is shorter than
        ``limit`` moves; False when it is not, None when the search ran over the node budget."""
        sigma, rename = transform
        seen = np.empty_like(other)
        seen[sigma] = other
        start = rename[seen]
        try:
            dirs = self.search(start.astype(np.int16), self.window_nodes, limit)
        except WindowCapped:
            return None
        if dirs is None or len(dirs) >= limit:
            return False
        inverse = np.empty_like(sigma)
        inverse[sigma] = np.arange(sigma.shape[0])
        cell = int(np.flatnonzero(start == 0)[0])
        cells = [cell]
        for d in dirs:
            cell = int(self.nbr[cell, d])
            cells.append(cell)
        return [int(inverse[c]) for c in cells]

    def _window(self, boards, cells, i, j, anchor_at_end):
        """Try to shorten ``cells[i..j]``; the new cells list, or None."""
        key = (boards[i].tobytes(), boards[j].tobytes())
        if key in self.known:
            return None
        anchor, other = (boards[j], boards[i]) if anchor_at_end else (boards[i], boards[j])
        found = self._optimal(other, anchor, self._transform(anchor), j - i)
        if found is None:
            return None  # over budget: not known either way
        self.known.add(key)
        if found is False:
            return None
        if not anchor_at_end:
            found = found[::-1]
        return cells[:i] + found + cells[j + 1 :]

    def polish(self, start, dirs: list[int]) -> list[int]:
        """A path no longer than ``dirs`` (blank directions from ``start``).

        The best path so far is kept in ``self.cells`` (blank cells), so a
        caller interrupted by a limit can still use it.
        """
        cell = int(np.flatnonzero(np.asarray(start) == 0)[0])
        self.cells = [cell]
        for d in dirs:
            cell = int(self.nbr[cell, d])
            self.cells.append(cell)
        for _ in range(self.max_passes):
            improved = False
            boards = self._boards(start, self.cells)
            j = 0
            while j < len(self.cells):
                new = None
                if self._transform(boards[j]) is not None:
                    for anchor_at_end in (True, False):
                        new = self._around(boards, j, anchor_at_end)
                        if new is not None:
                            break
                if new is None:
                    j += 1
                    continue
                self.cells = new
                boards = self._boards(start, self.cells)
                improved = True
            if not improved:
                break
        return _cells_to_dirs(self.cells, self.width)

    def _around(self, boards, j, anchor_at_end):
        """Shorten the longest affordable window ending (or starting) at anchor ``j``.

        A window over the node budget is retried three quarters as long, and
        later windows start no longer than that.
        """
        last = len(self.cells) - 1
        while True:
            size = self.size
            if size < MIN_WINDOW:
                return None
            i, k = (max(0, j - size), j) if anchor_at_end else (j, min(last, j + size))
            if k - i < 2:
                return None
            if (boards[i].tobytes(), boards[k].tobytes()) in self.known:
                return None
            new = self._window(boards, self.cells, i, k, anchor_at_end)
            if new is not None:
                return new
            if (boards[i].tobytes(), boards[k].tobytes()) in self.known:
                return None  # searched: already optimal
            self.size = min(self.size, (k - i) * 3 // 4)  # over the node budget


def polish_path(
    puzzle: Puzzle,
    dirs: list[int],
    heur: Heuristic,
    limits: Limits,
    method: str,
    stats: Stats,
    budget: int = POLISH_NODES,
    **options,
) -> list[int]:
    """``dirs`` with windows replaced by optimal sub-paths (never longer); work added to ``stats``.

    Stops early, keeping what it has, when the time limit is reached or the
    windows have expanded ``budget`` nodes.
    """
    if not Polisher.applies(puzzle):
        return dirs
    packing = Packing(puzzle)
    goal, nbr = puzzle.goal_codes, puzzle.neighbours
    window_limits = Limits(
        None, limits.max_states, limits.max_bytes, started=limits.started, clock=limits.clock
    )
    spent_before = stats.expanded

    def search(start, cap, shorter_than):
        if stats.expanded - spent_before > budget:
            raise _Spent()
        return run_kernel(
            start,
            goal,
            nbr,
            packing,
            heur,
            1.0,
            window_limits,
            method,
            stats,
            cap=cap,
            shorter_than=shorter_than,
        )

    polisher = Polisher(puzzle, search, **options)
    try:
        result = polisher.polish(puzzle.start_codes, dirs)
    except (SearchLimitError, _Spent):  # out of time or budget: keep the best path so far
        result = _cells_to_dirs(polisher.cells, puzzle.width)
    stats.seconds = limits.elapsed()
    return result if len(result) <= len(dirs) else dirs
