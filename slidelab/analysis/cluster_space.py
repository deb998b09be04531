"""A whole-space search on a Dask cluster: the partitions of :mod:`.partition`, one a worker.

``analyze(goal, scheduler=ADDRESS)`` (and ``slidelab analyze GOAL --scheduler ADDRESS``) splits
the space into as many partitions as the cluster has workers (:class:`.partition.Split`:
ranges of ranks, so that few moves leave a partition) and gives each worker one, as a Dask
*actor* (:class:`PartitionActor`) pinned to it: the partition's two-bit codes are allocated
there and never leave it.  No machine holds the whole space; the client holds the counts.

What moves between machines, each layer:

- from the client to every worker, three calls (close the layer before last; expand the
  layer; finish it), and back the counts (:func:`.partition.search_partitions`, which runs the
  same layer driver as the in-memory search);
- from worker to worker, directly (an actor calls another's :meth:`PartitionActor.receive`),
  the neighbours found for another partition: batches of at most :data:`.partition.BATCH`
  distinct slots, as uint32 offsets or a bitmap, whichever is smaller (:func:`.partition.pack`).
  The receiver claims a batch at once, in a thread of its own, between the pieces of its own
  walk (a lock keeps them apart); a sender has at most :data:`IN_FLIGHT` batches unclaimed a
  partition before it waits, so no worker's memory grows with the size of a layer;
- at the end, from each worker, the first positions of the last layer (the hardest).

Memory on a worker: its partition's codes (two bits a position, the space's share of that
worker: :meth:`.partition.Split.code_bytes`) and flags, plus :func:`buffer_bytes` of lists
and batches, plus the Python process with Dask and numba's kernels (:data:`PROCESS_BYTES`).
The codes are not Dask data, so Dask cannot spill them: turn Dask's spilling and pausing off
for the workers (``distributed.worker.memory.target/spill/pause: false``, or the variables
``DASK_DISTRIBUTED__WORKER__MEMORY__TARGET=False`` etc.), else a worker whose codes fill most
of its ``memory_limit`` is paused or warned about.  A worker whose limit (:data:`FILL` of it)
is too small for its partition is refused before anything is allocated.

A worker that dies takes its partition with it: the search cannot go on, and ends with a
one-line error that names the worker (:class:`~slidelab.errors.ClusterError`; the client looks
for departed workers while it waits).
Start it again; nothing is kept between runs.

The kernels are compiled (or loaded from numba's cache) on each worker when its actor starts,
on a tiny space, before the codes are allocated: compiling takes memory too.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import resource
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..board import Board
from ..cluster import (
    close_quietly,
    connect,
    faults_as_cluster_errors,
    first_line,
    scheduler_gone,
    wait_for_workers,
)
from ..errors import ClusterError, SlidelabError
from ..tables.index import Space
from ..tables.layers import Layers, kernel_threads
from ..tables.partition import BATCH, LISTED, Local, Part, Split, search_partitions
from ..units import format_bytes, format_duration

log = logging.getLogger(__name__)

#: batches unclaimed a partition before the sender waits for the first to be claimed
IN_FLIGHT = 4
#: seconds a batch may wait to be claimed (a receiver claims one within a piece of its walk)
SEND_TIMEOUT = 900.0
#: seconds between the client's looks for workers that left, while it waits
WATCH_SECONDS = 2.0
#: seconds the client gives the workers to free their partitions after a search (or a failure)
STOP_SECONDS = 20.0
#: bytes of a worker's process besides its codes and buffers (Python, numpy, Dask, the kernels;
#: a 7x2 worker of four peaked at 3.5 GB with 2.76 GB of codes and flags)
PROCESS_BYTES = 600 * 2**20
#: a worker's partition must fit in this fraction of its memory limit
FILL = 0.9


def buffer_bytes(parts: int) -> int:
    """Bytes a worker needs besides its codes: the walk's list of neighbours for other
    partitions (and its copy while they are sorted out), the queue for each, and the batches
    on their way out and in."""
    batch = BATCH * 8  # a queue's slots (int64); a batch sent is at most half that
    return 2 * LISTED * 8 + (parts - 1) * (batch + 2 * IN_FLIGHT * batch // 2)


class PartitionActor:
    """Partition ``index`` of a split (a :class:`.partition.Part`) on the worker it lives on: a
    Dask actor.  Its methods are the steps of a layer; :meth:`receive` claims another
    partition's batch.

    The space is given by its goal's text and metric, so that each worker builds its own.
    """

    def __init__(self, goal: str, metric: str, bounds: tuple, places: int, index: int):
        from distributed import get_worker

        self.threads = get_worker().state.nthreads
        space = Space(Board(goal), metric)
        split = Split(space, tuple(bounds), places)
        with kernel_threads(self.threads):
            warm_up(self.threads > 1)
        self.part: Part | None = Part(split, index, threads=self.threads)
        self.peers: list = []
        self.flying: list[collections.deque] = [collections.deque() for _ in bounds[1:]]
        self.claims = ThreadPoolExecutor(1, thread_name_prefix="slidelab-claims")
        self.aborted = False

    def connect(self, peers: list) -> None:
        """The other partitions' actors, in partition order."""
        self.peers = peers

    def close(self, code: int) -> None:
        self._part().close(code)

    def expand(self, d: int, pull: bool):
        """Expand layer ``d`` and wait until every batch sent is claimed."""
        part = self._part()
        stats = part.expand(d, pull, self._send)
        began = time.perf_counter()
        for flying in self.flying:
            while flying:
                self._claimed(flying.popleft())
        stats.waiting += time.perf_counter() - began
        stats.seconds += time.perf_counter() - began
        return stats

    def finish(self) -> tuple[int, float, float]:
        return self._part().finish()

    def last(self, code: int, limit: int) -> np.ndarray:
        return self._part().last(code, limit)

    async def receive(self, batch: tuple) -> int:
        """Claim a batch from another partition (in a thread of its own, so the worker's event
        loop stays free)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.claims, self._part().merge, batch)

    async def abort(self) -> None:
        """Stop waiting for batches to be claimed (another worker is gone): on the event loop,
        so that it is heard while :meth:`expand` waits."""
        self.aborted = True

    def peak_bytes(self) -> int:
        """The worker process's peak resident memory so far."""
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    def release(self) -> None:
        """Free the codes (the search is over)."""
        self.part = None
        self.claims.shutdown(wait=False)

    def _part(self) -> Part:
        if self.part is None:
            raise ClusterError("this partition was released")
        return self.part

    def _send(self, target: int, batch: tuple) -> None:
        flying = self.flying[target]
        began = time.perf_counter()
        while len(flying) >= IN_FLIGHT:
            self._claimed(flying.popleft())
        self._part().stats.waiting += time.perf_counter() - began
        flying.append(self.peers[target].receive(batch))

    def _claimed(self, call) -> None:
        """Wait for a batch sent to be claimed (at most :data:`SEND_TIMEOUT` seconds, less if
        the search is aborted)."""
        began = time.monotonic()
        while True:
            try:
                call.result(timeout=1.0)
                return
            except TimeoutError:
                if self.aborted:
                    raise ClusterError("the search was stopped") from None
                if time.monotonic() - began > SEND_TIMEOUT:
                    raise


