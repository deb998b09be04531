"""Walking distance (Ken'ichiro Takahashi's): vertical and horizontal moves counted apart, in
either metric.

The vertical abstraction keeps, for each row, how many tiles of each *class* stand in it (a
tile's class: the goal rows of its label; for distinct tiles, its goal row) and the blank's row;
the horizontal one does the same with columns.  Every real move is vertical or horizontal and
moves the state of exactly one abstraction by one edge: in STM a tile steps to the blank's row;
in MTM a slide of ``k`` tiles up or down a column moves one tile from each of ``k`` rows one row
on (one edge of cost 1).  So the sum of the two abstract distances (each found by a breadth-first
search of its abstraction from the goal's state) never exceeds the true distance, in its metric;
it is consistent too.  Counted in MTM it is the estimate that stays strong where Manhattan must
be divided.

The abstract states are numbered by a mixed-radix code (a count per row and class, and the
blank's row), updated per move by two look-ups; a state's distance is found by binary search in
the sorted codes.  Tables are built once per goal and metric in a process (the 15-puzzle's
24,964 vertical states take about a second).

Examples
--------
>>> from slidelab import Puzzle
>>> h = walking_distance(Puzzle("8 6 7/2 5 4/3 0 1"))
>>> h.value(Puzzle("8 6 7/2 5 4/3 0 1").start_codes), h.value(Puzzle("1 2 3/4 5 6/7 8 0").start_codes)
(25, 0)
"""

from __future__ import annotations

import functools
import itertools
from collections import deque

import numpy as np

from .._jit import njit
from ..errors import SlidelabError
from ..moves import metric_name, reach
from ..puzzle import Puzzle
from .base import Heuristic
from .dispatch import register

#: abstract states a direction may have (a breadth-first search in Python builds them)
MAX_STATES = 2_000_000


def _classes(goal: np.ndarray, lines: np.ndarray) -> tuple[np.ndarray, int]:
    """``cls[code]``: the class of each label code (the sorted lines of its goal cells)."""
    k = int(goal.max())
    keys: dict[tuple, int] = {}
    cls = np.zeros(k + 1, np.int64)
    for code in range(1, k + 1):
        key = tuple(sorted(int(x) for x in lines[goal == code]))
        cls[code] = keys.setdefault(key, len(keys))
    return cls, len(keys)


def _state(codes: np.ndarray, lines: np.ndarray, cls: np.ndarray, n_lines: int, n_cls: int):
    """``(counts per line and class, the blank's line)`` of a board."""
    counts = [[0] * n_cls for _ in range(n_lines)]
    blank = 0
    for cell, code in enumerate(codes):
        if code == 0:
            blank = int(lines[cell])
        else:
            counts[int(lines[cell])][int(cls[code])] += 1
    return tuple(tuple(row) for row in counts), blank


def _neighbours(state, n_lines: int, top: int):
    """Abstract states one move away: ``1 .. top`` tiles from consecutive lines step toward the blank."""
    counts, blank = state
    for step in (-1, 1):
        for k in range(1, top + 1):
            far = blank + k * step
            if not 0 <= far < n_lines:
                break
            rows = [blank + i * step for i in range(1, k + 1)]
            choices = [[c for c, n in enumerate(counts[r]) if n] for r in rows]
            for picked in itertools.product(*choices):
                new = [list(row) for row in counts]
                to = blank
                for r, c in zip(rows, picked, strict=True):
                    new[r][c] -= 1
                    new[to][c] += 1
                    to = r
                yield tuple(tuple(row) for row in new), far


def _code(state, radix: int, n_cls: int) -> int:
    counts, blank = state
    code = 0
    for r, row in enumerate(counts):
        for c, n in enumerate(row):
            code += n * radix ** (r * n_cls + c)
    return code + blank * radix ** (len(counts) * n_cls)


