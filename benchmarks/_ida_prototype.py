"""The measuring prototypes' IDA* (``dual_search.py``, ``zero_aware.py``): one compiled search
over a 15-puzzle board (goal: the identity, the blank first), counting nodes as slidelab does
(every child made), with the estimate each prototype gives."""

from __future__ import annotations

import numpy as np

from slidelab._jit import njit


def ida_with(estimate):
    """A compiled ``ida(board, nbr, fsm, args, bpmx) -> (length, nodes generated)``.

    ``estimate(board, blank, enough, args)`` is a board's estimate, exact up to ``enough`` (a
    child's is asked with what its bound leaves, so a costly part may stop once over it).  The
    search refuses the paths ``fsm`` refuses and the blank's move straight back; with ``bpmx``
    (bidirectional pathmax) a parent takes its best child's estimate less one, a child its
    parent's less one.  Compiled once a process (a closure over ``estimate``: not cached)."""

    @njit
    def ida(board, nbr, fsm, args, bpmx):
        n = board.shape[0]
        blank = 0
        for c in range(n):
            if board[c] == 0:
                blank = c
        h0 = estimate(board, blank, 1 << 30, args)
        bound = h0
        generated = 0
        depth_max = 128
        path = np.full(depth_max, -1, np.int64)
        hs = np.zeros(depth_max, np.int64)
        ch = np.full((depth_max, 4), -1, np.int64)
        nxt = np.zeros(depth_max, np.int64)
        fs = np.zeros(depth_max, np.int64)
        while True:
            next_bound = 1 << 30
            depth = 0
            hs[0] = h0
            nxt[0] = -1  # -1: not expanded yet
            found = False
            while depth >= 0:
                if nxt[depth] == -1:  # expand: generate every child
                    same = True  # the board itself, not h == 0: an inadmissible h may hide it
                    for c in range(n):
                        if board[c] != c:
                            same = False
                            break
                    if same:
                        found = True
                        break
                    before = path[depth - 1] if depth > 0 else -1
                    best = -1
                    for d in range(4):
                        ch[depth, d] = -1
                        if before >= 0 and d == (before ^ 1):
                            continue
                        if fsm[fs[depth], d] < 0:
                            continue
                        nb = nbr[blank, d]
                        if nb < 0:
                            continue
                        board[blank] = board[nb]
                        board[nb] = 0
                        v = estimate(board, nb, bound - depth - 1, args)
                        board[nb] = board[blank]
                        board[blank] = 0
                        generated += 1
                        ch[depth, d] = v
                        if v > best:
                            best = v
                    if bpmx and best - 1 > hs[depth]:
                        hs[depth] = best - 1
                    nxt[depth] = 0
                    if depth + hs[depth] > bound:
                        if depth + hs[depth] < next_bound:
                            next_bound = depth + hs[depth]
                        nxt[depth] = 4
                d = nxt[depth]
                if d == 4:  # back up
                    depth -= 1
                    if depth >= 0:
                        prev = nbr[blank, path[depth] ^ 1]
                        board[blank] = board[prev]
                        board[prev] = 0
                        blank = prev
                    continue
                nxt[depth] = d + 1
                v = ch[depth, d]
                if v < 0:
                    continue
                if bpmx and hs[depth] - 1 > v:
                    v = hs[depth] - 1
                f = depth + 1 + v
                if f > bound:
                    if f < next_bound:
                        next_bound = f
                    continue
                nb = nbr[blank, d]
                board[blank] = board[nb]
                board[nb] = 0
                blank = nb
                path[depth] = d
                fs[depth + 1] = fsm[fs[depth], d]
                depth += 1
                hs[depth] = v
                nxt[depth] = -1
            if found:
                return depth, generated
            bound = next_bound

    return ida
