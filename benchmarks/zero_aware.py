"""Zero-aware pattern databases: what knowing the blank's region is worth to a 15-puzzle search.

An additive pattern database keeps, for each placement of its group's tiles, the fewest moves
of those tiles that bring them home, the blank anywhere: the least over the blank's regions (the
connected parts of the cells the group leaves free; moving the blank within one costs nothing).
A *zero-aware* table (Clausecker and Reinefeld, SoCS 2019) keeps that count per region: where
the blank is says more. Issue 41 (point 3) lists it among the better tables for the same kind
of memory; on the 24-puzzle they report a third fewer expansions.

This is a measuring prototype, not slidelab's tables: its own builder (a breadth-first search
over placements and blank cells, the blank's region filled at no cost), a byte per placement
and free cell, and a compiled IDA* (goal: blank first) whose estimate is made from scratch at
every node, the groups' sum on the board and on its reflection, maxed. Each partition is run
with the same search: the tables as slidelab keeps them (the least over the free cells of the
zero-aware table, so the two differ only in the blank), zero-aware, and zero-aware in one bit
a placement and free cell over the least (a zero-aware entry is always an even number of moves
above the least, mostly 0 or 2: the bit says "2 more"; the script prints how the rises are
spread). The control, the
7-8 tables the least over the blank, must give slidelab's count (29,797 nodes generated an
instance of Korf's 100 with duplicate paths pruned, ``benchmarks/nodes.py``; the prototype's
order of moves gave 29,832 in ``benchmarks/dual_search.py``).

Run: ``python benchmarks/zero_aware.py [--partition 7-8] [--limit 100] [--random 1000]
[--keep FOLDER]`` (the 8-tile group's zero-aware table is 3.9 GiB, built in about 7 minutes on
2 cores and 4.6 GiB of memory; ``5-5-5`` takes seconds).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
from _ida_prototype import ida_with
from _korf import with_random
from numba import prange

from slidelab._bits import popcount
from slidelab._jit import njit
from slidelab.search.move_pruning import automaton, walk_every_path

N = 16
WIDTH = 4
#: partitions of the 15-puzzle's tiles (goal: blank first, tile t's goal cell is t)
PARTITIONS = {
    "7-8": "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15",
    "5-5-5": "1,2,3,6,7/4,5,8,9,12/10,11,13,14,15",
    "6-6-3": "1,2,3,5,6,7/8,9,12,13,14,15/4,10,11",
}


@njit(cache=True)
def _rank(pos, k):
    """The placement number of ``k`` tiles on cells ``pos`` (tile 0 most significant)."""
    used = 0
    idx = 0
    for j in range(k):
        p = pos[j]
        idx = idx * (N - j) + p - popcount(used & ((1 << p) - 1))
        used |= 1 << p
    return idx


@njit(cache=True)
def _unrank(idx, k, pos):
    """The cells of placement ``idx`` into ``pos``; returns the mask of the cells taken."""
    for j in range(k - 1, -1, -1):
        pos[j] = idx % (N - j)
        idx //= N - j
    used = 0
    for j in range(k):
        d = pos[j]
        for c in range(N):
            if not (used >> c) & 1:
                if d == 0:
                    pos[j] = c
                    break
                d -= 1
        used |= 1 << pos[j]
    return used


@njit(cache=True)
def _region(cell, taken, nbr):
    """The mask of the free cells joined to ``cell`` (``taken``: the group's cells)."""
    region = 1 << cell
    grown = region
    while True:
        for c in range(N):
            if (region >> c) & 1:
                for d in range(4):
                    m = nbr[c, d]
                    if m >= 0 and not (taken >> m) & 1:
                        grown |= 1 << m
        if grown == region:
            return region
        region = grown


@njit(cache=True)
def _fill(dist, idx, taken, region, free, value):
    """Give every cell of ``region`` the depth ``value`` for placement ``idx``."""
    base = idx * free
    for c in range(N):
        if (region >> c) & 1:
            dist[base + c - popcount(taken & ((1 << c) - 1))] = value


@njit(cache=True, parallel=True)
def _layer(dist, depth, k, nbr, chunks):
    """Expand every state at ``depth``: a group tile beside the blank moves into it (one move),
    and the blank's whole new region gets ``depth + 1``; returns the states reached."""
    free = N - k
    total = dist.shape[0]
    step = (total + chunks - 1) // chunks
    made = np.zeros(chunks, np.int64)
    for chunk in prange(chunks):
        pos = np.empty(k, np.int64)
        for i in range(chunk * step, min(total, (chunk + 1) * step)):
            if dist[i] != depth:
                continue
            idx = i // free
            slot = i - idx * free
            taken = _unrank(idx, k, pos)
            blank = 0
            for c in range(N):
                if not (taken >> c) & 1:
                    if slot == 0:
                        blank = c
                        break
                    slot -= 1
            for d in range(4):
                c = nbr[blank, d]
                if c < 0 or not (taken >> c) & 1:
                    continue
                j = 0
                while pos[j] != c:
                    j += 1
                pos[j] = blank
                moved = taken ^ (1 << c) ^ (1 << blank)
                nidx = _rank(pos, k)
                target = nidx * free + c - popcount(moved & ((1 << c) - 1))
                if dist[target] == 255:
                    region = _region(c, moved, nbr)
                    _fill(dist, nidx, moved, region, free, depth + 1)
                    made[chunk] += popcount(region)
                pos[j] = c
    return made.sum()


def build(tiles: list[int], nbr: np.ndarray) -> np.ndarray:
    """The zero-aware table of ``tiles`` (a byte per placement and free cell)."""
    k = len(tiles)
    places = 1
    for j in range(k):
        places *= N - j
    dist = np.full(places * (N - k), 255, np.uint8)
    goal = np.array(tiles, np.int64)
    taken = int(sum(1 << t for t in tiles))
    _fill(dist, _rank(goal, k), taken, _region(0, taken, nbr), N - k, 0)
    depth = 0
    while _layer(dist, depth, k, nbr, 256):
        depth += 1
    assert (dist != 255).all(), "a state was not reached"
    return dist


@njit(cache=True)
def _groups(cells, tiles, sizes, offsets, table, zero):
    """The groups' sum on the board ``cells`` (a tile's code is its goal cell)."""
    pos_of = np.empty(N, np.int64)
    for c in range(N):
        pos_of[cells[c]] = c
    blank = pos_of[0]
    pos = np.empty(8, np.int64)
    h = 0
    for g in range(sizes.shape[0]):
        k = sizes[g]
        taken = 0
        for j in range(k):
            pos[j] = pos_of[tiles[g, j]]
            taken |= 1 << pos[j]
        free = N - k
        idx = _rank(pos, k)
        if zero:
            h += table[offsets[g] + idx * free + blank - popcount(taken & ((1 << blank) - 1))]
        else:
            h += table[offsets[g] + idx]
    return h


@njit(cache=True)
def _estimate(cells, mirror, tiles, sizes, offsets, table, zero, refl):
    """The sum on the board, maxed with the sum on its reflection."""
    h = _groups(cells, tiles, sizes, offsets, table, zero)
    for c in range(N):
        mirror[refl[c]] = refl[cells[c]]
    r = _groups(mirror, tiles, sizes, offsets, table, zero)
    return h if h > r else r


@njit(cache=True)
def _estimate_of(cells, blank, enough, args):
    """:func:`_estimate` with the prototype IDA*'s arguments."""
    mirror, tiles, sizes, offsets, table, zero, refl = args
    return _estimate(cells, mirror, tiles, sizes, offsets, table, zero, refl)


_search = ida_with(_estimate_of)


def _ida(board, nbr, fsm, tiles, sizes, offsets, table, zero, refl):
    """IDA* from ``board`` (goal: the identity), the paths ``fsm`` refuses not walked (nor the
    blank straight back); returns (length, nodes generated)."""
    args = (np.empty(N, np.int64), tiles, sizes, offsets, table, zero, refl)
    return _search(board, nbr, fsm, args, False)


@njit(cache=True)
def _one_bit(zero, plain, free, rises):
    """Each zero-aware entry made its placement's least, plus 2 where it is 2 or more above (one
    bit a placement and free cell); ``rises[r]`` counts the entries ``r`` above (9: 9 or more)."""
    for i in range(zero.shape[0]):
        least = plain[i // free]
        rise = np.int64(zero[i]) - np.int64(least)
        rises[min(rise, 9)] += 1
        zero[i] = least + (np.uint8(2) if rise >= 2 else np.uint8(0))


def one_bit(zero: tuple, plain: tuple, sizes: np.ndarray) -> np.ndarray:
    """Every group's zero-aware entries made one bit over the least, in place (:func:`_one_bit`);
    returns the count of entries by their rise over the least."""
    (zoff, ztab), (poff, ptab) = zero, plain
    ends = [*zoff[1:], ztab.shape[0]]
    pends = [*poff[1:], ptab.shape[0]]
    rises = np.zeros(10, np.int64)
    for g in range(sizes.shape[0]):
        free = N - int(sizes[g])
        _one_bit(ztab[zoff[g] : ends[g]], ptab[poff[g] : pends[g]], free, rises)
    return rises


def tables(partition: str, nbr: np.ndarray, keep: str | None = None) -> tuple:
    """``(tiles, sizes, offsets, zero-aware tables, plain tables, seconds)`` of a partition
    (with ``keep``, a folder: each zero-aware table read from there, or built and saved)."""
    groups = [[int(t) for t in g.split(",")] for g in PARTITIONS[partition].split("/")]
    tiles = np.zeros((len(groups), 8), np.int64)
    sizes = np.array([len(g) for g in groups], np.int64)
    zero, plain, began = [], [], time.perf_counter()
    for g, group in enumerate(groups):
        tiles[g, : len(group)] = group
        saved = Path(keep) / f"zero-aware-{'-'.join(map(str, group))}.npy" if keep else None
        if saved is not None and saved.exists():
            z = np.load(saved)
        else:
            z = build(group, nbr)
            if saved is not None:
                np.save(saved, z)
        zero.append(z)
        plain.append(z.reshape(-1, N - len(group)).min(axis=1))
    seconds = time.perf_counter() - began

    def joined(parts):
        offsets = np.cumsum([0] + [p.shape[0] for p in parts[:-1]]).astype(np.int64)
        return offsets, np.concatenate(parts)

    return tiles, sizes, joined(zero), joined(plain), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partition", default="7-8", choices=sorted(PARTITIONS))
    parser.add_argument("--limit", type=int, default=100, help="the first N of Korf's 100")
    parser.add_argument("--random", type=int, default=0, help="and N seeded random 15-puzzles")
    parser.add_argument("--paths", default="both", choices=("both", "pruned"))
    parser.add_argument("--keep", default=None, help="a folder to keep the built tables in")
    args = parser.parse_args()
    sets = with_random(args.limit, args.random)
    first = sets["Korf's 100"][0][0]
    nbr = first.neighbours.astype(np.int64)
    refl = np.array([WIDTH * (c % WIDTH) + c // WIDTH for c in range(N)], np.int64)
    tiles, sizes, zero, plain, built = tables(args.partition, nbr, args.keep)
    made = "read from --keep in" if args.keep and built < 60 else "built in"
    print(f"# {args.partition} ({PARTITIONS[args.partition]}): zero-aware tables"
          f" {zero[1].nbytes / 2**20:,.0f} MiB {made} {built:.1f} s; plain"
          f" {plain[1].nbytes / 2**20:,.0f} MiB\n")  # fmt: skip
    print("| tables | paths walked | instances | generated per instance (mean) | median"
          " | lengths off | prototype s |")  # fmt: skip
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    searches = [("duplicates pruned", automaton().astype(np.int64))]
    if args.paths == "both":
        searches.insert(0, ("all but straight back", walk_every_path().astype(np.int64)))

    def row(name: str, aware: bool, offsets_table: tuple, paths: str, fsm: np.ndarray) -> None:
        offsets, table = offsets_table
        for which, instances in sets.items():
            nodes, off, began = [], 0, time.perf_counter()
            for puzzle, known in instances:
                board = np.array(puzzle.start_codes, np.int64)
                length, generated = _ida(board, nbr, fsm, tiles, sizes, offsets, table, aware,
                                         refl)  # fmt: skip
                nodes.append(generated)
                off += known is not None and length != known
            seconds = time.perf_counter() - began
            print(f"| {args.partition}, {name} | {paths} | {which} |"
                  f" {statistics.mean(nodes):,.0f} | {statistics.median(nodes):,.0f} |"
                  f" {off} | {seconds:.1f} |", flush=True)  # fmt: skip

    for paths, fsm in searches:
        row("least over the blank", False, plain, paths, fsm)
        row("zero-aware", True, zero, paths, fsm)
    rises = one_bit(zero, plain, sizes)
    row("zero-aware in one bit (+2 where 2 or more above)", True, zero, *searches[-1])
    share = ", ".join(f"{r}: {n / rises.sum():.3%}" for r, n in enumerate(rises) if n)
    print(f"\nzero-aware entries by their rise over the least: {share}")


if __name__ == "__main__":
    main()
