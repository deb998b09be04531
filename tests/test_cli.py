import json
import subprocess
import sys

import pytest

from slidelab import Board, apply_moves, check


def test_solve_json(cli):
    r = cli("solve", "8 6 7/2 5 4/3 0 1", "--json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert set(data) >= {
        "start",
        "goal",
        "size",
        "solution",
        "length",
        "optimal",
        "method",
        "stats",
    }
    assert set(data["stats"]) >= {"expanded", "generated", "stored", "seconds"}
    assert data["length"] == 31 and data["optimal"] and data["size"] == "3x3"
    assert apply_moves(Board(data["start"]), data["solution"]) == Board(data["goal"])


def test_solve_human_and_methods(cli):
    r = cli("solve", "1 2 3/4 5 6/0 7 8", "--method", "idastar")
    assert r.exit_code == 0 and "2 moves" in r.stdout and "L2" in r.stdout
    assert "expanded" in r.stdout
    assert "r2" in cli("solve", "1 2 3/4 5 6/0 7 8", "--notation", "blank").stdout
    assert "7 8" in cli("solve", "1 2 3/4 5 6/0 7 8", "--notation", "numbers").stdout


def test_solve_goal_options(cli):
    r = cli("solve", "0 1 2/3 4 5/6 7 8", "--goal", "3 1 2/4 7 5/6 0 8", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["length"] == 3
    r = cli("solve", "1 0 2/3 4 5/6 7 8", "--blank-first", "--json")
    assert json.loads(r.stdout)["length"] == 1
    r = cli("solve", "8 6 7/2 5 4/3 0 1", "--method", "weighted-astar", "--weight", "3", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and not data["optimal"] and 31 <= data["length"] <= 93


def test_exit_codes(cli):
    assert cli("solve", "1 2 3/4 5 6/8 7 0").exit_code == 1
    assert cli("solve", "1 2 3/4 5/7 8 0").exit_code == 2
    assert cli("solve", "1 2 3/4 5 6/7 8 0", "--method", "dfs").exit_code == 2
    assert cli("check", "1 2 3/4 5 6/8 7 0").exit_code == 1
    assert cli("check", "1 2 3/4 5 6/7 8 0").exit_code == 0
    assert cli("check", "1 2 3/4 5 6/7 8 ?").exit_code == 2
    limited = cli(
        "solve",
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0",
        "--goal",
        "0 15 14 13/12 11 10 9/8 7 6 5/4 3 2 1",
        "--method",
        "idastar",
        "--time-limit",
        "0.2",
    )
    assert limited.exit_code == 1 and "time limit" in limited.stderr, limited.output


def test_unsolvable_json(cli):
    r = cli("solve", "1 2 3/4 5 6/8 7 0", "--json")
    assert r.exit_code == 1 and "unsolvable" in json.loads(r.stdout)["error"]


def test_check_json_and_reason(cli):
    data = json.loads(cli("check", "1 2 3/4 5 6/8 7 0", "--json").stdout)
    assert data == {"solvable": False, "reason": data["reason"]}
    assert data["reason"].startswith("unsolvable: permutation parity is odd")
    r = cli("check", "1 2 3/4 5 6/7 8 9/10 11 12/13 15 14 0", "--size", "4x4")
    assert r.exit_code == 1


def test_check_fix(cli):
    r = cli("check", "1 2 3/4 5 6/8 7 0", "--fix", "swap")
    assert r.exit_code == 0 and check(r.stdout.strip()).solvable


def test_stdin_many_boards(cli):
    text = "# a comment\n1 2 3/4 5 6/0 7 8\n\n1 2 3/4 5 6/8 7 0\nnonsense ?\n8 6 7/2 5 4/3 0 1\n"
    r = cli("solve", "--json", input=text)
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(lines) == 4
    assert lines[0]["length"] == 2 and "error" in lines[1] and "error" in lines[2]
    assert lines[3]["length"] == 31
    assert r.exit_code == 2  # worst of the lines: a bad input


def test_generate(cli):
    r = cli("generate", "4x4", "-n", "5", "--seed", "1")
    boards = r.stdout.splitlines()
    assert r.exit_code == 0 and len(boards) == 5
    assert all(check(b).solvable for b in boards)
    assert cli("generate", "4x4", "-n", "5", "--seed", "1").stdout == r.stdout
    out = cli("generate", "3x3", "--format", "contest", "--seed", "2").stdout
    assert "*" in out and "/" not in out
    r = cli("generate", "3x3", "--moves", "4", "-n", "3", "--format", "json")
    assert r.exit_code == 0 and all(json.loads(line) for line in r.stdout.splitlines())
    assert "x" in cli("generate", "3x3", "--blank", "x", "--format", "flat", "--seed", "3").stdout
    assert cli("generate", "3x1").exit_code == 2
    assert cli("generate", "banana").exit_code == 2


def test_moves_commands(cli):
    def out(*args):
        return cli("moves", *args).stdout.strip()

    assert out("apply", "1 2 3/4 5 6/7 8 0", "R2 D") == "1 2 3/0 5 6/4 7 8"
    assert out("invert", "R3 U2 L") == "R D2 L3"
    assert out("simplify", "R R L U D D") == "R D"
    assert out("length", "R3U2L") == "6 STM, 3 MTM"
    assert out("convert", "R3 U2 L", "--to", "blank") == "l3 d2 r"
    assert out("convert", "l3 d2 r", "--notation", "blank") == "R3 U2 L"
    assert out("convert", "R2 D", "--to", "numbers", "--board", "1 2 3/4 5 6/7 8 0") == "8 7 4"
    assert cli("moves", "apply", "1 2 3/4 5 6/7 8 0", "L").exit_code == 2
    assert cli("moves", "length", "R3 Q").exit_code == 2


def test_python_dash_m_and_console_script():
    out = subprocess.run(
        [sys.executable, "-m", "slidelab", "solve", "1 2 3/4 5 6/7 0 8"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and "1 move " in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "slidelab", "solve", "1 2 3/4 5 6/7 8"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("error:")


def test_light_imports_do_not_load_numba():
    # `import slidelab` and the commands that need no kernels stay free of numba's start-up.
    code = (
        "import sys, slidelab, slidelab.cli\n"
        "assert slidelab.Board('1 2 3/4 5 0').width == 3\n"
        "for args in (['moves', 'length', 'R3U2L'], ['check', '1 2 3/4 5 6/8 7 0'], ['--help']):\n"
        "    try:\n"
        "        slidelab.cli.main(args)  # as the program runs it: it ends in SystemExit\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in ('numba', 'scipy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "[]"


def test_public_names_resolve():
    import slidelab

    for name in slidelab.__all__:
        assert getattr(slidelab, name) is not None
    assert set(slidelab.__all__) <= set(dir(slidelab))
    assert slidelab.search.bfs is slidelab.bfs  # submodules too
    with pytest.raises(AttributeError):
        slidelab.no_such_name


def test_in_process_runs_leave_the_garbage_collector_alone(cli):
    import gc

    frozen = gc.get_freeze_count()
    assert cli("solve", "1 2 3/4 5 6/7 0 8").exit_code == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen


# -- tables clear asks first -------------------------------------------------------------------


def test_tables_clear_asks_and_says_what_it_removed(cli, cache, monkeypatch):
    from slidelab.cache import list_tables

    assert cli("analyze", "2x3", "--save").exit_code == 0
    assert len(list_tables()) == 1
    refused = cli("tables", "clear")  # no terminal to ask on
    assert refused.exit_code == 2 and "--yes" in refused.output and len(list_tables()) == 1
    monkeypatch.setattr("slidelab.cli.tables._can_ask", lambda: True)
    kept = cli("tables", "clear", input="n\n")
    assert "distance 2x3" in kept.output and "nothing deleted" in kept.output
    assert len(list_tables()) == 1
    done = cli("tables", "clear", "--yes")
    assert (
        done.exit_code == 0 and "deleted 1 table" in done.output and "distance 2x3" in done.output
    )
    assert list_tables() == []
