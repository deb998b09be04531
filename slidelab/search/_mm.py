"""The compiled kernel of bidirectional A* by MM (Holte, Felner, Sharon and Sturtevant 2016).

Two best-first searches, one from the start (side 0, *forward*) and one from the
goal (side 1, *backward*), each ordered by ``pr(n) = max(g(n) + h(n), 2 g(n))``
with its own admissible estimate (the backward one estimates the distance to
the start).  Each step expands a node of the side whose smallest priority is
smaller.  ``U`` is the length of the best path found so far, through a node
stored by both sides.  With unit moves the search stops once

    ``U <= max(C, fminF, fminB, gminF + gminB + 1)``

where ``C`` is the smaller of the two sides' smallest priorities, ``fmin`` a
side's smallest ``g + h`` and ``gmin`` its smallest ``g`` over its open nodes.
Each of the four terms is at most the optimal length ``C*`` while an optimal
path is still undiscovered (MM's Theorem: such a path has an open node ``n`` of
the forward side and ``m`` of the backward side, ``n`` before ``m``, both with
their shortest ``g``, so ``gF(n) + 1 + gB(m) <= C*``, one of the two ``g`` is at
most ``C*/2`` and its priority at most ``C*``): the rule stops only at an
optimal ``U``.  That argument needs every meeting of the two sides to be
noticed, so a node whose ``g`` is set on one side is checked against every node
the other side stores, open or closed, not only the open ones.  Children with
``g + h >= U`` are not stored (they cannot lead to a shorter path).

The kernel shares the node layout, hash table and 4-ary heap of
:mod:`slidelab.search._bestfirst` (its helpers are reused), with two of each
per-side field:

- **nodes**: the packed board (``keys``), and per side ``gs``, ``parent``,
  ``pdir`` (the blank's direction from the parent), ``hs`` (that side's
  estimate) and ``onstack`` (depth on that side's path stack); ``flags`` holds a
  *seen* and a *closed* bit per side;
- **heaps**: one per side, entries ``(pr, g << 32 | node)``, ties to the larger
  ``g`` (then the newer node), stale entries skipped as in the one-sided kernel;
- **counts**: per side, how many open nodes have each ``g`` and each ``g + h``
  (values from ``WIDTH - 1`` up share the last bucket, which keeps ``gmin`` and
  ``fmin`` lower bounds), for ``gmin`` and ``fmin`` without scanning the heap;
- **path stacks**: the heuristics keep per-depth rows, so each side keeps a board
  and the path from its root to the node it last expanded, walked as in
  :mod:`slidelab.search._bestfirst`.

Slices, growth and limits work as in the one-sided kernel (``FULL``, ``DEEP``,
``CAPPED``); ``FOUND`` ends the search with ``U`` in ``st[S_U]`` and the meeting
node in ``st[S_MEET]``; ``EXHAUSTED`` means a side ran out of open nodes (with
``U`` finite, every path shorter than ``U`` was pruned: ``U`` is optimal; with
``U`` infinite, the goal cannot be reached).
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from ..heuristics.dispatch import heuristic_move
from ._bestfirst import find_key, heap_pop, heap_push

RUNNING, FOUND, EXHAUSTED, FULL, DEEP, CAPPED = 0, 1, 2, 3, 4, 5

#: fields of the kernel's ``st`` array: per side ``s`` at ``FIELD + s``
(
    S_NODES,
    S_HEAP,  # + side
    S_OPEN,  # + side
    S_EXPANDED,  # + side
    S_DEPTH,  # + side
    S_BLANK,  # + side
    S_GPTR,  # + side
    S_FPTR,  # + side
    S_GENERATED,
    S_REOPENED,
    S_PEAK,
    S_U,
    S_MEET,
    S_DEEP_SIDE,
) = (0, 1, 3, 5, 7, 9, 11, 13, 15, 16, 17, 18, 19, 20)
ST_SIZE = 21

#: buckets of the per-side counts of open nodes by ``g`` and by ``g + h``
WIDTH = 1 << 12
#: ``U`` before any path is found
NO_PATH = np.iinfo(np.int64).max

SEEN = (1, 4)  # flag bit per side: the side stores the node (open or closed)
CLOSED = (2, 8)  # flag bit per side: closed on that side
NODE_MASK = (1 << 32) - 1


@njit(cache=True, inline="always")
def _count(gcnt, fcnt, st, s, g, f, step):
    """Add (``step`` 1) or remove (-1) an open node of side ``s`` from the counts."""
    gi = min(g, WIDTH - 1)
    fi = min(f, WIDTH - 1)
    gcnt[s, gi] += step
    fcnt[s, fi] += step
    st[S_OPEN + s] += step
    if step > 0:
        if gi < st[S_GPTR + s]:
            st[S_GPTR + s] = gi
        if fi < st[S_FPTR + s]:
            st[S_FPTR + s] = fi


@njit(cache=True, inline="always")
def _least(cnt, st, field, s):
    """The smallest bucket of side ``s`` holding an open node (the side has one)."""
    p = st[field + s]
    while cnt[s, p] == 0:
        p += 1
    st[field + s] = p
    return p


@njit(cache=True, inline="always")
def _clean(hp, size, s, gs, flags):
    """Drop stale entries from the top of side ``s``'s heap; the new size."""
    closed = 2 if s == 0 else 8
    while size > 0:
        t = hp[0, 1]
        x = t & NODE_MASK
        if (flags[x] & closed) != 0 or (t >> 32) != gs[s, x]:
            size = heap_pop(hp, size)
        else:
            break
    return size


