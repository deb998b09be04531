"""Dual look-ups in additive pattern databases: which are admissible, and what they add.

Issue 41 asked for the dual look-ups of Felner, Zahavi, Schaeffer and Holte (the dual state's
estimate, maxed with the board's own and its reflection's).  The goal here is the blank first
(Korf's), so a board is a permutation of the cells and its *simple dual* is the inverse
permutation: the token at cell ``x`` of the dual is the cell that holds ``x`` on the board.

The argument of the general duality (apply to the goal the cell swaps that solve the board)
gives, for the sliding-tile puzzle: every swap of that path moves one token of the dual, the
tile ``z`` whose goal cell is where the board's blank is (``z`` plays the blank; the real blank
is an ordinary token).  So an additive pattern database that ignores the blank is admissible
on the dual for every group without ``z``; ``z``'s group needs another bound (here: the
Manhattan distance of the group's other tiles and of the blank token).  Where the board's blank
is home, ``z`` is the blank and the dual is exactly as far as the board: walking the blank home
first (``m`` moves) and taking ``m`` off the dual's look-up is admissible with any tables (the
fourth form).  This script measures

1. on the 8-puzzle, exhaustively (exact distances by breadth-first search), four forms of the
   dual look-up with additive partitions: every group looked up on the dual (the simple
   inverse), the dual with ``z`` and the blank relabelled, the form above, and the blank walked
   home;
2. on ``--random`` seeded random 15-puzzles, the 7-8 tables with their reflection (slidelab's
   default) against the same maxed with the admissible dual of the board and of its
   reflection: how often, and by how much, the estimate rises;
3. with ``--second PARTITION`` (its tables built, 550 MiB for a 7-8 shape), the same for the
   maximum over a second partition of the 15-puzzle.

Run: ``python benchmarks/dual.py [--random 3000] [--second "1,4,5,10,11,14,15/2,3,6,7,8,9,12,13"]``
(the 7-8 tables cached: ``slidelab tables build 4x4 --blank-first --partition 7-8``).
"""

from __future__ import annotations

import argparse
from collections import deque

import numpy as np

import slidelab
from slidelab import Puzzle
from slidelab.heuristics.pdb import pattern_database
from slidelab.tables.pdb.layout import group_index

PARTITIONS_3X3 = ("1,2,3,4/5,6,7,8", "1,2,3/4,5,6/7,8", "1,3,5,7/2,4,6,8")


class Lookups:
    """Per-group values of slidelab's pattern databases on any permutation of the cells."""

    def __init__(self, puzzle: Puzzle, partition: str):
        self.pdb = pattern_database(puzzle, partition, reflect=True)
        layout = self.pdb.layout
        self.args = (layout.gof, layout.gpos, layout.gm, layout.binom, layout.mult,
                     *layout.scratch())  # fmt: skip
        self.groups = [set(g) for g in self.pdb.groups]
        self.sides = [(self.pdb.ident, self.pdb.ident_sigma)]
        if self.pdb.reflected:
            self.sides.append((self.pdb.refl, self.pdb.sigma))

    def values(self, cells: np.ndarray) -> list[int]:
        ident, sigma = self.sides[0]
        return [
            int(table[group_index(cells, ident, sigma, g, *self.args)])
            for g, table in enumerate(self.pdb.tables)
        ]

    def seen(self, cells: np.ndarray, side: int) -> np.ndarray:
        """The board through the reflection (side 1) or as it is (side 0)."""
        view, sigma = self.sides[side]
        return sigma[cells[view]]


class FreeLookups:
    """Pattern databases with the blank left out of the abstraction (a group's tile may step
    onto any cell its group does not hold), by breadth-first search here: weaker than
    slidelab's, whose builds move a blank and start from the goal's blank cell."""

    def __init__(self, width: int, height: int, partition: str):
        self.width, n = width, width * height
        self.groups = [set(map(int, g.split(","))) for g in partition.split("/")]
        self.tables = []
        for group in self.groups:
            home = tuple(sorted(group))  # tile t's goal cell is t
            table = {home: 0}
            queue = deque([home])
            while queue:
                s = queue.popleft()
                for i, p in enumerate(s):
                    for c in range(n):
                        if taxicab(width, p, c) == 1 and c not in s:
                            t = s[:i] + (c,) + s[i + 1 :]
                            if t not in table:
                                table[t] = table[s] + 1
                                queue.append(t)
            self.tables.append(table)

    def values(self, cells: np.ndarray) -> list[int]:
        where = np.argsort(cells)
        return [
            table[tuple(int(where[t]) for t in sorted(group))]
            for group, table in zip(self.groups, self.tables, strict=True)
        ]


