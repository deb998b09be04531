"""The web API (``slidelab serve``) through FastAPI's test client, and a schemathesis run."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (the test client's transport) is not installed")

from fastapi.testclient import TestClient  # noqa: E402

from slidelab.web import create_app  # noqa: E402

HARDEST = "8 6 7/2 5 4/3 0 1"
KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    import os

    os.environ.setdefault("SLIDELAB_CACHE", str(tmp_path_factory.mktemp("cache")))
    with TestClient(create_app(workers=1, max_time_limit=20, grace=5)) as c:
        yield c


def error_of(response, status):
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"error"}
    assert isinstance(body["error"], str) and body["error"] and "\n" not in body["error"]
    return body["error"]


# -- the page -----------------------------------------------------------------------------------


def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "/static/app.js" in page.text and "http" not in page.text.replace("http://www.w3.org", "")
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    error_of(client.get("/static/nope.js"), 404)
    error_of(client.get("/no/such/page"), 404)


def test_openapi_lists_the_endpoints(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/check", "/api/generate", "/api/solve", "/api/analyze",
            "/api/solve/{solve_id}"} <= set(paths)


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
    line = client.post("/api/check", json={"board": "ABA_/CDCD/ABAB/CDCD",
                                           "goal": "ACA_/CDCA/DBAB/CDBD"}).json()
    assert line["solvable"] is True and line["repeats"] is True and line["cells"][:4] == ["A", "B", "A", 0]
    contest = client.post("/api/check", json={"board": "1 2 3 x 4 6 7 5 8"}).json()
    assert contest["start"] == "1 2 3/0 4 6/7 5 8"


@pytest.mark.parametrize("body, fragment", [
    ({"board": "1 2 3/4 5"}, "row 2"),
    ({"board": "1 2 3/4 5 6/7 8 9"}, ""),
    ({"board": "1 2/3 0", "goal": "1 2 3/4 5 6/7 8 0"}, ""),
    ({"board": "1 2/3 0", "goal": "1 2/3 0", "blank_first": True}, "not both"),
])
def test_check_malformed_boards_are_400(client, body, fragment):
    assert fragment in error_of(client.post("/api/check", json=body), 400)


@pytest.mark.parametrize("body", [
    {"board": 123},
    {"board": ["1 2", "3 0"]},
    {"board": "1 2/3 0", "blank_first": "yes"},
    {"board": "1 2/3 0", "extra": 1},
    {},
    [],
])
def test_check_wrong_types_are_422(client, body):
    error_of(client.post("/api/check", json=body), 422)


def test_malformed_json_is_422(client):
    message = error_of(client.post("/api/check", content=b'{"board": ',
                                   headers={"content-type": "application/json"}), 422)
    assert "JSON" in message


def test_oversized_body_is_413(client):
    message = error_of(client.post("/api/check", json={"board": "1 " * 20000}), 413)
    assert "bytes" in message
    # also without a Content-Length (chunked upload)
    chunks = (b"x" * 4096 for _ in range(10))
    error_of(client.post("/api/solve", content=chunks,
                         headers={"content-type": "application/json"}), 413)


# -- generate -----------------------------------------------------------------------------------


def test_generate_uniform_and_random_walk(client):
    boards = client.post("/api/generate", json={"size": "4x4", "n": 3, "seed": 1}).json()["boards"]
    assert len(boards) == 3
    again = client.post("/api/generate", json={"size": "4x4", "n": 3, "seed": 1}).json()["boards"]
    assert boards == again
    for b in boards:
        assert client.post("/api/check", json={"board": b}).json()["solvable"]
    walk = client.post("/api/generate", json={"goal": "1 2 3/4 5 6/7 8 0", "moves": 1,
                                              "seed": 3}).json()["boards"][0]
    assert walk in ("1 2 3/4 5 6/7 0 8", "1 2 3/4 5 0/7 8 6")
    line = client.post("/api/generate", json={"goal": "ABA_/CDCD/ABAB/CDCD", "seed": 2,
                                              "format": "compact"})
    assert line.status_code == 200, line.text


@pytest.mark.parametrize("body, status", [
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
])
def test_generate_bad_input(client, body, status):
    error_of(client.post("/api/generate", json=body), status)


# -- solve --------------------------------------------------------------------------------------


def test_solve_waits_for_the_solution(client):
    body = client.post("/api/solve", json={"board": HARDEST}).json()
    assert {"start", "goal", "size", "solution", "length", "optimal", "method", "stats", "id"} <= set(body)
    assert body["length"] == 31 and body["optimal"] is True and body["size"] == "3x3"
    assert set(body["stats"]) == {"expanded", "generated", "stored", "peak_frontier", "seconds"}
    status = client.get(f"/api/solve/{body['id']}").json()
    assert status["status"] == "done" and status["result"]["solution"] == body["solution"]


def test_solve_method_heuristic_and_goal(client):
    body = client.post("/api/solve", json={"board": "0 1 2/3 4 5/6 7 8", "goal": "3 1 2/4 7 5/6 0 8",
                                           "method": "idastar", "heuristic": "linear-conflict"}).json()
    assert body["length"] == 3 and body["method"].startswith("idastar")
    weighted = client.post("/api/solve", json={"board": HARDEST, "method": "weighted-astar",
                                               "weight": 2}).json()
    assert weighted["length"] >= 31 and weighted["optimal"] is False


def test_solve_unsolvable_is_422(client):
    message = error_of(client.post("/api/solve", json={"board": "1 2 3/4 5 6/8 7 0"}), 422)
    assert message.startswith("unsolvable")


@pytest.mark.parametrize("body, status", [
    ({"board": "1 2 3/4 5"}, 400),
    ({"board": HARDEST, "method": "magic"}, 400),
    ({"board": HARDEST, "heuristic": "psychic"}, 400),
    ({"board": HARDEST, "time_limit": 0}, 422),
    ({"board": HARDEST, "time_limit": 1e9}, 422),
    ({"board": HARDEST, "time_limit": "10"}, 422),
    ({"board": HARDEST, "weight": 0.5}, 422),
    ({"board": HARDEST, "wait": "no"}, 422),
    ({"board": None}, 422),
])
def test_solve_bad_input(client, body, status):
    error_of(client.post("/api/solve", json=body), status)


def test_solve_time_limit(client):
    started = time.monotonic()
    message = error_of(client.post("/api/solve", json={
        "board": KORF_1, "blank_first": True, "method": "idastar", "heuristic": "manhattan",
        "time_limit": 0.5}), 422)
    assert message.startswith("limit reached")
    assert time.monotonic() - started < 10


def test_solve_in_background_progress_and_cancel(client):
    started = client.post("/api/solve", json={
        "board": KORF_1, "blank_first": True, "method": "idastar", "heuristic": "manhattan",
        "time_limit": 20, "wait": False})
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
    quick = time.monotonic()
    assert client.post("/api/check", json={"board": HARDEST}).status_code == 200
    assert time.monotonic() - quick < 1
    cancelled = client.delete(f"/api/solve/{solve_id}").json()
    assert cancelled["status"] == "cancelled" and cancelled["error"] == "cancelled"
    # a fresh worker takes the next solve
    assert client.post("/api/solve", json={"board": "1 2 3/4 5 6/0 7 8"}).json()["solution"] == "L2"


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


@pytest.mark.parametrize("body, status", [
    ({"goal": "4x4"}, 400),
    ({"goal": "1 2/3"}, 400),
    ({"goal": 3}, 422),
    ({"goal": "1 2/3 0", "blank_first": True}, 400),
])
def test_analyze_bad_input(client, body, status):
    error_of(client.post("/api/analyze", json=body), status)


# -- fuzzing the schema -------------------------------------------------------------------------


def test_schema_fuzz_finds_no_server_errors(tmp_path):
    """schemathesis generates requests for every operation from the OpenAPI schema; none may 5xx."""
    schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")
    from hypothesis import HealthCheck, given, settings
    from schemathesis.checks import not_a_server_error

    app = create_app(workers=1, max_time_limit=1, grace=2, prestart=False)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 6
    try:
        for operation in operations:
            @given(case=operation.as_strategy())
            @settings(max_examples=12, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            def check(case):
                case.call_and_validate(checks=[not_a_server_error])

            check()
    finally:
        pool = getattr(app.state, "pool", None)
        if pool is not None:
            pool.close()


# -- the command ---------------------------------------------------------------------------------


def test_serve_command_names_the_missing_extra(monkeypatch):
    import sys

    from click.testing import CliRunner

    from slidelab.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    assert 'pip install "slidelab[web]"' in result.output and "uvicorn" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_serve_command_help():
    from click.testing import CliRunner

    from slidelab.cli import main

    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "--port" in result.output and "127.0.0.1" in result.output
