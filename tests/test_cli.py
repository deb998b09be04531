import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from slidelab import Board, apply_moves, check
from slidelab.cli import main


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_solve_json():
    code, out, _ = run("solve", "8 6 7/2 5 4/3 0 1", "--json")
    assert code == 0
    data = json.loads(out)
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


def test_solve_human_and_methods():
    code, out, _ = run("solve", "1 2 3/4 5 6/0 7 8", "--method", "idastar")
    assert code == 0 and "2 moves" in out and "L2" in out and "expanded" in out
    code, out, _ = run("solve", "1 2 3/4 5 6/0 7 8", "--notation", "blank")
    assert "r2" in out
    code, out, _ = run("solve", "1 2 3/4 5 6/0 7 8", "--notation", "numbers")
    assert "7 8" in out


def test_solve_goal_options():
    code, out, _ = run("solve", "0 1 2/3 4 5/6 7 8", "--goal", "3 1 2/4 7 5/6 0 8", "--json")
    assert code == 0 and json.loads(out)["length"] == 3
    code, out, _ = run("solve", "1 0 2/3 4 5/6 7 8", "--blank-first", "--json")
    assert json.loads(out)["length"] == 1
    code, out, _ = run(
        "solve", "8 6 7/2 5 4/3 0 1", "--method", "weighted-astar", "--weight", "3", "--json"
    )
    data = json.loads(out)
    assert code == 0 and not data["optimal"] and 31 <= data["length"] <= 93


def test_exit_codes():
    assert run("solve", "1 2 3/4 5 6/8 7 0")[0] == 1
    assert run("solve", "1 2 3/4 5/7 8 0")[0] == 2
    assert run("solve", "1 2 3/4 5 6/7 8 0", "--method", "dfs")[0] == 2
    assert run("check", "1 2 3/4 5 6/8 7 0")[0] == 1
    assert run("check", "1 2 3/4 5 6/7 8 0")[0] == 0
    assert run("check", "1 2 3/4 5 6/7 8 ?")[0] == 2
    assert (
        run(
            "solve",
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0",
            "--goal",
            "0 15 14 13/12 11 10 9/8 7 6 5/4 3 2 1",
            "--method",
            "idastar",
            "--time-limit",
            "0.2",
        )[0]
        == 1
    )


def test_unsolvable_json():
    code, out, _ = run("solve", "1 2 3/4 5 6/8 7 0", "--json")
    assert code == 1 and "unsolvable" in json.loads(out)["error"]


def test_check_json_and_reason():
    code, out, _ = run("check", "1 2 3/4 5 6/8 7 0", "--json")
    data = json.loads(out)
    assert data == {"solvable": False, "reason": data["reason"]}
    assert data["reason"].startswith("unsolvable: permutation parity is odd")
    code, out, _ = run("check", "1 2 3/4 5 6/7 8 9/10 11 12/13 15 14 0", "--size", "4x4")
    assert code == 1


def test_check_fix():
    code, out, _ = run("check", "1 2 3/4 5 6/8 7 0", "--fix", "swap")
    assert code == 0 and check(out.strip()).solvable


def test_stdin_many_boards():
    text = "# a comment\n1 2 3/4 5 6/0 7 8\n\n1 2 3/4 5 6/8 7 0\nnonsense ?\n8 6 7/2 5 4/3 0 1\n"
    code, out, _ = run("solve", "--json", input=text)
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 4
    assert lines[0]["length"] == 2 and "error" in lines[1] and "error" in lines[2]
    assert lines[3]["length"] == 31
    assert code == 2  # worst of the lines: a bad input


def test_generate():
    code, out, _ = run("generate", "4x4", "-n", "5", "--seed", "1")
    boards = out.splitlines()
    assert code == 0 and len(boards) == 5
    assert all(check(b).solvable for b in boards)
    assert run("generate", "4x4", "-n", "5", "--seed", "1")[1] == out
    code, out, _ = run("generate", "3x3", "--format", "contest", "--seed", "2")
    assert "*" in out and "/" not in out
    code, out, _ = run("generate", "3x3", "--moves", "4", "-n", "3", "--format", "json")
    assert code == 0 and all(json.loads(line) for line in out.splitlines())
    code, out, _ = run("generate", "3x3", "--blank", "x", "--format", "flat", "--seed", "3")
    assert "x" in out
    assert run("generate", "3x1")[0] == 2
    assert run("generate", "banana")[0] == 2


def test_moves_commands():
    assert run("moves", "apply", "1 2 3/4 5 6/7 8 0", "R2 D")[1].strip() == "1 2 3/0 5 6/4 7 8"
    assert run("moves", "invert", "R3 U2 L")[1].strip() == "R D2 L3"
    assert run("moves", "simplify", "R R L U D D")[1].strip() == "R D"
    assert run("moves", "length", "R3U2L")[1].strip() == "6 STM, 3 MTM"
    assert run("moves", "convert", "R3 U2 L", "--to", "blank")[1].strip() == "l3 d2 r"
    assert run("moves", "convert", "l3 d2 r", "--notation", "blank")[1].strip() == "R3 U2 L"
    assert (
        run("moves", "convert", "R2 D", "--to", "numbers", "--board", "1 2 3/4 5 6/7 8 0")[
            1
        ].strip()
        == "8 7 4"
    )
    code, out, _ = run("moves", "apply", "1 2 3/4 5 6/7 8 0", "L")
    assert code == 2
    assert run("moves", "length", "R3 Q")[0] == 2


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
        "from click.testing import CliRunner\n"
        "assert slidelab.Board('1 2 3/4 5 0').width == 3\n"
        "for args in (['moves', 'length', 'R3U2L'], ['check', '1 2 3/4 5 6/8 7 0'], ['--help']):\n"
        "    CliRunner().invoke(slidelab.cli.main, args)\n"
        "print(sorted(m for m in ('numba', 'scipy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_public_names_resolve():
    import slidelab

    for name in slidelab.__all__:
        assert getattr(slidelab, name) is not None
    assert set(slidelab.__all__) <= set(dir(slidelab))
    assert slidelab.search.bfs is slidelab.bfs  # submodules too
    with pytest.raises(AttributeError):
        slidelab.no_such_name


def test_in_process_runs_leave_the_garbage_collector_alone():
    import gc

    frozen = gc.get_freeze_count()
    assert run("solve", "1 2 3/4 5 6/7 0 8")[0] == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
