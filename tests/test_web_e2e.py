"""The web page end to end: a real ``slidelab serve`` driven by headless Chromium (Playwright).

Chromium is Debian's ``chromium`` package at /usr/bin/chromium (Playwright's own browser
downloads are not used); when it is missing and we are root, it is installed with apt-get.
A screenshot of each step is saved under ``test-artifacts/web/``; with
``SLIDELAB_WEB_SCREENSHOT=1`` the README's picture ``docs/web.png`` is taken too.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "web"
TIMEOUT_MS = 60_000  # the first solve may compile kernels on a fresh checkout
#: the page is checked at both sizes: a desktop window and a phone held upright
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
]


def _ensure_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip(f"{CHROMIUM} is missing and apt-get cannot install it here (not root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]
    if subprocess.run(install, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, capture_output=True)
        subprocess.run(install, env=env, capture_output=True)
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"could not install Debian's chromium package ({CHROMIUM} is missing)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(tmp_path_factory, cache, warm=False):
    """Start ``slidelab serve`` on a free port with the table cache ``cache``; yields its URL
    (with ``warm``, once its warm-up is over), stops it afterwards."""
    port = _free_port()
    env = {**os.environ, "SLIDELAB_CACHE": cache}
    log = open(tmp_path_factory.mktemp("serve") / "serve.log", "w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "slidelab", "serve", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.seek(0)
            pytest.fail(f"slidelab serve did not start:\n{log.read()}")
        time.sleep(0.2)
    deadline = time.monotonic() + 600  # compiling every kernel on a fresh checkout: minutes
    while warm and _status(url)["warm_up"] is not None:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.seek(0)
            pytest.fail(f"slidelab serve did not warm up:\n{log.read()}")
        time.sleep(0.5)
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _status(url: str) -> dict:
    with urllib.request.urlopen(url + "api/status", timeout=5) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory, session_cache):
    """A server warmed up, from the run's cache (conftest's ``session_cache``): the page's tests
    expect answers within 5 s (the warm-up has tests of its own)."""
    yield from _serve(tmp_path_factory, session_cache, warm=True)


@pytest.fixture(scope="module")
def browser():
    _ensure_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request, browser, server):
    context = browser.new_context(viewport=VIEWPORTS[request.param])
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def shot(pg, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    width = pg.viewport_size["width"] if pg.viewport_size else 0
    pg.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)


def open_page(pg, url: str) -> None:
    pg.goto(url)
    expect(pg.locator("body")).to_have_attribute("data-ready", "yes")


def tile(pg, label):
    return pg.locator(f'#board .tile[data-label="{label}"]')


def test_play_shuffle_solve_replay_share(page, server):
    board = page.locator("#board")
    open_page(page, server)
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/7 8 0")
    shot(page, "01-loaded")

    # click a tile two cells left of the blank: both tiles slide right
    tile(page, 7).click()
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/0 7 8")
    expect(page.locator("#move-count")).to_have_text("2")
    expect(page.locator("#move-string")).to_have_text("R2")
    shot(page, "02-clicked")

    # arrow keys name the direction the tile moves
    board.focus()
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/7 0 8")
    page.keyboard.press("ArrowDown")
    expect(board).to_have_attribute("data-board", "1 2 3/4 0 6/7 5 8")
    expect(page.locator("#move-count")).to_have_text("4")
    expect(page.locator("#move-string")).to_have_text("R2 L D")
    shot(page, "03-keyboard")

    # shuffle: a uniformly random solvable position
    page.click("#random-btn")
    expect(board).not_to_have_attribute("data-board", "1 2 3/4 0 6/7 5 8")
    expect(page.locator("#check-status")).to_contain_text("solvable")
    expect(page.locator("#move-count")).to_have_text("0")
    shuffled = board.get_attribute("data-board")
    shot(page, "04-shuffled")

    # solve it, then replay the solution to the goal
    page.click("#solve-btn")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#solution-info")).to_contain_text("optimal")
    solution = page.locator("#solution-text").input_value()
    length = int(page.locator("#replay-slider").get_attribute("max"))
    assert (
        length == sum(int(part[1:] or 1) for part in solution.split())
        or solution == "(already solved)"
    )
    expect(board).to_have_attribute("data-board", shuffled)
    expect(page.locator("#chart svg rect.bar")).to_have_count(32)  # 3x3 distance chart
    page.click("#fwd-btn")
    page.click("#fwd-btn")
    expect(page.locator("#replay-pos")).to_have_text(f"2 / {length}")
    if length:
        expect(page.locator("#board .tile.moving")).to_have_count(1)
    page.click("#back-btn")
    expect(page.locator("#replay-pos")).to_have_text(f"1 / {length}")
    shot(page, "05-solved")
    page.fill("#speed", "50")
    page.locator("#speed").dispatch_event("change")
    page.click("#play-btn")
    expect(board).to_have_attribute("data-solved", "yes")
    expect(page.locator("#replay-pos")).to_have_text(f"{length} / {length}")
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/7 8 0")
    shot(page, "06-replayed")

    # scrub back to the middle, then open the share URL in a new page: same state
    middle = length // 2
    page.locator("#replay-slider").fill(str(middle))
    expect(page.locator("#replay-pos")).to_have_text(f"{middle} / {length}")
    state = board.get_attribute("data-board")
    url = page.locator("#share-url").input_value()
    assert url.startswith(server) and "solution=" in url
    other = page.context.new_page()
    open_page(other, url)
    expect(other.locator("#board")).to_have_attribute("data-board", state)
    expect(other.locator("#replay-pos")).to_have_text(f"{middle} / {length}")
    expect(other.locator("#solution-text")).to_have_value(solution)
    shot(other, "07-shared")
    if os.environ.get("SLIDELAB_WEB_SCREENSHOT") and page.viewport_size["width"] == 1280:
        (ROOT / "docs").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "docs" / "web.png"), full_page=True)
    other.close()


def test_invalid_board_shows_the_error(page, server):
    open_page(page, server)
    board = page.locator("#board")
    page.fill("#board-input", "1 2 3/4 5")
    status = page.locator("#check-status")
    expect(status).to_have_class("status error")
    expect(status).to_contain_text("row 2")
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/7 8 0")
    shot(page, "08-invalid")
    # an unsolvable board is accepted for play, with the reason shown
    page.fill("#board-input", "1 2 3/4 5 6/8 7 0")
    expect(status).to_contain_text("unsolvable: permutation parity")
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/8 7 0")
    page.click("#solve-btn")
    expect(page.locator("#solve-status")).to_contain_text("unsolvable")
    shot(page, "09-unsolvable")


def test_line_puzzle_colours_and_cancel(page, server):
    open_page(page, server)
    page.click("#line-btn")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-board", "A B A 0/C D C D/A B A B/C D C D")
    colours = {
        label: {
            page.locator(f'#board .tile[data-label="{label}"]')
            .nth(i)
            .evaluate("el => getComputedStyle(el).backgroundColor")
            for i in range(3)
        }
        for label in "ABCD"
    }
    assert all(len(c) == 1 for c in colours.values()), colours  # one colour per label
    assert len({next(iter(c)) for c in colours.values()}) == 4  # different labels differ
    expect(page.locator("#chart-box")).to_be_hidden()  # 4x4: no chart
    shot(page, "10-line-puzzle")
    # a long solve shows progress and can be cancelled
    page.fill("#board-input", "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3")
    page.fill("#goal-input", "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15")
    expect(board).to_have_attribute("data-board", "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3")
    page.select_option("#method", "idastar")
    page.select_option("#heuristic", "manhattan")
    page.click("#solve-btn")
    expect(page.locator("#solve-status")).to_contain_text("bound")
    shot(page, "11-solving")
    page.click("#cancel-btn")
    expect(page.locator("#solve-status")).to_have_text("cancelled")
    expect(page.locator("#solve-btn")).to_be_enabled()


# -- issue 12: the page's defects, at both sizes -------------------------------------------------

CONTRAST = """el => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const s = getComputedStyle(el);
  const a = lum(rgb(s.color)), b = lum(rgb(s.backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""

FITS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def test_button_labels_are_readable_on_hover(page, server):
    open_page(page, server)
    buttons = page.locator("button:enabled:visible")
    assert buttons.count() >= 8
    for i in range(buttons.count()):
        button = buttons.nth(i)
        button.hover()
        ratio = button.evaluate(CONTRAST)
        assert ratio >= 4.5, (button.get_attribute("id"), ratio)  # WCAG AA for normal text
    page.locator("#solve-btn").hover()
    shot(page, "12-solve-hover")


def test_the_page_fits_the_screen_without_scrolling_sideways(page, server):
    open_page(page, server)
    expect(page.locator("#chart svg rect.bar")).to_have_count(32)  # the 3x3 chart is drawn
    assert page.evaluate(FITS), page.evaluate("document.documentElement.scrollWidth")
    chart = page.locator("#chart svg").bounding_box()
    assert chart["x"] + chart["width"] <= page.viewport_size["width"]
    shot(page, "13-fits")
    page.click("#random-btn")
    page.click("#solve-btn")
    expect(page.locator("#result")).to_be_visible()
    assert page.evaluate(FITS)
    page.select_option("#width", "10")
    page.select_option("#height", "10")
    page.click("#new-btn")
    expect(page.locator("#board")).to_have_attribute("data-size", "10x10")
    assert page.evaluate(FITS), page.evaluate("document.documentElement.scrollWidth")
    shot(page, "14-fits-10x10")


def test_undo_takes_back_a_whole_click(page, server):
    open_page(page, server)
    board = page.locator("#board")
    tile(page, 7).click()  # two tiles slide right
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/0 7 8")
    tile(page, 1).click()  # two tiles slide down
    expect(board).to_have_attribute("data-board", "0 2 3/1 5 6/4 7 8")
    board.focus()
    page.keyboard.press("ArrowLeft")  # one tile
    expect(page.locator("#move-string")).to_have_text("R2 D2 L")
    page.click("#undo-btn")
    expect(board).to_have_attribute("data-board", "0 2 3/1 5 6/4 7 8")
    page.click("#undo-btn")
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/0 7 8")
    expect(page.locator("#move-count")).to_have_text("2")
    page.click("#undo-btn")
    expect(board).to_have_attribute("data-board", "1 2 3/4 5 6/7 8 0")
    expect(page.locator("#move-count")).to_have_text("0")


def test_status_line_is_for_the_board_shown(page, server):
    open_page(page, server)
    page.fill("#board-input", "1 2 3/4 5 6/0 7 8")
    expect(page.locator("#board")).to_have_attribute("data-board", "1 2 3/4 5 6/0 7 8")
    page.click("#solve-btn")
    expect(page.locator("#solve-status")).to_have_text("solved: 2 moves")
    page.click("#line-btn")
    expect(page.locator("#board")).to_have_attribute(
        "data-board", "A B A 0/C D C D/A B A B/C D C D"
    )
    expect(page.locator("#solve-status")).to_have_text("")  # nothing about the previous board
    expect(page.locator("#result")).to_be_hidden()


def test_the_menus_list_every_method_and_heuristic_of_the_tables(page, server):
    """The method and heuristic menus come from GET /api/methods, i.e. the registries."""
    from slidelab.heuristics.registry import HEURISTICS
    from slidelab.search.registry import METHODS

    open_page(page, server)
    values = "options => options.map(o => o.value)"
    assert page.locator("#method option").evaluate_all(values) == list(METHODS)
    assert page.locator("#heuristic option").evaluate_all(values) == ["", *HEURISTICS]
    for name, method in METHODS.items():
        page.select_option("#method", name)
        if "heuristic" in method.options:
            expect(page.locator("#heuristic")).to_be_enabled()
        else:
            expect(page.locator("#heuristic")).to_be_disabled()


def test_one_move_is_singular(page, server):
    open_page(page, server)
    page.fill("#board-input", "1 2 3/4 5 6/7 0 8")
    expect(page.locator("#board")).to_have_attribute("data-board", "1 2 3/4 5 6/7 0 8")
    page.click("#solve-btn")
    expect(page.locator("#solve-status")).to_have_text("solved: 1 move")
    expect(page.locator("#solution-info")).to_contain_text("1 move (1 MTM)")


def test_size_error_speaks_of_the_page(page, server):
    open_page(page, server)
    page.fill("#board-input", "1 2 3 4 5 6 7 8 9 10 11 0")
    status = page.locator("#check-status")
    expect(status).to_have_class("status error")
    expect(status).to_contain_text("size")
    assert "--size" not in status.text_content() and '"size"' not in status.text_content()
    # the size menus give the size of a one-line board
    page.select_option("#width", "6")  # 6x3: 18 cells, not 12
    expect(status).to_contain_text("size menus")
    expect(status).to_have_class("status error")
    page.select_option("#width", "4")  # 4x3
    expect(page.locator("#board")).to_have_attribute("data-board", "1 2 3 4/5 6 7 8/9 10 11 0")
    expect(status).to_contain_text("solvable")
    shot(page, "15-size")


def test_head_of_the_page_is_answered(page, server):
    head = page.request.head(server)
    assert head.status == 200 and "text/html" in head.headers["content-type"]


def test_the_page_says_warming_up_until_the_solvers_are_ready(browser, tmp_path_factory):
    """A fresh server (no tables in its cache) warms its workers up; the page says so meanwhile."""
    cold = _serve(tmp_path_factory, cache=str(tmp_path_factory.mktemp("cold-cache")))
    url = next(cold)
    pages = []
    try:
        for name in sorted(VIEWPORTS):
            pg = browser.new_context(viewport=VIEWPORTS[name]).new_page()
            pg.set_default_timeout(TIMEOUT_MS)
            pg.goto(url)
            pages.append(pg)
        for pg in pages:
            expect(pg.locator("#server-status")).to_be_visible()
            expect(pg.locator("#server-status")).to_contain_text("warming up")
            shot(pg, "16-warming-up")
        for pg in pages:
            expect(pg.locator("#server-status")).to_be_hidden(timeout=300_000)
    finally:
        for pg in pages:
            pg.context.close()
        next(cold, None)


def test_the_metric_menu_solves_in_mtm(page, server):
    """The metric menu comes from GET /api/methods; an MTM solve counts multi-tile moves and
    replays every single-tile step."""
    from slidelab.moves import METRICS

    open_page(page, server)
    values = "options => options.map(o => o.value)"
    assert page.locator("#metric option").evaluate_all(values) == list(METRICS)
    page.fill("#board-input", "8 6 7/2 5 4/3 0 1")
    expect(page.locator("#board")).to_have_attribute("data-board", "8 6 7/2 5 4/3 0 1")
    page.select_option("#metric", "mtm")
    page.click("#solve-btn")
    expect(page.locator("#solve-status")).to_have_text("solved: 20 MTM moves")
    expect(page.locator("#solution-info")).to_contain_text("20 MTM moves (31 STM), optimal")
    assert page.locator("#replay-slider").get_attribute("max") == "31"
    page.select_option("#metric", "stm")
    page.click("#solve-btn")
    expect(page.locator("#solution-info")).to_contain_text("31 moves (20 MTM), optimal")


# -- issue 25: the server's first minute -------------------------------------------------------

#: axe-core's script, where one is installed (``SLIDELAB_AXE``: the path of axe.min.js)
AXE = os.environ.get("SLIDELAB_AXE", "")


#: the contrast of an element's text with the background it is drawn on (its own, or the first
#: ancestor's that is not transparent)
STATUS_CONTRAST = CONTRAST.replace(
    "const s = getComputedStyle(el);",
    "const s = getComputedStyle(el); let bg = 'rgb(255, 255, 255)';"
    " for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;"
    " if (c !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(c)) { bg = c; break; } }",
).replace("lum(rgb(s.backgroundColor))", "lum(rgb(bg))")


def _check_accessible(pg) -> None:
    """The warm-up and solve status lines are live regions (role=status) with readable text;
    axe-core's checks too, where it is installed (``SLIDELAB_AXE``)."""
    for selector in ("#server-status", "#solve-status"):
        el = pg.locator(selector)
        assert el.get_attribute("role") == "status" or el.get_attribute("aria-live"), selector
        if el.is_visible() and el.text_content():
            ratio = el.evaluate(STATUS_CONTRAST)
            assert ratio >= 4.5, (selector, el.text_content(), ratio)  # WCAG AA
    if AXE and os.path.exists(AXE):
        pg.add_script_tag(path=AXE)
        violations = pg.evaluate("async () => (await axe.run()).violations.map(v => v.id)")
        assert violations == [], violations


def test_a_fresh_server_answers_a_3x3_within_30_s_and_shows_its_warm_up(
    browser, server, tmp_path_factory
):
    """A freshly started server, with the kernels cached (by the module's server, warmed up)
    and an empty table cache, says it is warming up, answers a 3x3 solve within 30 s of its
    start, and says when the warm-up is over."""
    fresh = _serve(tmp_path_factory, cache=str(tmp_path_factory.mktemp("fresh-cache")))
    began = time.monotonic()
    url = next(fresh)
    pg = browser.new_context(viewport=VIEWPORTS["desktop"]).new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(url)
        warm_up = pg.locator("#server-status")
        expect(warm_up).to_be_visible()
        expect(warm_up).to_contain_text("compiling, first start")
        _check_accessible(pg)
        shot(pg, "17-first-start")
        pg.fill("#board-input", "8 6 7/2 5 4/3 0 1")
        expect(pg.locator("#board")).to_have_attribute("data-board", "8 6 7/2 5 4/3 0 1")
        pg.click("#solve-btn")
        left_ms = max(1.0, 30 - (time.monotonic() - began)) * 1000
        expect(pg.locator("#solve-status")).to_have_text("solved: 31 moves", timeout=left_ms)
        answered = time.monotonic() - began
        assert answered < 30, answered
        shot(pg, "18-first-answer")
        # the warm-up ends and says so, then the line goes
        expect(warm_up).to_contain_text("warmed up", timeout=300_000)
        _check_accessible(pg)
        expect(warm_up).to_be_hidden()
        status = _status(url)
        assert status["warm_up"] is None and status["ready"], status
        assert not errors, errors
    finally:
        pg.context.close()
        next(fresh, None)
