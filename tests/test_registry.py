"""One declared contract, checked for every registered implementation.

Every entry of :data:`slidelab.search.registry.METHODS` and
:data:`slidelab.heuristics.registry.HEURISTICS` is run against what its entry declares
(in the manner of scikit-learn's estimator checks): a method solves random 3x3 and 2x4
positions with a solution that replays, optimally where it says so, in every metric it
declares; a heuristic never overestimates where it says it is admissible, in either metric
(an STM estimate is divided for MTM), and IDA* with it finds shortest solutions.
A new entry is checked by adding it to the table, with no new test.  The last tests check
that the tables drive the front door and the command line: an entry added at run time is
accepted and listed.
"""

from __future__ import annotations

import dataclasses

import pytest

import slidelab
import slidelab.cli
from slidelab.analysis import DistanceTable
from slidelab.board import apply_moves
from slidelab.errors import SlidelabError
from slidelab.generate import random_board, random_boards
from slidelab.heuristics import make_heuristic
from slidelab.heuristics.registry import HEURISTICS
from slidelab.moves import METRICS
from slidelab.search.options import check_options
from slidelab.search.registry import METHODS

SIZES = ("3x3", "2x4")
#: every (method, metric) a method declares
METHOD_METRICS = [(name, metric) for name, m in METHODS.items() for metric in m.metrics]
#: random positions each method solves, per size
SOLVED = 5
#: random positions each admissible heuristic is checked on, per size
ESTIMATED = 300
#: positions IDA* solves per size: random walks of IDA_WALK moves (iterative deepening without
#: an estimate, the ``zero`` heuristic, takes minutes on a random 3x3 position, 22 moves deep)
IDA_BOARDS = 4
IDA_WALK = 20


#: the tables built here (distance tables, pattern databases) go to a cache of this module
#: (conftest's ``module_cache``)
pytestmark = pytest.mark.usefixtures("module_cache")


@pytest.fixture(scope="module")
def tables():
    """The distance table of each size's ordered goal in each metric (exact distances; the MTM
    tables are checked against a plain breadth-first search in ``test_mtm.py``)."""
    return {
        (size, metric): DistanceTable.build(size, metric=metric)
        for size in SIZES
        for metric in METRICS
    }


def exact(tables, board, metric="stm") -> int:
    return tables[f"{board.width}x{board.height}", metric].distance(board)


# ---------------------------------------------------------------------------- methods


@pytest.mark.parametrize("name", list(METHODS))
def test_method_entry_is_well_formed(name):
    method = METHODS[name]
    assert method.name == name and method.summary
    assert set(method.options) <= {"heuristic", "partition", "weight"}
    assert method.tables in (None, "heuristic", "distance")
    assert method.metrics and set(method.metrics) <= set(METRICS)
    if method.function is None:
        with pytest.raises(SlidelabError):
            method.load()
    else:
        assert callable(method.load())


@pytest.mark.parametrize("name, metric", METHOD_METRICS)
def test_method_solves_random_positions(name, metric, tables):
    method = METHODS[name]
    for size in SIZES:
        for seed in range(SOLVED):
            board = random_board(size, seed=seed)
            s = slidelab.solve(board, method=name, metric=metric)
            where = f"{name} in {metric} on {board} (seed {seed})"
            assert isinstance(s, slidelab.Solution), where
            assert s.start == board, where
            assert apply_moves(s.start, s.moves) == s.goal, where
            assert s.method, where
            assert s.metric == metric, where
            distance = exact(tables, board, metric)
            if method.optimal:
                assert s.length == distance, where
            else:
                assert s.length >= distance, where
            if s.optimal:  # a solution that claims to be shortest is
                assert s.length == distance, where


# ---------------------------------------------------------------------------- heuristics


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("name", list(HEURISTICS))
def test_heuristic_is_admissible_where_declared(name, metric, tables):
    spec = HEURISTICS[name]
    for size in SIZES:
        goal = tables[size, metric].goal
        h = make_heuristic(slidelab.Puzzle(goal), name, metric=metric)
        assert isinstance(h, slidelab.Heuristic)
        assert h.admissible == spec.admissible, f"{name} on {size}"
        assert h.metric == metric, f"{name} on {size}"
        if not spec.admissible:
            continue
        assert h.value(slidelab.Puzzle(goal).start_codes) == 0, f"{name} at the {size} goal"
        boards = random_boards(ESTIMATED, size, seed=f"admissible {name} {size}")
        over = []
        for board in boards:
            value = h.value(slidelab.Puzzle(board).start_codes)
            distance = exact(tables, board, metric)
            if value > distance:
                over.append(f"{board}: h={value} > {distance}")
        assert not over, f"{name} overestimates in {metric}:\n" + "\n".join(over[:10])


#: pairings whose IDA* kernels no other test of the README's run compiles (20-60 s each on 2
#: cores, a first run's): checked in the slow step
_OWN_KERNELS = {("pdb", "mtm"), ("pdb-dual", "mtm"), ("pdb-dual", "stm"), ("abstraction", "stm")}


