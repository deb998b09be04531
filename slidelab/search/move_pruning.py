"""Pruning duplicate paths in depth-first search: a finite automaton over the blank's moves.

A depth-first search (IDA*) that only refuses to move the blank straight back still walks
many paths to each position: the blank around a 2x2 block twice one way is once the other
way, and two detours of the same length often end alike.  Taylor and Korf ("Pruning
duplicate nodes in depth-first search", AAAI 1993) found such move strings by a
breadth-first search of short strings and built a finite automaton that refuses any path
ending in one; IDA* then walks one path per position far more often.

Here the strings are the blank's directions (0 up, 1 down, 2 left, 3 right:
:func:`slidelab.geometry.step`) on an unbounded grid, shortest first and, within a length,
in that order.  A string is *refused* when an earlier string (shorter, or as long and
smaller) leaves every tile where it leaves them and its cells fit in the rectangle that
holds the string's: on a board (a rectangle) the earlier string can then be moved wherever
the refused one can.  Refusing is safe: on any board, the least optimal path (shortest, then
smallest) never holds a refused string, since the earlier string in its place would make a
smaller one; it holds for boards with identical tiles too (their positions only merge more
paths).  A refused string is not extended (its extensions hold it).

:func:`refused` is that search.  Its strings of up to :data:`LENGTH` moves within
:data:`SIDE` x :data:`SIDE` cells (ten seconds of Python) ship with slidelab in
``refused_moves.txt`` (2,540 strings: Korf's 100 with the 7-8 tables in 2,979,686 nodes
against 4,071,216 walking every path; strings of up to 14 moves take 2.6 % more off, found
in over a minute and several GB: ``benchmarks/move_pruning.py``).  :func:`automaton` is their Aho-Corasick
automaton: ``table[state, d]`` is the state after the blank moves ``d``, or -1 when the path
then ends in a refused string.  State 0 is the start (any path with no history, a subtree's
root included: starting there only refuses less).

Examples
--------
>>> table = automaton_of(refused(2))
>>> table.shape, int(table[table[0, 0], 1])   # up then down: back where it was, refused
((5, 4), -1)
>>> {length: len(strings) for length, strings in refused(8).items()}
{2: 4, 6: 4, 8: 32}
>>> automaton().shape
(9223, 4)
"""

from __future__ import annotations

import functools
from collections import deque

import numpy as np

from ..geometry import DOWN, LEFT, RIGHT, UP

#: the blank's step on the grid (row, column) by direction, in the directions' order
_STEPS = tuple(sorted({UP: (-1, 0), DOWN: (1, 0), LEFT: (0, -1), RIGHT: (0, 1)}.items()))
#: the longest refused strings shipped (``refused_moves.txt``), and the side of the square
#: their cells fit in (the 24-puzzle's)
LENGTH = 12
SIDE = 5
_SHIPPED = "refused_moves.txt"


@functools.lru_cache(maxsize=4)
def refused(max_length: int, side: int = 64) -> dict[int, list[tuple[int, ...]]]:
    """The refused strings of at most ``max_length`` moves, by length (see the module), among
    those whose cells fit in a square of ``side`` cells a side (larger strings are walked)."""
    found: dict[int, list[tuple[int, ...]]] = {}
    refuse: set[tuple[int, ...]] = set()
    # per position reached: the cell rectangles of the strings kept that reach it
    boxes: dict[tuple, list[tuple[int, int, int, int]]] = {((0, 0), frozenset()): [(0, 0, 0, 0)]}
    layer = [((), (0, 0), {}, (0, 0, 0, 0))]  # string, blank, tile origins moved, rectangle
    for length in range(1, max_length + 1):
        following = []
        for string, blank, origins, box in layer:
            for d, (dr, dc) in _STEPS:
                if any((*string[len(string) - j :], d) in refuse for j in range(1, length)):
                    continue  # it ends in a refused string: the automaton refuses it already
                cell = (blank[0] + dr, blank[1] + dc)
                moved = dict(origins)
                origin = moved.pop(cell, cell)  # the tile on ``cell`` slides onto ``blank``
                if origin != blank:
                    moved[blank] = origin
                rect = (min(box[0], cell[0]), max(box[1], cell[0]),
                        min(box[2], cell[1]), max(box[3], cell[1]))  # fmt: skip
                if rect[1] - rect[0] >= side or rect[3] - rect[2] >= side:
                    continue  # on no board of at most side x side cells
                key = (cell, frozenset(moved.items()))
                earlier = boxes.setdefault(key, [])
                if any(_inside(e, rect) for e in earlier):
                    found.setdefault(length, []).append((*string, d))
                    refuse.add((*string, d))
                    continue
                earlier.append(rect)
                following.append(((*string, d), cell, moved, rect))
        layer = following
    return found


