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
against 4,071,216 walking every path, and zero-aware in 1,743,692 against about 2.29
million; strings of up to 14 moves take 2.6 % more off, found in over a minute and several
GB: ``benchmarks/move_pruning.py``).  :func:`automaton` is their Aho-Corasick automaton:
``table[state, d]`` is the state after the blank moves ``d``, or -1 when the path then ends in
a refused string.  State 0 is the start (any path with no history, a subtree's
root included: starting there only refuses less).

**Multi-tile moves (MTM).**  The same search over moves that slide 1 .. ``reach`` tiles
(move ``d * reach + k - 1``: ``k`` tiles, the blank going ``d``, as IDA*'s kernel numbers
them) finds the strings that an earlier string of no more moves does the work of; the
argument is the same, with "smaller" counted in MTM moves.  Shipped for the 8-puzzle's
moves (:data:`MTM_SHIPPED`: 662 strings of up to 10 moves) and the 15-puzzle's (3,596 of up to
8: 13 % fewer nodes on the MTM antipode's iterations to 40, ``benchmarks/move_pruning.py``).
On larger boards only the search's own rule refuses (the blank never straight back, nor on
along its line: one longer slide).

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
def refused(max_length: int, side: int = 64, reach: int = 1) -> dict[int, list[tuple[int, ...]]]:
    """The refused strings of at most ``max_length`` moves, by length (see the module), among
    those whose cells fit in a square of ``side`` cells a side (larger strings are walked).

    ``reach``: a move slides 1 .. ``reach`` tiles (MTM when more than 1), numbered as the
    search numbers them: ``d * reach + k - 1`` for ``k`` tiles with the blank going ``d``."""
    moves = [(d * reach + k - 1, step, k) for d, step in _STEPS for k in range(1, reach + 1)]
    found: dict[int, list[tuple[int, ...]]] = {}
    refuse: set[tuple[int, ...]] = set()
    # per position reached: the cell rectangles of the strings kept that reach it
    boxes: dict[tuple, list[tuple[int, int, int, int]]] = {((0, 0), frozenset()): [(0, 0, 0, 0)]}
    layer = [((), (0, 0), {}, (0, 0, 0, 0))]  # string, blank, tile origins moved, rectangle
    for length in range(1, max_length + 1):
        following = []
        for string, blank, origins, box in layer:
            for d, (dr, dc), k in moves:
                if any((*string[len(string) - j :], d) in refuse for j in range(1, length)):
                    continue  # it ends in a refused string: the automaton refuses it already
                cell = blank
                moved = dict(origins)
                for _ in range(k):
                    free, cell = cell, (cell[0] + dr, cell[1] + dc)
                    origin = moved.pop(cell, cell)  # the tile on ``cell`` slides onto ``free``
                    if origin != free:
                        moved[free] = origin
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


#: per most tiles a move slides (``reach``, MTM), the longest refused strings shipped and the
#: side of their square: the 8-puzzle's and the 15-puzzle's (``refused_moves_mtm<reach>.txt``,
#: a move a character: ``0-9``, then ``a`` for 10 and on).  Beyond them only the search's own
#: rule (never straight back, nor on along the same line) refuses.
MTM_SHIPPED = {2: (10, 3), 3: (8, 4)}
#: the characters of the moves in the shipped files, by number
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def shipped_file(reach: int = 1) -> str:
    """The name of the file of the refused strings shipped for moves of 1 .. ``reach`` tiles."""
    return _SHIPPED if reach == 1 else f"refused_moves_mtm{reach}.txt"


def shipped_text(reach: int = 1) -> str:
    """The text of :func:`shipped_file` for ``reach``, made anew by :func:`refused`."""
    length, side = (LENGTH, SIDE) if reach == 1 else MTM_SHIPPED[reach]
    what = (
        "Blank-direction strings (0 up, 1 down, 2 left, 3 right)"
        if reach == 1
        else f"Strings of moves of 1 to {reach} tiles (d * {reach} + k - 1: k tiles, the blank"
        "\n# going d; a character each, 0-9 then a, b, ...)"
    )
    lines = [
        f"# {what} that IDA* does not walk: each",
        "# leaves every tile where a smaller string leaves it, within its cells (see",
        f"# slidelab/search/move_pruning.py). Made by move_pruning.refused({length}, {side}"
        + ("" if reach == 1 else f", {reach}")
        + "), in its order;",
        "# tests/test_move_pruning.py checks it against a new search.",
    ]
    for same_length in refused(length, side, reach).values():
        lines += ["".join(_DIGITS[m] for m in string) for string in same_length]
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=4)
def shipped(reach: int = 1) -> dict[int, list[tuple[int, ...]]]:
    """The refused strings shipped with slidelab for moves of 1 .. ``reach`` tiles
    (``refused(LENGTH, SIDE)``, or :data:`MTM_SHIPPED`'s, read); none beyond them."""
    from importlib.resources import files

    found: dict[int, list[tuple[int, ...]]] = {}
    if reach != 1 and reach not in MTM_SHIPPED:
        return found
    number = bytes.maketrans(_DIGITS.encode(), bytes(range(len(_DIGITS))))
    for line in files(__package__).joinpath(shipped_file(reach)).read_bytes().splitlines():
        if line and not line.startswith(b"#"):
            found.setdefault(len(line), []).append(tuple(line.translate(number)))
    return found


@functools.lru_cache(maxsize=8)
def automaton(reach: int = 1) -> np.ndarray:
    """The automaton of the shipped strings (:func:`automaton_of`, made once a process) for moves
    of 1 .. ``reach`` tiles."""
    return automaton_of(shipped(reach), 4 * reach)


def automaton_of(strings: dict[int, list[tuple[int, ...]]], moves: int = 4) -> np.ndarray:
    """The automaton refusing ``strings`` (by length, as :func:`refused` gives them; see the
    module) of ``moves`` kinds of move: an ``int32`` table of ``(states, moves)``, -1 for a move
    that ends a refused string (read-only)."""
    goto: list[list[int]] = [[-1] * moves]
    final = [False]
    for same_length in strings.values():
        for string in same_length:
            state = 0
            for d in string:
                if goto[state][d] < 0:
                    goto.append([-1] * moves)
                    final.append(False)
                    goto[state][d] = len(goto) - 1
                state = goto[state][d]
            final[state] = True
    # failure links, breadth first; a state is final when a suffix of its string is refused
    fail = [0] * len(goto)
    table = [row[:] for row in goto]
    queue: deque[int] = deque()
    for d in range(moves):
        child = goto[0][d]
        if child < 0:
            table[0][d] = 0
        else:
            queue.append(child)
    while queue:
        state = queue.popleft()
        final[state] = final[state] or final[fail[state]]
        for d in range(moves):
            child = goto[state][d]
            if child < 0:
                table[state][d] = table[fail[state]][d]
            else:
                fail[child] = table[fail[state]][d]
                queue.append(child)
    # the final states go: a move into one is refused; the others are numbered again
    kept = np.logical_not(final)
    number = np.cumsum(kept, dtype=np.int32) - 1  # a kept state's new number
    out = np.asarray(table, dtype=np.int32)[kept]
    out = np.where(kept[out], number[out], np.int32(-1))
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


def walk_every_path(reach: int = 1) -> np.ndarray:
    """The automaton that refuses nothing, for moves of 1 .. ``reach`` tiles (a search that must
    walk every path: all solutions)."""
    none = np.zeros((1, 4 * reach), dtype=np.int32)
    none.flags.writeable = False
    return none