@njit(cache=True)
def _expand(
    s,
    hdata,
    hp,
    board,
    snode,
    sdir,
    sh,
    chain,
    nbr,
    word_of,
    shift_of,
    nodes,
    gcnt,
    fcnt,
    ckey,
    st,
):
    """Expand the top node of side ``s``'s heap (its top is not stale); False when the path
    stack is too shallow to reach it (nothing changed)."""
    keys, gs, parent, pdir, hs, flags, onstack, table = nodes
    words = keys.shape[1]
    maxd = snode.shape[0] - 1
    seen = 1 if s == 0 else 4
    closed = 2 if s == 0 else 8
    other = 1 - s
    other_seen = 4 if s == 0 else 1
    t = hp[0, 1]
    x = t & NODE_MASK
    g = t >> 32
    # bring the path stack to x: up to the first ancestor on the stack ...
    k = 0
    a = x
    while onstack[s, a] < 0 and k <= maxd:
        chain[k] = a
        k += 1
        a = parent[s, a]
    if onstack[s, a] < 0 or onstack[s, a] + k > maxd:
        return False
    st[S_HEAP + s] = heap_pop(hp, st[S_HEAP + s])
    depth = st[S_DEPTH + s]
    blank = st[S_BLANK + s]
    da = onstack[s, a]
    while depth > da:  # ... undo the moves above it ...
        onstack[s, snode[depth]] = -1
        depth -= 1
        prev = nbr[blank, sdir[depth] ^ 1]
        board[blank] = board[prev]
        board[prev] = 0
        blank = prev
    for j in range(k - 1, -1, -1):  # ... and replay the moves down to x
        c = chain[j]
        d = pdir[s, c]
        nb = nbr[blank, d]
        tile = board[nb]
        board[blank] = tile
        board[nb] = 0
        hh = heuristic_move(hdata, board, depth, sh[depth], tile, nb, blank)
        sdir[depth] = d
        depth += 1
        blank = nb
        snode[depth] = c
        sh[depth] = hh
        onstack[s, c] = depth
    st[S_DEPTH + s] = depth
    st[S_BLANK + s] = blank
    flags[x] |= closed
    _count(gcnt, fcnt, st, s, g, g + hs[s, x], -1)
    st[S_EXPANDED + s] += 1
    h = sh[depth]
    back = pdir[s, x] ^ 1  # the parent on this side: never improved from here
    g1 = g + 1
    n = st[S_NODES]
    size = st[S_HEAP + s]
    for d in range(4):
        nb = nbr[blank, d]
        if nb < 0 or d == back:
            continue
        st[S_GENERATED] += 1
        tile = board[nb]
        for w in range(words):
            ckey[w] = keys[x, w]
        v = np.uint64(tile)
        ckey[word_of[nb]] ^= v << shift_of[nb]
        ckey[word_of[blank]] ^= v << shift_of[blank]
        slot, c = find_key(table, keys, ckey, words)
        u = st[S_U]
        if c >= 0 and (flags[c] & seen) != 0:
            ch = hs[s, c]
            if gs[s, c] <= g1 or g1 + ch >= u:
                continue
            if (flags[c] & closed) != 0:  # a shorter path: re-open
                flags[c] &= ~closed
                st[S_REOPENED] += 1
            else:
                _count(gcnt, fcnt, st, s, gs[s, c], gs[s, c] + ch, -1)
        else:
            board[blank] = tile
            board[nb] = 0
            ch = heuristic_move(hdata, board, depth, h, tile, nb, blank)
            board[nb] = tile
            board[blank] = 0
            if g1 + ch >= u:
                continue
            if c < 0:  # a new node
                c = n
                n += 1
                for w in range(words):
                    keys[c, w] = ckey[w]
                flags[c] = 0
                for side in range(2):
                    gs[side, c] = 0
                    parent[side, c] = -1
                    pdir[side, c] = -1
                    hs[side, c] = 0
                    onstack[side, c] = -1
                table[slot] = c
            flags[c] |= seen
            hs[s, c] = ch
        gs[s, c] = g1
        parent[s, c] = x
        pdir[s, c] = d
        _count(gcnt, fcnt, st, s, g1, g1 + ch, 1)
        size = heap_push(hp, size, max(g1 + ch, 2 * g1), (np.int64(g1) << 32) | c)
        if (flags[c] & other_seen) != 0 and g1 + gs[other, c] < u:
            st[S_U] = g1 + gs[other, c]  # the two sides meet at c
            st[S_MEET] = c
    st[S_NODES] = n
    st[S_HEAP + s] = size
    return True


