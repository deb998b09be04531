"""State-space analysis: complete enumeration, distance tables, the analyze command."""

import importlib
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from reference import exact_distances
from slidelab import (
    Board,
    DistanceTable,
    SlidelabError,
    SpaceStats,
    SpaceTooLargeError,
    UnsolvableError,
    analyze,
    apply_moves,
    random_board,
    solve,
)
from slidelab.analysis import estimate
from slidelab.cache import list_tables
from slidelab.tables.index import SUFFIX, Space, space_of, suffix_tables
from slidelab.tables.layers import search_layers

plan_module = importlib.import_module("slidelab.search.plan")  # auto chooses the method there

COUNTS_3X3 = [
    1,
    2,
    4,
    8,
    16,
    20,
    39,
    62,
    116,
    152,
    286,
    396,
    748,
    1024,
    1893,
    2512,
    4485,
    5638,
    9529,
    10878,
    16993,
    17110,
    23952,
    20224,
    24047,
    15578,
    14560,
    6274,
    3910,
    760,
    221,
    2,
]
HARDEST_3X3 = {Board("8 6 7/2 5 4/3 0 1"), Board("6 4 7/8 5 0/3 2 1")}


# ------------------------------------------------------------------------- the facts


def test_3x3_facts():
    st = analyze("1 2 3/4 5 6/7 8 0")
    assert st.states == 181_440 and st.size == "3x3"
    assert st.diameter == 31
    assert list(st.counts) == COUNTS_3X3
    assert st.n_hardest == 2 and set(st.hardest) == HARDEST_3X3
    assert st.mean == pytest.approx(sum(d * c for d, c in enumerate(COUNTS_3X3)) / 181_440)
    assert st.goal == Board("1 2 3/4 5 6/7 8 0")


@pytest.mark.parametrize("size", ["2x3", "3x2"])
def test_2x3_facts(size):
    st = analyze(size)
    assert (st.states, st.diameter, st.n_hardest) == (360, 21, 1)
    assert st.goal == Board.solved(*map(int, size.split("x")))


def test_2x5_facts():
    st = analyze("2x5")
    assert (st.states, st.diameter, st.n_hardest) == (1_814_400, 55, 2)
    assert sum(st.counts) == st.states and len(st.hardest) == 2


def test_a_wide_board_is_searched_on_its_side_with_the_same_answers():
    # analyze searches 5x2 as its transpose (narrower rows are cheaper) and turns the hardest
    # positions back: they are the 5x2's own, at its diameter by its own distance table
    wide, tall = analyze("5x2"), analyze("2x5")
    assert wide.counts == tall.counts and wide.size == "5x2"
    assert wide.goal == Board("1 2 3 4 5/6 7 8 9 0")
    table = DistanceTable.build("5x2", cache=False)
    assert [table.distance(b) for b in wide.hardest] == [55, 55]
    assert all(b.size == "5x2" for b in wide.hardest)


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # 23-30 s on the busy 2-core machine; the block walk's fast tests: 3x3, 5x2, 2x5
def test_6x2_matches_oeis_a090167():
    # 239.5 million positions (a few seconds): searched on its side, by suffix blocks with four
    # places fixed per block, pushed and pulled on both cores; the published terms, total and
    # diameter (the test vector file of benchmarks/layer_counts.py)
    published = {}
    for line in (ROOT / "benchmarks" / "data" / "a090167.txt").read_text().splitlines():
        key, _, value = line.split("#")[0].strip().partition(" ")
        published[key] = value.strip()
    st = analyze("6x2", blank_first=True)
    terms = {int(k): int(v) for k, v in published.items() if k.isdigit()}
    assert len(terms) == 39 and all(st.counts[d] == c for d, c in terms.items())
    assert (st.states, st.diameter) == (int(published["states"]), int(published["diameter"]))


