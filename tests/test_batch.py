"""Batch solving (issue 6): input layouts, results file and resume, local workers, a real Dask cluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab import Board, random_boards, solve
from slidelab.batch import ResultsFile, read_instances, solve_batch, summarize
from slidelab.batch.results import agrees
from slidelab.errors import ClusterError, SlidelabError

KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
ROOT = Path(__file__).resolve().parent.parent


def batch_cli(*args, input_text=None, timeout=180, **kwargs):
    """Run ``slidelab batch`` as a separate program (the real entry point)."""
    return subprocess.run(
        [sys.executable, "-m", "slidelab", "batch", *map(str, args)],
        input=input_text,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        **kwargs,
    )


def records_of(path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def comparable(record: dict) -> dict:
    """A record without its times (which differ from run to run)."""
    out = dict(record)
    if "stats" in out:
        out["stats"] = {k: v for k, v in out["stats"].items() if k != "seconds"}
        phases = out["stats"].get("phases", [])
        out["stats"]["phases"] = [{k: v for k, v in p.items() if k != "seconds"} for p in phases]
    return out


def by_line(records) -> dict:
    return {r["line"]: comparable(r) for r in records}


# ------------------------------------------------------------------------- reading instances


def test_layouts():
    lines = [
        "# a comment line",
        "",
        "1 2 3/4 5 6/0 7 8",  # a board
        "8 6 7/2 5 4/3 0 1 ; 1 2 3/4 5 6/7 8 0 ; hardest",  # board ; goal ; id
        "ABA_/CDCD/ABAB/CDCD ;; line-puzzle",  # board ;; id (the batch's goal)
        "1 2 3/4 5 6/7 0 8 ; id=kv ; known=1   # trailing comment",
        f"{KORF_1} 57",  # Korf: tiles, known length
        f"7 {KORF_1} 57",  # number, tiles, known
        f"8 {KORF_1}",  # number, tiles
        '{"start": [[1,2,3],[4,5,6],[7,0,8]], "id": "#j", "known": 1}',
        "1 2 3 x 4 6 7 5 8",  # contest style, one line
    ]
    got = read_instances(lines)
    assert [i.line for i in got] == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert [i.id for i in got] == ["1", "hardest", "line-puzzle", "kv", "5", "7", "8", "#j", "9"]
    assert all(i.error is None for i in got)
    assert got[1].goal == "1 2 3/4 5 6/7 8 0" and got[2].goal is None
    assert got[3].known == 1 and got[3].text == "1 2 3/4 5 6/7 0 8 ; id=kv ; known=1"
    assert [i.known for i in got[4:7]] == [57, 57, None]
    assert {i.start for i in got[4:7]} == {KORF_1}
    assert got[7].start == "[[1, 2, 3], [4, 5, 6], [7, 0, 8]]" and got[7].known == 1


def test_layout_with_size():
    got = read_instances(["1 2 3 4 5 6 7 8 9 10 11 0 20"], size="4x3")[0]
    assert got.start == "1 2 3 4 5 6 7 8 9 10 11 0" and got.known == 20


@pytest.mark.parametrize(
    "line, message",
    [
        ("1 2 3/4 5 6/0 7 8 ; ; a ; b", "too many ';' fields"),
        ("1 2 3/4 5 6/0 7 8 ; id=a ; id=b", "id is given twice"),
        ("1 2 3/4 5 6/0 7 8 ; known=many", "not a whole number"),
        ("; 1 2 3/4 5 6/7 8 0", "no board"),
        ('{"start": "1 2 3/4 5 6/0 7 8"', "invalid JSON"),
        ('["1 2 3/4 5 6/0 7 8"]', None),  # a JSON board, read by the board parser
        ('{"goal": "1 2 3/4 5 6/7 8 0"}', "no 'start'"),
        ('{"start": {"a": 1}}', "'start' must be a board"),
        ('{"start": "1 2 3/4 5 6/0 7 8", "goal": 3}', "'goal' must be a board"),
        ('{"start": "1 2 3/4 5 6/0 7 8", "known": 1.5}', "not a whole number"),
        (f"{KORF_1.replace('14', '16')} 57", "neither the 16 tiles"),
    ],
)
def test_bad_lines_become_errors(line, message):
    got = read_instances([line])[0]
    if message is None:
        assert got.error is None
    else:
        assert message in got.error and "\n" not in got.error


@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["slash", "flat", "compact", "json"]),
    st.text("abcxyz-_0123456789", min_size=1, max_size=8),
)
def test_any_board_format_and_id_read_back(seed, style, name):
    board = random_boards(1, "3x3", seed=seed)[0]
    text = board.format(style)
    got = read_instances([f"{text} ; ; {name}"])[0]
    assert got.error is None and got.id == name
    assert Board(got.start, "3x3") == board


# ------------------------------------------------------------------------- results file


def test_results_file_drops_a_cut_off_last_line_and_refuses_another_input(tmp_path):
    batch = read_instances(["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/7 0 8"])
    out = tmp_path / "out.jsonl"
    whole = json.dumps(
        {"id": "1", "line": 1, "input": "1 2 3/4 5 6/0 7 8", "length": 2, "error": None}
    )
    out.write_text(whole + "\n" + '{"id": "2", "line": 2, "input": "1 2 3/4 5')  # killed mid-write
    results = ResultsFile(out, batch)
    assert sorted(results.done) == [1]
    assert out.read_text() == whole + "\n"
    other = read_instances(["8 6 7/2 5 4/3 0 1"])
    with pytest.raises(SlidelabError, match="another input"):
        ResultsFile(out, other)
    out.write_text("not json\n")
    with pytest.raises(SlidelabError, match="not a slidelab batch result"):
        ResultsFile(out, batch)
    for text in ('{"name": "my notes"}', whole + "\n" + "notes, no newline"):
        out.write_text(text)  # a file that is not a batch's output is never cut
        with pytest.raises(SlidelabError, match="not a slidelab batch result"):
            ResultsFile(out, batch)
        assert out.read_text() == text


def test_redo_failed_rewrites_without_the_errors(tmp_path):
    batch = read_instances(["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/8 7 0"])
    out = tmp_path / "out.jsonl"
    with ResultsFile(out, batch) as results:
        for record in solve_batch(batch, workers=1):
            results.append(record)
    assert sorted(ResultsFile(out, batch).done) == [1, 2]
    assert sorted(ResultsFile(out, batch, redo_failed=True).done) == [1]
    assert [r["line"] for r in records_of(out)] == [1]


def test_a_cluster_failure_is_solved_again_on_resume(tmp_path):
    """Instances that failed because the Dask cluster went away (``error_kind`` "cluster") were
    written as failed and stayed so on resume unless ``--redo-failed``: not the instance's
    fault, they are solved again; an instance's own failure stays."""
    batch = read_instances(["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/8 7 0", "1 2 3/4 5 6/7 0 8"])
    out = tmp_path / "out.jsonl"
    with ResultsFile(out, batch) as results:
        for record in solve_batch(batch, workers=1):
            if record["line"] == 3:  # as the batch writes a task lost with the scheduler
                record = {
                    **record,
                    "error": "the Dask scheduler went away",
                    "error_kind": "cluster",
                }
            results.append(record)
    again = ResultsFile(out, batch)
    assert sorted(again.done) == [1, 2]  # 2 is unsolvable: its own failure, kept
    assert [i.line for i in again.todo(batch)] == [3]
    assert sorted(r["line"] for r in records_of(out)) == [1, 2]


