"""The whole-space search split into partitions (slidelab.tables.partition) and run on a Dask
cluster (slidelab.analysis.cluster_space, ``analyze --scheduler``): the same counts at every
depth, the same diameter and hardest positions as the in-memory search, each partition's codes
on one worker; a cluster that cannot be reached, a partition too large for its worker and a
worker lost mid-search are one-line errors (issue 29, point 2)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

from dask_cluster import local_cluster
from slidelab.analysis import analyze
from slidelab.errors import ClusterError, SlidelabError
from slidelab.tables.index import space_of
from slidelab.tables.layers import search_layers
from slidelab.tables.partition import Local, Split, pack, prefix_starts, search_partitions, unpack

LINE_PUZZLE = "ABA_/CDCD/ABAB/CDCD"  # the line puzzle: 252,252,000 positions, diameter 52
LETTERED = "AAB/CDE/FG_"  # a lettered board with a repeated label: 181,440 positions


# ------------------------------------------------------------------------- the split (no Dask)


@pytest.mark.parametrize("goal", ["3x3", "2x4", "4x3", "AAB/BCC/DD_", LINE_PUZZLE])
@pytest.mark.parametrize("parts", [2, 3, 4, 7])
def test_a_split_cuts_where_the_leading_tiles_change_and_evenly(goal, parts):
    space = space_of(goal)
    split = Split.of(space, parts)
    assert split.parts == parts and split.bounds[0] == 0 and split.bounds[-1] == space.per_blank
    assert list(split.bounds) == sorted(set(split.bounds))
    starts = set(prefix_starts(space, split.places).tolist())
    assert set(split.bounds) <= starts
    sizes = np.diff(split.bounds)
    # as even as the prefixes allow: within 5%, or one prefix block off where they are few
    block = max(np.diff(sorted(starts)))
    assert max(sizes) <= max(1.05 * space.per_blank / parts, space.per_blank / parts + block)


def test_the_owner_of_an_index_holds_its_rank():
    space = space_of("4x3")
    split = Split.of(space, 3)
    for index in [0, 1, space.per_blank - 1, space.per_blank, space.states - 1, 123_456_789]:
        part, slot = split.owner(index)
        b, r = divmod(index, space.per_blank)
        lo, hi = split.window(part)
        assert lo <= r < hi and slot == b * split.stride(part) + r - lo


def test_batches_are_offsets_or_bitmaps_and_unpack_to_the_slots():
    rng = np.random.default_rng(5)
    for slots in [
        np.array([7]),
        np.arange(100, 200),  # dense: a bitmap
        np.unique(rng.integers(0, 10**9, 1000)),  # sparse: offsets
        np.array([1, 2**32 + 1, 2**33, 2**40]),  # beyond uint32 offsets: several batches
    ]:
        batches = pack(slots, 2)
        back = np.concatenate([base + off.astype(np.int64) for base, off in map(unpack, batches)])
        assert back.tolist() == slots.tolist()
        assert all(b[0] == 2 for b in batches)
    assert pack(np.arange(100, 200), 1)[0][2] == "bitmap"
    assert pack(np.array([0, 10**6]), 1)[0][2] == "offsets"


# the partitioned walk's kernels (and the one-thread walk's): minutes to compile on a first run
@pytest.mark.slow
@pytest.mark.parametrize(
    "goal, metric",
    [
        ("3x3", "stm"),
        ("3x3", "mtm"),
        ("2x4", "stm"),
        ("2x4", "mtm"),
        ("AAB/BCC/DD_", "stm"),
        ("AAB/BCC/DD_", "mtm"),
        (LETTERED, "stm"),
        ("2x5", "stm"),  # suffix blocks, a split by two leading tiles
    ],
)
@pytest.mark.parametrize("parts", [1, 2, 3, 5])
def test_partitions_in_one_process_give_the_in_memory_layers(goal, metric, parts):
    # one thread, pushing and pulling (a small space is pushed only unless told otherwise)
    space = space_of(goal, metric=metric)
    whole = search_layers(space, limit=10**6, parallel=False)
    split = Split.of(space, parts)
    layers = search_partitions(split, Local(split, parallel=False), limit=10**6, parallel=False)
    assert layers.counts == whole.counts
    assert layers.last.tolist() == sorted(whole.last.tolist())
    assert layers.modes == whole.modes and "pull" in layers.modes


# the partitioned walk's kernels (and the one-thread walk's): minutes to compile on a first run
@pytest.mark.slow
def test_a_piece_that_lists_more_than_there_is_room_for_is_walked_again_in_halves(monkeypatch):
    from slidelab.tables import partition

    monkeypatch.setattr(partition, "LISTED", 1)  # room for one unit's neighbours a piece
    monkeypatch.setattr(partition, "PIECE_STATES", 1 << 14)  # 16 flag blocks a piece
    space = space_of("3x3")
    whole = search_layers(space, limit=10**6, parallel=False)
    split = Split.of(space, 3)
    walks = []
    real = partition.Codes.walk_partition

    def counted(codes, *args):
        walks.append(args[4:6])  # (d, kind, marks, flags, lo, hi, out, sent)
        return real(codes, *args)

    monkeypatch.setattr(partition.Codes, "walk_partition", counted)
    layers = search_partitions(split, Local(split, parallel=False), limit=10**6, parallel=False)
    assert layers.counts == whole.counts
    assert any(end - first < 16 for first, end in walks)  # some pieces were halved


# the partitioned walk's kernels (and the one-thread walk's): minutes to compile on a first run
@pytest.mark.slow
@pytest.mark.parametrize("goal", ["3x3", "AAB/BCC/DD_"])
def test_partitions_on_every_core_give_the_same_layers(goal):
    space = space_of(goal)
    whole = search_layers(space, limit=10**6, parallel=True)
    split = Split.of(space, 2)
    layers = search_partitions(split, Local(split, parallel=True), limit=10**6, parallel=True)
    assert layers.counts == whole.counts and layers.modes == whole.modes
    assert "pull" in layers.modes  # the walks into the other partition of a pulled layer too


# ------------------------------------------------------------------------- a real Dask cluster


def same_stats(a, b):
    assert a.counts == b.counts
    assert (a.states, a.diameter, a.n_hardest, a.mean) == (
        b.states,
        b.diameter,
        b.n_hardest,
        b.mean,
    )
    assert a.hardest == b.hardest


@pytest.mark.slow  # a Dask cluster and its workers' kernels: 20-40 s on the busy 2-core machine
@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_small_boards_on_two_workers_equal_the_in_memory_search(dask_cluster, metric):
    for goal in ["3x3", "2x4", "AAB/BCC/DD_", LETTERED]:
        remote = analyze(goal, metric=metric, scheduler=dask_cluster.scheduler_address, hardest=50)
        same_stats(remote, analyze(goal, metric=metric, hardest=50))


@pytest.mark.slow
def test_the_line_puzzle_on_two_workers_equals_the_in_memory_search(dask_cluster):
    remote = analyze(LINE_PUZZLE, scheduler=dask_cluster.scheduler_address)
    local = analyze(LINE_PUZZLE)
    same_stats(remote, local)
    assert (remote.states, remote.diameter) == (252_252_000, 52)


@pytest.mark.slow
def test_analyze_4x3_on_two_workers_from_the_command_line(dask_cluster):
    done = subprocess.run(
        [sys.executable, "-m", "slidelab", "analyze", "4x3", "--json"]
        + ["--scheduler", dask_cluster.scheduler_address],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr
    remote = json.loads(done.stdout)
    assert (remote["states"], remote["diameter"]) == (239_500_800, 53)
    assert "2 partitions, one on each of 2 of its workers" in done.stderr
    local = analyze("4x3")
    assert remote["counts"] == list(local.counts)
    assert remote["hardest"] == [b.format() for b in local.hardest]


@pytest.mark.slow
def test_a_space_smaller_than_the_cluster_takes_fewer_workers(dask_cluster):
    # AA/A_: 4 positions, one arrangement of the tiles: one partition, on one of the two workers
    remote = analyze("AA/A_", scheduler=dask_cluster.scheduler_address)
    same_stats(remote, analyze("AA/A_"))


def test_an_unreachable_scheduler_is_one_line(monkeypatch, cli):
    pytest.importorskip("distributed")
    from slidelab import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        analyze("3x3", scheduler="tcp://127.0.0.1:9")
    result = cli("analyze", "3x3", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 1  # not bad input (2): the cluster could not answer
    assert result.stderr.count("\n") == 1 and "cannot reach the Dask scheduler" in result.stderr


def test_bad_arguments_with_a_scheduler_are_one_line(cli):
    with pytest.raises(SlidelabError, match="scheduler must be an address"):
        analyze("3x3", scheduler=42)
    result = cli("analyze", "3x3", "--save", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code != 0 and result.stderr.count("\n") == 1
    assert "--save does not go with --scheduler" in result.stderr


@pytest.mark.slow
def test_a_partition_too_large_for_its_worker_is_refused_before_it_starts():
    with local_cluster(1, memory_limit="300MB") as small:
        with pytest.raises(SlidelabError, match="has a memory limit of .*add workers"):
            analyze("4x3", scheduler=small.scheduler_address)


@pytest.mark.slow
def test_a_worker_lost_mid_search_is_a_one_line_error_not_a_hang():
    # a worker killed while the 4x3 is searched: its partition is gone, the search stops
    deep = threading.Event()
    failure = {}

    def progress(info):
        if info["depth"] >= 25:
            deep.set()

    with local_cluster() as local:  # its own: a worker is killed

        def search():
            try:
                analyze("4x3", progress, scheduler=local.scheduler_address)
            except ClusterError as exc:  # not bad input
                failure["error"] = str(exc)

        thread = threading.Thread(target=search)
        thread.start()
        assert deep.wait(timeout=600)
        nanny = next(iter(local.workers.values()))
        os.kill(nanny.process.process.pid, signal.SIGKILL)
        thread.join(timeout=120)
        assert not thread.is_alive()
    assert "left the Dask cluster" in failure["error"], failure
    assert "\n" not in failure["error"]
