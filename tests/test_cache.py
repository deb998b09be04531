"""The on-disk table cache: real files in a temporary cache directory, real processes."""

import hashlib
import json
import logging
import math
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import platformdirs
import pytest

from slidelab import cache
from slidelab.cache import (
    CacheError,
    cache_dir,
    clear_tables,
    list_tables,
    load_or_build,
    locks,
    table_key,
    tablefile,
    verify_file,
)
from slidelab.errors import SlidelabError

ROOT = Path(__file__).resolve().parents[1]
SPEC = {
    "kind": "pdb",
    "board": "4x4",
    "goal": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0",
    "pattern": "1,2,3,4,5,6",
    "version": 1,
}


@pytest.fixture(autouse=True)
def tables(cache):
    """Every test gets its own empty cache directory (conftest's ``cache``; here ``cache`` is
    also the module under test, hence this name)."""
    return cache


class Builder:
    """A table builder that counts its calls."""

    def __init__(self, table):
        self.table = np.asarray(table)
        self.calls = 0

    def __call__(self, progress):
        self.calls += 1
        progress(0.0, "start")
        progress(1.0, "done")
        return self.table.copy()


def table_path(spec=SPEC) -> Path:
    return cache_dir() / (table_key(spec) + ".slt")


def header_of(path):
    data = Path(path).read_bytes()
    length = int.from_bytes(data[15:19], "little")
    return json.loads(data[19 : 19 + length])


def leftovers(directory):
    return sorted(p.name for p in directory.iterdir() if not p.name.endswith(".slt"))


# --------------------------------------------------------------------------- build and load


def test_build_once_then_load_from_file(tables):
    build = Builder(np.arange(1000, dtype=np.uint8).reshape(10, 100))
    first = load_or_build(SPEC, build)
    second = load_or_build(SPEC, build)
    assert build.calls == 1
    np.testing.assert_array_equal(first, build.table)
    np.testing.assert_array_equal(second, build.table)
    assert second.dtype == np.uint8 and second.shape == (10, 100)
    assert [p.name for p in tables.iterdir()] == [table_key(SPEC) + ".slt"]  # no lock or temp left
    assert verify_file(table_path()) == (True, "ok")


def test_memmap_result_is_read_only():
    build = Builder(np.arange(64, dtype=np.int32))
    for _ in range(2):  # just built, then loaded
        table = load_or_build(SPEC, build)
        assert isinstance(table, np.memmap)
        assert not table.flags.writeable
        with pytest.raises(ValueError):
            table[0] = 1
    assert build.calls == 1


def test_mmap_false_gives_a_writable_array_in_memory():
    build = Builder(np.arange(64, dtype=np.int32))
    for _ in range(2):
        table = load_or_build(SPEC, build, mmap=False)
        assert not isinstance(table, np.memmap) and table.flags.writeable
        np.testing.assert_array_equal(table, build.table)
        table[0] = 99  # the caller's copy, not the file's
    assert build.calls == 1
    assert load_or_build(SPEC, build)[0] == 0


def test_progress_callback_receives_the_builders_reports():
    seen = []

    def build(progress):
        for i in range(5):
            progress(i / 4, f"step {i}")
        return np.zeros(10, np.uint8)

    load_or_build(SPEC, build, progress=lambda fraction, message: seen.append((fraction, message)))
    assert seen == [
        (0.0, "step 0"),
        (0.25, "step 1"),
        (0.5, "step 2"),
        (0.75, "step 3"),
        (1.0, "step 4"),
    ]
    seen.clear()
    load_or_build(SPEC, build, progress=lambda f, m: seen.append(f))
    assert seen == []  # from the cache: nothing built, nothing reported


def test_without_progress_the_builder_gets_a_no_op():
    build = Builder([1, 2, 3])
    np.testing.assert_array_equal(load_or_build(SPEC, build), [1, 2, 3])


