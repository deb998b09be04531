"""The compiled best-first search kernel behind A* and weighted A*.

Priority ``f = g + w * h``; ties on ``f`` go to the larger ``g``, then to the
newer node.  The kernel works on arrays only:

- **nodes** in insertion order: the board packed into ``words`` unsigned
  64-bit integers (``bits`` per cell, enough for the largest label code; one
  word for a 4x4 board), ``g``, the parent node and the blank direction that
  led here, ``h``, a closed flag and the node's depth on the *path stack*
  (-1 when not on it);
- an open-addressing **hash table** of node numbers (linear probing, at most
  half full);
- the **open list**, a 4-ary heap of ``(f, g << 32 | node)`` entries (two
  integers; ``f`` as its float bits, which order like the floats) with lazy
  deletion: a node whose ``g`` improves is pushed again, and entries
  that no longer match the node's ``g`` (or whose node is closed) are skipped.

**The path stack.**  The heuristics' move functions
(:mod:`slidelab.heuristics.base`) update an estimate per move and keep their
per-node state in rows indexed by depth.  The kernel therefore keeps one board
and the path from the start to the node being expanded, like IDA* does: to
expand the next node it follows parent pointers up to the first node on the
stack, undoes the moves above that node, and replays the moves down to the new
node, calling the heuristic's move function on the way.  Best-first search
mostly expands a child or a near relative of the last node, so this is
usually a step or two.  A child's estimate is the move function's value after
one more move.  Parent pointers always lead to the start along strictly
smaller ``g`` values, and a node on the stack cannot improve while its
descendant is expanded, so the stack is always the parent path.

**Re-opening.**  A closed node reached again by a shorter path is re-opened,
so the weighted search keeps its bound (length at most ``w`` times optimal)
with any admissible estimate, consistent or not.

**Slices.**  The kernel returns after ``budget`` expansions, when the node or
heap arrays are full (``FULL``: Python grows them and rebuilds the hash
table), when the path stack is too shallow (``DEEP``: Python reallocates the
heuristic's rows and resets the stack), when ``max_nodes`` is exceeded, or
with ``FOUND``/``EXHAUSTED``.  Python checks limits between slices.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from .._slide import slide_back
from ..heuristics.dispatch import heuristic_move

RUNNING, FOUND, EXHAUSTED, FULL, DEEP, CAPPED = 0, 1, 2, 3, 4, 5

#: fields of the kernel's ``st`` array
S_NODES, S_HEAP, S_EXPANDED, S_GENERATED, S_DEPTH, S_BLANK, S_REOPENED, S_PEAK, S_GOAL = range(9)

CLOSED = 1
NODE_MASK = (1 << 32) - 1


@njit(cache=True, inline="always")
def _hash(key, words):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(words):
        h ^= key[w]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True, inline="always")
def find_key(table, keys, key, words):
    """``(slot, node)``: the node holding ``key`` and its slot, or an empty slot and -1."""
    mask = np.uint64(table.shape[0] - 1)
    s = np.int64(_hash(key, words) & mask)
    m = table.shape[0] - 1
    while True:
        i = table[s]
        if i < 0:
            return s, -1
        if _same_key(keys, i, key, words):
            return s, i
        s = (s + 1) & m


@njit(cache=True, inline="always")
def _same_key(keys, i, key, words):
    """Whether node ``i`` holds ``key``."""
    for w in range(words):
        if keys[i, w] != key[w]:
            return False
    return True


@njit(cache=True)
def rehash(table, keys, n):
    """Fill an empty (all -1) hash table with nodes ``0 .. n-1``."""
    words = keys.shape[1]
    m = table.shape[0] - 1
    mask = np.uint64(m)
    for i in range(n):
        s = np.int64(_hash(keys[i], words) & mask)
        while table[s] >= 0:
            s = (s + 1) & m
        table[s] = i


@njit(cache=True, inline="always")
def _before(hp, a, b):
    """Heap order: smaller f (its float bits, monotone for f >= 0), then larger
    ``g << 32 | node`` (deeper, then newer)."""
    return hp[a, 0] < hp[b, 0] or (hp[a, 0] == hp[b, 0] and hp[a, 1] > hp[b, 1])


@njit(cache=True, inline="always")
def _swap(hp, a, b):
    x0 = hp[a, 0]
    x1 = hp[a, 1]
    hp[a, 0] = hp[b, 0]
    hp[a, 1] = hp[b, 1]
    hp[b, 0] = x0
    hp[b, 1] = x1


@njit(cache=True, inline="always")
def heap_push(hp, size, f, t):
    """Push onto the 4-ary heap (a node's 4 children are adjacent in memory)."""
    i = size
    hp[i, 0] = f
    hp[i, 1] = t
    while i > 0:
        p = (i - 1) >> 2
        if _before(hp, i, p):
            _swap(hp, i, p)
            i = p
        else:
            break
    return size + 1


@njit(cache=True, inline="always")
def heap_pop(hp, size):
    """Remove the heap's first entry (read ``hp[0]`` before); returns the new size."""
    size -= 1
    hp[0, 0] = hp[size, 0]
    hp[0, 1] = hp[size, 1]
    i = 0
    while True:
        a = 4 * i + 1
        if a >= size:
            break
        c = a
        for b in range(a + 1, min(a + 4, size)):
            if _before(hp, b, c):
                c = b
        if _before(hp, c, i):
            _swap(hp, i, c)
            i = c
        else:
            break
    return size


@njit(cache=True, inline="always")
def _run_body(
    nbr,
    hdata,
    weight,
    goal_key,
    word_of,
    shift_of,
    keys,
    gs,
    parent,
    pdir,
    pamt,
    hs,
    flags,
    onstack,
    table,
    hp,
    fbox,
    fbits,
    board,
    snode,
    sdir,
    sh,
    chain,
    ckey,
    st,
    budget,
    max_nodes,
    bound,
    reach,
    divisor,
):
    """Run one slice of best-first search on ``f = g + weight * h``.

    A move slides 1 .. ``reach`` tiles (1: STM; more: MTM); ``pdir`` and ``pamt`` hold
    the direction and the number of tiles of the move into each node.  The stack is
    indexed by single-tile steps: ``board``, ``snode`` (the node at each step depth,
    -1 part-way through a multi-tile move), ``sdir`` (blank direction taken at each
    step) and ``sh`` (the heuristic's value at each step; a node's estimate ``hs`` is
    its ceiling quotient by ``divisor``) hold the path stack;
    ``st`` the counters (``S_*``).  ``fbox`` (one float) and ``fbits`` (the
    same 8 bytes as an integer) turn ``f`` into its bits for the heap.
    Children with ``g + h >= bound`` are dropped: with an admissible ``h`` and
    a finite ``bound``, ``EXHAUSTED`` then means that no path is shorter than
    ``bound``.  Returns a status (``RUNNING``; ``FOUND``: ``st[S_GOAL]`` is the
    goal node and the stack its path; ...).
    """
    words = keys.shape[1]
    cap = keys.shape[0]
    hcap = hp.shape[0]
    maxd = snode.shape[0] - 1
    n = st[S_NODES]
    size = st[S_HEAP]
    expanded = st[S_EXPANDED]
    generated = st[S_GENERATED]
    depth = st[S_DEPTH]
    blank = st[S_BLANK]
    reopened = st[S_REOPENED]
    peak = st[S_PEAK]
    work = 0
    status = RUNNING
    while True:
        if size == 0:
            status = EXHAUSTED
            break
        if work >= budget:
            break
        if n + 4 * reach > cap or size + 4 * reach > hcap:
            status = FULL
            break
        if n > max_nodes:
            status = CAPPED
            break
        t = hp[0, 1]
        x = t & NODE_MASK
        g = t >> 32
        if (flags[x] & CLOSED) != 0 or g != gs[x]:
            size = heap_pop(hp, size)  # stale entry
            continue
        # bring the path stack to x: up to the first ancestor on the stack ...
        k = 0
        a = x
        while onstack[a] < 0 and k <= maxd:
            chain[k] = a
            k += 1
            a = parent[a]
        if onstack[a] < 0 or onstack[a] + k * reach > maxd:
            status = DEEP
            break
        size = heap_pop(hp, size)
        da = onstack[a]
        while depth > da:  # ... undo the moves above it ...
            if reach == 1 or snode[depth] >= 0:
                onstack[snode[depth]] = -1
            depth -= 1
            prev = nbr[blank, sdir[depth] ^ 1]
            board[blank] = board[prev]
            board[prev] = 0
            blank = prev
        for j in range(k - 1, -1, -1):  # ... and replay the moves down to x
            c = chain[j]
            d = pdir[c]
            for _ in range(1 if reach == 1 else pamt[c]):
                nb = nbr[blank, d]
                tile = board[nb]
                board[blank] = tile
                board[nb] = 0
                hh = heuristic_move(hdata, board, depth, sh[depth], tile, nb, blank)
                sdir[depth] = d
                depth += 1
                blank = nb
                if reach > 1:
                    snode[depth] = -1
                sh[depth] = hh
            snode[depth] = c
            onstack[c] = depth
        if _same_key(keys, x, goal_key, words):
            status = FOUND
            st[S_GOAL] = x
            break
        flags[x] |= CLOSED
        expanded += 1
        work += 1
        h = sh[depth]
        came = pdir[x]  # the parent: never improved from here (-1 at the start)
        g1 = g + 1
        for d in range(4):
            # never straight back; in MTM not on along the same line either (one longer slide)
            if came >= 0 and (d == (came ^ 1) or (reach > 1 and d == came)):
                continue
            for w in range(words):
                ckey[w] = keys[x, w]
            cur = blank
            hh = h
            for amount in range(1, reach + 1):
                nb = nbr[cur, d]
                if nb < 0:
                    break
                generated += 1
                tile = board[nb]
                v = np.uint64(tile)
                ckey[word_of[nb]] ^= v << shift_of[nb]
                ckey[word_of[cur]] ^= v << shift_of[cur]
                board[cur] = tile
                board[nb] = 0
                if reach > 1:  # a longer slide goes on from this one's value
                    hh = heuristic_move(hdata, board, depth + amount - 1, hh, tile, nb, cur)
                slot, c = find_key(table, keys, ckey, words)
                if c >= 0:
                    if gs[c] > g1 and g1 + hs[c] < bound:
                        gs[c] = g1  # a shorter path: re-open if closed
                        parent[c] = x
                        pdir[c] = d
                        pamt[c] = amount
                        if (flags[c] & CLOSED) != 0:
                            flags[c] &= ~CLOSED
                            reopened += 1
                        fbox[0] = g1 + weight * hs[c]
                        size = heap_push(hp, size, fbits[0], (np.int64(g1) << 32) | c)
                else:
                    if reach == 1:  # single steps: an estimate only for new nodes
                        hh = heuristic_move(hdata, board, depth, h, tile, nb, cur)
                    ch = hh if divisor == 1 else (hh + divisor - 1) // divisor
                    if g1 + ch < bound:
                        c = n
                        n += 1
                        for w in range(words):
                            keys[c, w] = ckey[w]
                        gs[c] = g1
                        parent[c] = x
                        pdir[c] = d
                        pamt[c] = amount
                        hs[c] = ch
                        flags[c] = 0
                        onstack[c] = -1
                        table[slot] = c
                        fbox[0] = g1 + weight * ch
                        size = heap_push(hp, size, fbits[0], (np.int64(g1) << 32) | c)
                cur = nb
            slide_back(board, nbr, cur, blank, d)
        if size > peak:
            peak = size
    st[S_NODES] = n
    st[S_HEAP] = size
    st[S_EXPANDED] = expanded
    st[S_GENERATED] = generated
    st[S_DEPTH] = depth
    st[S_BLANK] = blank
    st[S_REOPENED] = reopened
    st[S_PEAK] = peak
    return status


@njit(cache=True, nogil=True, _nrt=False)  # long runs: other threads (a Dask worker's) go on
def _run_stm(
    nbr, hdata, weight, goal_key, word_of, shift_of, keys, gs, parent, pdir, pamt, hs, flags,
        onstack, table, hp, fbox, fbits, board, snode, sdir, sh, chain, ckey, st, budget, max_nodes,
        bound,
):  # fmt: skip
    """:func:`_run_body` with single-tile moves and an undivided estimate as constants."""
    return _run_body(
        nbr, hdata, weight, goal_key, word_of, shift_of, keys, gs, parent, pdir, pamt, hs, flags,
        onstack, table, hp, fbox, fbits, board, snode, sdir, sh, chain, ckey, st, budget, max_nodes,
        bound,
        1, 1,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _run_lines(
    nbr, hdata, weight, goal_key, word_of, shift_of, keys, gs, parent, pdir, pamt, hs, flags,
        onstack, table, hp, fbox, fbits, board, snode, sdir, sh, chain, ckey, st, budget, max_nodes,
        bound,
    reach, divisor,
):  # fmt: skip
    """:func:`_run_body` with slides of up to ``reach`` tiles (MTM) and the estimate divided."""
    return _run_body(
        nbr, hdata, weight, goal_key, word_of, shift_of, keys, gs, parent, pdir, pamt, hs, flags,
        onstack, table, hp, fbox, fbits, board, snode, sdir, sh, chain, ckey, st, budget, max_nodes,
        bound,
        reach, divisor,
    )  # fmt: skip


def best_first_run(*args, reach: int = 1, divisor: int = 1):
    """One slice of best-first search (see :func:`_run_body`): the STM kernel where it applies."""
    if reach == 1 and divisor == 1:
        return _run_stm(*args)
    return _run_lines(*args, reach, divisor)
