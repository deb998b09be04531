"""A solve's request is read once (slidelab.search.request): a web solve and a command-line solve
parse the board, check its solvability and resolve the method and heuristic names once each,
and what goes to a worker is the checked puzzle and options, never text."""

from __future__ import annotations

import importlib
import pickle
import sys
from collections import Counter

import pytest

from slidelab.errors import SlidelabError, UnsolvableError
from slidelab.puzzle import Puzzle
from slidelab.search.options import check_options
from slidelab.search.request import Request, read_request

HARDEST = "8 6 7/2 5 4/3 0 1"

#: what is counted: (module, function) -> the name of its count
COUNTED = {
    ("slidelab.parse", "parse_cells"): "parse",
    ("slidelab.solvability", "check"): "check",
    ("slidelab.search.registry", "method_name"): "method",
    ("slidelab.heuristics.registry", "heuristic_name"): "heuristic",
}


@pytest.fixture
def counts(monkeypatch) -> Counter:
    """How many times each counted function is called from now on, wherever it was imported
    (a ``from module import name`` elsewhere is counted too)."""
    for module in (
        "slidelab.board",
        "slidelab.cli.solve",
        "slidelab.heuristics.make",
        "slidelab.search.many",
        "slidelab.search.solve",
        "slidelab.web.app",
        "slidelab.web.job_routes",
        "slidelab.web.reading",
        "slidelab.workers.jobs",
    ):
        importlib.import_module(module)
    seen: Counter = Counter()
    for (module, name), key in COUNTED.items():
        original = getattr(importlib.import_module(module), name)

        def counted(*args, _original=original, _key=key, **kwargs):
            seen[_key] += 1
            return _original(*args, **kwargs)

        for loaded in list(sys.modules.values()):
            if getattr(loaded, "__name__", "").startswith("slidelab") and (
                getattr(loaded, name, None) is original
            ):
                monkeypatch.setattr(loaded, name, counted)
    return seen


def test_a_command_line_solve_reads_its_request_once(cli, counts):
    result = cli("solve", HARDEST, "--method", "A*", "--heuristic", "linear-conflict", "--json")
    assert result.exit_code == 0, result.output
    assert '"length": 31' in result.stdout
    assert counts == {"parse": 1, "check": 1, "method": 1, "heuristic": 1}


def test_a_web_solve_reads_its_request_once(monkeypatch, counts):
    """The app's own path, its worker's job run in this process (after a pickling round trip,
    as a worker process receives it) so that the worker's reading is counted too."""
    from fastapi.testclient import TestClient

    from slidelab.web.app import create_app
    from slidelab.workers import Job, WorkerPool, run_job

    def submit(pool, kind, args, time_limit, owner=None):
        job = Job(id="1-test", kind=kind, args=args, hard_limit=time_limit, owner=owner)
        status, payload = run_job(kind, pickle.loads(pickle.dumps(args)))
        job.status = status
        job.result, job.error = (payload, None) if status == "done" else (None, payload)
        job.future.set_result(job)
        return job

    monkeypatch.setattr(WorkerPool, "submit", submit)
    app = create_app(prestart=False)
    counts.clear()  # the warm-up jobs are made with the app, not by the solve
    with TestClient(app) as client:
        body = {"board": HARDEST, "method": "A*", "heuristic": "linear-conflict"}
        response = client.post("/api/solve", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["length"] == 31
    assert counts == {"parse": 1, "check": 1, "method": 1, "heuristic": 1}


def test_a_stream_makes_each_boards_plan_once(monkeypatch):
    """solve_many makes a goal's plan and tables ready once (prepare_request, for every board
    of that goal: search/stream.Plans) and hands them to solve_request, which makes neither
    again; the plan reads its keywords from the registry, not from the method's signature."""
    import inspect

    from slidelab.search.many import solve_many

    plan_module = importlib.import_module("slidelab.search.plan")
    solve_module = importlib.import_module("slidelab.search.solve")  # the function shadows it

    made = Counter()
    for module, name in ((solve_module, "make_plan"), (solve_module, "prepare_tables")):
        original = getattr(module, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            made[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    # the weight a method takes is declared by its registry entry (Method.options): no look at
    # the function's signature on every solve
    assert "signature" not in inspect.getsource(plan_module.Plan.keywords)
    boards = ["1 2 3/4 5 6/0 7 8", HARDEST, "1 2 3 4/5 6 0 7", "1 2 3/4 0 6/7 5 8"]
    options = check_options(method="astar", heuristic="linear-conflict")
    results = list(solve_many((Puzzle(b) for b in boards), options=options, workers=2))
    assert [r.length for r in results] == [2, 31, 1, 2]
    assert made == {"make_plan": 2, "prepare_tables": 2}  # two goals: 3x3 and 4x2


def test_a_request_pickles_as_values():
    request = read_request("ABA_/CDCD/ABAB/CDCD", "ABA_/CABD/ACDB/CDCD", method="ida*")
    again = pickle.loads(pickle.dumps(request))
    assert again == request and isinstance(again, Request)
    assert again.puzzle.goal == request.puzzle.goal and again.options.method == "idastar"


def test_the_reader_refuses_what_it_should():
    with pytest.raises(SlidelabError, match="not with a goal board"):
        Puzzle("1 2/3 0", "1 2/3 0", blank_first=True)  # it was dropped silently
    assert Puzzle("2 1/3 0", "2x2", blank_first=True).goal.format() == "0 1/2 3"
    with pytest.raises(UnsolvableError):
        read_request("1 2 3/4 5 6/8 7 0")
    with pytest.raises(SlidelabError, match="unknown search option 'wieght'"):
        read_request(HARDEST, wieght=2)
    with pytest.raises(SlidelabError, match="--time-limit must be"):
        check_options().replace(time_limit=-1, names={"time_limit": "--time-limit"})