@pytest.mark.parametrize("mmap", [True, False])
@pytest.mark.parametrize(
    "table",
    [
        np.arange(24, dtype=np.int64).reshape(2, 3, 4),
        np.arange(10, dtype=">i4"),
        np.linspace(0, 1, 7, dtype=np.float32),
        np.array([True, False, True]),
        np.array([b"ab", b"cde"]),
        np.zeros((0, 5), np.uint16),
        np.array(7, np.uint32),
        np.arange(12, dtype=np.uint8).reshape(3, 4).T,  # not C-contiguous
    ],
    ids=["int64-3d", "big-endian", "float32", "bool", "bytes", "empty", "0-d", "transposed"],
)
def test_round_trip_keeps_dtype_shape_and_values(table, mmap):
    build = Builder(table)
    built = load_or_build(SPEC, build, mmap=mmap)
    loaded = load_or_build(SPEC, build, mmap=mmap)
    assert build.calls == 1
    for got in (built, loaded):
        assert got.dtype == table.dtype and got.shape == table.shape
        assert got.flags.c_contiguous
        np.testing.assert_array_equal(got, table)
    assert verify_file(table_path()) == (True, "ok")


def test_file_layout():
    table = np.arange(1000, dtype=np.uint16).reshape(20, 50)
    load_or_build(SPEC, Builder(table))
    data = table_path().read_bytes()
    assert data.startswith(b"SLIDELAB-TABLE\n")
    length = int.from_bytes(data[15:19], "little")
    header = json.loads(data[19 : 19 + length].decode("utf-8"))
    assert header["format"] == cache.FORMAT_VERSION == 1
    assert header["spec"] == SPEC
    assert np.dtype(header["dtype"]) == table.dtype
    assert header["shape"] == [20, 50] and header["nbytes"] == table.nbytes
    assert header["created"].endswith("+00:00")
    offset = header["offset"]
    assert offset % 64 == 0 and offset >= 19 + length
    assert data[19 + length : offset] == bytes(offset - 19 - length)
    assert data[offset:] == table.tobytes()
    assert header["sha256"] == hashlib.sha256(table.tobytes()).hexdigest()


def test_builder_failure_leaves_nothing_behind(tables):
    def failing(progress):
        raise RuntimeError("out of patience")

    with pytest.raises(RuntimeError, match="out of patience"):
        load_or_build(SPEC, failing)
    assert list(tables.iterdir()) == []
    build = Builder([1, 2])
    load_or_build(SPEC, build)
    assert build.calls == 1


def test_object_arrays_are_refused(tables):
    with pytest.raises(CacheError, match="Python objects"):
        load_or_build(SPEC, lambda progress: np.array([{}, []], dtype=object))
    assert list(tables.iterdir()) == []


# --------------------------------------------------------------------------- broken files


def rebuilt_after(damage, caplog, reason):
    """Build, damage the file, load again: the damage is reported and the table rebuilt."""
    table = np.arange(5000, dtype=np.int32)
    build = Builder(table)
    load_or_build(SPEC, build)
    path = table_path()
    damage(path)
    valid, why = verify_file(path)
    assert not valid and reason in why
    with caplog.at_level(logging.WARNING, logger="slidelab.cache"):
        again = load_or_build(SPEC, build)
    assert build.calls == 2
    np.testing.assert_array_equal(again, table)
    assert verify_file(path) == (True, "ok")
    assert reason in caplog.text and "building it again" in caplog.text
    assert leftovers(path.parent) == []
    return why


def test_truncated_file_is_rebuilt(caplog):
    def cut(path):
        os.truncate(path, path.stat().st_size - 3)

    why = rebuilt_after(cut, caplog, "truncated")
    end = header_of(table_path())["offset"] + 20000
    assert why == f"truncated: {end - 3} bytes, expected {end}"


def test_file_cut_inside_the_header_is_rebuilt(caplog):
    rebuilt_after(lambda path: os.truncate(path, 40), caplog, "truncated header")


def test_file_with_extra_bytes_is_rebuilt(caplog):
    def extend(path):
        with open(path, "ab") as f:
            f.write(b"\0" * 64)

    rebuilt_after(extend, caplog, "64 unexpected bytes after the data")


def test_corrupted_data_is_rebuilt(caplog):
    def flip(path):
        offset = header_of(path)["offset"]
        with open(path, "r+b") as f:
            f.seek(offset + 1234)
            byte = f.read(1)[0]
            f.seek(offset + 1234)
            f.write(bytes([byte ^ 0x40]))

    rebuilt_after(flip, caplog, "checksum mismatch")


def _xattrs_here(directory: Path) -> bool:
    probe = directory / "probe"
    directory.mkdir(parents=True, exist_ok=True)
    probe.write_bytes(b"")
    try:
        os.setxattr(probe, "user.slidelab.probe", b"1")
    except (OSError, AttributeError):
        return False
    finally:
        probe.unlink()
    return True