def warm_up(parallel: bool) -> None:
    """Compile (or load) a partition's kernels on a tiny space, before a big one allocates."""
    split = Split.of(Space(Board("1 2 3/4 5 6/7 8 0")), 2)
    for way in (False, True) if parallel else (False,):
        search_partitions(split, Local(split, parallel=way))


class Cluster:
    """The partitions' actors on the workers (the ``call`` of :func:`.partition.search_partitions`):
    a step runs on every worker at once, and the client waits for all of them, watching for a
    worker that leaves."""

    def __init__(self, client):
        self.client = client
        self.addresses: list[str] = []  # the workers', one a partition (set by the split)
        self.actors: list = []
        self.futures: list = []

    def start(self, split: Split) -> None:
        goal, metric = split.space.goal.format(), split.space.metric
        run = uuid.uuid4().hex[:8]
        self.futures = [
            self.client.submit(
                PartitionActor,
                goal,
                metric,
                split.bounds,
                split.places,
                i,
                actor=True,
                workers=[address],
                allow_other_workers=False,
                pure=False,
                key=f"slidelab-partition-{run}-{i}",
            )
            for i, address in enumerate(self.addresses)
        ]
        self.actors = self._wait(self.futures, "start")
        self("connect", self.actors)

    def __call__(self, method: str, *args) -> list:
        calls = []
        for address, actor in zip(self.addresses, self.actors, strict=True):
            try:
                calls.append(getattr(actor, method)(*args))
            except (RuntimeError, OSError) as exc:  # Dask refuses a call to a lost worker's actor
                raise self._lost(address, method, exc) from None
        return self._wait(calls, method)

    def _wait(self, futures: list, step: str) -> list:
        """The results of ``futures`` (one a worker), or a one-line error when one fails or its
        worker leaves the cluster."""
        pause = 0.001
        watched = time.monotonic()
        while not all(f.done() for f in futures):
            time.sleep(pause)
            pause = min(0.1, pause * 2)
            if time.monotonic() - watched > WATCH_SECONDS:
                watched = time.monotonic()
                present = workers_of(self.client)
                gone = [a for a in self.addresses if a not in present]
                if gone:
                    raise self._lost(gone[0], step)
        results = []
        for address, future in zip(self.addresses, futures, strict=True):
            try:
                results.append(future.result())
            except SlidelabError:
                raise
            except OSError as exc:  # its connection closed: the worker is gone
                raise self._lost(address, step, exc) from None
            except Exception as exc:
                if scheduler_gone(self.client):
                    raise self._lost(address, step, exc) from None
                raise ClusterError(
                    f"the search failed on worker {address} ({step}): {type(exc).__name__}:"
                    f" {first_line(exc)}"
                ) from None
        return results

    def _lost(self, address: str, step: str, exc: Exception | None = None) -> ClusterError:
        """The error of a search that lost a partition: its worker left, or the scheduler went
        away (the client says so; the workers' calls then fail too), whichever it was."""
        if scheduler_gone(self.client):
            why = "its scheduler went away"
        else:
            detail = f" ({first_line(exc)})" if exc is not None else ""
            why = f"worker {address} left the Dask cluster{detail}, and its partition is lost"
        return ClusterError(
            f"the breadth-first search on the Dask cluster at {_address(self.client)} cannot go"
            f" on ({step}): {why} (start it again)"
        )

    def stop(self) -> None:
        """Free the partitions on the workers (errors ignored: a worker may be gone)."""
        deadline = time.monotonic() + STOP_SECONDS
        for step in ("abort", "release"):
            calls = []
            for actor in self.actors:
                try:
                    calls.append(getattr(actor, step)())
                except Exception:  # noqa: S112 - its worker is gone: nothing to free there
                    continue
            for call in calls:
                try:
                    call.result(timeout=max(0.1, deadline - time.monotonic()))
                except Exception:  # noqa: S110 - the search is over either way
                    pass
        self.actors = []
        if not scheduler_gone(self.client):
            self.client.cancel(self.futures)
        self.futures = []