@njit(cache=True, nogil=True, _nrt=False)  # long runs: other threads (a Dask worker's) go on
def mm_run(
    nbr,
    hdata_f,
    hdata_b,
    word_of,
    shift_of,
    nodes,
    hp_f,
    hp_b,
    gcnt,
    fcnt,
    board_f,
    board_b,
    snode,
    sdir,
    sh,
    chain,
    ckey,
    st,
    budget,
    max_nodes,
):
    """Run one slice of MM; a status (``RUNNING``, ``FOUND``, ...).

    ``nodes`` holds the node arrays and the hash table, ``(keys, gs, parent, pdir, hs,
    flags, onstack, table)`` (see the module's notes); ``snode``, ``sdir`` and ``sh``
    both sides' path stacks (row 0 the forward side's, row 1 the backward side's),
    ``board_f`` and ``board_b`` the boards at their tops; ``st`` the counters (``S_*``).
    """
    keys, gs, _, _, _, flags, _, _ = nodes
    cap = keys.shape[0]
    work = 0
    status = RUNNING
    while True:
        st[S_HEAP] = _clean(hp_f, st[S_HEAP], 0, gs, flags)
        st[S_HEAP + 1] = _clean(hp_b, st[S_HEAP + 1], 1, gs, flags)
        if st[S_HEAP] == 0 or st[S_HEAP + 1] == 0:
            status = EXHAUSTED
            break
        pr_f = hp_f[0, 0]
        pr_b = hp_b[0, 0]
        bound = min(pr_f, pr_b)
        bound = max(bound, _least(fcnt, st, S_FPTR, 0))
        bound = max(bound, _least(fcnt, st, S_FPTR, 1))
        bound = max(bound, _least(gcnt, st, S_GPTR, 0) + _least(gcnt, st, S_GPTR, 1) + 1)
        if st[S_U] <= bound:
            status = FOUND
            break
        if work >= budget:
            break
        if st[S_NODES] + 4 > cap or st[S_HEAP] + 4 > hp_f.shape[0]:
            status = FULL
            break
        if st[S_HEAP + 1] + 4 > hp_b.shape[0]:
            status = FULL
            break
        if st[S_NODES] > max_nodes:
            status = CAPPED
            break
        # the side chosen at run time: one ``_expand`` compiled, not one per side
        s = 0 if pr_f < pr_b or (pr_f == pr_b and st[S_OPEN] <= st[S_OPEN + 1]) else 1
        ok = _expand(
            s, hdata_f if s == 0 else hdata_b, hp_f if s == 0 else hp_b,
            board_f if s == 0 else board_b, snode[s], sdir[s], sh[s], chain, nbr, word_of,
            shift_of, nodes, gcnt, fcnt, ckey, st,
        )  # fmt: skip
        if not ok:
            st[S_DEEP_SIDE] = s
            status = DEEP
            break
        work += 1
        if st[S_OPEN] + st[S_OPEN + 1] > st[S_PEAK]:
            st[S_PEAK] = st[S_OPEN] + st[S_OPEN + 1]
    return status