def test_summary_counts_and_mismatches():
    records = [
        {
            "line": 1,
            "id": "1",
            "length": 10,
            "optimal": True,
            "known": 10,
            "agrees": True,
            "stats": {"expanded": 5, "generated": 9, "seconds": 0.5},
            "error": None,
        },
        {
            "line": 2,
            "id": "2",
            "length": 12,
            "optimal": True,
            "known": 10,
            "agrees": False,
            "stats": {"expanded": 1, "generated": 1, "seconds": 0.25},
            "error": None,
        },
        {"line": 3, "id": "3", "error": "x", "error_kind": "limit"},
        {"line": 4, "id": "4", "error": "y", "error_kind": "input"},
    ]
    s = summarize(records)
    assert (s.instances, s.solved, s.total_length, s.mean_length) == (4, 2, 22, 11)
    assert (s.expanded, s.generated, s.seconds, s.checked) == (6, 10, 0.75, 2)
    assert s.failed == {"limit": 1, "input": 1}
    assert [r["line"] for r in s.mismatches] == [2]
    table = s.table()
    assert "1 disagree" in table and "line 2 (id 2): length 12, known 10" in table
    assert agrees(12, False, 10) and not agrees(9, False, 10) and not agrees(12, True, 10)


# ------------------------------------------------------------------------- the command


