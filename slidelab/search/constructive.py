"""Constructive solving: the human method, one row or column at a time, for boards of any size.

The board is shrunk line by line.  Each step solves the row or column of the
unsolved region that lies farthest from the goal's blank cell, so the blank's
goal cell always stays inside the region; rows are taken while the region is
at least as tall as it is wide, columns otherwise, which keeps the region
roughly square.  Within a line the tiles are placed one by one, each walked to
its cell by routing the blank around it (breadth-first search over the cells
that are not yet solved), and the last two tiles of the line go in together by
the corner technique.  Once the region has at most :data:`FINAL_CELLS` cells it
is finished optimally by :func:`~slidelab.search.bidirectional.bidirectional_bfs`
on the sub-puzzle made of those cells.

The whole solution is not optimal, but it is found in time roughly linear in
its length (cubic in the side of the board) and it always exists.

Identical tiles
---------------
When a goal label repeats, any tile with that label may fill a goal cell; the
nearest one is taken.  The choice fixes the permutation parity of what is
left, so at the last placement that still has a choice the tile is picked for
which the remaining region is solvable (exchanging two identical tiles flips
the parity, so one of them always works).  A final region that itself holds a
repeated label needs no such care: it is searched over labels.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from itertools import product

from ..board import Board
from ..errors import UnsolvableError
from ..geometry import DOWN, LEFT, RIGHT, TILE_TO_BLANK, UP
from ..puzzle import Puzzle
from ..solution import Solution, Stats, make_solution
from ..solvability import check, permutation_parity
from ._common import search_entry
from .bidirectional import bidirectional_bfs
from .limits import Limits

METHOD = "constructive"

#: the unsolved region is finished by exact search once it has at most this many cells
FINAL_CELLS = 9


@search_entry("constructive")
def constructive(puzzle: Puzzle, *, limits: Limits | None = None, metric: str = "stm") -> Solution:
    """A solution for any board, row by row and column by column; not optimal.

    Parameters
    ----------
    puzzle : Puzzle
        Any W x H board (W, H >= 2) and any goal: the blank anywhere, labels may
        repeat.
    limits : Limits
        Only the time limit applies; it is checked after each row or column.
    metric : {"stm", "mtm"}
        The metric its length is counted in (the path is the same; its exact
        finish is optimal in STM only).

    Returns
    -------
    Solution
        Method ``"constructive"``.  ``optimal`` is True only when the board is
        small enough to be solved by the exact search alone.  ``stats`` counts
        the exact search that finishes the last region; ``seconds`` is the
        whole time.

    Raises
    ------
    UnsolvableError
        When the goal cannot be reached.
    SearchLimitError
        When the time limit passes first.

    Examples
    --------
    >>> from slidelab import Puzzle, apply_moves, random_board
    >>> puzzle = Puzzle(random_board("12x12", seed=3))
    >>> s = constructive(puzzle)
    >>> apply_moves(s.start, s.moves) == s.goal, s.optimal
    (True, False)
    """
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    stats = Stats()
    builder = _Builder(puzzle)
    region = builder.reduce(limits, stats)
    builder.finish(region, limits, stats)
    stats.seconds = limits.elapsed()
    optimal = builder.lines_solved == 0 and metric == "stm"
    return make_solution(puzzle, cancel_inverses(builder.path), optimal, METHOD, stats, metric)


def cancel_inverses(blank_dirs) -> list[int]:
    """Drop each blank move that is immediately undone (``d`` then ``d ^ 1``), repeatedly.

    The result has the same effect on the board as ``blank_dirs``.

    Examples
    --------
    >>> cancel_inverses([0, 3, 2, 1, 1])
    [1]
    """
    out: list[int] = []
    for d in blank_dirs:
        if out and out[-1] == d ^ 1:
            out.pop()
        else:
            out.append(d)
    return out


class _Line:
    """A row or column to solve, in a frame of its own.

    Local cell ``(i, j)`` is ``j`` cells along the line from its first end and
    ``i`` cells into the region; the line itself is ``i = 0``.  ``length`` is
    the number of cells along the line and ``depth`` the region's extent across
    it (at least 3 whenever a line is solved).
    """

    __slots__ = ("origin", "along", "inward", "length", "depth", "width")

    def __init__(self, origin, along, inward, length, depth, width):
        self.origin, self.along, self.inward = origin, along, inward
        self.length, self.depth, self.width = length, depth, width

    def cell(self, i: int, j: int) -> int:
        """Global index of local cell ``(i, j)``."""
        r = self.origin[0] + i * self.inward[0] + j * self.along[0]
        c = self.origin[1] + i * self.inward[1] + j * self.along[1]
        return r * self.width + c


class _Builder:
    """The board being solved, with the bookkeeping of the constructive method.

    Tiles get distinct ids ``1..n-1`` (the blank is 0) so that identical tiles
    can be told apart; ``label[id]`` is the tile's label.  ``free[cell]`` is
    False for solved cells and for cells held still for a moment; the blank
    never enters a cell that is not free.  ``path`` collects the blank's moves.
    """

    def __init__(self, puzzle: Puzzle):
        width, height = puzzle.width, puzzle.height
        n = width * height
        self.width, self.height, self.n = width, height, n
        self.row = [i // width for i in range(n)]
        self.col = [i % width for i in range(n)]
        self.adj = [[int(x) for x in nb if x >= 0] for nb in puzzle.neighbours]
        self.direction = {-width: UP, width: DOWN, -1: LEFT, 1: RIGHT}
        self.cells = [0] * n
        self.label = [0]
        self.pos = [-1]
        self.pool = defaultdict(set)  # label -> ids of tiles not yet placed
        for cell, label in enumerate(puzzle.start.cells):
            if label == 0:
                self.blank = cell
            else:
                tile = len(self.label)
                self.cells[cell] = tile
                self.label.append(label)
                self.pos.append(cell)
                self.pool[label].add(tile)
        self.goal = list(puzzle.goal.cells)
        self.goal_blank = self.goal.index(0)
        self.free = [True] * n
        self.solved = [False] * n
        self.unplaced = Counter(label for label in self.goal if label != 0)
        self.repeats = sum(1 for k in self.unplaced.values() if k > 1)
        self.path: list[int] = []
        self.lines_solved = 0

    # -- moving ------------------------------------------------------------------
    def distance(self, a: int, b: int) -> int:
        """Taxicab distance between two cells."""
        return abs(self.row[a] - self.row[b]) + abs(self.col[a] - self.col[b])

    def step(self, cell: int) -> None:
        """Move the blank to the adjacent ``cell``."""
        blank = self.blank
        tile = self.cells[cell]
        self.cells[blank], self.cells[cell] = tile, 0
        self.pos[tile] = blank
        self.blank = cell
        self.path.append(self.direction[cell - blank])

    def route(self, targets) -> None:
        """Walk the blank by a shortest path through free cells to the nearest of ``targets``."""
        start = self.blank
        if start in targets:
            return
        free, adj = self.free, self.adj
        parent = {start: -1}
        queue = deque([start])
        while queue:
            x = queue.popleft()
            for y in adj[x]:
                if free[y] and y not in parent:
                    parent[y] = x
                    if y in targets:
                        trail = []
                        while y != start:
                            trail.append(y)
                            y = parent[y]
                        for cell in reversed(trail):
                            self.step(cell)
                        return
                    queue.append(y)
        raise AssertionError(f"the blank at {start} cannot reach {sorted(targets)}")

    def move_tile(self, tile: int, target: int) -> None:
        """Walk ``tile`` to ``target`` through free cells, one cell at a time.

        Each step goes to a free neighbour nearer the target (taxicab distance is
        the true distance in every region this is used on), choosing the one the
        blank reaches first without passing through the tile.
        """
        free, adj, pos = self.free, self.adj, self.pos
        p = pos[tile]
        while p != target:
            d = self.distance(p, target)
            ahead = [q for q in adj[p] if free[q] and self.distance(q, target) < d]
            free[p] = False
            self.route(ahead)
            free[p] = True
            self.step(p)
            p = pos[tile]

    def settle(self, cell: int) -> None:
        """Mark ``cell`` solved: its tile stays there for good."""
        self.solved[cell] = True
        self.free[cell] = False

    # -- choosing tiles ------------------------------------------------------------
    def choose(self, targets: list[int]) -> list[int]:
        """Pick the tiles that will fill the goal cells ``targets`` and take them from the pool.

        Normally the nearest tiles with the right labels.  At the last choice
        before every remaining label is unique, only an assignment that leaves
        the rest solvable is accepted.
        """
        labels = [self.goal[g] for g in targets]
        after = Counter({label: self.unplaced[label] for label in labels})
        repeats_after = self.repeats
        for label in labels:
            after[label] -= 1
            if after[label] == 1:
                repeats_after -= 1
        cost = self.distance
        if self.repeats and not repeats_after:
            options = [
                combo
                for combo in product(*(sorted(self.pool[label]) for label in labels))
                if len(set(combo)) == len(combo)
            ]
            options.sort(
                key=lambda combo: sum(
                    cost(self.pos[t], g) for t, g in zip(combo, targets, strict=False)
                )
            )
            chosen = next(list(combo) for combo in options if self.solvable_with(combo, targets))
        else:
            chosen = []
            for g, label in zip(targets, labels, strict=False):
                chosen.append(
                    min(
                        (t for t in self.pool[label] if t not in chosen),
                        key=lambda t: (cost(self.pos[t], g), t),
                    )
                )
        for tile, label in zip(chosen, labels, strict=False):
            self.pool[label].discard(tile)
            self.unplaced[label] -= 1
        self.repeats = repeats_after
        return chosen

    def solvable_with(self, tiles, targets) -> bool:
        """Whether the board is solvable once ``tiles`` are bound for ``targets``.

        Called only when every other unplaced goal label is unique, so the rest
        of the assignment is forced; the usual parity rule then decides.
        """
        bound = dict(zip(tiles, targets, strict=False))
        home = {
            self.goal[g]: g
            for g in range(self.n)
            if not self.solved[g] and self.goal[g] != 0 and g not in targets
        }
        perm = []
        for cell, tile in enumerate(self.cells):
            if tile == 0:
                perm.append(self.goal_blank)
            elif tile in bound:
                perm.append(bound[tile])
            elif self.solved[cell]:
                perm.append(cell)
            else:
                perm.append(home[self.label[tile]])
        return permutation_parity(perm) == self.distance(self.blank, self.goal_blank) % 2

    # -- lines -------------------------------------------------------------------------
    def solve_line(self, line: _Line) -> None:
        """Place the tiles of ``line`` without disturbing solved cells; settle them."""
        w = line.length
        for j in range(w - 2):
            g = line.cell(0, j)
            (tile,) = self.choose([g])
            self.move_tile(tile, g)
            self.settle(g)
        t1, t2 = line.cell(0, w - 2), line.cell(0, w - 1)
        a, b = self.choose([t1, t2])
        if self.pos[a] != t1 or self.pos[b] != t2:
            self.move_tile(a, t1)
            if self.pos[b] != t2:
                window = [
                    line.cell(i, j)
                    for i in range(3)
                    for j in range(max(0, w - 3), w)
                    if i > 0 or j >= w - 2
                ]
                if self.pos[b] not in window:
                    # With t1 held, t2 is a dead end: bring b just below it.
                    self.free[t1] = False
                    self.move_tile(b, line.cell(1, w - 1))
                    self.free[t1] = True
                self.corner(a, b, t1, t2, window)
        self.settle(t1)
        self.settle(t2)
        self.lines_solved += 1

    def corner(self, a: int, b: int, t1: int, t2: int, window: list[int]) -> None:
        """Bring ``a`` to ``t1`` and ``b`` to ``t2`` by the fewest moves inside ``window``.

        A breadth-first search over (cell of a, cell of b, blank) in the window
        of at most 8 cells around the line's end; the other tiles in the window
        may move, those outside it do not.  With at least two untracked tiles in
        a window that is not a cycle, every placement is reachable.
        """
        free, pos = self.free, self.pos
        free[pos[a]] = free[pos[b]] = False
        self.route(set(window))
        free[pos[a]] = free[pos[b]] = True
        index = {cell: i for i, cell in enumerate(window)}
        wadj = [[index[y] for y in self.adj[x] if y in index] for x in window]
        start = (index[pos[a]], index[pos[b]], index[self.blank])
        done = (index[t1], index[t2])
        parent = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            if state[:2] == done:
                break
            pa, pb, blank = state
            for nb in wadj[blank]:
                nxt = (blank if pa == nb else pa, blank if pb == nb else pb, nb)
                if nxt not in parent:
                    parent[nxt] = state
                    queue.append(nxt)
        else:
            raise AssertionError("corner search found no way to place the last two tiles")
        blanks = []
        while parent[state] is not None:
            blanks.append(window[state[2]])
            state = parent[state]
        for cell in reversed(blanks):
            self.step(cell)

    def reduce(self, limits: Limits, stats: Stats) -> tuple[int, int, int, int]:
        """Solve rows and columns until at most :data:`FINAL_CELLS` cells are left.

        Returns the remaining region ``(r0, r1, c0, c1)``, half-open.
        """
        r0, r1, c0, c1 = 0, self.height, 0, self.width
        gr, gc = self.row[self.goal_blank], self.col[self.goal_blank]
        while (r1 - r0) * (c1 - c0) > FINAL_CELLS:
            height, width = r1 - r0, c1 - c0
            if height >= width:  # a row, the one farther from the goal blank
                if gr - r0 >= r1 - 1 - gr:
                    r, inward, r0 = r0, 1, r0 + 1
                else:
                    r, inward, r1 = r1 - 1, -1, r1 - 1
                ends = [((r, c0), (0, 1)), ((r, c1 - 1), (0, -1))]
                inward, length, depth = (inward, 0), width, height
            else:  # a column
                if gc - c0 >= c1 - 1 - gc:
                    c, inward, c0 = c0, 1, c0 + 1
                else:
                    c, inward, c1 = c1 - 1, -1, c1 - 1
                ends = [((r0, c), (1, 0)), ((r1 - 1, c), (-1, 0))]
                inward, length, depth = (0, inward), height, width
            # start the line at the end nearer the blank
            origin, along = min(
                ends, key=lambda e: self.distance(self.blank, e[0][0] * self.width + e[0][1])
            )
            self.solve_line(_Line(origin, along, inward, length, depth, self.width))
            limits.check(stats, METHOD, lines=self.lines_solved, region=f"{c1 - c0}x{r1 - r0}")
        return r0, r1, c0, c1

    def finish(self, region, limits: Limits, stats: Stats) -> None:
        """Solve the remaining region optimally by bidirectional BFS on its own sub-puzzle."""
        r0, r1, c0, c1 = region
        cells = [r * self.width + c for r in range(r0, r1) for c in range(c0, c1)]
        width, height = c1 - c0, r1 - r0
        start = Board.from_cells([self.label[self.cells[x]] for x in cells], width, height)
        goal = Board.from_cells([self.goal[x] for x in cells], width, height)
        sub = bidirectional_bfs(Puzzle(start, goal), limits=limits)
        for move in sub.moves:
            d = TILE_TO_BLANK[move.direction]
            for _ in range(move.amount):
                self.path.append(d)
        stats.expanded = sub.stats.expanded
        stats.generated = sub.stats.generated
        stats.stored = sub.stats.stored
        stats.peak_frontier = sub.stats.peak_frontier
