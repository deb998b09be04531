"""The animated replay in a real browser (headless Chromium): at each move's time, every
tile of the SVG stands on the cell the solution's boards put it on."""

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from slidelab import solve  # noqa: E402
from slidelab.draw import GAP, PAD  # noqa: E402
from test_web_e2e import CHROMIUM, CHROMIUM_ARGS, _ensure_chromium  # noqa: E402

TILE, SECONDS, HOLD = 40, 0.3, 1.0


@pytest.fixture(scope="module")
def page():
    _ensure_chromium()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser.new_page()
        browser.close()


def cells_at(page, seconds: float, width: int, n: int) -> list:
    """The board the SVG shows at ``seconds`` (labels by cell, 0 the blank)."""
    found = page.evaluate(
        """(t) => {
            const svg = document.querySelector("svg");
            svg.pauseAnimations();
            svg.setCurrentTime(t);
            return [...svg.querySelectorAll("g")].map((g) => {
                const m = g.getCTM();
                return [m.e, m.f, g.querySelector("text").textContent];
            });
        }""",
        seconds,
    )
    cells: list = [0] * n
    for x, y, label in found:
        c, r = (x - PAD - GAP // 2) / TILE, (y - PAD - GAP // 2) / TILE
        assert abs(c - round(c)) < 0.01 and abs(r - round(r)) < 0.01, (x, y, label)  # on a cell
        cells[round(r) * width + round(c)] = label
    return cells


@pytest.mark.parametrize("start", ["8 6 7/2 5 4/3 0 1", "BA_/ABC/CCA"])
def test_the_replay_shows_every_board_of_the_path(page, start):
    goal = "AAB/BCC/CA_" if "A" in start else None
    s = solve(start, goal)
    page.set_content(s.to_svg(tile=TILE, seconds_per_move=SECONDS))
    b0 = s.start
    for k, board in enumerate(s.boards()):
        shown = cells_at(page, HOLD + k * SECONDS, b0.width, len(b0))
        assert shown == [str(c) if c != 0 else 0 for c in board.cells], k
    assert cells_at(page, 0.0, b0.width, len(b0)) == [str(c) if c else 0 for c in b0.cells]