def test_batch_gives_one_result_per_line(tmp_path):
    """Good lines, malformed lines, an unsolvable board and a time-limited hard instance."""
    source = tmp_path / "in.txt"
    source.write_text(
        "\n".join(
            [
                "# good, malformed, unsolvable, too hard for the limit",
                "1 2 3/4 5 6/0 7 8 ; ; easy",
                "8 6 7/2 5 4/3 0 1 ; known=31",
                "1 2 3/4 5",
                "1 2 3/4 5 6/7 8 9",
                "1 2 3/4 5 6/8 7 0",
                f"{KORF_1} ; {KORF_GOAL} ; korf-1",
                "1 2 3/4 5 6/7 0 8 ; known=3",
            ]
        )
        + "\n"
    )
    out = tmp_path / "out.jsonl"
    done = batch_cli(
        source,
        "-o",
        out,
        "--method",
        "idastar",
        "--heuristic",
        "manhattan",
        "--time-limit",
        "2",  # the 3x3's 31 moves well within it on a loaded machine, Korf's #1 not
        "--workers",
        "2",
    )
    assert done.returncode == 1, done.stderr  # some failed
    assert "Traceback" not in done.stderr
    got = {r["line"]: r for r in records_of(out)}
    assert sorted(got) == [2, 3, 4, 5, 6, 7, 8]
    for r in got.values():
        assert {"id", "line", "input", "error"} <= set(r)
    easy, hardest = got[2], got[3]
    assert easy["id"] == "easy" and easy["error"] is None
    assert (easy["solution"], easy["length"], easy["optimal"], easy["method"]) == (
        "L2",
        2,
        True,
        "idastar",
    )
    assert set(solve("1 2 3/4 5 6/0 7 8").as_dict()) <= set(easy)  # the solve --json fields
    assert hardest["length"] == 31 and hardest["known"] == 31 and hardest["agrees"] is True
    assert got[4]["error_kind"] == "input" and "row 2 has 2 cells" in got[4]["error"]
    assert got[5]["error_kind"] == "input"
    assert got[6]["error_kind"] == "unsolvable" and got[6]["error"].startswith("unsolvable")
    assert got[7]["error_kind"] == "limit" and got[7]["id"] == "korf-1"
    assert got[8]["length"] == 1 and got[8]["agrees"] is False
    summary = done.stdout
    assert "solved          3" in summary and "failed          4" in summary
    assert "2 bad input" in summary and "1 time or memory limit" in summary
    assert "line 8 (id 7): length 1, known 3" in summary


