"""A whole-space search split into partitions by rank, each holding its own two-bit codes.

The in-memory search (:mod:`.layers`) holds two bits for every position in one array.  Here
the positions are split into *partitions*, each with the codes of its own positions only, so
that each can live on another machine (:mod:`slidelab.analysis.cluster_space` puts them on a Dask cluster); the
layers are searched in step, and a neighbour that belongs to another partition is sent to it.

**How the space is split.**  An index is ``b * H + r``: the blank's cell ``b`` and the rank
``r`` of the tile sequence (:mod:`.index`).  A partition is a range of ranks ``r0 .. r1 - 1``
of *every* blank cell (:class:`Split`), not a range of indices, because of what the moves do
to an index: a sideways move keeps ``r`` (only the blank's cell changes), and a vertical move
rotates the ``w`` places of the sequence next to the blank (:func:`.index_kernels.vertical_delta`).
The ranks are lexicographic, so a range of ranks that starts and ends where the first ``k``
places change (:func:`prefix_starts`) holds every sequence with the same first ``k`` tiles: a
move keeps a position in its partition unless it rotates one of those places, that is, unless
the blank starts in one of the first ``k + reach * w`` cells (:attr:`Split.crossing`) and moves
vertically across them.  On the 2x7 split in four (``k = 2``), 4 of its 38 kinds of move can
leave a partition; splitting by the blank's cell instead, every move would.  The sideways moves
never leave, so the 32-at-a-time sweep of :mod:`.layers` makes them unchanged; the walk makes
the vertical ones and lists those that leave (:class:`.layers.Codes`, ``window``).

**A layer** (:class:`Part`, driven by :func:`search_partitions`, which runs the same driver as the
in-memory search, :func:`slidelab.tables.driver.breadth_first`): every partition closes the layer
before last; then each expands its part of the layer, pushed or pulled as the whole space's
sizes say.  A push claims the neighbours in its own partition as the in-memory search does
and lists the others; a pull looks for each unreached position's neighbours in its own
partition only, and a second walk over the layer's positions in the crossing cells lists the
moves into the other partitions (a pull cannot look there).  Listed neighbours go to their
partition in batches of slots (:func:`pack`), which claims the unreached ones
(:func:`.layers.claim`); when every partition has expanded and every batch is claimed, each
partition's count of new positions is summed, and the next layer begins.  When a layer comes
out empty, the partitions give the first positions of the last one (the hardest).

:class:`Local` runs the partitions one after another in this process (the tests' reference,
and a search no larger than the in-memory one); :mod:`slidelab.analysis.cluster_space` runs them on a cluster.

Examples
--------
>>> from slidelab.tables.index import space_of
>>> split = Split.of(space_of("3x3"), 2)
>>> split.bounds, split.places, split.crossing
((0, 10080, 20160), 1, 4)
>>> # the last layers of the 8-puzzle; skipped by the default tests: the partitioned walk's
>>> # kernels take minutes to compile on a first run (test_distributed_analysis.py runs it, slow)
>>> search_partitions(split, Local(split)).counts[-3:]  # doctest: +SKIP
[760, 221, 2]
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .index import Space
from .layers import BLOCK_SHIFT, Codes, Layers, Tally, claim, kernel_threads, switch

#: a split is good enough when its largest partition is at most this much over the average
BALANCE = 1.05
#: at most this many prefixes are considered when splitting (deeper ones change no answer)
MAX_PREFIXES = 1 << 16
#: neighbours listed for other partitions before a walk stops to send them (int64 each)
LISTED = 1 << 22
#: states walked at a time where no move leaves the partition (a batch that arrives waits at
#: most for one of these)
PIECE_STATES = 1 << 25
#: neighbours for one partition gathered before they are sent as one batch
BATCH = 1 << 20
#: a batch is a bitmap when it is denser than one neighbour in this many slots (else offsets)
BITMAP_DENSITY = 32


def prefix_starts(space: Space, places: int) -> np.ndarray:
    """The ranks (within a blank cell) where the tile sequence's first ``places`` tiles change,
    ascending, from 0; ``H`` (:attr:`.index.Space.per_blank`) last.

    With distinct tiles the ranks are halved (:mod:`.index`): a block of ``(m - places)!``
    sequences is ``(m - places)! / 2`` ranks, so ``places`` is at most ``m - 2``.

    >>> from slidelab.tables.index import space_of
    >>> prefix_starts(space_of("2x3"), 1).tolist()
    [0, 12, 24, 36, 48, 60]
    >>> prefix_starts(space_of("AB/BA/A_"), 1).tolist()  # AAB, ABA, BAA... first A, then B
    [0, 6, 10]
    """
    counts = list(space.label_counts)
    sizes: list[int] = []

    def blocks(depth: int) -> None:
        if depth == places:
            rest = sum(counts)
            sizes.append(math.factorial(rest) // math.prod(math.factorial(c) for c in counts))
            return
        for label, left in enumerate(counts):
            if left:
                counts[label] -= 1
                blocks(depth + 1)
                counts[label] += 1

    blocks(0)
    starts = np.concatenate(([0], np.cumsum(sizes, dtype=np.int64)))
    return starts // 2 if space.distinct else starts


def _prefix_count(space: Space, places: int) -> int:
    """How many different first ``places`` tiles the sequences have (at most)."""
    return (
        math.perm(len(space.label_counts), places)
        if space.distinct
        else (len(space.label_counts) ** places)
    )


@dataclass(frozen=True)
class Split:
    """A space cut into partitions by rank: partition ``i`` holds the ranks
    ``bounds[i] .. bounds[i + 1] - 1`` of every blank cell (see the module's notes).

    Attributes
    ----------
    space : Space
        The space searched.
    bounds : tuple of int
        Rank bounds, ``0`` first and ``H`` last; each a place where the first ``places`` tiles
        of the sequence change.
    places : int
        The leading places of the tile sequence that decide a position's partition.
    """

    space: Space
    bounds: tuple
    places: int

    @classmethod
    def of(cls, space: Space, parts: int) -> Split:
        """``space`` cut in ``parts`` partitions as even as the fewest leading places allow
        (the largest at most :data:`BALANCE` times the average, or the most even found); in
        fewer where its sequences have too few beginnings for that many.

        >>> from slidelab.tables.index import space_of
        >>> Split.of(space_of("2x2"), 8).bounds  # 3 tiles: 3 first tiles, 1 rank each
        (0, 1, 2, 3)
        """
        H = space.per_blank
        best: tuple[float, tuple, int] = (math.inf, (0, H), 0)
        while parts > 1 and best[0] == math.inf:
            for places in range(1, max(1, space.tiles - 1)):
                if _prefix_count(space, places) > MAX_PREFIXES:
                    break
                starts = prefix_starts(space, places)
                targets = [H * i / parts for i in range(1, parts)]
                at = np.clip(np.searchsorted(starts, targets), 1, len(starts) - 1)
                nearer = np.where(
                    np.abs(starts[at - 1] - targets) <= np.abs(starts[at] - targets), at - 1, at
                )
                bounds = (0, *(int(starts[i]) for i in nearer), H)
                if len(set(bounds)) < len(bounds):
                    continue  # too few prefixes for that many partitions
                balance = max(np.diff(bounds)) * parts / H
                if balance < best[0]:
                    best = (balance, bounds, places)
                if balance <= BALANCE:
                    break
            parts -= 1
        return cls(space, best[1], best[2])

    @property
    def parts(self) -> int:
        return len(self.bounds) - 1

    @property
    def crossing(self) -> int:
        """Moves that leave a partition start with the blank in cells ``0 .. crossing - 1``
        (vertical moves that rotate one of the first :attr:`places` places of the sequence)."""
        if self.parts == 1:
            return 0
        return min(self.space.cells, self.places + self.space.reach * self.space.width)

    def window(self, i: int) -> tuple[int, int]:
        return self.bounds[i], self.bounds[i + 1]

    def stride(self, i: int) -> int:
        """Slots a blank cell in partition ``i``: its ranks, up to whole words."""
        return -(-(self.bounds[i + 1] - self.bounds[i]) // 32) * 32

    def code_bytes(self, i: int) -> int:
        """Bytes of partition ``i``'s codes and flags."""
        slots = self.space.cells * self.stride(i)
        return slots // 4 + 3 * -(-slots >> BLOCK_SHIFT)

    def owner(self, index: int) -> tuple[int, int]:
        """``(partition, slot)`` of the position of index ``index``."""
        b, r = divmod(index, self.space.per_blank)
        i = int(np.searchsorted(self.bounds, r, side="right")) - 1
        return i, b * self.stride(i) + r - self.bounds[i]


def pack(slots: np.ndarray, code: int) -> list[tuple]:
    """Sorted distinct slots of one partition as batches ``(code, base, kind, payload)``: the
    slots ``base + payload`` (``kind`` ``"offsets"``, uint32) or the set bits of a bitmap from
    ``base`` (``"bitmap"``, little-endian bytes), whichever is smaller; ``code`` is the one the
    slots take (:func:`.layers.claim`).

    >>> [(b[1], b[2], b[3].tolist()) for b in pack(np.array([5, 6, 7, 9]), 2)]
    [(5, 'bitmap', [23])]
    >>> unpack(pack(np.array([3, 2**33]), 1)[1])
    (8589934592, array([0], dtype=uint32))
    """
    batches = []
    start = 0
    while start < len(slots):
        base = int(slots[start])
        end = int(np.searchsorted(slots, base + (1 << 32), side="left"))  # offsets fit uint32
        part = slots[start:end] - base
        span = int(part[-1]) + 1
        if span < BITMAP_DENSITY * len(part):
            bits = np.zeros(span, np.bool_)
            bits[part] = True
            batches.append((code, base, "bitmap", np.packbits(bits, bitorder="little")))
        else:
            batches.append((code, base, "offsets", part.astype(np.uint32)))
        start = end
    return batches


def unpack(batch: tuple) -> tuple[int, np.ndarray]:
    """``(base, offsets)`` of a batch of :func:`pack`."""
    _, base, kind, payload = batch
    if kind == "bitmap":
        return base, np.flatnonzero(np.unpackbits(payload, bitorder="little")).astype(np.uint32)
    return base, payload


@dataclass
class Stats:
    """One partition's work in one layer (``Part.expand``)."""

    found: int = 0  # positions it reached in its own partition
    listed: int = 0  # neighbours it listed for other partitions (before removing repeats)
    sent: int = 0  # bytes of the batches it sent
    seconds: float = 0.0  # time it spent expanding (the kernels, listing and sending)
    walking: float = 0.0  # ... of which in the kernels (the sweep and the walks)
    listing: float = 0.0  # ... sorting out and packing the neighbours listed
    waiting: float = 0.0  # ... waiting for other partitions to claim its batches
    claiming: float = 0.0  # time it spent claiming the batches of others (another thread)
    cpu: float = 0.0  # CPU seconds of its expanding and claiming (one thread each: a
    #: partition's parallel kernels' other threads are not counted)


class Part:
    """Partition ``index`` of ``split``: its codes (:class:`.layers.Codes`) and flags, and the
    steps of a layer (see the module's notes).

    Each step is called for every partition before the next one starts; :meth:`merge` may be
    called from another thread while :meth:`expand` runs (a lock keeps them apart).
    """

    def __init__(
        self, split: Split, index: int, parallel: bool | None = None, threads: int | None = None
    ):
        self.split = split
        self.index = index
        self.threads = threads  # numba's threads for its kernels (None: numba's default)
        space = split.space
        with kernel_threads(threads):
            self.codes = codes = Codes(space, split.window(index), parallel)
        n = codes.nblocks
        self.prev = np.zeros(n, np.uint8)  # the layer before; cleared, then the next layer
        self.cur = np.zeros(n, np.uint8)  # the open layer
        self.done = np.zeros(n, np.uint8)  # blocks with nothing left unreached
        self.lock = threading.Lock()
        self.merged = 0  # positions claimed from other partitions' batches this layer
        self.claiming = self.claiming_cpu = 0.0  # seconds spent claiming them, and CPU seconds
        self.size = 0  # positions of the open layer in this partition
        owner, slot = split.owner(space.index(space.goal))
        if owner == index:
            codes.words[slot >> 5] |= np.int64(1) << ((slot & 31) << 1)
            self.cur[slot >> BLOCK_SHIFT] = 1
            self.size = 1
        # units of the walk whose moves may leave the partition: the crossing cells'
        cross_slots = split.crossing * split.stride(index)
        self.cross_units = min(codes.units, -(-cross_slots // codes.unit_states))
        H = space.per_blank
        self.bounds = np.array(split.bounds, np.int64)
        self.strides = np.array([split.stride(i) for i in range(split.parts)], np.int64)
        self.H = H
        self.pending: list[list[np.ndarray]] = [[] for _ in range(split.parts)]
        self.stats = Stats()

    # ------------------------------------------------------------------------ the steps

    def close(self, code: int) -> None:
        """Close the layer before last (``code``) and clear its flags for the next layer."""
        with self.lock, kernel_threads(self.threads):
            self.codes.close(self.prev, code, self.size)
            self.prev[:] = 0

    def expand(self, d: int, pull: bool, send: Callable[[int, tuple], None]) -> Stats:
        """Layer ``d + 1`` from layer ``d``: its positions in this partition claimed, the others
        sent (``send(partition, batch)``) in batches (:func:`pack`)."""
        with kernel_threads(self.threads):
            return self._expand(d, pull, send)

    def _expand(self, d: int, pull: bool, send) -> Stats:
        began, cpu = time.perf_counter(), time.thread_time()
        self.stats = Stats()
        codes = self.codes
        small = codes.small(self.size)
        code = 1 + ((d + 1) & 1)
        with self.lock:
            self.stats.found += codes.sweep(d, small, self.cur, self.prev, self.done)
        self.stats.walking += time.perf_counter() - began
        if pull:
            self._walk(d, 1, self.done, 0, codes.units, small, None, code)
            self._walk(d, 2, self.cur, 0, self.cross_units, small, send, code)
        else:
            self._walk(d, 0, self.cur, 0, self.cross_units, small, send, code)
            self._walk(d, 0, self.cur, self.cross_units, codes.units, small, None, code)
        for target in range(self.split.parts):
            self._send(target, send, code)
        self.stats.seconds = time.perf_counter() - began
        self.stats.cpu = time.thread_time() - cpu
        return self.stats

    def merge(self, batch: tuple) -> int:
        """Claim a batch of neighbours that another partition found for this one; returns how
        many were not reached before."""
        began, cpu = time.perf_counter(), time.thread_time()
        base, offsets = unpack(batch)
        with self.lock:
            found = int(claim(self.codes.words, self.prev, base, offsets, batch[0]))
            self.merged += found
            self.claiming += time.perf_counter() - began
            self.claiming_cpu += time.thread_time() - cpu
        return found

    def finish(self) -> tuple[int, float, float]:
        """End the layer: its positions in this partition (its own finds and the batches') and
        the seconds spent claiming batches, and their CPU seconds; the next layer's flags
        become the open ones."""
        done = (self.stats.found + self.merged, self.claiming, self.claiming_cpu)
        self.merged, self.claiming, self.claiming_cpu = 0, 0.0, 0.0
        self.prev, self.cur = self.cur, self.prev
        self.size = done[0]
        return done

    def last(self, code: int, limit: int) -> np.ndarray:
        """Indices (ascending, at most ``limit``) of the last layer's positions (``code``) in
        this partition, once a layer came out empty."""
        slots = self.codes.collect(self.prev, code, limit)
        i = self.index
        b = slots // self.strides[i]
        return b * self.H + self.bounds[i] + slots - b * self.strides[i]

    # ------------------------------------------------------------------------ walking and listing

    def _walk(self, d, kind, marks, lo, hi, small, send, code) -> None:
        """Walk units ``lo .. hi - 1`` (``kind`` of :meth:`.layers.Codes.walk_partition`) a piece
        of :data:`PIECE_STATES` at a time; with ``send``, list the neighbours in other
        partitions and send them.  A piece that lists more than there is room for
        (:data:`LISTED`) is walked again in halves: what it claimed stays claimed (and counted
        once), and the neighbours it listed are listed again."""
        codes = self.codes
        step = max(1, PIECE_STATES // codes.unit_states)
        chunks = 1 if small else max(1, min(codes.chunks, step))
        # a chunk's room: its share, and at least what one unit can list (2 * reach a state)
        capacity = max(LISTED // chunks, codes.unit_states * 2 * codes.reach) if send else 0
        out = np.empty((chunks, capacity), np.int64)
        sent = np.zeros(chunks, np.int64)
        pieces = [(first, min(hi, first + step)) for first in range(lo, hi, step)][::-1]
        while pieces:
            first, end = pieces.pop()
            began = time.perf_counter()
            with self.lock:
                self.stats.found += codes.walk_partition(
                    d, kind, marks, self.prev, first, end, out, sent
                )
            self.stats.walking += time.perf_counter() - began
            if sent.max(initial=0) > capacity:
                middle = (first + end) // 2
                pieces += [(middle, end), (first, middle)]
                continue
            if send is not None and sent.any():
                self._list(np.concatenate([out[c, : sent[c]] for c in range(chunks)]), send, code)

    def _list(self, indices: np.ndarray, send, code: int) -> None:
        """Queue neighbours (indices in the whole space) for their partitions; send a
        partition's queue once it holds :data:`BATCH`."""
        began = time.perf_counter()
        self.stats.listed += len(indices)
        b = indices // self.H
        r = indices - b * self.H
        owner = np.searchsorted(self.bounds, r, side="right") - 1
        slots = b * self.strides[owner] + r - self.bounds[owner]
        order = np.argsort(owner, kind="stable")
        ends = np.cumsum(np.bincount(owner, minlength=self.split.parts))
        for target, (start, end) in enumerate(
            zip(ends - np.diff(ends, prepend=0), ends, strict=True)
        ):
            if end > start:
                self.pending[target].append(slots[order[start:end]])
        self.stats.listing += time.perf_counter() - began
        for target, pending in enumerate(self.pending):
            if sum(len(p) for p in pending) >= BATCH:
                self._send(target, send, code)

    def _send(self, target: int, send, code: int) -> None:
        if not self.pending[target]:
            return
        began = time.perf_counter()
        slots = np.sort(np.concatenate(self.pending[target]))
        slots = slots[np.diff(slots, prepend=-1) != 0]  # (np.unique hashes: ten times slower)
        self.pending[target] = []
        batches = pack(slots, code)
        self.stats.listing += time.perf_counter() - began
        for batch in batches:
            self.stats.sent += batch[3].nbytes
            send(target, batch)


class Local:
    """The partitions of ``split`` in this process, one after another (the ``call`` of
    :func:`search_partitions`): a batch is claimed by its partition as soon as it is sent."""

    def __init__(self, split: Split, parallel: bool | None = None):
        self.parts = [Part(split, i, parallel) for i in range(split.parts)]

    def __call__(self, method: str, *args) -> list:
        if method == "expand":
            return [p.expand(*args, self._send) for p in self.parts]
        return [getattr(p, method)(*args) for p in self.parts]

    def _send(self, target: int, batch: tuple) -> None:
        self.parts[target].merge(batch)


def search_partitions(
    split: Split,
    call: Callable[..., list],
    progress: Callable[[dict], None] | None = None,
    limit: int = 1000,
    log: Callable[[dict], None] | None = None,
    parallel: bool | None = None,
) -> Layers:
    """Breadth-first search from the goal over every position of ``split.space``, partition by
    partition (see the module's notes).

    ``call(step, *args)`` runs a step of :class:`Part` on every partition and returns their
    results in partition order (:class:`Local`, or the cluster's).  ``progress``, ``limit``
    and ``parallel`` are :func:`.layers.search_layers`' (``parallel`` only chooses when to pull:
    as the in-memory search does with it); ``log`` gets ``{"depth", "mode", "found", "seconds",
    "parts"}`` after each layer, ``parts`` the partitions' :class:`Stats`.
    """
    space = split.space
    tally = Tally(space.states, progress, log)

    def expand(d, pull, size, *flags):
        stats = call("expand", d, pull)
        found = 0
        for part, (reached, claiming, cpu) in zip(stats, call("finish"), strict=True):
            found += reached
            part.claiming = claiming
            part.cpu += cpu
        return found, found, stats

    def close(flags, code, size):
        call("close", code)

    d, _ = tally.run(1, 0, expand, close, **switch(space, parallel))  # one block: the whole cluster
    code = 1 + (d & 1)
    last = np.sort(np.concatenate(call("last", code, min(limit, tally.counts[d]))))
    return tally.layers(last[:limit])
