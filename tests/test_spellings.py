"""One reader of sizes and goals (``slidelab.puzzle.goal_board``), one of byte sizes
(``slidelab.units``): every front end accepts the same spellings and prints sizes as given."""

import json

import pytest

import slidelab
from slidelab.puzzle import goal_board
from slidelab.units import format_bytes, parse_bytes

SPELLINGS = ["2x3", "2X3", "2\u00d73", " 2 x 3 "]
ORDERED = "1 2/3 4/5 0"


@pytest.fixture(scope="module")
def web():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from slidelab.web import create_app

    # no warm-up (its 15-puzzle tables and kernels): a 2x3 is all these tests ask of it
    app = create_app(workers=1, max_time_limit=20, grace=5, prestart=False)
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_front_end_reads_the_same_size_spellings(cli, spelling, web, tmp_path):
    assert goal_board(spelling).format() == ORDERED
    # the library: analyze, generate, solve with a size as its goal
    assert slidelab.analyze(spelling).diameter == 21
    assert slidelab.random_board(spelling, seed=1).size == "2x3"
    assert slidelab.solve("1 2/3 4/0 5", spelling).length == 1
    # the command line: analyze, generate, solve --goal
    r = cli("analyze", spelling, "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["goal"] == ORDERED
    r = cli("generate", spelling, "--seed", "1")
    assert r.exit_code == 0 and slidelab.Board(r.stdout.strip()).size == "2x3", r.stderr
    r = cli("solve", "1 2/3 4/0 5", "--goal", spelling, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["length"] == 1, r.stderr
    # the web API: analyze and generate
    response = web.post("/api/analyze", json={"goal": spelling})
    assert response.status_code == 200, response.text
    assert response.json()["diameter"] == 21
    response = web.post("/api/generate", json={"size": spelling, "seed": 1})
    assert response.status_code == 200, response.text
    # batch: a goal field
    lines = [f"1 2/3 4/0 5 ; goal={spelling} ; id=a"]
    records = list(slidelab.solve_batch(slidelab.read_instances(lines), workers=1))
    assert records[0]["error"] is None and records[0]["length"] == 1, records


def test_blank_first_goes_with_a_size():
    assert goal_board("2\u00d73", blank_first=True).format() == "0 1/2 3/4 5"
    with pytest.raises(slidelab.SlidelabError, match="blank first goes with a size"):
        goal_board(ORDERED, blank_first=True)


@pytest.mark.parametrize(
    "given, shown", [("2G", "2 GiB"), ("512M", "512 MiB"), ("1.5GiB", "1.5 GiB"), ("64k", "64 KiB")]
)
def test_byte_sizes_print_as_given(given, shown):
    assert format_bytes(parse_bytes(given)) == shown


def test_a_memory_limit_is_echoed_as_given(cli):
    r = cli("analyze", "4x4", "--max-memory", "2G")
    assert r.exit_code == 2 and "memory limit of 2 GiB" in r.stderr, r.stderr
    with pytest.raises(slidelab.SearchLimitError, match="memory limit of 1 KiB"):
        slidelab.solve("8 6 7/2 5 4/3 0 1", method="bfs", max_bytes=parse_bytes("1K"))