def test_a_file_found_right_once_is_not_hashed_again_until_it_changes(tables, monkeypatch):
    if not _xattrs_here(tables):
        pytest.skip("no extended attributes on this file system: every load hashes")
    hashed = []
    real = tablefile._sha256
    monkeypatch.setattr(tablefile, "_sha256", lambda flat: hashed.append(1) or real(flat))
    monkeypatch.setattr(tablefile, "ALWAYS_HASHED", 0)  # as a table past it is
    build = Builder(np.arange(10_000, dtype=np.uint16))
    load_or_build(SPEC, build)  # built: hashed once, as it is written
    assert len(hashed) == 1
    load_or_build(SPEC, build)
    load_or_build(SPEC, build)
    assert len(hashed) == 1 and build.calls == 1  # loaded twice, not hashed
    assert verify_file(table_path()) == (True, "ok") and len(hashed) == 2  # verify always hashes
    path = table_path()
    offset = header_of(path)["offset"]
    with open(path, "r+b") as f:  # corrupt in place: same size, new modification time
        f.seek(offset + 100)
        f.write(b"\xff")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    again = load_or_build(SPEC, build)
    assert build.calls == 2 and again[50] == 50  # the change was hashed, found, rebuilt


def test_a_small_table_changed_in_place_with_its_time_kept_is_found(tables):
    """A mark records a file's size and modification time: a table whose bytes changed with
    both kept (a copy with ``cp -p``, a restore) was trusted (IDA* then ran 11 minutes on the
    8-puzzle).  Tables of at most ALWAYS_HASHED bytes are hashed at every load."""
    build = Builder(np.arange(10_000, dtype=np.uint16))
    load_or_build(SPEC, build)
    load_or_build(SPEC, build)  # loaded once: marked checked where the file system can
    path = table_path()
    stat = path.stat()
    with open(path, "r+b") as f:  # corrupt in place, then put the times back
        f.seek(header_of(path)["offset"] + 100)
        f.write(b"\xff")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    again = load_or_build(SPEC, build)
    assert build.calls == 2 and again[50] == 50  # hashed, found corrupt, rebuilt


def test_garbage_file_is_rebuilt(caplog):
    rng = np.random.default_rng(1)
    rebuilt_after(lambda path: path.write_bytes(rng.bytes(3000)), caplog, "bad magic line")


def test_empty_file_is_rebuilt(caplog):
    rebuilt_after(lambda path: path.write_bytes(b""), caplog, "bad magic line")


def test_header_that_is_not_json_is_rebuilt(caplog):
    def scribble(path):
        data = bytearray(path.read_bytes())
        data[19:25] = b"\xff\xfe{{{{"
        path.write_bytes(bytes(data))

    rebuilt_after(scribble, caplog, "header is not UTF-8 JSON")


def test_other_format_version_is_rebuilt(caplog, monkeypatch):
    def from_the_future(path):
        with monkeypatch.context() as m:
            m.setattr(tablefile, "FORMAT_VERSION", 2)
            load_or_build(SPEC, lambda progress: np.arange(5000, dtype=np.int32))  # writes v2
        assert header_of(path)["format"] == 2

    rebuilt_after(from_the_future, caplog, "format version 2, this slidelab reads 1")


def test_file_with_another_spec_under_the_name_is_rebuilt(caplog):
    other = dict(SPEC, pattern="7,8,9")
    load_or_build(other, Builder(np.full(7, 9, np.uint8)))
    table_path(other).replace(table_path(SPEC))  # the other table under SPEC's name
    valid, why = verify_file(table_path(SPEC))
    assert not valid and why == f"its name does not match its spec, whose key is {table_key(other)}"
    build = Builder(np.arange(3, dtype=np.uint8))
    with caplog.at_level(logging.WARNING, logger="slidelab.cache"):
        table = load_or_build(SPEC, build)
    assert build.calls == 1 and table.tolist() == [0, 1, 2]
    assert "its spec differs from the one asked for" in caplog.text
    assert header_of(table_path(SPEC))["spec"] == SPEC
    assert verify_file(table_path(SPEC)) == (True, "ok")


def test_verify_file_on_a_missing_file(tables):
    assert verify_file(tables / "nothing.slt") == (False, "no such file")


# --------------------------------------------------------------------------- concurrency

