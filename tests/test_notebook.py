"""The example notebook (docs/examples/tour.ipynb) runs end to end in a real Jupyter kernel,
and shows what it promises: boards as SVG, a solution as an animated replay, a plot."""

from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "examples" / "tour.ipynb"


@pytest.fixture(scope="module")
def executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    return nb


def outputs_of(nb, source_start: str) -> list[dict]:
    cells = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith(source_start)]
    assert cells, source_start
    return cells[0].outputs


def data_of(nb, source_start: str) -> dict:
    results = [o for o in outputs_of(nb, source_start) if o.output_type == "execute_result"]
    assert results, source_start
    return results[-1].data


def test_the_notebook_runs_without_errors(executed):
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in errors if o.output_type == "error"]


def test_a_board_draws_itself_and_prints_as_a_grid(executed):
    svg = data_of(executed, 'board = Board("8 6 7')["image/svg+xml"]
    assert svg.startswith("<svg") and svg.count(">8<") == 1
    printed = "".join(o.text for o in outputs_of(executed, "print(board)") if "text" in o)
    assert printed.splitlines() == ["8 6 7", "2 5 4", "3 . 1"]


def test_a_solution_replays_as_an_animation(executed):
    html = data_of(executed, "solution = solve(board)")["text/html"]
    assert "<svg" in html and "animateTransform" in html and "31 moves" in html
    assert "<script" not in html


def test_the_distance_plot_is_an_image(executed):
    assert "image/png" in data_of(executed, "stats.plot()")


def test_lengths_in_both_metrics(executed):
    text = data_of(executed, "rows = []")["text/plain"]
    rows = eval(text)  # a list of (board, stm, mtm) tuples
    assert len(rows) == 5 and all(mtm <= stm for _, stm, mtm in rows)