def _inside(inner: tuple, outer: tuple) -> bool:
    """Whether the rectangle ``inner`` (rows and columns, from .. to) lies in ``outer``."""
    rows = outer[0] <= inner[0] and inner[1] <= outer[1]
    return rows and outer[2] <= inner[2] and inner[3] <= outer[3]


@functools.lru_cache(maxsize=1)
def shipped() -> dict[int, list[tuple[int, ...]]]:
    """The refused strings shipped with slidelab (``refused(LENGTH, SIDE)``, read)."""
    from importlib.resources import files

    found: dict[int, list[tuple[int, ...]]] = {}
    for line in files(__package__).joinpath(_SHIPPED).read_text().splitlines():
        if line and not line.startswith("#"):
            found.setdefault(len(line), []).append(tuple(int(c) for c in line))
    return found


@functools.lru_cache(maxsize=1)
def automaton() -> np.ndarray:
    """The automaton of the shipped strings (:func:`automaton_of`, made once a process)."""
    return automaton_of(shipped())


def automaton_of(strings: dict[int, list[tuple[int, ...]]]) -> np.ndarray:
    """The automaton refusing ``strings`` (by length, as :func:`refused` gives them; see the
    module): an ``int32`` table of ``(states, 4)``, -1 for a move that ends a refused string
    (read-only)."""
    goto: list[list[int]] = [[-1] * 4]
    final = [False]
    for same_length in strings.values():
        for string in same_length:
            state = 0
            for d in string:
                if goto[state][d] < 0:
                    goto.append([-1] * 4)
                    final.append(False)
                    goto[state][d] = len(goto) - 1
                state = goto[state][d]
            final[state] = True
    # failure links, breadth first; a state is final when a suffix of its string is refused
    fail = [0] * len(goto)
    table = [row[:] for row in goto]
    queue: deque[int] = deque()
    for d in range(4):
        child = goto[0][d]
        if child < 0:
            table[0][d] = 0
        else:
            queue.append(child)
    while queue:
        state = queue.popleft()
        final[state] = final[state] or final[fail[state]]
        for d in range(4):
            child = goto[state][d]
            if child < 0:
                table[state][d] = table[fail[state]][d]
            else:
                fail[child] = table[fail[state]][d]
                queue.append(child)
    # the final states go: a move into one is refused; the others are numbered again
    keep = [s for s in range(len(goto)) if not final[s]]
    number = {s: i for i, s in enumerate(keep)}
    out = np.full((len(keep), 4), -1, dtype=np.int32)
    for s in keep:
        for d in range(4):
            t = table[s][d]
            if not final[t]:
                out[number[s], d] = number[t]
    out.flags.writeable = False
    return out


def enter(table: np.ndarray, history) -> int:
    """The automaton's state after the blank directions ``history`` from state 0, or -1 when
    they end a refused string on the way (the path duplicates a smaller one).

    >>> enter(automaton(), [0, 3]) >= 0, enter(automaton(), [0, 1])
    (True, -1)
    """
    state = 0
    for d in history:
        state = int(table[state, int(d)])
        if state < 0:
            return -1
    return state


#: the automaton that refuses nothing (a search that must walk every path: all solutions)
NONE = np.zeros((1, 4), dtype=np.int32)
NONE.flags.writeable = False