@functools.lru_cache(maxsize=16)
def _direction(goal_key: tuple, width: int, height: int, vertical: bool, top: int):
    """``(cls, pw, bw, keys, dist)`` of one direction's abstraction (rows when ``vertical``)."""
    goal = np.array(goal_key, np.int64)
    cells = np.arange(goal.size)
    lines = cells // width if vertical else cells % width
    n_lines, per_line = (height, width) if vertical else (width, height)
    cls, n_cls = _classes(goal, lines)
    radix = per_line + 1
    if n_lines * radix ** (n_lines * n_cls) >= 2**62:
        raise SlidelabError(
            f"walking distance: the {width}x{height} board's {n_cls} tile classes"
            f" in {n_lines} lines do not fit a 64-bit state code; use another heuristic"
        )
    start = _state(goal, lines, cls, n_lines, n_cls)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for nxt in _neighbours(state, n_lines, top):
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                if len(dist) > MAX_STATES:
                    raise SlidelabError(
                        f"walking distance: the {width}x{height} board has over {MAX_STATES:,}"
                        " abstract states; use another heuristic"
                    )
                queue.append(nxt)
    codes = np.array([_code(s, radix, n_cls) for s in dist], np.int64)
    values = np.array(list(dist.values()), np.int64)
    order = np.argsort(codes)
    pw = np.array(
        [[radix ** (r * n_cls + c) for c in range(n_cls)] for r in range(n_lines)], np.int64
    )
    bw = radix ** (n_lines * n_cls)
    return cls, pw, bw, codes[order], values[order]


@njit(cache=True, inline="always")
def _look(keys, dist, code):
    return dist[np.searchsorted(keys, code)]


@njit(cache=True)
def _wd_move(data, board, depth, h, tile, frm, to):
    stack, vcls, hcls, vpw, hpw, bw, vkeys, vdist, hkeys, hdist, geo = data
    w = geo[0]
    vcode, hcode, hv, hh = stack[depth, 0], stack[depth, 1], stack[depth, 2], stack[depth, 3]
    rf, rt = frm // w, to // w
    if rf != rt:  # a vertical move: the tile changes row, the blank goes to its old row
        c = vcls[tile]
        vcode += vpw[rt, c] - vpw[rf, c] + (rf - rt) * bw[0]
        hv = _look(vkeys, vdist, vcode)
    else:
        c = hcls[tile]
        cf, ct = frm - rf * w, to - rt * w
        hcode += hpw[ct, c] - hpw[cf, c] + (cf - ct) * bw[1]
        hh = _look(hkeys, hdist, hcode)
    stack[depth + 1, 0] = vcode
    stack[depth + 1, 1] = hcode
    stack[depth + 1, 2] = hv
    stack[depth + 1, 3] = hh
    return hv + hh


register(11, _wd_move)


def walking_distance(puzzle: Puzzle, metric: str = "stm") -> Heuristic:
    """The walking-distance heuristic of a puzzle, counted in ``metric`` (see the module)."""
    metric = metric_name(metric)
    w, h = puzzle.width, puzzle.height
    goal = tuple(int(c) for c in puzzle.goal_codes)
    top = reach(metric, w, h)
    vcls, vpw, vbw, vkeys, vdist = _direction(goal, w, h, True, min(top, h - 1))
    hcls, hpw, hbw, hkeys, hdist = _direction(goal, w, h, False, min(top, w - 1))
    bw = np.array([vbw, hbw], np.int64)
    geo = np.array([w], np.int64)
    cells = np.arange(w * h)

    def init(codes, max_depth):
        codes = np.asarray(codes, np.int64)
        vcode = int((vpw[cells // w, vcls[codes]] * (codes != 0)).sum())
        vcode += int(cells[codes == 0][0] // w) * vbw
        hcode = int((hpw[cells % w, hcls[codes]] * (codes != 0)).sum())
        hcode += int(cells[codes == 0][0] % w) * hbw
        hv = int(vdist[np.searchsorted(vkeys, vcode)])
        hh = int(hdist[np.searchsorted(hkeys, hcode)])
        stack = np.zeros((max_depth + 2, 4), np.int64)
        stack[0] = (vcode, hcode, hv, hh)
        data = (stack, vcls, hcls, vpw, hpw, bw, vkeys, vdist, hkeys, hdist, geo)
        return data, hv + hh

    what = "multi-tile" if metric == "mtm" else "single-tile"
    return Heuristic(
        "walking-distance",
        True,
        _wd_move,
        init,
        f"walking distance: vertical plus horizontal {what} moves of the rows' and columns'"
        " tile counts",
        metric=metric,
    )