def workers_of(client) -> dict:
    """The cluster's workers now, by address, asked of the scheduler itself
    (``client.scheduler_info()`` reads a copy that the client's own periodic update, which
    asks for no workers, may have just replaced: a worker then seems to have left)."""
    return client.sync(client.scheduler.identity, n_workers=-1)["workers"]


def search_cluster(
    space: Space,
    scheduler,
    progress=None,
    limit: int = 1000,
    log_layer=None,
    max_bytes: int | None = None,
    max_seconds: float | None = None,
) -> Layers:
    """Breadth-first search of every position of ``space`` on the Dask cluster at ``scheduler``
    (an address or a ``distributed.Client``), one partition a worker (see the module's notes).

    ``progress`` and ``limit`` are :func:`.layers.search_layers`'; ``log_layer`` is
    :func:`.partition.search_partitions`' ``log``.  ``max_bytes`` refuses a partition that needs
    more on a worker; ``max_seconds`` (default: an hour) a search estimated to take longer on
    the cluster's threads.
    """
    client = connect(scheduler)
    cluster = Cluster(client)
    try:
        with faults_as_cluster_errors(
            f"the breadth-first search on the Dask cluster at {_address(client)}"
        ):
            split = _split(space, cluster, max_bytes, max_seconds)
            cluster.start(split)
            layers = search_partitions(split, cluster, progress, limit, log_layer)
            layers.peak_bytes = cluster("peak_bytes")
            return layers
    finally:
        cluster.stop()
        if client is not scheduler:
            close_quietly(client)