@pytest.mark.slow  # the pulls' kernels: no other test of the README's run compiles them (26 s)
@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("goal", ["3x3", "5x2", "2x5", "3 1 2/4 0 5/6 7 8"])
def test_suffix_block_walk_agrees_with_stepping(goal, parallel, monkeypatch):
    # distinct tiles from 8 on: the kernels walk suffix blocks, placing a state's last 8 tiles
    # from tables (layers._walk with by_suffix); the older ones step from state to state.  Same depth
    # for every state, pushing and pulling, on one thread, and on all (the threads' walk).
    from slidelab.tables import layers

    space = space_of(goal)
    runs = []
    for walk in (True, False):
        monkeypatch.setattr(layers, "BLOCK_WALK", walk)
        runs.append(search_layers(space, record=True, limit=10**6, parallel=parallel))
    for run in runs[1:]:
        assert run.counts == runs[0].counts
        assert np.array_equal(run.depth, runs[0].depth)
        assert sorted(run.last) == sorted(runs[0].last)
    assert "pull" in runs[1].modes and "push" in runs[1].modes


def test_the_size_and_the_board_give_the_same_space():
    assert analyze("3x3").counts == analyze(Board("1 2 3/4 5 6/7 8 0")).counts
    blank_first = analyze("3x3", blank_first=True)
    assert blank_first.goal == Board("0 1 2/3 4 5/6 7 8")
    assert blank_first.states == 181_440 and blank_first.diameter == 31


# ------------------------------------------------------- against a dictionary BFS


def reference_stats(goal):
    dist = exact_distances(goal)
    counts = Counter(dist.values())
    diameter = max(counts)
    hardest = {
        Board.from_cells(c, goal.width, goal.height) for c, d in dist.items() if d == diameter
    }
    return dist, [counts[d] for d in range(diameter + 1)], hardest


@pytest.mark.parametrize(
    "goal",
    # AAB/CDE/FG_: repeated labels with whole words of states per blank cell (layers._sweep)
    [
        "AAB/BCC/DD_",
        "AB/BA/A_",
        "AB/BA/CC/A_",
        "1 2 3 4/5 0 6 7",
        "ABC/ABC/AB_",
        "1 2/3 0",
        pytest.param("AAB/CDE/FG_", marks=pytest.mark.slow),  # 8 s
    ],
)
def test_matches_a_dictionary_bfs(goal):
    goal = Board(goal)
    dist, counts, hardest = reference_stats(goal)
    st = analyze(goal, hardest=10**6)
    assert list(st.counts) == counts
    assert st.states == len(dist)
    assert set(st.hardest) == hardest and st.n_hardest == len(hardest)
    table = DistanceTable.build(goal, cache=False)
    for cells, d in dist.items():
        assert table.distance(Board.from_cells(cells, goal.width, goal.height)) == d


# the parallel walk's kernels (spaces of 2 million states and more): no other test of the
# README's run compiles them
@pytest.mark.slow
@pytest.mark.parametrize("goal", ["3x3", "AAB/BCC/DD_", "4x2"])
def test_parallel_kernels_agree_with_one_thread(goal):
    space = space_of(goal)
    one = search_layers(space, record=True, limit=10**6, parallel=False)
    both = search_layers(space, record=True, limit=10**6, parallel=True)
    assert one.counts == both.counts
    assert np.array_equal(one.depth, both.depth)
    assert sorted(one.last) == sorted(both.last)
    assert "pull" in both.modes and "push" in both.modes


def test_index_is_a_bijection():
    rng = random.Random(4)
    for goal in ["3x3", "AAB/BCC/DD_", "2x4", "ABA_/CDCD/ABAB/CDCD"]:
        space = space_of(goal)
        for i in [0, space.states - 1] + [rng.randrange(space.states) for _ in range(200)]:
            board = space.board(i)
            assert space.index(board) == i