def taxicab(width: int, a: int, b: int) -> int:
    return abs(a // width - b // width) + abs(a % width - b % width)


def walked_home(cells: np.ndarray, width: int, order: str) -> tuple[np.ndarray, int]:
    """``cells`` with the blank walked to its goal cell 0 (rows first, ``"rc"``, or columns
    first), and the moves that took."""
    s, b, m = cells.copy(), int(np.flatnonzero(cells == 0)[0]), 0
    for axis in order:
        while (b >= width) if axis == "r" else (b % width > 0):
            nb = b - width if axis == "r" else b - 1
            s[b], s[nb] = s[nb], 0
            b, m = nb, m + 1
    return s, m


def walked_dual(look, cells: np.ndarray, width: int, sides: int = 1) -> int:
    """The dual look-up of the board with its blank walked home, less the walk's moves: a
    board with its blank home is as far as its dual (the solving cell swaps, reversed), and the
    walk is at most that many moves; the larger of the two walks (rows or columns first), over
    the reflection too where ``sides`` is 2."""
    best = 0
    for order in ("rc", "cr"):
        home, m = walked_home(cells, width, order)
        dual = np.argsort(home)
        for side in range(sides):
            seen = dual if side == 0 else look.seen(dual, side)
            best = max(best, sum(look.values(seen)) - m)
    return best


def dual_estimates(look: Lookups, cells: np.ndarray, width: int) -> dict[str, int]:
    """The four forms of the dual look-up of ``cells`` (goal: the identity)."""
    dual = np.argsort(cells)  # the token at cell x of the dual: the cell holding x
    z = int(dual[0])  # the dual's token on the blank's goal cell: where the board's blank is
    where = np.argsort(dual)  # where = cells: the dual's cell of each token
    relabelled = dual.copy()
    relabelled[where[0]], relabelled[where[z]] = z, 0
    values, swapped = look.values(dual), look.values(relabelled)
    admissible = 0
    for g, group in enumerate(look.groups):
        if z in group:
            rest = [t for t in group if t != z] + [0]
            admissible += sum(taxicab(width, t, int(where[t])) for t in rest)
        else:
            admissible += values[g]
    return {
        "every group": sum(values),
        "relabelled": sum(swapped),
        "z's group by Manhattan": admissible,
        "the blank walked home": walked_dual(look, cells, width),
    }


def exact_distances(width: int, height: int) -> dict[tuple, int]:
    """Every position's distance to the blank-first goal (breadth-first search)."""
    n = width * height
    goal = tuple(range(n))
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        b = s.index(0)
        for c in range(n):
            if taxicab(width, b, c) == 1:
                t = list(s)
                t[b], t[c] = t[c], t[b]
                t = tuple(t)
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
    return dist


def eight_puzzle() -> None:
    dist = exact_distances(3, 3)
    goal = Puzzle(slidelab.random_board("3x3", seed=0, blank_first=True), blank_first=True)
    print(f"\n8-puzzle, all {len(dist):,} positions, exact distances, goal blank first\n")
    print("| tables | partition | dual look-up | positions over the true distance |"
          " raises the board's own |")  # fmt: skip
    print("| --- | --- | --- | ---: | ---: |")
    for partition in PARTITIONS_3X3:
        for kind, look in (("slidelab's", Lookups(goal, partition)),
                           ("blank left out", FreeLookups(3, 3, partition))):  # fmt: skip
            over = dict.fromkeys(
                ("every group", "relabelled", "z's group by Manhattan", "the blank walked home"), 0
            )
            raised = dict.fromkeys(over, 0)
            for state, d in dist.items():
                cells = np.array(state, dtype=np.int64)
                own = sum(look.values(cells))
                for form, h in dual_estimates(look, cells, 3).items():
                    over[form] += h > d
                    raised[form] += h > own
            for form in over:
                print(f"| {kind} | {partition} | {form} | {over[form]:,} | {raised[form]:,} |")


def fifteen_puzzle(count: int, second: str | None) -> None:
    boards = [
        np.array(Puzzle(slidelab.random_board("4x4", seed=i, blank_first=True),
                        blank_first=True).start_codes, dtype=np.int64)
        for i in range(count)
    ]  # fmt: skip
    look = Lookups(Puzzle(boards[0].reshape(4, 4).tolist(), blank_first=True), "7-8")
    other = None
    if second is not None:
        other = Lookups(Puzzle(boards[0].reshape(4, 4).tolist(), blank_first=True), second)
    own_sum = raised = gain = other_raised = other_gain = walked_raised = walked_gain = 0
    for cells in boards:
        sides = [look.seen(cells, s) for s in range(len(look.sides))]
        own = max(sum(look.values(c)) for c in sides)
        dual = max(dual_estimates(look, c, 4)["z's group by Manhattan"] for c in sides)
        own_sum += own
        raised += dual > own
        gain += max(dual - own, 0)
        walked = walked_dual(look, cells, 4, len(look.sides))
        walked_raised += walked > own
        walked_gain += max(walked - own, 0)
        if other is not None:
            more = max(sum(other.values(other.seen(cells, s))) for s in range(len(other.sides)))
            other_raised += more > own
            other_gain += max(more - own, 0)
    print(f"\n15-puzzle, {count:,} seeded random positions, goal blank first\n")
    print("| estimate | mean | positions raised | mean rise |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| 7-8 with its reflection | {own_sum / count:.2f} | | |")
    print(f"| maxed with the dual of both (z's group by Manhattan) | {(own_sum + gain) / count:.2f}"
          f" | {raised:,} ({100 * raised / count:.1f} %) | {gain / count:.3f} |")  # fmt: skip
    print(f"| maxed with the dual of both, the blank walked home | {(own_sum + walked_gain) / count:.2f}"
          f" | {walked_raised:,} ({100 * walked_raised / count:.1f} %) |"
          f" {walked_gain / count:.3f} |")  # fmt: skip
    if other is not None:
        print(f"| maxed with {second} and its reflection | {(own_sum + other_gain) / count:.2f}"
              f" | {other_raised:,} ({100 * other_raised / count:.1f} %) |"
              f" {other_gain / count:.3f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=3000, help="seeded random 15-puzzles")
    parser.add_argument("--second", default=None, help="a second 15-puzzle partition, maxed")
    args = parser.parse_args()
    eight_puzzle()
    fifteen_puzzle(args.random, args.second)


if __name__ == "__main__":
    main()