def _split(space: Space, cluster: Cluster, max_bytes, max_seconds) -> Split:
    """The partitions of ``space`` on the cluster's workers (which it waits for, where none has
    joined yet), one a worker, said on the log; refused where they do not fit."""
    client = cluster.client
    workers = workers_of(client)
    if not workers:
        wait_for_workers(client)
        workers = workers_of(client)
    split = Split.of(space, len(workers))  # fewer partitions where the space is tiny
    cluster.addresses = sorted(workers)[: split.parts]
    _check(split, [workers[a] for a in cluster.addresses], max_bytes, max_seconds)
    need = max(split.code_bytes(i) for i in range(split.parts))
    log.info(
        "searching %s positions on the Dask cluster at %s: %s, each %s of two-bit codes"
        " (of %s in all) and up to %s of buffers",
        f"{space.states:,}",
        _address(client),
        _placing(split.parts, len(workers)),
        format_bytes(need),
        format_bytes(space.states // 4),
        format_bytes(buffer_bytes(split.parts)),
    )
    return split


def _placing(parts: int, workers: int) -> str:
    """Where the partitions go: ``4 partitions, one on each of 4 of its workers``, or on some
    of them where the space has fewer partitions than the cluster has workers.

    >>> _placing(4, 4)
    '4 partitions, one on each of 4 of its workers'
    >>> _placing(2, 3), _placing(1, 2)
    ('2 partitions, one on each of 2 of its 3 workers', '1 partition, on one of its 2 workers')
    """
    if parts == 1:
        return f"1 partition, on one of its {workers} worker{'s' if workers != 1 else ''}"
    of = "" if parts == workers else f" {workers}"
    return f"{parts} partitions, one on each of {parts} of its{of} workers"


def _address(client) -> str:
    return client.scheduler.address


def _check(split: Split, workers: list[dict], max_bytes, max_seconds) -> None:
    """Refuse (one line) a partition that does not fit its worker, or a search estimated to
    take longer than ``max_seconds`` on the cluster's threads."""
    from ..tables.budget import DEFAULT_MAX_SECONDS, check_limits, estimate, refuse_unnumbered

    space = split.space
    refuse_unnumbered(space)
    max_bytes, max_seconds = check_limits(max_bytes, max_seconds)
    extra = buffer_bytes(split.parts) + PROCESS_BYTES
    plural = "s" if split.parts != 1 else ""
    what = f"{space.states:,} positions in {split.parts} partition{plural}"
    for i, info in enumerate(workers):
        need = split.code_bytes(i) + extra
        limit = info.get("memory_limit") or 0
        if max_bytes is not None and need > max_bytes:
            raise SlidelabError(
                f"{what} need about {format_bytes(need)} a worker, over --max-memory"
                f" {format_bytes(max_bytes)}: add workers"
            )
        if limit and need > FILL * limit:
            raise SlidelabError(
                f"{what} need about {format_bytes(need)} a worker; worker"
                f" {info.get('name', i)} has a memory limit of {format_bytes(limit)}: add workers"
                " or give them more memory"
            )
    e = estimate(space)
    threads = sum(int(info.get("nthreads", 1)) for info in workers)
    seconds = e.seconds * e.threads / max(1, threads)
    allowed = DEFAULT_MAX_SECONDS if max_seconds is None else float(max_seconds)
    if seconds > allowed:
        raise SlidelabError(
            f"{space.states:,} positions: about {format_duration(seconds)} on the cluster's"
            f" {threads} thread{'s' if threads != 1 else ''} (estimate), over the"
            f" {format_duration(allowed)} limit; pass --max-time {int(seconds * 1.5) + 1}"
            " (max_seconds=) to run it anyway"
        )