def test_standard_input_and_output():
    done = batch_cli("-", "--workers", "1", input_text="1 2 3/4 5 6/0 7 8\n1 2 3/4 5 6/7 0 8\n")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(r["length"] for r in lines) == [1, 2]
    assert "solved" in done.stderr  # the summary goes to stderr when results go to stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.txt"], "cannot read missing.txt"),
        (["-", "--redo-failed"], "--redo-failed goes with -o"),
        (["-", "--method", "magic"], "unknown method 'magic'"),
        (["-", "--time-limit", "-1"], "--time-limit must be positive"),
        (["-", "--weight", "0.5"], "--weight must be at least 1"),
        (["-", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers is for local"),
    ],
)
def test_bad_usage_is_one_line(args, message):
    done = batch_cli(*args, input_text="1 2 3/4 5 6/0 7 8\n")
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_output_of_another_input_is_refused(tmp_path):
    out = tmp_path / "out.jsonl"
    assert batch_cli("-", "-o", out, input_text="1 2 3/4 5 6/0 7 8\n").returncode == 0
    before = out.read_text()
    done = batch_cli("-", "-o", out, input_text="8 6 7/2 5 4/3 0 1\n")
    assert done.returncode == 2 and "another input" in done.stderr
    assert out.read_text() == before  # nothing lost


def _slow_batch(tmp_path, count=50):
    """Instances that take a noticeable time each (breadth-first search of the 8-puzzle)."""
    source = tmp_path / "in.txt"
    source.write_text("\n".join(b.format() for b in random_boards(count, "3x3", seed=6)) + "\n")
    return source


def _start_and_stop(source, out, sig, at_least=8):
    """Start a batch, wait until it has written ``at_least`` results, then send ``sig``."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "slidelab",
            "batch",
            str(source),
            "-o",
            str(out),
            "--method",
            "bfs",
            "--workers",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if out.exists() and out.read_text().count("\n") >= at_least:
            break
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    if sig == signal.SIGKILL:
        os.killpg(proc.pid, sig)  # the batch and its workers, with no time to tidy up
    else:
        proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    return proc.returncode, stdout, stderr


@pytest.mark.parametrize(
    "sig",
    [
        pytest.param(signal.SIGKILL, marks=pytest.mark.slow),
        pytest.param(signal.SIGINT, marks=pytest.mark.slow),
    ],  # 10 s each
)
def test_resume_after_stopping_loses_and_duplicates_nothing(tmp_path, sig):
    source = _slow_batch(tmp_path)
    out = tmp_path / "out.jsonl"
    code, stdout, stderr = _start_and_stop(source, out, sig)
    written = out.read_text().count("\n")
    assert 8 <= written < 50, "the batch was not stopped part-way"
    if sig == signal.SIGINT:  # Ctrl-C: a clean stop
        assert code == 130 and "Traceback" not in stderr
        assert "run the same command again to go on" in stdout
    again = batch_cli(source, "-o", out, "--method", "bfs", "--workers", "2")
    assert again.returncode == 0, again.stderr
    records = records_of(out)
    lines = [r["line"] for r in records]
    assert sorted(lines) == list(range(1, 51)), "an instance lost or duplicated"
    reference = solve_batch(
        read_instances(source.read_text().splitlines()), method="bfs", workers=1
    )
    assert by_line(records) == by_line(reference)


def test_local_workers_give_the_results_of_one_worker():
    lines = [b.format() for b in random_boards(12, "3x3", seed=11)]
    lines += [
        f"{KORF_1} ; {KORF_GOAL}",
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
        "ABA_/CDCD/ABAB/CDCD ; ABA_/CABD/ACDB/CDCD",
        "1 2 3/4 5",
    ]
    batch = read_instances(lines)
    one = list(solve_batch(batch, workers=1))
    two = list(solve_batch(batch, workers=2))
    assert len(one) == len(batch) and by_line(one) == by_line(two)
    assert sum(r["error"] is None for r in one) == len(batch) - 1


def test_workers_that_cannot_start_are_internal_errors_with_the_reason(tmp_path):
    """The batch how-to's example saved as a script without its ``if __name__ == "__main__":``
    guard: each worker process imports the script, which starts a batch of its own, and Python
    refuses it.  Those instances were "time or memory limit" ("the worker stopped (out of
    memory?)"); a worker that exits on its own is an internal error with its exit code."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from slidelab.batch import read_instances, solve_batch, summarize\n"
        "lines = ['1 2 3/4 5 6/0 7 8', '1 2 3/4 5 6/7 0 8']\n"
        "records = list(solve_batch(read_instances(lines), workers=2))\n"
        "print(summarize(records).table())\n"
        "print([r['error_kind'] for r in records])\n"
        "print(records[0]['error'])\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    *_, kinds, error = done.stdout.strip().splitlines()
    assert kinds == "['internal', 'internal']", done.stdout
    assert error.startswith("internal error: the worker exited with code 1"), error
    assert "2 internal error" in done.stdout and "limit" not in done.stdout.lower()


