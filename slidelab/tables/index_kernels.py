"""The kernels of the flat numbering (:mod:`.index`): unranking, stepping and neighbours.

:mod:`.index` numbers the positions and ranks single boards with numpy; the
breadth-first search (:mod:`.layers`) and the table packing (:mod:`.table`)
walk millions of indices with the numba kernels here, all over the arrays of
:meth:`.index.Space.kernel_args` (``g`` below).
"""

from __future__ import annotations

import numpy as np

from .._bits import lowest_bit
from .._jit import njit

#: repeated labels: step to the next arrangement when the next wanted state is at most this far
#: on (else unrank); distinct tiles move any distance within a blank cell (:func:`advance`)
STEP_LIMIT = 32


@njit(cache=True)
def load(idx, s, L, c, g):
    """Write into ``s`` (and ``L``, its Lehmer digits) the tiles of state ``idx``; return the blank cell.

    ``c`` is scratch space (one entry per label).
    """
    return load_at(
        idx, s, L, c, g.tiles, g.per_blank, g.distinct, g.radix, g.arrangements,
        g.label_counts, g.full, g.parity,
    )  # fmt: skip


@njit(cache=True, inline="always")
def load_at(idx, s, L, c, m, H, distinct, radix, Tab, counts, full, needpar):
    """:func:`load` with the arrays it needs (what the kernels call)."""
    b = idx // H
    t = idx - b * H
    if distinct:
        t *= 2
    K = counts.shape[0]
    for u in range(K):
        c[u] = counts[u]
    code = full
    for k in range(m):
        lesser = 0
        for u in range(K):
            if c[u] == 0:
                continue
            block = Tab[code - radix[u]]
            if t < block:
                s[k] = u
                L[k] = lesser
                c[u] -= 1
                code -= radix[u]
                break
            t -= block
            lesser += 1
    if distinct:
        p = 0
        for k in range(m):
            p += L[k]
        if (p & 1) != needpar[b]:
            s[m - 2], s[m - 1] = s[m - 1], s[m - 2]
            L[m - 2] = 1
    return b


@njit(cache=True, inline="always")
def next_perm(s, L, m):
    """Next arrangement of ``s`` in lexicographic order (repeats allowed), Lehmer digits updated."""
    a = m - 2
    while a >= 0 and s[a] >= s[a + 1]:
        a -= 1
    if a < 0:
        return False
    j = m - 1
    while s[j] <= s[a]:
        j -= 1
    s[a], s[j] = s[j], s[a]
    lo = a + 1
    hi = m - 1
    while lo < hi:
        s[lo], s[hi] = s[hi], s[lo]
        lo += 1
        hi -= 1
    L[a] += 1
    for k in range(a + 1, m):
        L[k] = 0
    return True


@njit(cache=True, inline="always")
def advance(s, L, m, need, delta):
    """Move distinct tiles ``s`` (Lehmer digits ``L``) ``delta >= 1`` indices on, in the same blank
    cell (``need``: the parity its tiles must have).

    ``L`` is the rank in the factorial number system (digit ``k`` in base
    ``m - k``): adding to it changes only the last few digits on a short move,
    and only their tiles are placed again, so a move costs about the same
    whatever ``delta``.  The tiles' parity is the digits' sum's, so it changes by
    the changed digits' change.
    """
    # to the even member of the pair (the last two ascending): digit m - 2 (base 2) becomes 0
    change = -L[m - 2]
    L[m - 2] = 0
    carry = delta
    k = m - 3
    while carry != 0:  # stops by k = 0: the target is in the blank cell's range
        radix = m - k
        v = L[k] + carry
        if v < radix:  # the usual last digit: no carry, no division
            carry = 0
        elif v < 2 * radix:
            carry = 1
            v -= radix
        else:
            carry = v // radix
            v -= carry * radix
        change += v - L[k]
        L[k] = v
        k -= 1
    rest = np.int64(0)  # the tiles of the changed digits' places
    for i in range(k + 1, m):
        rest |= np.int64(1) << s[i]
    for i in range(k + 1, m):
        r = rest
        for _ in range(L[i]):  # the L[i]-th smallest of those left
            r &= r - 1
        t = lowest_bit(r)
        s[i] = t
        rest &= ~(np.int64(1) << t)
    if change & 1:  # the even member has the other parity: the odd one is the state
        s[m - 2], s[m - 1] = s[m - 1], s[m - 2]
        L[m - 2] = 1


@njit(cache=True, inline="always")
def seek(idx, cursor, b, end, s, L, c, m, H, distinct, radix, Tab, counts, full, needpar):
    """Bring ``s`` and ``L`` from state ``cursor`` (of blank cell ``b``, whose indices end before
    ``end``; -1: none) to state ``idx``; returns ``idx``'s blank cell.

    Forward in the same blank cell: distinct tiles advance (:func:`advance`),
    repeated labels step up to :data:`STEP_LIMIT` times; else ``idx`` is unranked.
    """
    if cursor >= 0 and cursor < idx < end:
        if distinct:
            advance(s, L, m, needpar[b], idx - cursor)
            return b
        if idx - cursor <= STEP_LIMIT:
            while cursor < idx:
                next_perm(s, L, m)
                cursor += 1
            return b
    return load_at(idx, s, L, c, m, H, distinct, radix, Tab, counts, full, needpar)