@pytest.mark.parametrize(
    ("name", "metric"),
    [
        pytest.param(
            name, metric, marks=[pytest.mark.slow] if (name, metric) in _OWN_KERNELS else []
        )
        for metric in METRICS
        for name in HEURISTICS
    ],
)
def test_idastar_with_heuristic_is_exact(name, metric, tables):
    spec = HEURISTICS[name]
    for size in SIZES:
        for board in random_boards(IDA_BOARDS, size, moves=IDA_WALK, seed=f"ida {name} {size}"):
            s = slidelab.solve(board, method="idastar", heuristic=name, metric=metric)
            assert apply_moves(s.start, s.moves) == s.goal
            distance = exact(tables, board, metric)
            if spec.admissible:
                assert s.length == distance, f"idastar with {name} on {board}"
            else:
                assert s.length >= distance, f"idastar with {name} on {board}"


# ---------------------------------------------------------------------------- front ends


def solve_help(cli) -> str:
    result = cli("solve", "--help")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def demo_method(monkeypatch):
    monkeypatch.setitem(METHODS, "demo", dataclasses.replace(METHODS["bfs"], name="demo"))
    return "demo"


@pytest.fixture
def demo_heuristic(monkeypatch):
    monkeypatch.setitem(
        HEURISTICS, "demo", dataclasses.replace(HEURISTICS["manhattan"], name="demo", aliases=())
    )
    return "demo"


def test_an_added_method_is_accepted_and_listed(cli, demo_method):
    assert check_options(method=demo_method).method == demo_method
    board = random_board("3x3", seed=11)
    s = slidelab.solve(board, method=demo_method)
    assert apply_moves(s.start, s.moves) == s.goal and s.length == slidelab.solve(board).length
    assert demo_method in solve_help(cli).replace(",", " ").replace(".", " ").split()
    result = cli("solve", board, "--method", demo_method)
    assert result.exit_code == 0, result.output


def test_an_added_heuristic_is_accepted_and_listed(cli, demo_heuristic):
    assert check_options(method="idastar", heuristic=demo_heuristic).heuristic == demo_heuristic
    board = random_board("3x3", seed=12)
    s = slidelab.solve(board, method="idastar", heuristic=demo_heuristic)
    assert apply_moves(s.start, s.moves) == s.goal and s.length == slidelab.solve(board).length
    assert demo_heuristic in solve_help(cli)
    result = cli("solve", board, "--method", "idastar", "--heuristic", demo_heuristic)
    assert result.exit_code == 0, result.output


def test_the_cli_takes_every_heuristic_by_its_aliases(cli):
    # the registry's aliases (wd, dual, lc, ...) are the library's and the command line's
    # alike; click's own check refused them (a Choice of the names alone)
    import click

    from slidelab.cli.common import _HeuristicChoice

    choice = _HeuristicChoice()
    for name, spec in HEURISTICS.items():
        for alias in (name, *spec.aliases, name.upper()):
            given = choice.convert(alias, None, None)
            assert check_options(method="idastar", heuristic=given).heuristic == name
    with pytest.raises(click.BadParameter, match="'euclid' is not one of 'manhattan'"):
        choice.convert("euclid", None, None)
    result = cli("solve", "1 2 3/4 5 6/7 0 8", "--method", "idastar", "--heuristic", "wd")
    assert result.exit_code == 0 and "1 move" in result.output, result.output


def test_the_help_lists_every_entry(cli):
    text = solve_help(cli)
    for name in [*METHODS, *HEURISTICS]:
        assert name in text, name


def test_the_architecture_pages_method_is_added_as_it_says(cli, monkeypatch, tables):
    """docs/explanation/architecture.md, "Where to add what": its worked example (greedy
    best-first search) is run as written, its module and its entry taken from the page, and
    checked as the page says every front door picks it up: the options, ``solve``, the command
    line and the contract of :func:`test_method_solves_random_positions`."""
    import re
    import sys
    import textwrap
    import types
    from pathlib import Path

    from slidelab.search.registry import Method

    page = (Path(__file__).parents[1] / "docs/explanation/architecture.md").read_text()
    section = page[page.index("**A search method**") : page.index("**A heuristic**")]
    module_source, entry_source = (
        textwrap.dedent(block) for block in re.findall(r"```python\n(.*?)```", section, re.S)
    )
    module = types.ModuleType("slidelab.search.greedy")
    module.__package__ = "slidelab.search"
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(module_source, "architecture.md", "exec"), module.__dict__)
    entry = eval(entry_source.strip().rstrip(","), {"Method": Method})
    monkeypatch.setitem(METHODS, entry.name, entry)

    assert check_options(method="greedy", heuristic="lc").heuristic == "linear-conflict"
    for size in SIZES:
        for seed in range(SOLVED):
            board = random_board(size, seed=seed)
            s = slidelab.solve(board, method="greedy")
            assert apply_moves(s.start, s.moves) == s.goal and not s.optimal
            assert s.length >= exact(tables, board)
    result = cli("solve", random_board("3x3", seed=1), "--method", "greedy")
    assert result.exit_code == 0 and "method greedy" in result.output, result.output
