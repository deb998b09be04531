"""Fuzzing bad input (issue 12, items 13-17): the command line and the public Python API.

Property: invalid input never gives a traceback.  On the command line it gives
exit code 2 and an error message (never exit 0); in Python a
:class:`~slidelab.errors.SlidelabError` (never AttributeError, KeyError, a raw
TypeError...).  Every example is built to hold at least one invalid part; the
API test also throws arbitrary values at each argument and asserts that the
call either works or raises a SlidelabError.  Kept fast: bounded examples, and
nothing valid that is slow (small boards, small counts).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slidelab
from slidelab.errors import SlidelabError

EASY = "1 2 3/4 5 6/0 7 8"
HARDEST = "8 6 7/2 5 4/3 0 1"
FUZZ = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# ------------------------------------------------------------------------------ command line

GOOD_BOARDS = [EASY, HARDEST, "1 2/3 0"]
BAD_BOARDS = [
    "junk",
    "1 2/3",
    "1 2 3/4 5 6/7 8 9",
    "[[1,2],[3]]",
    "0 0/1 2",
    "1 2 3 4 5",
    "A 1/2 0",
    "1 2 3/4 5 6/7 8 " + "9" * 60,
    "\x00",
    "[",
    "1 2/3 0/4",
]
BAD_SIZES = [
    "0x0",
    "1x5",
    "junk",
    "100000x100000",
    "99999999999999999999x3",
    "3x" + "9" * 60,
    "",
    "3*3",
    "-3x3",
    "182x181",
]
BAD_WEIGHTS = ["inf", "-inf", "nan", "0.5", "0", "-1", "x", "1e999", ""]
BAD_POSITIVE = ["0", "-1", "nan", "x", "-inf", ""]
BAD_COUNTS = ["0", "-5", "1.5", "x", "1e3", ""]
BAD_MEMORY = ["0", "lots", "-1G", "9" * 400, "0.1", "1.5.2G", ""]
BAD_PARTITIONS = ["junk", "7-8", "1,2,99", "1,1/2,3,4,5,6,7,8", "9-9", "1,,2", "/"]
BAD_GOALS = ["junk", "1 2/3", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", "", "0 0/1 2"]


@dataclass
class Command:
    name: str
    positional: tuple  # (good values, bad values) of the argument, or None
    options: dict  # option -> (good values, bad values)
    flags: tuple = ()
    positional_required: bool = False
    stdin: str = ""


COMMANDS = [
    Command(
        "solve",
        (GOOD_BOARDS, BAD_BOARDS),
        {
            "--weight": (["1", "1.5"], BAD_WEIGHTS),
            "--time-limit": (["5", "inf"], BAD_POSITIVE),
            "--max-states": (["1000000"], BAD_COUNTS),
            "--max-memory": (["1G", "500M"], BAD_MEMORY),
            "--method": (["auto", "astar", "bfs", "table", "constructive"], ["magic", "", "a**"]),
            "--heuristic": (["manhattan"], ["magic", ""]),
            "--partition": (["full", "auto"], BAD_PARTITIONS),
            "--size": ([], BAD_SIZES),
            "--goal": ([], BAD_GOALS),
            "--limit": ([], ["0", "-1", "x"]),
            "--scheduler": ([], ["", "  "]),
        },
        flags=("--json", "--blank-first", "--no-progress"),
    ),
    Command(
        "check",
        (GOOD_BOARDS, BAD_BOARDS),
        {
            "--size": ([], BAD_SIZES),
            "--goal": ([], BAD_GOALS),
            "--fix": (["swap"], ["magic", ""]),
        },
        flags=("--json",),
    ),
    Command(
        "generate",
        (["3x3", "2x2", "4x3"], BAD_SIZES),
        {
            "-n": (["0", "3"], ["-1", "1000000000000000", "x", "1.5", ""]),
            "--moves": (["5"], ["-1", "1000000000000000", "x", "1.5"]),
            "--seed": (["1"], ["x", "1.5", ""]),
            "--blank": (["_", "x", "*"], ["12", "5", "A", "1", "", "xx", "0 0"]),
            "--format": (["slash", "json"], ["magic", ""]),
            "--goal": ([], BAD_GOALS),
        },
        flags=("--blank-first",),
        positional_required=True,
    ),
    Command(
        "analyze",
        (["2x3", "2x2", "1 2/3 0"], BAD_SIZES + ["100x100", "5x5", "4x4", "junk board"]),
        {
            "--hardest": (["3"], ["-1", "x", "1.5"]),
            "--max-memory": (["1G"], BAD_MEMORY),
            "--max-time": (["1h", "90"], ["0", "x", "-1", ""]),
            "--plot": ([], ["out.gif", "out", ""]),
        },
        flags=("--json", "--blank-first"),
        positional_required=True,
    ),
    Command(
        "batch",
        (["-"], ["missing-input-file.txt"]),
        {
            "--weight": (["1.5"], BAD_WEIGHTS),
            "--time-limit": (["5"], BAD_POSITIVE),
            "--max-states": (["1000000"], BAD_COUNTS),
            "--max-memory": (["1G"], BAD_MEMORY),
            "--method": (["auto", "bfs"], ["magic", ""]),
            "--heuristic": (["manhattan"], ["magic"]),
            "--workers": (["1"], ["0", "-1", "x"]),
            "--size": ([], BAD_SIZES),
        },
        flags=("--no-progress",),
        positional_required=True,
        stdin=EASY + "\n",
    ),
]


@st.composite
def bad_invocations(draw):
    """``(command, args)``: a command line with at least one invalid part."""
    command = draw(st.sampled_from(COMMANDS))
    parts = []  # (kind, option or None, good values, bad values)
    if command.positional is not None:
        parts.append(("positional", None) + command.positional)
    for option, (good, bad) in command.options.items():
        parts.append(("option", option, good, bad))
    chosen = draw(st.lists(st.sampled_from(range(len(parts))), min_size=1, max_size=4, unique=True))
    bad_one = draw(st.sampled_from(chosen))
    args, positional = [], None
    for i in chosen:
        kind, option, good, bad = parts[i]
        if i != bad_one and good and draw(st.booleans()):
            value = draw(st.sampled_from(good))
        else:
            value = draw(st.sampled_from(bad))
            if i != bad_one and not bad:
                continue
        if kind == "positional":
            positional = value
        else:
            args += [option, value]
    if positional is None and command.positional_required:
        positional = draw(st.sampled_from(command.positional[0]))
    if command.name == "batch" and "--workers" not in args and draw(st.booleans()):
        args += ["--workers", "1"]
    args += draw(st.lists(st.sampled_from(command.flags), unique=True)) if command.flags else []
    if positional is not None:
        args.insert(0, positional)
    return command, [command.name] + args


@FUZZ
@given(bad_invocations())
def test_bad_command_lines_exit_2_with_a_message_and_no_traceback(cli, invocation):
    command, args = invocation
    result = cli(*args, input=command.stdin)  # a traceback fails the test (hypothesis: the args)
    assert "Traceback" not in result.output, args
    assert result.exit_code == 2, (args, result.exit_code, result.output[-500:])
    error_lines = [line for line in result.stderr.splitlines() if line.lower().startswith("error")]
    if "--json" in args and command.name in ("solve", "check"):  # an error per board, in JSON
        error_lines += [
            json.loads(line)["error"]
            for line in result.stdout.splitlines()
            if "error" in json.loads(line)
        ]
    assert error_lines, (args, result.stderr[-500:], result.stdout[-500:])
    assert all(len(line) < 1000 for line in error_lines), args


# ------------------------------------------------------------------------------ Python API

PUZZLE = slidelab.Puzzle(EASY)
LIMITS = slidelab.Limits
INSTANCES = slidelab.read_instances([EASY])

BAD = {
    "puzzle": [None, 0, 1.5, "junk", EASY, [], {}, b"x", object(), slidelab.Board(EASY)],
    "limits": [0, "x", {}, [], object(), 5.0],
    "positive_int": [0, -1, 1.5, "3", True, float("nan"), [], object(), float("inf"), 2.0],
    "count": [-1, 1.5, "3", True, None, float("nan"), 10**30, [], 2.0],
    "optional_count": [-1, 1.5, "3", True, float("nan"), 10**30, [], 2.0],
    "cap": [-1, 1.5, "3", True, None, float("nan"), [], 2.0],
    "known": [-1, 1.5, "3", True, float("nan"), [], 2.0],
    "weight": [0.5, 0, -1, float("inf"), -float("inf"), float("nan"), "2", True, [], 10**400],
    "time": [0, -1, float("nan"), "x", True, [], -float("inf"), 0.0],
    "method": [None, 5, "magic", "", [], True],
    "heuristic": [5, "magic", "", [], True],
    "name": [None, 5, "magic", [], True],
    "callback": [5, "x", [], True, 1.5],
    "bool": ["yes", 2, None, 1.5, [], "False"],
    "size": [
        "junk",
        "0x0",
        "1x5",
        5,
        1.5,
        (2.5, 3),
        "100000x100000",
        [],
        (1, 2, 3),
        b"3x3",
        (True, 3),
        "182x181",
        (0, 5),
    ],
    "partition": ["junk", "7-8", "1,2,99", 5, [5.5], [["1"], "2"], {}, True, [[None]]],
    "partition_type": [5, [5.5], [["1"], "2"], True, [[None]], 1.5],
    "seed": [[1], {}, 1.5, object(), True, [None]],
    "goal": ["junk", 5, 1.5, {}, "1 2/3", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"],
    "board": [None, 5, "junk", {}, "1 2/3"],
    "lines": [None, 5, EASY, [None], [5], [b"x"], object()],
    "instances": [None, 5, "x", [1], [None], [{}], object()],
    "records": [
        None,
        5,
        "x",
        [None],
        [{}],
        [{"error": None}],
        [{"length": "7"}],
        [{"length": -1}],
        [{"length": 3, "stats": "x"}],
        [1.5],
    ],
    "counts": [None, 5, "x", [1.5], [-1], [10**30], [True], [None]],
    "perm": [
        None,
        5,
        "012",
        [0.5, 1],
        [0, 0],
        [1, 2],
        list(range(21)),
        [True, False],
        list(range(10**5)),
    ],
    "items": [None, 5, [[1], [2]], [1, "a"], list(range(40)), [object(), object()]],
    "rank": [None, 1.5, "0", -1, 10**30, True, []],
    "n_perm": [None, 1.5, "3", -1, 10**30, True],
    "how": [None, 5, "magic", ""],
    "path": [None, 5, "", [], 1.5],
    "scheduler": [5, [], 1.5, {}],
    "polish_options": [5, "x", [], True],
    "text": [None, 5, [], b"x"],
    "line": [0, -1, 1.5, "1", None, True],
    "f": [None, 5, "x"],
    "analysis_goal": ["junk", 5, "1x5", "100x100", "5x5", "4x4", None, "182x181"],
    "max_seconds": [0, -1, float("nan"), "x", 1e-12, True],
    "max_bytes_analysis": [0, -1, 1.5, "x", 1, True],
    "max_bytes": [0, -1, 1.5, "x", True],
    "seconds": [0, -1, float("nan"), "x", True],
}


@dataclass
class Call:
    function: Callable
    baseline: dict
    params: dict  # parameter -> kind (a key of BAD)

    def __repr__(self):
        return getattr(self.function, "__name__", repr(self.function))


CALLS = [
    Call(
        slidelab.solve,
        {"start": EASY, "method": "astar"},
        {
            "start": "board",
            "goal": "goal",
            "method": "method",
            "heuristic": "heuristic",
            "weight": "weight",
            "blank_first": "bool",
            "size": "size",
            "time_limit": "time",
            "max_states": "positive_int",
            "max_bytes": "positive_int",
            "partition": "partition",
            "scheduler": "scheduler",
            "progress": "callback",
            "table_progress": "callback",
        },
    ),
    Call(
        slidelab.solve,
        {"start": EASY},  # auto: options the chosen method does not use
        {"partition": "partition", "weight": "weight", "heuristic": "heuristic"},
    ),
    Call(
        slidelab.solve_all,
        {"start": EASY},
        {
            "start": "board",
            "limit": "positive_int",
            "heuristic": "heuristic",
            "blank_first": "bool",
            "size": "size",
            "time_limit": "time",
            "partition": "partition",
            "progress": "callback",
            "table_progress": "callback",
        },
    ),
    Call(
        slidelab.prepare,
        {"puzzle": PUZZLE, "method": "astar"},
        {
            "puzzle": "puzzle",
            "method": "method",
            "heuristic": "heuristic",
            "weight": "weight",
            "partition": "partition",
            "table_progress": "callback",
        },
    ),
    Call(
        slidelab.astar,
        {"puzzle": PUZZLE, "limits": LIMITS()},
        {"puzzle": "puzzle", "limits": "limits", "heuristic": "name"},
    ),
    Call(
        slidelab.weighted_astar,
        {"puzzle": PUZZLE, "limits": LIMITS()},
        {
            "puzzle": "puzzle",
            "limits": "limits",
            "weight": "weight",
            "heuristic": "name",
            "polish": "bool",
            "polish_options": "polish_options",
        },
    ),
    Call(
        slidelab.idastar,
        {"puzzle": PUZZLE, "limits": LIMITS()},
        {"puzzle": "puzzle", "limits": "limits", "heuristic": "name", "weight": "weight"},
    ),
    Call(
        slidelab.bfs,
        {"puzzle": PUZZLE, "limits": LIMITS()},
        {"puzzle": "puzzle", "limits": "limits"},
    ),
    Call(
        slidelab.bidirectional_bfs,
        {"puzzle": PUZZLE, "limits": LIMITS()},
        {"puzzle": "puzzle", "limits": "limits"},
    ),
    Call(
        slidelab.constructive,
        {"puzzle": PUZZLE, "limits": LIMITS()},
        {"puzzle": "puzzle", "limits": "limits"},
    ),
    Call(
        slidelab.best_first_search,
        {"puzzle": PUZZLE, "f": lambda g, h: g + h, "limits": LIMITS()},
        {
            "puzzle": "puzzle",
            "f": "f",
            "limits": "limits",
            "heuristic": "name",
            "method": "text",
            "optimal": "bool",
        },
    ),
    Call(
        slidelab.Limits,
        {},
        {
            "time_limit": "time",
            "max_states": "positive_int",
            "max_bytes": "positive_int",
            "progress": "callback",
        },
    ),
    Call(
        slidelab.make_heuristic,
        {"puzzle": PUZZLE},
        {"puzzle": "puzzle", "name": "name", "progress": "callback", "cache": "bool"},
    ),
    Call(slidelab.heuristic_table, {"puzzle": PUZZLE}, {"puzzle": "puzzle", "name": "name"}),
    Call(slidelab.manhattan_table, {"puzzle": PUZZLE}, {"puzzle": "puzzle"}),
    Call(
        slidelab.random_board,
        {"size": "3x3"},
        {"size": "size", "goal": "goal", "blank_first": "bool", "seed": "seed"},
    ),
    Call(
        slidelab.random_boards,
        {"n": 2, "size": "3x3"},
        {
            "n": "count",
            "size": "size",
            "goal": "goal",
            "moves": "optional_count",
            "blank_first": "bool",
            "seed": "seed",
        },
    ),
    Call(
        slidelab.scramble,
        {"moves": 5, "size": "3x3"},
        {"moves": "count", "size": "size", "goal": "goal", "blank_first": "bool", "seed": "seed"},
    ),
    Call(
        slidelab.fix_parity,
        {"board": EASY},
        {"board": "board", "goal": "goal", "how": "how", "blank_first": "bool"},
    ),
    Call(slidelab.count_arrangements, {"counts": [1, 2]}, {"counts": "counts"}),
    Call(slidelab.multiset_rank, {"items": "AAB"}, {"items": "items"}),
    Call(
        slidelab.multiset_unrank,
        {"rank": 0, "multiset": "AAB"},
        {"rank": "rank", "multiset": "items"},
    ),
    Call(slidelab.permutation_rank, {"perm": [0, 1, 2]}, {"perm": "perm"}),
    Call(slidelab.permutation_unrank, {"rank": 0, "n": 3}, {"rank": "rank", "n": "n_perm"}),
    Call(slidelab.parse_size, {"text": "3x3"}, {"text": "size"}),
    Call(
        slidelab.analyze,
        {"goal": "2x3"},
        {
            "goal": "analysis_goal",
            "progress": "callback",
            "hardest": "cap",
            "save": "bool",
            "blank_first": "bool",
            "max_bytes": "max_bytes_analysis",
            "max_seconds": "max_seconds",
        },
    ),
    Call(
        slidelab.DistanceTable.build,
        {"goal": "2x3"},
        {
            "goal": "analysis_goal",
            "progress": "callback",
            "blank_first": "bool",
            "max_bytes": "max_bytes",
            "max_seconds": "seconds",
            "cache": "bool",
        },
    ),
    Call(slidelab.read_instances, {"lines": [EASY]}, {"lines": "lines", "size": "size"}),
    Call(
        slidelab.solve_batch,
        {"instances": INSTANCES},
        {
            "instances": "instances",
            "blank_first": "bool",
            "size": "size",
            "method": "method",
            "heuristic": "heuristic",
            "partition": "partition_type",
            "weight": "weight",
            "time_limit": "time",
            "max_states": "positive_int",
            "max_bytes": "positive_int",
            "workers": "positive_int",
            "scheduler": "scheduler",
            "table_progress": "callback",
        },
    ),
    Call(slidelab.summarize, {"records": []}, {"records": "records"}),
    Call(
        slidelab.Instance,
        {"line": 1, "id": "1", "text": EASY, "start": EASY},
        {"line": "line", "id": "text", "text": "text", "known": "known"},
    ),
]


@pytest.fixture(scope="module")
def results_path(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz") / "results.jsonl"


def _calls(results_path):
    """The calls, with those that need something made first: a results file's path, and a
    distance table (built here, when a test runs, not when the module is collected: its
    kernels take tens of seconds to compile on a first run, which every test process of the
    run waited for while collecting)."""
    table = slidelab.DistanceTable.build("2x3")
    return CALLS + [
        Call(table.distance, {"board": "2 1/4 3/0 5"}, {"board": "board"}),
        Call(table.solve, {"board": "2 1/4 3/0 5"}, {"board": "board"}),
        Call(
            slidelab.ResultsFile,
            {"path": results_path, "instances": INSTANCES},
            {"path": "path", "instances": "instances", "redo_failed": "bool"},
        ),
    ]


def test_every_baseline_call_works(results_path):
    for call in _calls(results_path):
        result = call.function(**call.baseline)
        if call.function is slidelab.solve_batch:
            assert [r["length"] for r in result] == [2]


@FUZZ
@given(data=st.data())
def test_an_invalid_argument_is_a_slidelab_error(results_path, data):
    call = data.draw(st.sampled_from(_calls(results_path)), label="function")
    param = data.draw(st.sampled_from(sorted(call.params)), label="argument")
    value = data.draw(st.sampled_from(BAD[call.params[param]]), label="value")
    with pytest.raises(SlidelabError):  # solve_batch too: at the call, before it is iterated
        call.function(**{**call.baseline, param: value})


#: arbitrary values; numbers small or huge, never a valid slow request (a million boards)
ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.integers(min_value=10**8),
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not (1000 < abs(x) < 1e8)),
    st.text(max_size=30),
    st.binary(max_size=8),
    st.lists(st.one_of(st.integers(-3, 30), st.text(max_size=3), st.none()), max_size=6),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.tuples(st.integers(-3, 12), st.integers(-3, 12)),
)


@FUZZ
@given(data=st.data())
def test_an_arbitrary_argument_works_or_is_a_slidelab_error(results_path, data):
    call = data.draw(st.sampled_from(_calls(results_path)), label="function")
    param = data.draw(st.sampled_from(sorted(call.params)), label="argument")
    value = data.draw(ANY, label="value")
    try:
        call.function(**{**call.baseline, param: value})  # solve_batch's records are not made
    except SlidelabError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 1000, message
    except Exception as exc:  # the property: no other exception escapes
        raise AssertionError(
            f"{call!r}({param}={value!r}) raised {type(exc).__name__}: {exc}"
        ) from exc


def test_huge_numbers_in_messages_stay_short():
    with pytest.raises(SlidelabError) as caught:
        slidelab.random_boards(10**5000, "3x3")
    assert len(str(caught.value)) < 200


def test_every_listed_invalid_argument_is_a_slidelab_error(results_path):
    """The property above over every (function, argument, invalid value), not a sample."""
    escaped = []
    for call in _calls(results_path):
        for param, kind in call.params.items():
            for value in BAD[kind]:
                try:
                    call.function(**{**call.baseline, param: value})
                except SlidelabError:
                    continue
                except Exception as exc:  # noqa: BLE001 - collected and reported below
                    escaped.append(f"{call!r}({param}={value!r}): {type(exc).__name__}: {exc}")
                else:
                    escaped.append(f"{call!r}({param}={value!r}): accepted")
    assert not escaped, "\n".join(escaped)
