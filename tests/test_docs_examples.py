"""Every example in the docs runs as written: each ``slidelab`` command line of a shell block
(its numbers checked against its comment) and each Python block as a script of its own.

An example that cannot run here says why in :data:`NOT_RUN` (a Dask cluster, a file of the
reader's, minutes of building); the README's own examples are :mod:`test_readme`'s.  Each runs
in a folder and a table cache of its own (the kernels are the run's), where ``benchmarks/`` is
the repository's (the examples name ``benchmarks/data/korf100.txt``) and the files they write
land.  Slow: seventy commands and a dozen scripts.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))

#: examples not run here, by a fragment of their text, and why
NOT_RUN = {
    "--scheduler": "needs a Dask cluster",
    'scheduler="tcp://': "needs a Dask cluster",
    "slidelab serve": "serves until stopped (test_readme starts the server)",
    "puzzles.txt": "a file of the reader's",
    "boards.txt": "a file of the reader's",
    "--partition 7-8": "builds 577 MB of tables (minutes: benchmarks/estimates.py times it)",
    "--family abstraction": "builds the MTM abstraction tables (minutes: benchmarks/estimates.py)",
    "t.build()": "builds the 7-8 tables (minutes: benchmarks/estimates.py times it)",
    "tables clear": "deletes the reader's tables",
    '@search_entry("greedy")': "a module of the package: test_registry.py runs it as one",
    'Method("greedy"': "an entry of the package's registry: test_registry.py adds it",
}

#: a number in a comment that the output must hold: with thousands separators, or before a
#: unit the command prints (``31 moves``, ``6 STM``)
_NUMBER = re.compile(r"\b(\d{1,3}(?:,\d{3})+|\d+(?= (?:moves|MTM|STM|positions|optimal)))\b")


def _blocks(language: str):
    """(page, text) of each block of ``language`` in the docs' pages."""
    for page in PAGES:
        text = page.read_text()
        for block in re.findall(rf"```{language}\n(.*?)```", text, re.S):
            yield page.relative_to(ROOT).as_posix(), block


def _commands():
    """(id, command, comment) of each ``slidelab`` line of the docs' shell blocks."""
    for page, block in _blocks("sh"):
        lines = block.replace("\\\n", " ").splitlines()
        for line in lines:
            if not line.startswith("slidelab "):
                continue
            command, _, comment = line.partition("  #")
            yield pytest.param(
                command.strip(),
                comment.strip(),
                id=f"{page}: {command.strip()[:60]}",
                marks=_skip(line),
            )


def _scripts():
    """(page, script) of each page with Python blocks: its blocks one after the other, as a
    reader would paste them (a block may use what an earlier one made), those of
    :data:`NOT_RUN` left out."""
    pages: dict[str, list[str]] = {}
    for page, block in _blocks("python"):
        pages.setdefault(page, [])
        if not _skip(block):
            pages[page].append(block)
    for page, blocks in pages.items():
        marks = [] if blocks else [pytest.mark.skip(reason="every block needs what is not here")]
        yield pytest.param("\n".join(blocks), id=page, marks=marks)


def _skip(text: str) -> list:
    why = next((reason for fragment, reason in NOT_RUN.items() if fragment in text), None)
    return [pytest.mark.skip(reason=why)] if why else []


def _env(tmp_path: Path) -> dict:
    """The example's environment, and its folder ready (``tmp_path``, the repository's
    ``benchmarks`` linked in it)."""
    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    return {**os.environ, "SLIDELAB_CACHE": str(tmp_path / "cache"), "MPLBACKEND": "Agg"}


@pytest.mark.slow  # seventy commands, some of them tens of seconds
@pytest.mark.parametrize("command, comment", list(_commands()))
def test_a_docs_command_runs_and_says_what_its_comment_says(command, comment, tmp_path):
    done = subprocess.run(
        ["bash", "-c", command.replace("slidelab ", f"{shlex.quote(sys.executable)} -m slidelab ")],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=600,
    )
    said = done.stdout + done.stderr
    unsolvable = "unsolvable" in comment
    assert done.returncode == (1 if unsolvable else 0), said[-2000:]
    assert "Traceback" not in said
    for number in _NUMBER.findall(comment):  # JSON writes it without separators
        found = number in said or number.replace(",", "") in said
        assert found, f"{number!r} from the comment {comment!r} not in:\n{said[-2000:]}"


@pytest.mark.slow  # a script a page, each a process of its own
@pytest.mark.parametrize("script_text", list(_scripts()))
def test_a_docs_page_s_python_runs_as_a_script(script_text, tmp_path):
    script = tmp_path / "example.py"
    # a block may go on from the page's first (``sl`` imported there): it is imported here too
    script.write_text("import slidelab as sl  # noqa\n\n" + script_text)
    env = _env(tmp_path)
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]


#: a time a page gives (``14 s``, ``2.5 min``, ``20 ms``)
_TIME = re.compile(r"\b\d[\d,.]* ?(?:ms|s|min|minutes|seconds|hours)\b")


@pytest.mark.parametrize("page", ["README.md", *(p.relative_to(ROOT).as_posix() for p in PAGES)])
def test_a_page_that_gives_times_cites_the_benchmarks(page):
    """The times the docs give were measured on the development machine: a page that gives one
    cites the benchmarks page, where each comes with its command (``docs/benchmarks.md``, the
    tables ``python benchmarks/...`` prints), so that a reader can make them again."""
    text = (ROOT / page).read_text()
    if page.endswith(("benchmarks.md", "changelog.md")) or not _TIME.search(text):
        return
    assert "benchmarks.md" in text, f"{page} gives times ({_TIME.search(text).group()}) uncited"