def test_options_that_cannot_make_tables_fail_each_instance_once():
    batch = read_instances(["1 2 3/4 5 6/0 7 8", "8 6 7/2 5 4/3 0 1"])
    records = list(
        solve_batch(batch, method="idastar", heuristic="pdb", partition="9-9", workers=1)
    )
    assert [r["error_kind"] for r in records] == ["input", "input"]
    assert all("no partition 9-9" in r["error"] for r in records)


# ------------------------------------------------------------------------- a real Dask cluster


@pytest.mark.slow  # 6 s: a real Dask cluster
def test_dask_cluster_gives_the_results_of_local_processes(tmp_path, dask_cluster):
    lines = [b.format() for b in random_boards(10, "3x3", seed=12)]
    lines += [f"{KORF_1} 57", "3 1 2/4 5 6/7 8 0", "1 2 3/4 5 6/8 7 0"]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(lines) + "\n")
    batch = read_instances(lines)
    local = list(solve_batch(batch, blank_first=True, workers=2))
    remote = list(solve_batch(batch, blank_first=True, scheduler=dask_cluster.scheduler_address))
    out = tmp_path / "out.jsonl"
    done = batch_cli(
        source, "--blank-first", "-o", out, "--scheduler", dask_cluster.scheduler_address
    )
    assert by_line(remote) == by_line(local)
    assert done.returncode == 1, done.stderr  # one unsolvable line
    assert by_line(records_of(out)) == by_line(local)
    assert "the Dask cluster at tcp://" in done.stdout
    assert sum(r["error"] is None for r in local) == len(lines) - 1


def test_unreachable_scheduler_is_one_line(monkeypatch):
    pytest.importorskip("distributed")
    from slidelab import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        list(solve_batch(read_instances(["1 2 3/4 5 6/0 7 8"]), scheduler="tcp://127.0.0.1:9"))


def test_a_scheduler_with_no_workers_is_one_line_within_the_time_limit(tmp_path):
    """A batch sent to a scheduler that has no workers waited for one forever, even with
    ``--time-limit 5`` (solve and analyze said "has no workers"): it now waits at most the time
    limit (at most CONNECT_TIMEOUT) for a first worker, then says so in one line."""
    from dask_cluster import local_cluster

    with local_cluster(n_workers=0) as empty:
        address = empty.scheduler_address
        with pytest.raises(ClusterError, match=f"the Dask cluster at {address} has no workers"):
            list(
                solve_batch(read_instances(["1 2 3/4 5 6/0 7 8"]), scheduler=address, time_limit=2)
            )
        source = tmp_path / "in.txt"
        source.write_text("1 2 3/4 5 6/0 7 8\n")
        done = batch_cli(source, "--scheduler", address, "--time-limit", "2")
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: the Dask cluster at") and "has no workers" in line, line