def test_moving_on_from_a_state_equals_unranking_the_target():
    # the kernels walk a blank cell's indices by moving the last state's tiles on
    # (index_kernels.seek: a few digits of the rank for distinct tiles, steps for repeats)
    from slidelab.tables.index_kernels import load, seek

    rng = random.Random(7)
    for goal in ["3x3", "2x4", "4x3", "AAB/BCC/DD_", "ABA_/CDCD/ABAB/CDCD"]:
        space = space_of(goal)
        g = space.kernel_args()
        m, H = g[1], g[3]
        s, L = np.empty(m, np.int64), np.zeros(m, np.int64)
        s2, L2 = np.empty(m, np.int64), np.zeros(m, np.int64)
        c = np.empty(len(space.label_counts), np.int64)
        for _ in range(300):
            idx = rng.randrange(space.states - 1)
            end = (idx // H + 1) * H
            target = min(end - 1, idx + rng.choice([1, 2, 3, 17, 40, 1000, 10**6]))
            b = load(idx, s, L, c, g)
            if target == idx:
                continue
            args = (m, H, g[4], g[7], g[9], g[10], g[11], g[12])
            assert seek(target, idx, b, end, s, L, c, *args) == b
            load(target, s2, L2, c, g)
            assert s.tolist() == s2.tolist() and L.tolist() == L2.tolist(), (goal, idx, target)


def test_a_suffix_block_and_the_tables_give_the_unranked_state():
    # the suffix-block walk (layers._walk, by_suffix) places a block's first tiles once and each
    # state's last 8 from tables: the same tiles and Lehmer digits as unranking the state
    from slidelab.tables.index_kernels import load, suffix_block
    from slidelab.tables.layers import _fill_suffix

    rng = random.Random(11)
    for goal in ["3x3", "2x5", "4x3", "7x2", "0 1/2 3/4 5/6 7/8 9/10 11/12 13"]:
        space = space_of(goal)
        g = space.kernel_args()
        m, H, needpar = g[1], g[3], g[12]
        perm, leh, par = suffix_tables(min(SUFFIX, m))
        K = perm.shape[1]
        Q = len(perm) // 2
        s, L, T = np.empty(m, np.int64), np.zeros(m, np.int64), np.empty(K, np.int64)
        s2, L2 = np.empty(m, np.int64), np.zeros(m, np.int64)
        c = np.empty(len(space.label_counts), np.int64)
        for _ in range(200):
            idx = rng.randrange(space.states)
            b, q = divmod(idx, H)
            want = needpar[b] ^ suffix_block(q // Q, s, L, T, m, K)
            rho = 2 * (q % Q) + int(par[2 * (q % Q)] != want)
            _fill_suffix(s, L, T, perm, leh, rho, m - K, m - K, m - 1)
            assert load(idx, s2, L2, c, g) == b
            assert s.tolist() == s2.tolist() and L.tolist() == L2.tolist(), (goal, idx)


def test_unsolvable_board_has_no_index_or_distance():
    space = Space(Board("1 2 3/4 5 6/7 8 0"))
    with pytest.raises(UnsolvableError):
        space.index("1 2 3/4 5 6/8 7 0")
    table = DistanceTable.build("3x3", cache=False)
    with pytest.raises(UnsolvableError):
        table.distance("1 2 3/4 5 6/8 7 0")
    with pytest.raises(SlidelabError):
        table.distance("1 2/3 0")  # another puzzle


def test_progress_reports_every_layer():
    seen = []
    analyze("3x3", progress=seen.append)
    assert [info["depth"] for info in seen] == list(range(1, 32))
    last = seen[-1]
    assert last["states"] == last["total"] == 181_440 and last["fraction"] == 1.0
    assert set(last) >= {"depth", "layer", "states", "total", "fraction", "rate", "seconds"}
    assert last["layer"] == 2


def test_hardest_limit_and_repr():
    st = analyze("3x3", hardest=1)
    assert st.n_hardest == 2 and len(st.hardest) == 1 and st.hardest[0] in HARDEST_3X3
    assert analyze("3x3", hardest=0).hardest == ()
    assert isinstance(st, SpaceStats)
    assert repr(st).startswith(
        "SpaceStats(goal=Board('1 2 3/4 5 6/7 8 0'), states=181440, diameter=31"
    )
    assert st.as_dict()["counts"] == COUNTS_3X3


# ---------------------------------------------------------------- refusing in time


def test_too_big_refused_before_starting():
    with pytest.raises(SpaceTooLargeError, match="10,461,394,944,000 positions.*memory limit"):
        analyze("4x4")
    with pytest.raises(SpaceTooLargeError, match="--max-time"):
        analyze("2x5", max_seconds=1e-6)
    with pytest.raises(SpaceTooLargeError, match="memory limit of 1 bytes"):
        analyze("2x3", max_bytes=1)
    e = estimate("3x4")
    assert e.states == 239_500_800 and 60e6 < e.bytes < 70e6


# ------------------------------------------------------------------- distance tables


def test_table_save_and_load_round_trip(cache):
    built = DistanceTable.build("3x3")
    assert built.encoding == "4-bit" and built.nbytes == 90_720
    [entry] = [t for t in list_tables() if t["spec"]["kind"] == "distance"]
    assert entry["valid"] and entry["spec"]["board"] == "3x3"
    assert entry["spec"]["goal"] == "1 2 3/4 5 6/7 8 0"
    loaded = DistanceTable.cached("3x3")
    assert loaded is not None and np.array_equal(np.asarray(loaded.data), np.asarray(built.data))
    for board in HARDEST_3X3:
        assert loaded.distance(board) == 31
    assert loaded.distance("1 2 3/4 5 6/7 8 0") == 0
    # a corrupt file is not used, and is built again
    path = entry["path"]
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF
    path.write_bytes(bytes(raw))
    assert DistanceTable.cached("3x3") is None
    again = DistanceTable.build("3x3")
    assert again.distance("8 6 7/2 5 4/3 0 1") == 31
    assert [t["valid"] for t in list_tables()] == [True]


def test_byte_encoding_when_four_bits_do_not_fit(cache):
    table = DistanceTable.build("2x5")
    assert table.encoding == "byte" and table.nbytes == 1_814_400
    hardest = analyze("2x5").hardest
    for board in hardest:
        assert table.distance(board) == 55
        s = table.solve(board)
        assert s.length == 55 and s.optimal and apply_moves(board, s.moves) == table.goal


def test_analyze_save_stores_the_table(cache):
    analyze("AAB/BCC/DD_", save=True)
    table = DistanceTable.cached("AAB/BCC/DD_")
    assert table is not None
    assert table.distance("AAB/BCC/DD_") == 0
    assert table.solve("_AB/BCC/DDA").length == table.distance("_AB/BCC/DDA")


@pytest.mark.slow  # 4 s
def test_table_solutions_agree_with_idastar_on_500_random_3x3(cache):
    table = DistanceTable.build("3x3")
    rng = random.Random(2026)
    for _ in range(500):
        board = random_board("3x3", seed=rng)
        by_table = table.solve(board)
        assert by_table.optimal and by_table.method == "table"
        assert apply_moves(board, by_table.moves) == table.goal
        assert by_table.length == table.distance(board) == solve(board, method="idastar").length


def test_solve_uses_the_table(cache, monkeypatch):
    # a small space whose table's kernels are compiled (conftest): auto builds the table at
    # once, then reads it
    s = solve("8 6 7/2 5 4/3 0 1")
    assert s.method == "table" and s.length == 31 and s.optimal
    assert [t["spec"]["kind"] for t in list_tables()] == ["distance"]
    assert solve("1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/7 0 8").method == "table"  # any goal
    assert len(list_tables()) == 2
    assert solve("8 6 7/2 5 4/3 0 1", weight=2).method == "weighted-astar"
    with pytest.raises(UnsolvableError):
        solve("1 2 3/4 5 6/8 7 0", method="table")
    # past the size auto builds, a table is used once it is cached, and built only when asked for
    monkeypatch.setattr("slidelab.tables.distance.SMALL_STATES", 1000)
    other = "4 0 5/1 8 2/6 7 3"
    assert solve("0 1 2/3 4 5/6 7 8", other).method == "bidirectional"
    s = solve("0 1 2/3 4 5/6 7 8", other, method="table")
    assert s.method == "table" and s.length == 17
    assert solve("0 1 2/3 4 5/6 7 8", other).method == "table"


def test_a_cached_table_is_read_without_compiled_code(cache):
    # the 8-puzzle's whole command stays off numba's start-up (about 0.6 s) once its table is there
    DistanceTable.build("3x3")
    # (the command as the program runs it, in a process of its own: it ends in SystemExit)
    code = (
        "import sys\n"
        "from slidelab.cli import main\n"
        "try:\n"
        "    main(['solve', '8 6 7/2 5 4/3 0 1', '--json'])\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "print('numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count('"length": 31') == 1 and out.stdout.split()[-1] == "False"


# ------------------------------------------------------------------------ the command


def test_cli_json(cli, cache):
    r = cli("analyze", "2x3", "--json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert set(data) == {
        "goal",
        "size",
        "states",
        "diameter",
        "mean",
        "counts",
        "hardest",
        "n_hardest",
        "seconds",
        "metric",
    }
    assert (data["states"], data["diameter"], data["n_hardest"]) == (360, 21, 1)
    assert data["metric"] == "stm"
    assert data["goal"] == "1 2/3 4/5 0" and data["size"] == "2x3"
    assert data["hardest"] == ["2 1/4 3/0 5"] and sum(data["counts"]) == 360


def test_cli_human_and_hardest_limit(cli, cache):
    r = cli("analyze", "3x3", "--hardest", "1")
    assert r.exit_code == 0
    assert "181,440 positions, diameter 31" in r.output
    assert "2 hardest positions (31 moves, first 1 listed)" in r.output
    assert (
        sum(
            line.strip() in {"8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"}
            for line in r.output.splitlines()
        )
        == 1
    )


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<?xml")])
def test_cli_plot(cli, tmp_path, cache, suffix, magic):
    pytest.importorskip("matplotlib")
    path = tmp_path / ("dist" + suffix)
    r = cli("analyze", "3x3", "--plot", str(path), "--log")
    assert r.exit_code == 0 and f"plot written to {path}" in r.output
    assert path.read_bytes().startswith(magic)


def test_cli_save(cli, cache):
    r = cli("analyze", "3x3", "--save", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["states"] == 181_440
    assert [t["spec"]["kind"] for t in list_tables()] == ["distance"]
    r = cli("solve", "8 6 7/2 5 4/3 0 1", "--method", "table", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["length"] == 31


@pytest.mark.parametrize(
    "args,message",
    [
        (["3y3"], "error: "),
        (["1x5"], "too narrow"),
        (["4x4"], "10,461,394,944,000 positions"),
        (["2x7", "--max-time", "1", "--max-memory", "100G"], "--max-time"),
        (["3x3", "--plot", "out.gif"], "must end in .png or .svg"),
        (["3x3", "--log"], "--log goes with --plot"),
        (["3x3", "--hardest", "-1"], "--hardest must be at least 0"),
        (["3x3", "--max-memory", "lots"], "memory size"),
    ],
)
def test_cli_bad_input(cli, cache, args, message):
    result = cli("analyze", *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_a_walk_on_threads_stops_at_a_chunk_that_fails():
    """A chunk's failure (an interrupt, a fault) ends the layer's walk at once: the chunks not
    yet started are dropped, not walked before the failure is told."""
    import time

    import numba

    from slidelab.tables import layers

    started = []

    def walk(*args):
        lo = args[-4]
        started.append(lo)
        if lo == 2 * 1000:  # chunk 2 of 256 over 256,000 units
            raise RuntimeError("chunk 2 failed")
        time.sleep(0.05)  # the whole layer would take 6 s on two threads
        return 1

    with layers.kernel_threads(2):
        if numba.get_num_threads() < 2:
            pytest.skip("one thread: the walk is one call")
        with pytest.raises(RuntimeError, match="chunk 2 failed"):
            layers._walk_threads(walk, ("a", "b"), 256_000, 4, 1, 256)
        assert len(started) < 32
        assert layers._walk_threads(lambda *a: a[-3] - a[-4], (), 1000, 4, 1, 7) == 1000
    with layers.kernel_threads(1):  # one thread: one call over every unit
        assert layers._walk_threads(lambda *a: a[-3] - a[-4], (), 1000, 4, 1, 7) == 1000
