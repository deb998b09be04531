"""The web API (``slidelab serve``) through FastAPI's test client, and a schemathesis run."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (the test client's transport) is not installed")

from fastapi.testclient import TestClient  # noqa: E402

from slidelab.web import create_app  # noqa: E402

STATIC = Path(__file__).resolve().parent.parent / "slidelab" / "web" / "static"
HARDEST = "8 6 7/2 5 4/3 0 1"
KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
#: a solve that runs to its time limit: Korf's #1 by IDA* with no estimate (with Manhattan
#: distance it now answers in a second or two: IDA* prunes duplicate paths)
HARD_SOLVE = {
    "board": KORF_1,
    "blank_first": True,
    "method": "idastar",
    "heuristic": "zero",
    "time_limit": 20,
}


#: the table cache limit of the apps made here outside the shared fixture: none.  These apps use
#: the run's table cache (the developer's own where ``SLIDELAB_CACHE`` or HOME points at it), and
#: the server's default limit once trimmed it to 2 GiB after their jobs, deleting the developer's
#: larger tables (a 1.5 GB MTM table was lost so; a server now trims only the tables it wrote);
#: the limit's own tests have a cache of their own
KEEP = None


@pytest.fixture(scope="module")
def client(session_cache):
    """A server whose workers warm up from the run's cache (conftest's ``session_cache``: its
    first tables are built by the first server of the run); it builds no later tables (the
    15-puzzle's abstraction tables in MTM: minutes, which these tests do not need)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SLIDELAB_CACHE", session_cache)
        app = create_app(
            workers=1, max_time_limit=20, grace=5, later_tables=False, cache_limit=KEEP
        )
        with TestClient(app) as c:
            wait_ready(c)
            yield c


def wait_ready(client, timeout=600):
    """Wait until the workers have warmed up (``GET /api/status``): in a fresh cache, the
    warm-up builds the server's first tables (the 15-puzzle's first pattern databases)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = client.get("/api/status")
        if status.status_code != 200 or status.json()["ready"]:
            return
        time.sleep(0.1)


def error_of(response, status):
    from slidelab.web.schemas import ErrorOut

    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"error"}
    assert isinstance(body["error"], str) and body["error"] and "\n" not in body["error"]
    # the body the schema declares for every error (its fields and types)
    assert set(body) <= set(ErrorOut.model_fields), body
    ErrorOut.model_validate(body)
    return body["error"]


def test_the_schema_declares_the_error_body_the_server_sends(client):
    # every 4xx and 5xx answer of every route is ErrorOut, not FastAPI's HTTPValidationError
    schema = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    declared = 0
    for operations in schema["paths"].values():
        for op in operations.values():
            for status, answer in op["responses"].items():
                if status[0] in "45":
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorOut"), (status, ref)
                    declared += 1
    assert declared >= 20


# -- the page -----------------------------------------------------------------------------------


def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/static/main.js">' in page.text
    assert "http" not in page.text.replace("http://www.w3.org", "")
    modules = sorted(p.name for p in STATIC.glob("*.js"))  # main.js and the modules it imports
    assert "main.js" in modules and "app.js" not in modules
    for name in (*modules, "style.css"):
        got = client.get(f"/static/{name}")
        assert got.status_code == 200, name
    for name in modules:  # a browser runs a module only of a JavaScript type
        assert "javascript" in client.get(f"/static/{name}").headers["content-type"], name
    error_of(client.get("/static/nope.js"), 404)
    error_of(client.get("/no/such/page"), 404)


def test_openapi_lists_the_endpoints(client):
    """The jobs a client follows (solve, compare, hint) have one shape: start, see, cancel."""
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/check", "/api/generate", "/api/analyze", "/api/status", "/api/methods"} <= set(
        paths
    )
    for kind in ("solve", "compare", "hint"):
        assert set(paths[f"/api/{kind}"]) == {"post"}
        assert set(paths[f"/api/{kind}/{{job_id}}"]) == {"get", "delete"}


def test_the_status_says_the_limits_the_page_uses(client):
    """The page wrote 60, 10 and 5 s itself; the server says them once (``limits``)."""
    from slidelab.web.lanes import (
        DEFAULT_TIME_LIMIT,
        HINT_TIME_LIMIT,
        LAB_TIME_LIMIT,
        MAX_RECORD,
        UNPOLLED_SECONDS,
    )

    assert client.get("/api/status").json()["limits"] == {
        "time_limit": DEFAULT_TIME_LIMIT,
        "max_time_limit": 20,  # this app's (create_app(max_time_limit=20))
        "hint_time_limit": HINT_TIME_LIMIT,
        "lab_time_limit": LAB_TIME_LIMIT,
        "unpolled_seconds": UNPOLLED_SECONDS,
        "max_record": MAX_RECORD,
    }


def test_a_review_judges_each_move(client):
    body = {"board": HARDEST, "moves": "L R D2RU2L2D2RURUL2D2RURUL2D2R2U2L2"}
    review = client.post("/api/review", json=body).json()
    assert review["summary"] == "33 moves, optimal 31: 2 lost, at move 2 (2)"
    assert review["steps"][1] == {
        "number": 2, "move": "R", "before": 30, "after": 31, "lost": 2, "good": ["D"],
        "seconds": None, "before_bounds": [30, 30], "after_bounds": [31, 31],
        "lost_bounds": [2, 2],
    }  # fmt: skip
    mtm = client.post("/api/review", json={**body, "metric": "mtm"}).json()
    assert mtm["optimum"] == 20 and mtm["length"] == 22
    bad = error_of(client.post("/api/review", json={**body, "moves": "U"}), 400)
    assert bad.startswith("move 1 (U) is illegal")


def test_a_hint_is_a_job_like_a_solve(client):
    """A hint started without waiting is followed and its result read like a solve's."""
    started = client.post("/api/hint", json={"board": HARDEST, "wait": False})
    assert started.status_code == 202
    hint_id = started.json()["id"]
    for _ in range(100):
        view = client.get(f"/api/hint/{hint_id}").json()
        if view["status"] not in ("queued", "running"):
            break
        time.sleep(0.05)
    assert view["status"] == "done" and view["result"]["distance"] == 31, view
    error_of(client.get("/api/hint/nope"), 404)


# -- methods ------------------------------------------------------------------------------------


def test_methods_lists_the_registries(client):
    from slidelab.heuristics.registry import HEURISTICS
    from slidelab.search.registry import METHODS

    body = client.get("/api/methods").json()
    assert [m["name"] for m in body["methods"]] == list(METHODS)
    assert [h["name"] for h in body["heuristics"]] == list(HEURISTICS)
    idastar = next(m for m in body["methods"] if m["name"] == "idastar")
    assert idastar == {
        "name": "idastar",
        "summary": METHODS["idastar"].summary,
        "aliases": list(METHODS["idastar"].aliases),
        "optimal": True,
        "options": list(METHODS["idastar"].options),
        "metrics": list(METHODS["idastar"].metrics),
    }
    assert next(m for m in body["methods"] if m["name"] == "bfs")["options"] == []
    pdb = next(h for h in body["heuristics"] if h["name"] == "pdb")
    assert pdb["admissible"] is True and pdb["summary"] == HEURISTICS["pdb"].summary
    schema = client.get("/openapi.json").json()
    assert "/api/methods" in schema["paths"] and "MethodsOut" in schema["components"]["schemas"]


def test_a_method_added_to_the_registry_is_listed_and_accepted(client, monkeypatch):
    import dataclasses

    from slidelab.search.registry import METHODS

    monkeypatch.setitem(METHODS, "demo", dataclasses.replace(METHODS["bfs"], name="demo"))
    names = [m["name"] for m in client.get("/api/methods").json()["methods"]]
    assert names == list(METHODS) and names[-1] == "demo"
    # an unsolvable board: refused as such (422) once the options pass, with no worker run
    unsolvable = "1 2 3/4 5 6/8 7 0"
    message = error_of(client.post("/api/solve", json={"board": unsolvable, "method": "demo"}), 422)
    assert message.startswith("unsolvable")
    message = error_of(
        client.post("/api/solve", json={"board": unsolvable, "method": "Demo", "heuristic": "pdb"}),
        400,
    )
    assert "demo takes no heuristic" in message
    monkeypatch.delitem(METHODS, "demo")
    message = error_of(client.post("/api/solve", json={"board": unsolvable, "method": "demo"}), 400)
    assert "unknown method" in message


def test_the_lane_rule_takes_the_options_as_read_once():
    from slidelab.search.options import check_options
    from slidelab.web.lanes import is_cheap

    def read(method, heuristic=None):  # names are resolved once, where the options are read
        return check_options(method=method, heuristic=heuristic)

    assert is_cheap(9) and is_cheap(9, read("IDA*", "manhattan")) and not is_cheap(16)
    assert not is_cheap(9, read("ida", "None")) and not is_cheap(9, read(" IDAstar ", "zero"))
    assert is_cheap(9, read("astar", "zero")) and is_cheap(9, read("auto"))


# -- check --------------------------------------------------------------------------------------


def test_check_solvable_and_unsolvable(client):
    ok = client.post("/api/check", json={"board": HARDEST}).json()
    assert ok["solvable"] is True and ok["reason"].startswith("solvable")
    assert ok["cells"] == [8, 6, 7, 2, 5, 4, 3, 0, 1] and ok["goal"] == "1 2 3/4 5 6/7 8 0"
    assert (ok["width"], ok["height"], ok["size"]) == (3, 3, "3x3")
    bad = client.post("/api/check", json={"board": "1 2 3/4 5 6/8 7 0"}).json()
    assert bad["solvable"] is False and bad["reason"].startswith("unsolvable: permutation parity")


def test_check_any_format_goal_and_labels(client):
    body = client.post("/api/check", json={"board": "[[1,2],[3,0]]", "blank_first": True}).json()
    assert body["goal"] == "0 1/2 3" and body["start"] == "1 2/3 0"
    line = client.post(
        "/api/check", json={"board": "ABA_/CDCD/ABAB/CDCD", "goal": "ACA_/CDCA/DBAB/CDBD"}
    ).json()
    assert (
        line["solvable"] is True
        and line["repeats"] is True
        and line["cells"][:4] == ["A", "B", "A", 0]
    )
    contest = client.post("/api/check", json={"board": "1 2 3 x 4 6 7 5 8"}).json()
    assert contest["start"] == "1 2 3/0 4 6/7 5 8"


@pytest.mark.parametrize(
    "body, fragment",
    [
        ({"board": "1 2 3/4 5"}, "row 2"),
        ({"board": "1 2 3/4 5 6/7 8 9"}, ""),
        ({"board": "1 2/3 0", "goal": "1 2 3/4 5 6/7 8 0"}, ""),
        ({"board": "1 2/3 0", "goal": "1 2/3 0", "blank_first": True}, "not both"),
        (
            {"board": "1 2 3/4 5 6/7 7 0"},
            "tile 7 appears twice (row 3, column 1 and row 3, column 2)",
        ),
    ],
)
def test_check_malformed_boards_are_400(client, body, fragment):
    assert fragment in error_of(client.post("/api/check", json=body), 400)


@pytest.mark.parametrize(
    "body",
    [
        {"board": 123},
        {"board": ["1 2", "3 0"]},
        {"board": "1 2/3 0", "blank_first": "yes"},
        {"board": "1 2/3 0", "extra": 1},
        {},
        [],
    ],
)
def test_check_wrong_types_are_422(client, body):
    error_of(client.post("/api/check", json=body), 422)


def test_malformed_json_is_422(client):
    message = error_of(
        client.post(
            "/api/check", content=b'{"board": ', headers={"content-type": "application/json"}
        ),
        422,
    )
    assert "JSON" in message


def test_oversized_body_is_413(client):
    message = error_of(client.post("/api/check", json={"board": "1 " * 20000}), 413)
    assert "bytes" in message
    # also without a Content-Length (chunked upload)
    chunks = (b"x" * 4096 for _ in range(10))
    error_of(
        client.post("/api/solve", content=chunks, headers={"content-type": "application/json"}), 413
    )


# -- generate -----------------------------------------------------------------------------------


def test_generate_uniform_and_random_walk(client):
    boards = client.post("/api/generate", json={"size": "4x4", "n": 3, "seed": 1}).json()["boards"]
    assert len(boards) == 3
    again = client.post("/api/generate", json={"size": "4x4", "n": 3, "seed": 1}).json()["boards"]
    assert boards == again
    for b in boards:
        assert client.post("/api/check", json={"board": b}).json()["solvable"]
    walk = client.post(
        "/api/generate", json={"goal": "1 2 3/4 5 6/7 8 0", "moves": 1, "seed": 3}
    ).json()["boards"][0]
    assert walk in ("1 2 3/4 5 6/7 0 8", "1 2 3/4 5 0/7 8 6")
    line = client.post(
        "/api/generate", json={"goal": "ABA_/CDCD/ABAB/CDCD", "seed": 2, "format": "compact"}
    )
    assert line.status_code == 200, line.text


@pytest.mark.parametrize(
    "body, status",
    [
        ({}, 400),
        ({"size": "4"}, 400),
        ({"size": "1x5"}, 400),
        ({"size": "100x100"}, 400),
        ({"size": "3x3", "n": 0}, 422),
        ({"size": "3x3", "n": 1000}, 422),
        ({"size": "3x3", "moves": -1}, 422),
        ({"size": "3x3", "format": "fancy"}, 422),
        ({"goal": "1 2/3"}, 400),
        ({"size": "3x3", "goal": "1 2/3 0"}, 400),
    ],
)
def test_generate_bad_input(client, body, status):
    error_of(client.post("/api/generate", json=body), status)


# -- solve --------------------------------------------------------------------------------------


def test_solve_waits_for_the_solution(client):
    body = client.post("/api/solve", json={"board": HARDEST}).json()
    assert {
        "start",
        "goal",
        "size",
        "solution",
        "length",
        "optimal",
        "method",
        "stats",
        "id",
    } <= set(body)
    assert body["length"] == 31 and body["optimal"] is True and body["size"] == "3x3"
    assert set(body["stats"]) == {
        "expanded",
        "generated",
        "stored",
        "peak_frontier",
        "seconds",
        "expanded_forward",
        "expanded_backward",
        "phases",
        "visits",
    }
    status = client.get(f"/api/solve/{body['id']}").json()
    assert status["status"] == "done" and status["result"]["solution"] == body["solution"]


def test_solve_method_heuristic_and_goal(client):
    body = client.post(
        "/api/solve",
        json={
            "board": "0 1 2/3 4 5/6 7 8",
            "goal": "3 1 2/4 7 5/6 0 8",
            "method": "idastar",
            "heuristic": "linear-conflict",
        },
    ).json()
    assert body["length"] == 3 and body["method"].startswith("idastar")
    weighted = client.post(
        "/api/solve", json={"board": HARDEST, "method": "weighted-astar", "weight": 2}
    ).json()
    assert weighted["length"] >= 31 and weighted["optimal"] is False


def test_solve_unsolvable_is_422(client):
    message = error_of(client.post("/api/solve", json={"board": "1 2 3/4 5 6/8 7 0"}), 422)
    assert message.startswith("unsolvable")


@pytest.mark.parametrize(
    "body, status",
    [
        ({"board": "1 2 3/4 5"}, 400),
        ({"board": HARDEST, "method": "magic"}, 400),
        ({"board": HARDEST, "heuristic": "psychic"}, 400),
        ({"board": HARDEST, "time_limit": 0}, 422),
        ({"board": HARDEST, "time_limit": 1e9}, 422),
        ({"board": HARDEST, "time_limit": "10"}, 422),
        ({"board": HARDEST, "weight": 0.5}, 422),
        ({"board": HARDEST, "wait": "no"}, 422),
        ({"board": None}, 422),
    ],
)
def test_solve_bad_input(client, body, status):
    error_of(client.post("/api/solve", json=body), status)


def test_solve_time_limit(client):
    """A search stopped at its time limit is a limit reached (422, kind ``limit``, with what it
    did).  How long the answer took in all is not what is asserted: its clock starts when a
    warm worker takes it, after any warm-up it waited for (the server's own work)."""
    response = client.post(
        "/api/solve",
        json={**HARD_SOLVE, "time_limit": 0.5},
    )
    message = error_of(response, 422)
    assert message.startswith("limit reached")
    body = response.json()
    assert body["kind"] == "limit" and body["stats"]["generated"] > 0, body
    assert "remedy" not in body  # no estimate has no tables that would help


#: Korf's 15-puzzle #1 (57 moves) and its goal (the blank first) mirrored left to right: a goal
#: whose tables the server does not build
MIRRORED_GOAL = "3 2 1 0/7 6 5 4/11 10 9 8/15 14 13 12"
MIRRORED_KORF_1 = "/".join(
    " ".join(reversed(row.split())) for row in ("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3").split("/")
)


def _no_command(body) -> None:
    """Nothing the page gets names a command (it has no shell) or a command-line option."""
    text = json.dumps(body)
    assert "slidelab " not in text and "tables build" not in text and "--" not in text, text


def test_a_limit_reached_names_the_tables_that_would_help_never_a_command(client):
    """A solve of a goal whose tables are not built, with a time too short to build them,
    answers why (the limit) and what would help: which tables, how big, how long, and the time
    limit that builds them (the server does not build that goal's); the same in its view."""
    request = {"board": MIRRORED_KORF_1, "goal": MIRRORED_GOAL, "time_limit": 0.5}
    response = client.post("/api/solve", json=request)
    message = error_of(response, 422)
    body = response.json()
    _no_command(body)
    remedy = body["remedy"]
    assert remedy["tables"] == f"the 6-6-3 pattern databases of the 4x4 goal {MIRRORED_GOAL}"
    assert remedy["server"] is None and remedy["bytes"] == 23_334_976 and remedy["seconds"] > 0
    assert remedy["advice"].startswith(remedy["tables"] + " would help (22.3 MiB, about ")
    assert (
        "a solve with a time limit of" in remedy["advice"]
        or "longer than the 20 s" in (remedy["advice"])
    )
    assert message.startswith("limit reached") and message.endswith("; " + remedy["advice"])
    job = client.post("/api/solve", json={**request, "wait": False}).json()
    view = client.get(f"/api/solve/{job['id']}").json()
    while view["status"] in ("queued", "running"):
        _no_command(view)
        time.sleep(0.1)
        view = client.get(f"/api/solve/{job['id']}").json()
    _no_command(view)
    assert view["status"] == "failed" and view["error_kind"] == "limit"
    assert view["remedy"]["tables"] == remedy["tables"] and view["error"].endswith(
        view["remedy"]["advice"]
    )


def test_a_bounded_answer_names_its_remedy_in_the_page_s_words(client):
    """A board past the 15-puzzle with a short time limit gets a bounded answer, labelled,
    which names the tables that would have made it better in the page's words; what the
    solve said meanwhile names no command either."""
    from korf import korf24

    puzzle, _ = korf24(1)
    job = client.post(
        "/api/solve",
        json={"board": puzzle.start.format(), "blank_first": True, "time_limit": 1, "wait": False},
    ).json()
    view = client.get(f"/api/solve/{job['id']}").json()
    while view["status"] in ("queued", "running"):
        _no_command(view)
        time.sleep(0.1)
        view = client.get(f"/api/solve/{job['id']}").json()
    _no_command(view)
    assert view["status"] == "done" and view["result"]["optimal"] is False, view
    remedy = view["result"]["remedy"]
    assert remedy["tables"].startswith("the 6-6-6-6 pattern databases of the 5x5 goal")
    assert remedy["server"] is None and remedy["advice"].startswith(remedy["tables"])


def test_status_lists_the_server_s_tables(client):
    """The server's own tables, each with its state: the first ones ready once it is, the
    later ones skipped by a server that builds none (this one), unless the cache has them."""
    from slidelab.search.policy import server_tables

    first, later = server_tables()
    rows = client.get("/api/status").json()["tables"]
    while not rows or any(row["state"] == "queued" for row in rows):  # its builder's report
        time.sleep(0.1)
        rows = client.get("/api/status").json()["tables"]
    assert [(row["tables"], row["when"]) for row in rows] == [
        *((t.describe(), "first") for t in first),
        *((t.describe(), "later") for t in later),
    ]
    assert {row["state"] for row in rows if row["when"] == "first"} == {"ready"}
    for row in rows[len(first) :]:
        assert row["state"] == "ready" or (row["state"], row["reason"]) == (
            "skipped",
            "this server builds no later tables",
        ), row
    assert rows[len(first) - 2]["size"] == "4x4" and rows[len(first) - 2]["bytes"] == 23_334_976


def test_a_remedy_says_what_the_server_does_about_its_tables():
    from slidelab.web.errors import page_remedy, without_commands

    remedy = {
        "tables": "the 6-6-3 pattern databases of the 4x4 goal",
        "bytes": 23_334_976,
        "seconds": 7.7,
        "command": "slidelab tables build 4x4",
    }
    states = [{"tables": remedy["tables"], "state": "building"}]
    said = page_remedy(remedy, states, 60)
    assert "command" not in said and said["server"] == "building"
    assert said["advice"] == (
        "the 6-6-3 pattern databases of the 4x4 goal would help (22.3 MiB, about 7.7 s to build"
        " once): the server is building them now; solve again once they are ready"
    )
    assert page_remedy(remedy, [{**states[0], "state": "queued"}], 60)["advice"].endswith(
        ": the server builds them once it has warmed up"
    )
    assert page_remedy(remedy, [{**states[0], "state": "ready"}], 60)["advice"].endswith(
        ": the server has them now; solve again"
    )
    assert page_remedy(remedy, [], 60)["advice"].endswith(
        ": a solve with a time limit of 9 s or more builds them"
    )
    assert page_remedy({**remedy, "seconds": 600}, [], 60)["advice"].endswith(
        ": building them takes longer than the 60 s a solve may take here"
    )
    assert page_remedy(None, states, 60) is None
    notice = (
        "no proven optimum within 5 s of search; solving by the constructive method (fast, not"
        " optimal); the 6-6-6-6 pattern databases of the 5x5 goal would help (486 MiB, about 33"
        " min to build once, plus about 20 s compiling its kernels the first time): slidelab tables build"
        ' "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24" --partition 6-6-6-6'
    )
    assert without_commands(notice) == (
        "no proven optimum within 5 s of search; solving by the constructive method (fast, not"
        " optimal)"
    )


def test_solve_in_background_progress_and_cancel(client):
    started = client.post(
        "/api/solve",
        json={**HARD_SOLVE, "wait": False},
    )
    assert started.status_code == 202
    solve_id = started.json()["id"]
    deadline = time.monotonic() + 15
    status = {}
    while time.monotonic() < deadline:
        status = client.get(f"/api/solve/{solve_id}").json()
        if status["status"] == "running" and "bound" in status["progress"]:
            break
        time.sleep(0.1)
    assert status["status"] == "running" and status["progress"]["method"] == "idastar"
    # the server answers other requests while the solve runs
    assert client.post("/api/check", json={"board": HARDEST}).status_code == 200
    assert client.get(f"/api/solve/{solve_id}").json()["status"] == "running"
    cancelled = client.delete(f"/api/solve/{solve_id}").json()
    assert cancelled["status"] == "cancelled" and cancelled["error"] == "cancelled"
    # a fresh worker takes the next solve
    assert client.post("/api/solve", json={"board": "1 2 3/4 5 6/0 7 8"}).json()["solution"] == "L2"


def test_a_job_nobody_polls_ends_and_one_that_is_polled_runs_on(client, monkeypatch):
    """A ``wait: false`` solve or comparison whose page was closed ran to its limit (a hard
    worker busy for up to 810 s).  The server ends a job nobody has asked for in
    ``UNPOLLED_SECONDS``; one that is polled runs on.  (The waits here are the server's own
    setting, made short: no time is asserted.)"""
    from slidelab.web import lanes

    monkeypatch.setattr(lanes, "UNPOLLED_SECONDS", 1.0)
    polled = client.post("/api/solve", json={**HARD_SOLVE, "wait": False}).json()["id"]
    for _ in range(30):  # 3 s of polling: more than UNPOLLED_SECONDS
        assert client.get(f"/api/solve/{polled}").json()["status"] in ("queued", "running")
        time.sleep(0.1)
    client.delete(f"/api/solve/{polled}")
    left = client.post("/api/solve", json={**HARD_SOLVE, "wait": False}).json()["id"]
    time.sleep(3 * lanes.UNPOLLED_SECONDS)  # nobody asks
    view = client.get(f"/api/solve/{left}").json()
    assert view["status"] == "cancelled", view
    body = {**HARD_SOLVE, "methods": ["idastar", "astar"], "wait": False}
    del body["method"]
    compare = client.post("/api/compare", json=body).json()["id"]
    time.sleep(3 * lanes.UNPOLLED_SECONDS)
    assert client.get(f"/api/compare/{compare}").json()["status"] == "cancelled"


def test_unknown_solve_is_404(client):
    error_of(client.get("/api/solve/nope"), 404)
    error_of(client.delete("/api/solve/nope"), 404)


# -- analyze ------------------------------------------------------------------------------------


def test_analyze_small_boards(client):
    body = client.post("/api/analyze", json={"goal": "3x3"}).json()
    assert body["states"] == 181440 and body["diameter"] == 31 and len(body["counts"]) == 32
    assert body["counts"][:3] == [1, 2, 4] and sum(body["counts"]) == 181440
    small = client.post("/api/analyze", json={"goal": "1 2/3 0"}).json()
    assert small["counts"] == [1, 2, 2, 2, 2, 2, 1]
    first = client.post("/api/analyze", json={"goal": "2x2", "blank_first": True}).json()
    assert first["goal"] == "0 1/2 3" and first["states"] == 12


@pytest.mark.parametrize(
    "body, status",
    [
        ({"goal": "4x4"}, 400),
        ({"goal": "1 2/3"}, 400),
        ({"goal": 3}, 422),
        ({"goal": "1 2/3 0", "blank_first": True}, 400),
    ],
)
def test_analyze_bad_input(client, body, status):
    error_of(client.post("/api/analyze", json=body), status)


# -- hint ---------------------------------------------------------------------------------------


def _after(board: str, move: str) -> str:
    """``board`` (slash text) after the single-tile ``move`` (tile notation: where the tile goes)."""
    rows = [row.split() for row in board.split("/")]
    br, bc = next((r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == "0")
    r, c = {"U": (br + 1, bc), "D": (br - 1, bc), "L": (br, bc + 1), "R": (br, bc - 1)}[move]
    rows[br][bc], rows[r][c] = rows[r][c], "0"
    return "/".join(" ".join(row) for row in rows)


def test_hint_gives_the_distance_and_a_best_next_move(client):
    body = client.post("/api/hint", json={"board": HARDEST}).json()
    assert body["distance"] == 31 and body["exact"] is True and body["lower_bound"] is None
    assert body["how"] == "distance table" and body["metric"] == "stm"
    assert body["move"] in ("U", "D", "L", "R") and "31" in body["message"]
    # the move is one of an optimal solution: one move nearer
    after = client.post("/api/hint", json={"board": _after(HARDEST, body["move"])}).json()
    assert after["distance"] == 30
    one = client.post("/api/hint", json={"board": "1 2 3/4 5 6/7 0 8"}).json()
    assert (one["distance"], one["move"], one["tile"]) == (1, "L", 8)
    done = client.post("/api/hint", json={"board": "1 2 3/4 5 6/7 8 0"}).json()
    assert (done["distance"], done["move"], done["exact"]) == (0, None, True)
    mtm = client.post("/api/hint", json={"board": HARDEST, "metric": "MTM"}).json()
    assert (mtm["distance"], mtm["metric"]) == (20, "mtm")
    # a goal of its own, lettered tiles
    line = client.post(
        "/api/hint", json={"board": "A B/0 A", "goal": "A A/B 0", "metric": "stm"}
    ).json()
    assert line["exact"] and line["distance"] >= 1


def test_hint_says_at_least_when_its_time_is_not_enough(client):
    # the goal turned around: over 70 moves, seconds of search with the 6-6-3 tables (Korf's
    # #1 was solved in 0.05 s with them where its kernels were loaded before the clock started)
    reversed_goal = "0 15 14 13/12 11 10 9/8 7 6 5/4 3 2 1"
    body = client.post("/api/hint", json={"board": reversed_goal, "time_limit": 0.05}).json()
    assert body["exact"] is False and body["distance"] is None and body["move"] is None
    assert body["lower_bound"] >= 58 and "at least" in body["message"]  # Manhattan: 58


@pytest.mark.parametrize(
    "body, status",
    [
        ({"board": "1 2 3/4 5 6/8 7 0"}, 422),
        ({"board": "1 2 3/4 5"}, 400),
        ({"board": HARDEST, "metric": "xtm"}, 400),
        ({"board": HARDEST, "time_limit": 0}, 422),
        ({"board": HARDEST, "time_limit": 1e9}, 422),
        ({"board": HARDEST, "method": "bfs"}, 422),
        ({"board": None}, 422),
    ],
)
def test_hint_bad_input(client, body, status):
    message = error_of(client.post("/api/hint", json=body), status)
    if body.get("metric") == "xtm":
        assert client.post("/api/hint", json=body).json()["field"] == "metric", message


# -- compare ------------------------------------------------------------------------------------


def test_compare_runs_each_method_on_the_position(client):
    body = client.post(
        "/api/compare",
        json={
            "board": HARDEST,
            "methods": ["bfs", "IDA*", "a*", "bfs"],
            "time_limit": 10,
            "heuristic": "manhattan",
        },  # fmt: skip
    ).json()
    assert body["start"] == HARDEST and body["metric"] == "stm" and body["id"]
    entries = body["entries"]
    assert [e["method"] for e in entries] == ["bfs", "idastar", "astar"]  # aliases, once each
    for e in entries:
        assert e["error"] is None and e["length"] == 31 and e["optimal"] is True, e
        assert e["expanded"] > 0 and e["generated"] >= e["expanded"] - 1
        assert 0 <= e["search_seconds"] <= e["total_seconds"]
        assert e["setup_seconds"] >= 0 and e["solution"]
    bfs, ida, astar = entries
    assert bfs["heuristic"] is None and ida["heuristic"] and astar["heuristic"]
    layers = [p for p in bfs["phases"] if p["kind"] == "layer"]
    assert layers and layers[-1]["depth"] <= 31
    bounds = [p["depth"] for p in ida["phases"]]
    assert all(p["kind"] == "iteration" for p in ida["phases"])
    assert bounds == sorted(bounds) and bounds[-1] == 31
    assert sum(p["expanded"] for p in ida["phases"]) == ida["expanded"]


def test_compare_records_the_searches_the_lab_plays_back(client):
    """``record``: A*'s expansions and the breadth-first layers' first states, per entry."""
    from slidelab.web.lanes import MAX_RECORD

    body = {"board": HARDEST, "methods": ["astar", "bidirectional", "idastar"], "record": 50}
    astar, both, ida = client.post("/api/compare", json={**body, "heuristic": "manhattan"}).json()[
        "entries"
    ]
    assert len(astar["visits"]) == 50 and astar["visits"][0] == {
        "kind": "expanded", "side": "", "board": HARDEST, "g": 0, "h": 21, "f": 21.0,
        "open": 3, "closed": 1,
    }  # fmt: skip
    assert {v["side"] for v in both["visits"]} == {"forward", "backward"}
    assert ida["visits"] == []
    error_of(client.post("/api/compare", json={**body, "record": MAX_RECORD + 1}), 422)


def test_compare_holds_each_method_to_a_solves_memory_cap(client, monkeypatch):
    # a compare's methods had no memory cap: A* on a hard 15-puzzle held 2,978 MB in a worker,
    # where a solve stops at MAX_SOLVE_BYTES (2 GiB); here the cap is made tiny to see it hold
    monkeypatch.setattr("slidelab.web.job_routes.MAX_SOLVE_BYTES", 64 * 1024)
    body = {"board": HARDEST, "methods": ["astar", "idastar"], "time_limit": 10}
    body["heuristic"] = "manhattan"  # (with the pattern databases A* stores a few nodes)
    astar, ida = client.post("/api/compare", json=body).json()["entries"]
    assert "memory limit of 64 KiB" in astar["error"], astar
    assert ida["error"] is None and ida["length"] == 31  # IDA* stores no states


@pytest.mark.slow  # a first run's server compiles A* and bidirectional BFS for it: 46 s (under 4 s after)
def test_compare_in_the_background_reports_each_method_as_it_ends(client):
    started = client.post(
        "/api/compare",
        json={"board": HARDEST, "methods": ["bidirectional", "astar"], "wait": False},
    )
    assert started.status_code == 202
    compare_id = started.json()["id"]
    deadline = time.monotonic() + 60
    view = {}
    while time.monotonic() < deadline:
        view = client.get(f"/api/compare/{compare_id}").json()
        if view["status"] not in ("queued", "running"):
            break
        assert len(view["progress"].get("entries", [])) <= 2
        time.sleep(0.1)
    assert view["status"] == "done", view
    assert [e["method"] for e in view["result"]["entries"]] == ["bidirectional", "astar"]
    sides = {p["side"] for p in view["result"]["entries"][0]["phases"]}
    assert sides == {"forward", "backward"}
    # a comparison is not a solve, and the other way round
    error_of(client.get(f"/api/solve/{compare_id}"), 404)
    error_of(client.get("/api/compare/nope"), 404)
    error_of(client.delete("/api/compare/nope"), 404)


def test_compare_can_be_cancelled(client):
    started = client.post(
        "/api/compare",
        json={
            "board": KORF_1,
            "blank_first": True,
            "methods": ["idastar"],
            "heuristic": "manhattan",
            "time_limit": 20,
            "wait": False,
        },
    ).json()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if client.get(f"/api/compare/{started['id']}").json()["status"] == "running":
            break
        time.sleep(0.05)
    cancelled = client.delete(f"/api/compare/{started['id']}").json()
    assert cancelled["status"] == "cancelled" and cancelled["error"] == "cancelled"


def test_a_job_belongs_to_the_client_that_started_it(client):
    """Any client that knew a job's id could read or cancel it: another address now gets 404,
    as for an id that does not exist."""
    started = client.post("/api/solve", json={**HARD_SOLVE, "wait": False}).json()
    other = TestClient(client.app, client=("203.0.113.7", 50000))  # the same server
    try:
        for call in (other.get, other.delete):
            assert "no solve with id" in error_of(call(f"/api/solve/{started['id']}"), 404)
        assert client.get(f"/api/solve/{started['id']}").json()["status"] in ("queued", "running")
    finally:
        assert client.delete(f"/api/solve/{started['id']}").json()["status"] == "cancelled"


@pytest.mark.parametrize(
    "body, status",
    [
        ({"board": HARDEST, "methods": []}, 422),
        ({"board": HARDEST, "methods": ["magic"]}, 400),
        ({"board": HARDEST, "methods": "bfs"}, 422),
        ({"board": HARDEST, "heuristic": "psychic"}, 400),
        ({"board": HARDEST, "metric": "xtm"}, 400),
        ({"board": HARDEST, "time_limit": 0}, 422),
        ({"board": HARDEST, "time_limit": 61}, 422),
        ({"board": HARDEST, "time_limit": 30}, 422),  # this server's limit: 20 s
        ({"board": HARDEST, "methods": ["bfs"] * 21}, 422),
        ({"board": "1 2 3/4 5 6/8 7 0"}, 422),
        ({"board": "1 2 3/4 5"}, 400),
    ],
)
def test_compare_bad_input(client, body, status):
    error_of(client.post("/api/compare", json=body), status)


# -- fuzzing the schema -------------------------------------------------------------------------


def test_schema_fuzz_finds_no_server_errors(tmp_path):
    """schemathesis generates requests for every operation from the OpenAPI schema; none may 5xx."""
    schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")
    from hypothesis import HealthCheck, given, settings
    from schemathesis.checks import not_a_server_error

    app = create_app(workers=1, max_time_limit=1, grace=2, prestart=False, cache_limit=KEEP)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 6
    try:
        for operation in operations:

            @given(case=operation.as_strategy())
            @settings(
                max_examples=12,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case):
                case.call_and_validate(checks=[not_a_server_error])

            check()
    finally:
        for pool in (getattr(app.state, "pools", None) or {}).values():
            pool.close()


BIG = "9" * 5000  # over Python's 4,300-digit limit on int("...")
#: JSON number tokens (and a few other values) that no field takes well
NASTY_NUMBERS = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "-1e400",
    "1e-400",
    BIG,
    "-" + BIG,
    BIG + ".5",
    "0." + "0" * 5000 + "1",
    "1" + "0" * 4400,
    "2.5",
    "-1",
    "0",
    "true",
    "null",
    "[]",
    "{}",
]
#: strings that no field takes well: huge numbers, NaN and Infinity as text, 1 MB
NASTY_TEXT = [
    "9" * 4301,
    BIG,
    "9" * 16000,
    "1" * 2**20,
    "x" * 100_000,
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    f"{BIG}x{BIG}",
    f"3x{BIG}",
    f"{BIG}x3",
    "9" * 25 + "x2",
    f"{BIG} 1/2 0",
    f"1 2/3 {BIG}",
    f"[[{BIG}, 1], [2, 0]]",
    f"[{BIG}, 1, 2, 0]",
    "[[NaN, 1], [2, 0]]",
    "[[Infinity, 1], [2, 0]]",
    "[[1e400, 1], [2, 0]]",
    "[[-1, 1], [2, 0]]",
    "[[1.5, 1], [2, 0]]",
    "[[true, 1], [2, 0]]",
    "[]",
    "[[]]",
    "1 2/3 0",
    "3x3",
    "2x2",
    "\u0000",
    " ",
    "",
    "-" + BIG,
]
NASTY = [json.dumps(text) for text in NASTY_TEXT] + NASTY_NUMBERS
#: each endpoint's fields, with a valid value for the required ones
FIELDS = {
    "/api/check": {"board": '"1 2/3 0"', "goal": None, "blank_first": None, "size": None},
    "/api/solve": {
        "board": '"1 2/3 0"',
        "goal": None,
        "blank_first": None,
        "size": None,
        "method": None,
        "heuristic": None,
        "weight": None,
        "time_limit": None,
        "wait": None,
    },
    "/api/generate": {
        "size": '"2x2"',
        "goal": None,
        "blank_first": None,
        "n": None,
        "seed": None,
        "moves": None,
        "format": None,
    },
    "/api/analyze": {"goal": '"2x2"', "size": None, "blank_first": None},
    "/api/hint": {
        "board": '"1 2/3 0"',
        "goal": None,
        "blank_first": None,
        "size": None,
        "metric": None,
        "time_limit": None,
    },
    "/api/compare": {
        "board": '"1 2/3 0"',
        "goal": None,
        "blank_first": None,
        "size": None,
        "methods": None,
        "heuristic": None,
        "metric": None,
        "time_limit": None,
        "wait": None,
    },
}


def raw_body(fields: dict) -> bytes:
    """A JSON object from raw value tokens (json.dumps cannot write NaN or huge numbers as asked)."""
    return ("{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in fields.items()) + "}").encode()


def assert_answered(response, what):
    """2xx, or 4xx with a one-line JSON error; never 5xx."""
    assert response.status_code < 500, (what[:300], response.status_code, response.text[:300])
    if response.status_code >= 400:
        error_of(response, response.status_code)


@pytest.fixture(scope="module")
def fuzz_client():
    with TestClient(
        create_app(workers=1, max_time_limit=2, grace=2, prestart=False, cache_limit=KEEP)
    ) as c:
        yield c


@pytest.mark.slow  # 7 s
def test_fuzz_huge_numbers_nan_infinity_and_megabyte_strings(fuzz_client):
    """Every field of every endpoint given each nasty value, and the bodies themselves: no 5xx."""
    c = fuzz_client
    headers = {"content-type": "application/json"}
    for path, fields in FIELDS.items():
        required = {k: v for k, v in fields.items() if v is not None}
        for value in NASTY:
            body = value.encode()  # the whole body
            assert_answered(c.post(path, content=body, headers=headers), f"{path} {body!r}")
            for field in fields:
                body = raw_body({**required, field: value})
                assert_answered(c.post(path, content=body, headers=headers), f"{path} {body!r}")
    for value in ["9" * 4301, BIG, "NaN", "Infinity", "-1", "1e400", "x" * 10_000]:
        for kind in ("solve", "compare"):
            assert_answered(c.get(f"/api/{kind}/{value}"), value)
            assert_answered(c.delete(f"/api/{kind}/{value}"), value)
    # a megabyte without a Content-Length (chunked) is cut off at the limit too
    chunks = (b'{"board": "' + b"1" * 2**20 + b'"}' for _ in range(1))
    error_of(c.post("/api/check", content=chunks, headers=headers), 413)


def test_fuzz_combinations_of_nasty_values(fuzz_client):
    """hypothesis: several fields nasty at once, mixed with sensible values."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    sensible = [
        '"1 2/3 0"',
        '"0 1/2 3"',
        '"3x3"',
        '"2x2"',
        "true",
        "false",
        "1",
        "2",
        "1.5",
        '"auto"',
        '"manhattan"',
        '"slash"',
    ]
    value = st.sampled_from(NASTY) | st.sampled_from(sensible)
    bodies = st.sampled_from(sorted(FIELDS)).flatmap(
        lambda path: st.tuples(
            st.just(path),
            st.dictionaries(st.sampled_from(sorted(FIELDS[path])), value, min_size=1, max_size=4),
        )
    )

    @given(case=bodies)
    @settings(
        max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    def check(case):
        path, fields = case
        body = raw_body(fields)
        response = fuzz_client.post(
            path, content=body, headers={"content-type": "application/json"}
        )
        assert_answered(response, f"{path} {body!r}")

    check()


# -- the server under a crowd: lanes, limits, warming up -----------------------------------------


def wait_running(client, solve_id, timeout=30):
    deadline = time.monotonic() + timeout
    status = {}
    while time.monotonic() < deadline:
        status = client.get(f"/api/solve/{solve_id}").json()
        if status["status"] == "running" and "bound" in status["progress"]:
            return status
        time.sleep(0.05)
    raise AssertionError(f"not running after {timeout} s: {status}")


def test_head_of_the_page(client):
    head = client.head("/")
    assert head.status_code == 200 and "text/html" in head.headers["content-type"]
    assert head.content == b""


def test_errors_name_the_api_fields_not_the_command_line_flags(client):
    one_line = "1 2 3 4 5 6 7 8 9 10 11 0"
    answer = client.post("/api/check", json={"board": one_line})
    message = error_of(answer, 400)
    assert "--" not in message and '"size"' in message and "rows separated by '/'" in message
    assert answer.json()["field"] == "size"
    ok = client.post("/api/check", json={"board": one_line, "size": "4x3"}).json()
    assert ok["start"] == "1 2 3 4/5 6 7 8/9 10 11 0"


def test_slow_generate_does_not_hold_up_other_requests(client):
    """A random walk of millions of moves runs in a worker: the page and cheap requests go on."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1)
    try:
        slow = pool.submit(
            client.post,
            "/api/generate",
            json={"size": "32x32", "n": 40, "moves": 100_000, "seed": 1},
        )
        time.sleep(0.5)  # on its way
        for method, path, body in [
            ("GET", "/", None),
            ("POST", "/api/check", {"board": HARDEST}),
            ("POST", "/api/solve", {"board": HARDEST}),
        ]:
            answer = client.request(method, path, json=body)
            assert answer.status_code == 200, (path, answer.text)
            assert not slow.done()  # answered while the generate still runs: not held up by it
        boards = slow.result(timeout=180).json()["boards"]
        assert len(boards) == 40 and all(len(b.split("/")) == 32 for b in boards)
    finally:
        pool.shutdown(wait=False)


def test_cheap_requests_answer_at_once_while_hard_solves_run(client):
    """3x3 solves, checks and small shuffles have their own lane: hard solves do not hold them up."""
    from concurrent.futures import ThreadPoolExecutor

    ids = []
    pool = ThreadPoolExecutor(1)
    try:
        for _ in range(2):
            started = client.post("/api/solve", json={**HARD_SOLVE, "wait": False})
            assert started.status_code == 202, started.text
            ids.append(started.json()["id"])
        wait_running(client, ids[0])
        for path, body in [
            ("/api/solve", {"board": HARDEST}),
            ("/api/check", {"board": HARDEST}),
            ("/api/solve", {"board": "1 2/0 3", "method": "bfs"}),
            ("/api/generate", {"size": "3x3", "n": 5}),
            ("/api/analyze", {"goal": "2x3"}),
        ]:
            answer = pool.submit(client.post, path, json=body).result(timeout=60)
            assert answer.status_code == 200, (path, answer.text)
            # answered while both hard solves still hold their lane: not queued behind them
            assert client.get(f"/api/solve/{ids[0]}").json()["status"] == "running"
        assert client.get(f"/api/solve/{ids[1]}").json()["status"] == "queued"  # one hard worker
    finally:
        for solve_id in ids:
            client.delete(f"/api/solve/{solve_id}")
        pool.shutdown(wait=False)


def test_hard_jobs_are_bounded_per_client_and_in_all_with_429(monkeypatch):
    """A client may have two hard jobs at once; the hard lane holds one running and one waiting."""
    from dataclasses import replace

    from slidelab.web.lanes import HARD

    app = create_app(
        workers=1, hard=replace(HARD, queue=1, per_client=2), prestart=False, cache_limit=KEEP
    )
    body = {**HARD_SOLVE, "wait": False}
    ids = []
    with TestClient(app, client=("10.0.0.1", 5001)) as a:
        b = TestClient(app, client=("10.0.0.2", 5002))
        c = TestClient(app, client=("10.0.0.3", 5003))
        try:
            for _ in range(2):
                started = a.post("/api/solve", json=body)
                assert started.status_code == 202, started.text
                ids.append(started.json()["id"])
            refused = a.post("/api/solve", json=body)  # a third from the same client
            message = error_of(refused, 429)
            assert "2" in message and int(refused.headers["retry-after"]) > 0
            full = b.post("/api/solve", json=body)  # another client, but the lane is full
            message = error_of(full, 429)
            assert "busy" in message and int(full.headers["retry-after"]) > 0
            assert error_of(
                b.post("/api/generate", json={"size": "32x32", "n": 100, "moves": 100_000}), 429
            )
            # the cheap lane is open to all meanwhile
            assert c.post("/api/solve", json={"board": HARDEST}).json()["length"] == 31
            # a cancelled job makes room
            a.delete(f"/api/solve/{ids[0]}")
            again = b.post("/api/solve", json=body)
            assert again.status_code == 202, again.text
            ids.append(again.json()["id"])
        finally:
            for solve_id in ids:
                a.delete(f"/api/solve/{solve_id}")


@contextmanager
def live_server(app):
    """``app`` served by uvicorn on a free loopback port, in a thread: ``(host, port)``."""
    import socket
    import threading

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(30)


def _http(host, port, method, path, body=None, timeout=30):
    import http.client

    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(
            method,
            path,
            body=None if body is None else json.dumps(body),
            headers={"Content-Type": "application/json"},
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


@pytest.mark.slow  # 7 s
def test_a_client_that_gives_up_on_a_waiting_solve_cancels_it():
    import http.client
    import socket

    app = create_app(workers=1, max_time_limit=30, grace=5, cache_limit=KEEP)
    with live_server(app) as (host, port):
        deadline = time.monotonic() + 180
        while True:  # warmed up
            status, body = _http(host, port, "GET", "/api/status")
            if status != 200 or body["ready"] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        conn = http.client.HTTPConnection(host, port, timeout=2)
        conn.request(
            "POST",
            "/api/solve",
            body=json.dumps({**HARD_SOLVE, "time_limit": 30}),
            headers={"Content-Type": "application/json"},
        )
        with pytest.raises(socket.timeout):
            conn.getresponse()  # the solve runs for up to 30 s; the client gives up after 2
        conn.close()
        # its worker is free at once: the next hard solve starts running, not queued for 30 s
        status, started = _http(host, port, "POST", "/api/solve", {**HARD_SOLVE, "wait": False})
        assert status == 202, started
        began = time.monotonic()  # a poll: running well before the abandoned solve's 30 s end
        while time.monotonic() - began < 20:
            status, state = _http(host, port, "GET", f"/api/solve/{started['id']}")
            if state["status"] == "running":
                break
            time.sleep(0.05)
        _http(host, port, "DELETE", f"/api/solve/{started['id']}")
        assert state["status"] == "running", state


@pytest.mark.slow  # 30 s to minutes: a fresh server's warm-up builds its first tables
def test_status_says_warming_up_until_the_workers_are_ready(cache):
    """Workers warm up in the background at start-up, from a fresh cache: the server's first
    tables (the 8-puzzle's distance tables, the 15-puzzle's first pattern databases for both
    goals) are built before it says it is ready, and ``GET /api/status`` lists them with their
    state; the later ones (the 15-puzzle's first abstraction table in MTM for both goals, 76 MB
    each in two bits) are skipped here, past the server's table cache of 64 MiB (the first ones
    take 23 MB)."""
    from slidelab.search.policy import server_tables

    first, later = server_tables()
    with TestClient(create_app(workers=1, cache_limit=64 * 1024**2)) as c:
        status = c.get("/api/status")
        assert status.status_code == 200 and status.json()["ready"] is False
        assert status.json()["warm_up"] == "compiling, first start"
        assert set(status.json()["lanes"]) == {"cheap", "hard"}
        seen = set()
        while not (status := c.get("/api/status").json())["ready"]:
            seen |= {(t["tables"], t["state"]) for t in status["tables"]}
            time.sleep(0.2)
        assert ("the 6-6-3 pattern databases of the 4x4 goal", "building") in seen, seen
        time.sleep(0.3)  # the warm-up says it is over at its next look at the workers
        status = c.get("/api/status").json()
        assert status["warm_up"] is None
        # every first table is ready once the server is; the later ones do not fit its cache
        tables = {t["tables"]: t for t in status["tables"]}
        assert [t["tables"] for t in status["tables"]] == [t.describe() for t in first + later]
        assert all(tables[t.describe()]["state"] == "ready" for t in first), tables
        assert all(t.ready() for t in first)
        for t in later:
            row = tables[t.describe()]
            assert (row["when"], row["state"]) == ("later", "skipped"), row
            assert row["reason"] == "over the server's 64 MiB of tables"
        # the first 15-puzzle solve after start-up has its tables: optimal, no table built
        body = c.post("/api/solve", json={"board": "5 1 3 4/2 6 7 8/9 10 11 12/13 14 15 0"}).json()
        assert body["length"] == 12 and body["method"].startswith("idastar"), body
        assert body["optimal"] is True and body.get("remedy") is None


# -- the command ---------------------------------------------------------------------------------


def test_serve_command_names_the_missing_extra(cli, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    result = cli("serve")
    assert result.exit_code == 2
    assert "pip install '.[web]'" in result.output and "uvicorn" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_serve_command_help(cli):
    result = cli("serve", "--help")
    assert result.exit_code == 0 and "--port" in result.output and "127.0.0.1" in result.output
    assert "--cache-limit" in result.output and "2G" in result.output


@pytest.mark.parametrize(
    "given, limit", [(None, 2 * 1024**3), ("500M", 500 * 1024**2), ("none", None)]
)
def test_serve_command_passes_the_cache_limit(cli, monkeypatch, given, limit):
    import slidelab.web

    calls = []
    monkeypatch.setattr(slidelab.web, "serve", lambda *a, **k: calls.append(k))
    result = cli("serve", *(["--cache-limit", given] if given else []))
    assert result.exit_code == 0, result.output
    assert calls == [{"workers": 2, "cache_limit": limit}]
    bad = cli("serve", "--cache-limit", "lots")
    assert bad.exit_code == 2 and "--cache-limit" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


# -- the multi-tile metric ----------------------------------------------------------------------


def test_solve_and_analyze_in_mtm(client):
    body = client.get("/api/methods").json()
    assert body["metrics"] == ["stm", "mtm"]
    assert all(set(m["metrics"]) <= {"stm", "mtm"} and m["metrics"] for m in body["methods"])
    r = client.post("/api/solve", json={"board": "8 6 7/2 5 4/3 0 1", "metric": "mtm"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert (data["length"], data["metric"], data["length_stm"], data["optimal"]) == (
        20,
        "mtm",
        31,
        True,
    )
    r = client.post("/api/solve", json={"board": "8 6 7/2 5 4/3 0 1"})
    assert (r.json()["length"], r.json()["metric"], r.json()["length_mtm"]) == (31, "stm", 20)
    r = client.post("/api/analyze", json={"goal": "3x3", "metric": "mtm"})
    assert r.status_code == 200, r.text
    assert (r.json()["diameter"], r.json()["metric"]) == (24, "mtm")
    assert client.post("/api/analyze", json={"goal": "3x3"}).json()["diameter"] == 31
    assert "unknown metric 'htm'" in error_of(
        client.post("/api/solve", json={"board": "1 2 3/4 5 6/0 7 8", "metric": "htm"}), 400
    )
    assert "unknown metric" in error_of(
        client.post("/api/analyze", json={"goal": "3x3", "metric": "x"}), 400
    )


def test_the_app_s_worker_pools_keep_the_cache_limit():
    from slidelab.web.lanes import CACHE_LIMIT

    for given, limit in (
        ({}, CACHE_LIMIT),
        ({"cache_limit": 123}, 123),
        ({"cache_limit": None}, None),
    ):
        with TestClient(create_app(prestart=False, **given)) as c:
            assert c.get("/api/status").json()["warm_up"] is None  # no warm-up without prestart
            assert {pool.cache_limit for pool in c.app.state.pools.values()} == {limit}