def test_a_task_lost_on_the_dask_cluster_is_its_own_kind_of_failure():
    """A task whose worker died (Dask gives up on it: ``KilledWorker``) fails its instance with
    ``error_kind`` "cluster" (it was "internal"), and the batch goes on."""
    from concurrent.futures import Future

    from slidelab.batch import run
    from slidelab.search.options import check_options

    class KilledWorker(Exception):  # as distributed.scheduler's
        pass

    class Lost:
        """A client whose every task is lost with its worker."""

        def nthreads(self):
            return {"tcp://10.0.0.1:40155": 1}

        def submit(self, *args, **kwargs):
            task: Future = Future()
            task.set_exception(KilledWorker("attempted to run the task 3 times; all died"))
            return task

        def cancel(self, tasks):
            pass

    (instance,) = read_instances(["1 2 3/4 5 6/0 7 8"])
    item = run._item(instance, None, False, None, check_options())
    status, payload = run._Dask(Lost()).submit(item).result(timeout=10)
    record = run._record(instance, item[0][1], status, payload)
    assert record["error_kind"] == "cluster" and "KilledWorker" in record["error"], record
    assert "1 Dask cluster failure" in summarize([record]).table()


# ------------------------------------------------------------------------- streaming (issue 25)


def test_reading_a_big_input_holds_one_line_at_a_time(tmp_path):
    """Lines read, parsed and checked against a results file in memory that does not grow."""
    import io
    import tracemalloc

    from slidelab.batch.instances import iter_instances, iter_lines

    count = 40_000
    text = "".join(f"{i % 3 + 1} 2 3/4 5 6/0 7 8 ; id=x{i}\n" for i in range(count))
    held = read_instances(text.splitlines()[:4000])  # a tenth, held as read_instances does
    stream = io.StringIO(text)
    tracemalloc.start()
    try:
        results = ResultsFile(tmp_path / "out.jsonl")
        streamed = iter_instances(iter_lines(stream, "input"))
        assert sum(1 for _ in results.todo(streamed)) == count
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        read_instances(text.splitlines()[:4000])
        _, tenth = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(held) == 4000
    assert peak < 200_000 and peak * 10 < tenth, (peak, tenth)


def test_first_results_come_before_the_input_ends():
    """A generator that waits for a result before its last line: the results are not held."""
    import threading

    from slidelab.batch.instances import iter_instances

    gate = threading.Event()

    def lines():
        yield "1 2 3/4 5 6/0 7 8"
        yield "1 2 3/4 5"
        assert gate.wait(120), "no result came while the input was open"
        yield "1 2 3/4 5 6/7 0 8"

    records = solve_batch(iter_instances(lines()), workers=1)
    first = [next(records), next(records)]
    gate.set()
    rest = list(records)
    assert sorted(r["line"] for r in first) == [1, 2]
    assert [r["line"] for r in rest] == [3] and rest[0]["length"] == 1