CHILD = textwrap.dedent("""
    import hashlib, json, os, sys, time
    import numpy as np
    from slidelab.cache import load_or_build

    me, barrier = sys.argv[1], sys.argv[2]
    open(os.path.join(barrier, "ready-" + me), "w").close()
    deadline = time.time() + 30
    while len(os.listdir(barrier)) < 2 and time.time() < deadline:   # start together
        time.sleep(0.005)

    def build(progress):
        with open(os.path.join(barrier, "..", "builds.log"), "a") as log:
            log.write(me + "\\n")
        time.sleep(1.0)
        return np.arange(1_000_000, dtype=np.uint32) * 7

    table = load_or_build(json.loads(sys.argv[3]), build)
    print(json.dumps({"sha": hashlib.sha256(table.tobytes()).hexdigest(),
                      "memmap": isinstance(table, np.memmap)}))
""")


def test_two_processes_building_one_table_build_it_once(tables, tmp_path):
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(
            [str(ROOT)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
        ),
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(i), str(barrier), json.dumps(SPEC)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    results = []
    for child in children:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        results.append(json.loads(out))
    expected = hashlib.sha256((np.arange(1_000_000, dtype=np.uint32) * 7).tobytes()).hexdigest()
    assert [r["sha"] for r in results] == [expected, expected]
    assert all(r["memmap"] for r in results)
    assert len((tmp_path / "builds.log").read_text().split()) == 1  # built once
    assert [p.name for p in tables.iterdir()] == [table_key(SPEC) + ".slt"]
    assert verify_file(table_path()) == (True, "ok")


def test_two_threads_building_one_table_build_it_once():
    calls, started = [], threading.Barrier(2)

    def build(progress):
        calls.append(1)
        threading.Event().wait(0.3)
        return np.arange(100, dtype=np.int16)

    results = [None, None]

    def run(i):
        started.wait()
        results[i] = load_or_build(SPEC, build)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    np.testing.assert_array_equal(results[0], results[1])


# --------------------------------------------------------------------------- listing and clearing


def test_list_tables(tables):
    load_or_build(SPEC, Builder(np.zeros(100, np.uint8)))
    other = {"kind": "distances", "board": "3x3", "version": 1}
    load_or_build(other, Builder(np.zeros(9, np.uint8)))
    (tables / "pdb-4x4-0123456789abcdef.slt").write_bytes(b"junk")
    (tables / "notes.txt").write_text("not a table")
    listed = {t["key"]: t for t in list_tables()}
    assert set(listed) == {table_key(SPEC), table_key(other), "pdb-4x4-0123456789abcdef"}
    good = listed[table_key(SPEC)]
    assert good == {
        "path": table_path(),
        "key": table_key(SPEC),
        "spec": SPEC,
        "bytes": table_path().stat().st_size,
        "valid": True,
        "reason": "ok",
    }
    assert listed[table_key(other)]["spec"] == other
    bad = listed["pdb-4x4-0123456789abcdef"]
    assert (bad["spec"], bad["bytes"], bad["valid"]) == (None, 4, False)
    assert bad["reason"] == "not a slidelab table (bad magic line)"


def test_list_tables_reports_corrupt_tables_with_their_spec():
    load_or_build(SPEC, Builder(np.arange(100, dtype=np.uint8)))
    with open(table_path(), "r+b") as f:
        f.seek(-1, os.SEEK_END)
        f.write(b"\xff")
    [entry] = list_tables()
    assert entry["spec"] == SPEC and not entry["valid"]
    assert entry["reason"] == "checksum mismatch: the data is corrupt"


def test_clear_tables_by_kind_and_all(tables):
    for pattern in ("1,2,3", "4,5,6"):
        load_or_build(dict(SPEC, pattern=pattern), Builder(np.zeros(10, np.uint8)))
    dist = {"kind": "distances", "board": "4x4"}
    load_or_build(dist, Builder(np.zeros(10, np.uint8)))
    # a kind that starts like another one must not be taken for it
    additive = {"kind": "pdb-additive", "board": "4x4"}
    load_or_build(additive, Builder(np.zeros(10, np.uint8)))
    # debris: an unreadable table, a stale lock and a stale temp file of kind pdb
    (tables / "pdb-4x4-0123456789abcdef.slt").write_bytes(b"junk")
    (tables / "pdb-5x5-fedcba9876543210.lock").touch()
    (tables / ".pdb-4x4-0123456789abcdef.x1y2z3.tmp").write_bytes(b"partial")
    (tables / "notes.txt").write_text("not ours")

    assert clear_tables("pdb") == 3
    remaining = sorted(p.name for p in tables.iterdir())
    assert remaining == sorted(
        [table_key(dist) + ".slt", table_key(additive) + ".slt", "notes.txt"]
    )
    assert clear_tables("nothing-of-this-kind") == 0
    assert clear_tables() == 2
    assert [p.name for p in tables.iterdir()] == ["notes.txt"]
    assert list_tables() == []


@pytest.mark.skipif(not locks.LOCKING, reason="no file locking on this platform")
def test_clear_tables_spares_the_lock_and_temp_file_of_a_build_in_progress(tables):
    load_or_build(SPEC, Builder(np.zeros(10, np.uint8)))
    key = table_key(SPEC)
    lock = tables / (key + ".lock")
    temp = tables / f".{key}.abc123.tmp"
    temp.write_bytes(b"being written")
    fd = locks.acquire(lock)  # another builder at work
    try:
        assert clear_tables() == 1
        assert sorted(p.name for p in tables.iterdir()) == sorted([lock.name, temp.name])
    finally:
        locks.release(fd, lock)
    assert clear_tables() == 0
    assert list(tables.iterdir()) == []


# --------------------------------------------------------------------------- keys and directory


def test_table_key_is_stable_and_readable():
    key = table_key(SPEC)
    digest = hashlib.sha256(json.dumps(SPEC, sort_keys=True).encode()).hexdigest()[:16]
    assert key == f"pdb-4x4-{digest}"
    assert key == "pdb-4x4-" + "d1b89462077b4bcb"  # the same on every machine, forever
    assert table_key(dict(reversed(list(SPEC.items())))) == key
    assert table_key(dict(SPEC, version=2)) != key
    assert table_key({"kind": "pdb"}).startswith("pdb-") and len(table_key({"kind": "pdb"})) == 20
    assert table_key({"kind": "../../etc/passwd", "board": "a b"}).startswith("etc_passwd-a_b-")


@pytest.mark.parametrize(
    "spec, message",
    [
        (["pdb"], "must be a dict"),
        ({"board": "4x4"}, "'kind'"),
        ({"kind": ""}, "'kind'"),
        ({"kind": "pdb", "goal": object()}, "plain JSON data"),
        ({"kind": "pdb", "weight": math.nan}, "plain JSON data"),
    ],
)
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(CacheError, match=message):
        table_key(spec)
    with pytest.raises(CacheError, match=message):
        load_or_build(spec, Builder([1]))


def test_cache_dir_comes_from_the_environment(monkeypatch, tmp_path):
    tables = tmp_path / "not-made-yet"  # (the cache fixture's directory is made already)
    monkeypatch.setenv("SLIDELAB_CACHE", str(tables))
    assert not tables.exists()
    assert cache_dir() == tables and tables.is_dir()


def test_cache_dir_defaults_to_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("SLIDELAB_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == Path(platformdirs.user_cache_dir("slidelab"))
    assert cache_dir().is_dir()


def test_uncreatable_cache_dir_is_a_slidelab_error(monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SLIDELAB_CACHE", str(blocker / "tables"))
    build = Builder([1])
    with pytest.raises(SlidelabError) as info:
        load_or_build(SPEC, build)
    assert isinstance(info.value, CacheError) and isinstance(info.value, ValueError)
    assert "cannot create the table cache directory" in str(info.value)
    assert "\n" not in str(info.value)
    assert build.calls == 0


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="permissions do not bind root"
)
def test_read_only_cache_dir_is_a_slidelab_error(tables):
    load_or_build(SPEC, Builder([1, 2]))  # a table made while writable
    tables.chmod(0o555)
    try:
        assert load_or_build(SPEC, Builder([9])).tolist() == [1, 2]  # still readable
        build = Builder([3])
        with pytest.raises(CacheError, match="cannot write to the table cache directory"):
            load_or_build(dict(SPEC, version=2), build)
        assert build.calls == 0
    finally:
        tables.chmod(0o755)


# -- a size limit: the least recently used tables go first ----------------------------------------


def _lru_spec(n: int) -> dict:
    return {"kind": "lru", "n": n}


def _table(n: int, size: int = 4096):
    return load_or_build(_lru_spec(n), lambda p: np.full(size, n, np.uint8))


def _kept() -> list:
    """The tables left (by file name: reading them may count as a use, as the file system
    updates access times)."""
    return [n for n in range(10) if cache.table_path(_lru_spec(n)).exists()]


def test_trim_deletes_the_least_recently_used_tables_first(tables):
    for n in range(4):  # written in this order (a second apart)...
        _table(n)
        os.utime(cache.table_path(_lru_spec(n)), (1_000_000 + n, 1_000_000 + n))
    _table(0)  # ...then table 0 used again: the most recently used
    each = cache.table_path(_lru_spec(0)).stat().st_size
    assert cache.trim_tables(4 * each) == []  # within the limit: nothing to do
    deleted = cache.trim_tables(2 * each + 10)
    assert [p.name for p in deleted] == [table_key(_lru_spec(n)) + ".slt" for n in (1, 2)]
    assert _kept() == [0, 3]
    os.utime(cache.table_path(_lru_spec(0)), (2_000_000, 1_000_000))
    _table(3)  # used after table 0
    assert cache.trim_tables(each) == [tables / (table_key(_lru_spec(0)) + ".slt")]
    assert _kept() == [3]
    assert cache.trim_tables(1) and _kept() == []  # under one table: none kept


def test_a_load_marks_the_use_and_the_file_stays_checked(tables):
    _table(7)
    path = cache.table_path(_lru_spec(7))
    old = path.stat().st_mtime_ns - 10**9
    os.utime(path, ns=(old, path.stat().st_mtime_ns))  # an access time a second before
    _table(7)
    stat = path.stat()
    # the modification time, part of a checked file's mark, is kept
    assert stat.st_atime_ns > old and stat.st_mtime_ns == old + 10**9
    assert verify_file(path) == (True, "ok")


def test_trim_leaves_a_table_being_built(tables):
    for n in range(3):
        _table(n)
    lock = tables / (table_key(_lru_spec(0)) + ".lock")
    fd = locks.acquire(lock)  # table 0, the oldest, is being built again elsewhere
    try:
        deleted = cache.trim_tables(1)
    finally:
        locks.release(fd, lock)
    assert len(deleted) == 2 and _kept() == [0]


def test_trim_neither_deletes_nor_counts_the_tables_kept(tables):
    for n in range(4):
        _table(n)
        os.utime(cache.table_path(_lru_spec(n)), (1_000_000 + n, 1_000_000 + n))
    each = cache.table_path(_lru_spec(0)).stat().st_size
    keep = {cache.table_path(_lru_spec(n)).name for n in (0, 1)}  # the two oldest
    assert keep < cache.table_names() and len(cache.table_names()) == 4
    assert cache.trim_tables(2 * each, keep=keep) == []  # tables 2 and 3 fit: nothing to do
    deleted = cache.trim_tables(each + 10, keep=keep)
    assert [p.name for p in deleted] == [cache.table_path(_lru_spec(2)).name]
    assert _kept() == [0, 1, 3]


def test_a_server_deletes_only_tables_written_while_it_runs(tables):
    """A server's pool trims its cache after each job; the tables in the cache before it was
    made (a user's, built by ``slidelab tables build``) are never deleted, nor counted."""
    from slidelab.workers.pool import WorkerPool

    for n in (0, 1):  # the user's, used long ago
        _table(n)
        os.utime(cache.table_path(_lru_spec(n)), (1_000_000 + n, 1_000_000 + n))
    each = cache.table_path(_lru_spec(0)).stat().st_size
    pool = WorkerPool(cache_dir=str(tables), cache_limit=each + 10)  # room for one table
    for n in (2, 3, 4):  # the server's jobs build three
        _table(n)
        os.utime(cache.table_path(_lru_spec(n)), (2_000_000 + n, 2_000_000 + n))
    assert [p.name for p in pool.trim()] == [cache.table_path(_lru_spec(n)).name for n in (2, 3)]
    assert _kept() == [0, 1, 4]


def test_trim_in_another_directory_and_a_missing_one(tables, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    _table(1)
    (other / "junk.slt").write_bytes(b"x" * 100)  # not a table: counted and deleted all the same
    assert cache.trim_tables(10, other) == [other / "junk.slt"]
    assert _kept() == [1]
    assert cache.trim_tables(10, tmp_path / "nowhere") == []