@njit(cache=True, inline="always")
def tile_rank(idx, base, L, m, distinct):
    """Rank of the tile sequence of state ``idx`` (``base``: first index of its blank cell)."""
    if distinct:
        return 2 * (idx - base) + L[m - 2]
    return idx - base


@njit(cache=True, inline="always")
def delta_distinct(s, L, F, i, j, down):
    """Change of the permutation rank when ``s[j]`` moves to ``i`` (down) or ``s[i]`` to ``j`` (up)."""
    delta = 0
    cnt = 0
    if down:
        x = s[j]
        for k in range(i, j):
            y = s[k]
            if y < x:
                cnt += 1
                delta += (L[k] - L[k + 1]) * F[k + 1]
            else:
                delta += (L[k] - 1 - L[k + 1]) * F[k + 1]
        delta += (L[j] + cnt - L[i]) * F[i]
    else:
        x = s[i]
        for k in range(i + 1, j + 1):
            y = s[k]
            if y < x:
                cnt += 1
                delta += (L[k] - L[k - 1]) * F[k - 1]
            else:
                delta += (L[k] + 1 - L[k - 1]) * F[k - 1]
        delta += (L[i] - cnt - L[j]) * F[j]
    return delta


@njit(cache=True, inline="always")
def delta_multiset(s, m, radix, S, i, j, down):
    """Change of the multiset rank for the same rotation (positions ``i .. j`` re-ranked)."""
    code = 0
    for k in range(i, m):
        code += radix[s[k]]
    old = 0
    cc = code
    for k in range(i, j + 1):
        v = s[k]
        old += S[cc, v]
        cc -= radix[v]
    new = 0
    cc = code
    if down:
        v = s[j]
        new += S[cc, v]
        cc -= radix[v]
        for k in range(i, j):
            v = s[k]
            new += S[cc, v]
            cc -= radix[v]
    else:
        for k in range(i + 1, j + 1):
            v = s[k]
            new += S[cc, v]
            cc -= radix[v]
        v = s[i]
        new += S[cc, v]
    return new - old


@njit(cache=True, inline="always")
def vertical_delta(s, L, b, d, w, m, distinct, F, radix, S):
    """Change of the rank of tile sequence ``s`` (Lehmer digits ``L``) when the blank moves
    vertically from cell ``b`` (``d``: 0 up, 1 down): the moving tile passes the ``w - 1``
    tiles between, so ``w`` places of the sequence rotate by one.

    A slide of several tiles (MTM) rotates the next ``w`` places, then the next: windows
    apart from the ones before, whose tiles' Lehmer digits and the multiset of the tiles
    after them the earlier rotations leave as they were; so the deltas of the original
    sequence, each from the blank's cell before that tile moves, add up to the slide's.
    """
    down = d == 1
    if down:
        i = b
        j = b + w - 1
    else:
        i = b - w
        j = b - 1
    if distinct:
        return delta_distinct(s, L, F, i, j, down)
    return delta_multiset(s, m, radix, S, i, j, down)


@njit(cache=True, inline="always")
def neighbour(idx, base, t, b, d, nb, s, L, m, w, H, distinct, F, radix, S):
    """Index of the state after the blank moves from ``b`` in direction ``d`` to ``nb``.

    ``idx`` is the state's index, ``base`` the first index of its blank cell,
    ``t`` the rank of its tiles.  Called from kernels specialised on a constant
    ``distinct`` (where the other branch, and its cost, is compiled away).
    """
    if d >= 2:  # sideways: the tile sequence stays
        return nb * H + (idx - base)
    t += vertical_delta(s, L, b, d, w, m, distinct, F, radix, S)
    return nb * H + ((t >> 1) if distinct else t)


@njit(cache=True, inline="always")
def heuristic_at(s, b, w, distinct, md, gb):
    """:func:`_heuristic` with the arrays it needs."""
    h = 0
    for k in range(s.shape[0]):
        cell = k if k < b else k + 1
        h += md[s[k], cell]
    if not distinct:  # nearest-cell distances: fix the parity by the blank's
        bd = abs(b // w - gb // w) + abs(b % w - gb % w)
        if (h - bd) & 1:
            h -= 1
    return h


@njit(cache=True, inline="always")
def suffix_block(a, s, L, T, m, K):
    """Place the tiles that the ``K!`` ranks from ``a * K!`` share: ``s`` and ``L`` (its Lehmer
    digits) up to place ``m - K``, and ``T``, the last ``K`` tiles in ascending order; returns
    the parity of those first places' digits.

    Rank ``r`` of such a sequence is ``a * K! + rho``, ``rho`` the rank of the
    arrangement of its last ``K`` tiles, whose places and digits are then
    ``T[perm[rho]]`` and ``leh[rho]`` (:func:`.index.suffix_tables`): a walk
    through a block places its first tiles once, here.
    """
    top = m - K
    r = a
    for k in range(top - 1, -1, -1):  # the digits of a, in bases m - k
        base = m - k
        q = r // base
        L[k] = r - q * base
        r = q
    rest = (np.int64(1) << m) - 1
    parity = 0
    for k in range(top):
        x = rest
        for _ in range(L[k]):  # the L[k]-th smallest of the tiles left
            x &= x - 1
        t = lowest_bit(x)
        s[k] = t
        rest &= ~(np.int64(1) << t)
        parity += L[k]
    for i in range(K):
        t = lowest_bit(rest)
        T[i] = t
        rest &= rest - 1
    return parity & 1