def test_standard_input_is_answered_while_it_stays_open(tmp_path):
    """``slidelab batch -`` on a pipe: a result comes back before the pipe is closed."""
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "slidelab", "batch", "-", "-o", str(out), "--workers", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        proc.stdin.write("1 2 3/4 5 6/0 7 8\n1 2 3/4 5 6/7 0 8\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 120
        while not (out.exists() and out.read_text().count("\n") >= 2):
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "no result before the input ended"
            time.sleep(0.05)
        proc.stdin.write("8 6 7/2 5 4/3 0 1\n")
        proc.stdin.close()
        proc.wait(120)
        stdout, stderr = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
    assert proc.returncode == 0, stderr
    assert sorted(r["line"] for r in records_of(out)) == [1, 2, 3]
    assert "solved          3" in stdout


def test_resume_checks_a_streamed_input_before_changing_the_file(tmp_path):
    batch = read_instances(["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/8 7 0", "1 2 3/4 5 6/7 0 8"])
    out = tmp_path / "out.jsonl"
    with ResultsFile(out, batch) as results:
        for record in solve_batch(batch[:2], workers=1):
            results.append(record)
    before = out.read_text() + '{"id": "3", "line": 3, "inp'  # and a cut-off last line
    out.write_text(before)
    other = read_instances(["8 6 7/2 5 4/3 0 1", "1 2 3/4 5 6/8 7 0", "1 2 3/4 5 6/7 0 8"])
    for instances in (other, other[1:], []):  # another line 1; no line 1; no lines
        results = ResultsFile(out, redo_failed=True)
        with pytest.raises(SlidelabError, match="another input"), results:
            list(results.todo(iter(instances)))
        assert out.read_text() == before  # nothing dropped before the input agreed
        assert not (tmp_path / "out.jsonl.tmp").exists()
    results = ResultsFile(out, redo_failed=True)
    assert sorted(results.done) == [1] and results.summary.solved == 1
    assert [i.line for i in results.todo(iter(batch))] == [2, 3]
    assert [r["line"] for r in records_of(out)] == [1]  # the failure and the cut-off line gone


def test_input_limits_are_stated_while_streaming(monkeypatch):
    import io

    from slidelab.batch import instances

    monkeypatch.setattr(instances, "MAX_LINE_CHARS", 20)
    got = instances.iter_lines(io.StringIO("1 2 3/4 5 6/0 7 8\n" + "1" * 30 + "\n"), "in.txt")
    assert next(got) == "1 2 3/4 5 6/0 7 8"
    with pytest.raises(SlidelabError, match="in.txt, line 2: more than 20 characters"):
        next(got)
    monkeypatch.setattr(instances, "MAX_INPUT_CHARS", 30)
    got = instances.iter_lines(io.StringIO("1 2 3/4 5 6/0 7 8\n" * 2), "in.txt")
    assert next(got) == "1 2 3/4 5 6/0 7 8"
    with pytest.raises(SlidelabError, match="more than 30 characters"):
        next(got)


def test_endless_input_is_refused_at_its_first_line(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    done = batch_cli("/dev/zero", "-o", tmp_path / "out.jsonl", timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "/dev/zero, line 1: more than" in done.stderr


def _high_water_kb(pid: int) -> int:
    """The largest ``VmHWM`` (kB) of ``pid`` and its descendants now; 0 for one already gone."""
    peak, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            for task in Path(f"/proc/{current}/task").iterdir():
                todo.extend(int(child) for child in (task / "children").read_text().split())
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
    return peak


@pytest.mark.slow
def test_a_million_lines_run_in_bounded_memory(tmp_path):
    """The CLI on a million short lines: its memory stays far below the input's parsed size.

    The peak is each process's own high-water mark (``VmHWM``), read while it runs: a child's
    ``ru_maxrss`` (``wait4``, ``RUSAGE_CHILDREN``) starts from this test process's resident size at
    the fork, which an earlier slow test's tables in this process raise to 1.4 GB."""
    import threading

    source = tmp_path / "big.txt"
    source.write_text("1 2/0 3\n" * 1_000_000)  # a 2x2 board one move from its goal
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "slidelab", "batch", str(source), "-o", str(out), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    errors: list[str] = []
    readers = [
        threading.Thread(target=lambda: proc.stdout.read(), daemon=True),
        threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True),
    ]
    for reader in readers:  # drained meanwhile: a full pipe would stop the child
        reader.start()
    deadline = time.monotonic() + 300
    peak_kb = 0
    while time.monotonic() < deadline and not (out.exists() and out.stat().st_size > 100_000):
        peak_kb = max(peak_kb, _high_water_kb(proc.pid))
        time.sleep(0.2)
    peak_kb = max(peak_kb, _high_water_kb(proc.pid))
    proc.send_signal(signal.SIGINT)
    proc.wait(120)
    for reader in readers:
        reader.join(120)
    assert proc.returncode == 130, errors
    assert out.stat().st_size > 100_000
    peak_mb = peak_kb / 1024
    assert 0 < peak_mb < 400, peak_mb  # the lines parsed into Instances alone took over 1 GB
