"""The docs site: it builds in strict mode, and its references are complete.

Every public name of ``slidelab.__all__`` is documented on the API page, and every command and
option of the command line on the CLI page (both generated at build time, from the docstrings
and from the Click commands, so this checks the generation, not a hand-kept list); the web API
page holds every endpoint, schema and field of the server's OpenAPI schema. The hand-written
pages are checked where they state facts: the file formats against the code that reads and
writes them, and the Python examples of the tutorial and some how-to guides are run, each
result compared with the value its comment gives.
"""

from __future__ import annotations

import ast
import html
import importlib
import importlib.util
import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs", reason="the docs tools are not installed")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page.read_text()))


def _hook():
    """docs/hooks/reference.py, the hook that writes the generated reference pages."""
    spec = importlib.util.spec_from_file_location("_docs_hook", ROOT / "docs/hooks/reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_public_name_is_in_the_api_reference(site):
    import slidelab

    page = (site / "reference" / "api.html").read_text()
    ids = set(re.findall(r'id="(slidelab\.[^"]+)"', page))
    documented = {}
    for entries in _hook().api_identifiers().values():
        for name, path in entries:
            documented[name] = path
            # the block documents the object slidelab exports under that name
            module, _, attribute = path.rpartition(".")
            assert getattr(importlib.import_module(module), attribute) is getattr(slidelab, name)
    assert set(slidelab.__all__) <= set(documented), set(slidelab.__all__) - set(documented)
    missing = {name for name, path in documented.items() if path not in ids}
    assert not missing, missing


def _commands(command: click.Command, path: str):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _commands(sub, f"{path} {name}")


def _section(page: str, anchor: str) -> str:
    """The HTML from the heading ``anchor`` to the next heading."""
    start = page.index(f'id="{anchor}"')
    end = re.compile(r"<h[1-6][ >]").search(page, start)
    return page[start : end.start() if end else len(page)]


def test_every_command_and_option_is_in_the_cli_reference(site):
    """Each command has its section (``slidelab moves apply`` -> ``#slidelab-moves-apply``),
    and each of its options is a name in that section's table."""
    from slidelab.cli import main

    page = (site / "reference" / "cli.html").read_text()
    assert "Sentinel" not in page  # click's 'no default' shown as it is (see the hook)
    missing = []
    for path, command in _commands(main, "slidelab"):
        anchor = path.replace(" ", "-")
        if f'id="{anchor}"' not in page:
            missing.append(path)
            continue
        section = _section(page, anchor)
        if command.help and command.help.split(".")[0].split("\n")[0] not in html.unescape(section):
            missing.append(f"{path}: its help")
        for param in command.params:
            if getattr(param, "hidden", False):
                continue
            if isinstance(param, click.Argument):
                if param.make_metavar(click.Context(command)).strip("[].") not in section:
                    missing.append(f"{path} {param.name}")
                continue
            for opt in param.opts + param.secondary_opts:
                if f"<code>{opt}</code>" not in section:
                    missing.append(f"{path} {opt}")
    assert not missing, missing


def test_the_web_api_reference_is_the_servers_schema(site):
    """Every endpoint and every schema of ``create_app().openapi()`` is on the page, and the
    site carries the schema itself."""
    from slidelab.web import create_app

    schema = create_app().openapi()
    assert json.loads((site / "reference" / "openapi.json").read_text()) == schema
    page = (site / "reference" / "web-api.html").read_text()
    text = _text(site / "reference" / "web-api.html")
    for path, operations in schema["paths"].items():
        for verb in operations:
            assert f"{verb.upper()} {path}" in text, (verb, path)
    from slidelab.web.errors import JOB_STATUS
    from slidelab.web.lanes import MAX_BODY

    # the hand-written part: the body limit, and every kind a failed solve's error names
    assert f"over {MAX_BODY // 1024} KiB" in text
    for kind in [*JOB_STATUS, "internal"]:
        assert f"{kind}" in _section(page, "errors"), kind
    for name, model in schema["components"]["schemas"].items():
        section = _section(page, f"schema-{name.lower()}")
        for field in model.get("properties", {}):
            assert f"<code>{field}</code>" in section, (name, field)


@pytest.mark.usefixtures("cache")  # an empty table cache (the name is the module's here)
def test_the_file_formats_page_states_what_the_code_reads_and_writes():
    """docs/reference/formats.md is written by hand: its names and numbers are the code's."""
    import numpy as np

    from slidelab import Solution, Stats, cache
    from slidelab.batch import instances, results
    from slidelab.tables import distance as table
    from slidelab.tables import pdb

    page = (ROOT / "docs" / "reference" / "formats.md").read_text()
    said = [
        f"{instances.MAX_INPUT_CHARS:,}",
        f"`{results.RECORD_START}`",
        f"`{cache.MAGIC.decode().strip()}` and a newline",
        f"version, {cache.FORMAT_VERSION} (`slidelab.cache.FORMAT_VERSION`)",
        f"multiple of {cache.ALIGNMENT} (`slidelab.cache.ALIGNMENT`)",
        f"| {len(cache.MAGIC)} | the magic line",
        f"| {pdb.PDB_FORMAT} (`slidelab.tables.pdb.PDB_FORMAT`)",
        f"| {table.VERSION} (`slidelab.tables.distance.VERSION`)",
    ]
    said += [f"`{key}`" for key in instances.KEYS]
    said += [f"`{kind}`" for kind in results.ERROR_KINDS] + list(results.ERROR_KINDS.values())
    said += [f"`{field}`" for field in Stats().as_dict()]
    said += [f"`{field}`" for field in Solution("1 0/2 3", "1 2/0 3", "U").as_dict()]
    # a header as the cache writes it
    spec = {"kind": "demo", "board": "2x2", "version": 1}
    cache.load_or_build(spec, lambda progress: np.zeros(3, np.uint8))
    data = cache.table_path(spec).read_bytes()
    length = int.from_bytes(data[len(cache.MAGIC) : len(cache.MAGIC) + 4], "little")
    header = json.loads(data[len(cache.MAGIC) + 4 : len(cache.MAGIC) + 4 + length])
    said += [f"| `{field}` |" for field in header]
    missing = [text for text in said if text not in page]
    assert not missing, missing


def test_the_site_needs_no_network(site):
    """No page loads anything from another host: no script, stylesheet, image or frame (links
    to other sites are fine). Material's offline plugin adds a script from unpkg.com unless the
    site carries its own copy (``extra.polyfills`` in mkdocs.yml)."""
    loads = re.compile(
        r'<(?:script|img|iframe)\b[^>]*\bsrc="(https?:[^"]*|//[^"]*)"'
        r'|<link\b[^>]*\bhref="(https?:[^"]*|//[^"]*)"'
    )
    found = []
    for page in site.rglob("*.html"):
        for tag in loads.finditer(page.read_text()):
            if not tag.group(0).startswith("<link") or 'rel="stylesheet"' in tag.group(0):
                found.append((page.relative_to(site).as_posix(), tag.group(1) or tag.group(2)))
    assert not found, found[:5]


CHROMIUM = "/usr/bin/chromium"


def test_the_site_searches_from_the_file_system_offline(site):
    """Opened as files (file://), a page finds text through the search box, and nothing is
    requested from another machine."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            page = browser.new_page()
            away = []
            page.on(
                "request",
                lambda r: (
                    None if r.url.startswith(("file:", "data:", "blob:")) else away.append(r.url)
                ),
            )
            page.goto((site / "reference" / "api.html").as_uri())
            page.locator("input.md-search__input").click(force=True)
            page.keyboard.type("pattern databases")
            sync_api.expect(page.locator(".md-search-result__meta")).to_contain_text(
                "matching", timeout=30_000
            )
            assert page.locator(".md-search-result__item").count() > 0
            assert not away, away
        finally:
            browser.close()


#: pages whose Python examples run here, each line's result checked against its comment when
#: the comment starts like a value (``# (31, True)``, ``# 24``, ``# [Board(...)]``)
PYTHON_PAGES = ["tutorial/index.md", "how-to/mtm.md", "how-to/analyze.md"]


def _comments(block: str) -> dict[int, str]:
    """The comment on each line of ``block``, by line number."""
    tokens = tokenize.generate_tokens(io.StringIO(block).readline)
    return {t.start[0]: t.string[1:].strip() for t in tokens if t.type == tokenize.COMMENT}


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_the_python_examples_give_what_their_comments_say(page, tmp_path, monkeypatch):
    import slidelab as sl

    monkeypatch.chdir(tmp_path)  # files the examples write (plots) land here
    if "plot(" in (ROOT / "docs" / page).read_text():
        pytest.importorskip("matplotlib")
    scope = {"sl": sl, "__name__": "__docs__"}
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / page).read_text(), re.S)
    assert blocks, page
    checked = 0
    for block in blocks:
        comments = _comments(block)
        for node in ast.parse(block).body:
            comment = comments.get(node.end_lineno, "")
            if isinstance(node, ast.Expr) and comment[:1] and comment[0] in "([0123456789":
                value = eval(compile(ast.Expression(node.value), page, "eval"), scope)
                expected = comment.split(" ")[0].rstrip(",;:") if comment[0].isdigit() else comment
                assert expected in (repr(value), str(value)), (page, ast.unparse(node), value)
                checked += 1
            else:
                exec(compile(ast.Module([node], []), page, "exec"), scope)
    assert checked, f"{page}: no example line with a value in its comment"


def test_solves_docstring_names_every_method_and_heuristic():
    from slidelab.heuristics.registry import HEURISTICS
    from slidelab.search.registry import METHODS
    from slidelab.search.solve import solve

    doc = solve.__doc__ or ""
    missing = [name for name in [*METHODS, *HEURISTICS] if f"``{name}``" not in doc]
    assert not missing, missing


def test_no_star_of_a_name_becomes_emphasis(site):
    """``IDA*, A*`` unescaped in Markdown renders as "IDA, *A*": an emphasis that starts inside a
    word is a star that was meant as a character (write ``A\\*``)."""
    glued = []
    for page in site.rglob("*.html"):
        for match in re.finditer(r"\w<em>[^<]{0,40}", page.read_text()):
            glued.append((page.relative_to(site).as_posix(), match.group(0)))
    assert not glued, glued[:5]


@pytest.mark.slow  # 27 s: weighted A* on the 24-puzzle (the README's run stays under 8 minutes)
def test_the_weighted_example_states_what_it_gives():
    """docs/how-to/solve.md's ``--weight 1.5`` line gives that board's lengths, not an average."""
    from slidelab import solve

    page = (ROOT / "docs" / "how-to" / "solve.md").read_text().splitlines()
    line = next(x for x in page if x.startswith("slidelab solve") and "--weight 1.5" in x)
    board = re.search(r'solve "([^"]+)"', line).group(1)
    weighted = solve(board, blank_first=True, weight=1.5)
    optimal = solve(board, blank_first=True, method="idastar", heuristic="pdb", partition="6-6-3")
    over = round(100 * (weighted.length - optimal.length) / optimal.length)
    said = f"{weighted.length} moves, the optimum is {optimal.length} ({over}% over"
    assert said in line, (said, line)
