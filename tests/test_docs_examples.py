"""Every example in the docs runs as written: each ``slidelab`` command line of a shell block
(its numbers checked against its comment) and each Python block as a script of its own.

An example that cannot run here says why in :data:`NOT_RUN` (a Dask cluster, a file of the
reader's, minutes of building); the README's own examples are :mod:`test_readme`'s.  Each runs
in a folder and a table cache of its own (the kernels are the run's), where ``benchmarks/`` is
the repository's (the examples name ``benchmarks/data/korf100.txt``) and the files they write
land.  Slow: seventy commands and a dozen scripts.

A time a page gives comes from the benchmarks page, within :data:`TOLERANCE` of a number of the
section its paragraph cites (fast, no process: :func:`_time_check`).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import unicodedata
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


#: how far a time a page gives may be from the number it comes from, a share of that number
TOLERANCE = 0.35

#: the words that make the time after them a setting (a limit, a default, a wait, an interval),
#: not a measurement: one of them, then at most three words, then the time
SETTING_WORDS = (
    "limit",
    "default",
    "within",
    "at most",
    "every",
    "wait",
    "waits",
    "interval",
    "intervals",
)

BENCHMARKS = ROOT / "docs" / "benchmarks.md"

#: the pages whose times are checked: all but the sources themselves and the history of old ones
CHECKED_PAGES = [
    page
    for page in ["README.md", *(p.relative_to(ROOT).as_posix() for p in PAGES)]
    if page not in ("docs/benchmarks.md", "docs/changelog.md")
]

_SECONDS = {
    "µs": 1e-6,
    "ms": 1e-3,
    "s": 1,
    "seconds": 1,
    "min": 60,
    "minutes": 60,
    "h": 3600,
    "hours": 3600,
}
_NUMBER_TEXT = r"\d+(?:,\d{3})*(?:\.\d+)?"

#: a time: a number, or several sharing their unit (``0.25-0.29 s``, ``11/33/53 ms``,
#: ``5, 10, 20, 40 s``), then the unit; ``3 min 53 s`` is one time
_TIME = re.compile(
    rf"(?<![\w.,#])((?:{_NUMBER_TEXT}(?:-|/|, ))*{_NUMBER_TEXT}) "
    rf"({'|'.join(_SECONDS)})\b(?: (\d+) s\b)?"
)
_SETTING = re.compile(rf"\b(?:{'|'.join(SETTING_WORDS)})(?:[\s,]+[\w'-]+){{0,3}}[\s,]*$", re.I)
_CODE_SPAN = re.compile(r"`[^`]*`")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
_CITED_ANCHOR = re.compile(r"benchmarks\.md#([\w-]+)")
_CITED_SCRIPT = re.compile(r"benchmarks/(\w+)\.py")


def _slug(heading: str) -> str:
    """The anchor of a heading: its ``{#id}``, or the toc extension's slug of its text."""
    explicit = re.search(r"\{#([\w-]+)\}\s*$", heading)
    if explicit:
        return explicit.group(1)
    text = unicodedata.normalize("NFKD", heading.replace("`", "").replace("\\", ""))
    text = re.sub(r"[^\w\s-]", "", text.encode("ascii", "ignore").decode()).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _times(text: str) -> list[float]:
    """The seconds of each time in ``text`` (each number of a list or a range)."""
    seconds = []
    for match in _TIME.finditer(text):
        numbers, unit, extra = match.groups()
        seconds += [
            float(number.replace(",", "")) * _SECONDS[unit] + float(extra or 0)
            for number in re.findall(_NUMBER_TEXT, numbers)
        ]
    return seconds


def _cells(row: str) -> list[str]:
    """A table row's cells, code spans and bold left out."""
    return [cell.strip(" *") for cell in _CODE_SPAN.sub("", row).strip().strip("|").split("|")]


def _column_seconds(header: str) -> float | None:
    """The seconds of one unit of a table column named ``header`` (``seconds``, ``median s``,
    ``p50 ms``), or None for a column of something else."""
    unit = re.search(r"(?:^|[\s:])(ms|s|seconds|min)$", header)
    return _SECONDS[unit.group(1)] if unit else None


def _benchmark_sections(text: str) -> tuple[dict[str, list[float]], dict[str, set[str]]]:
    """The benchmarks page's sections: the times each gives, in seconds, by anchor (those of its
    text, and the numbers of its tables' columns of seconds, ``seconds`` or ``median s``; a
    subsection's are its parent's too), and the sections that name each benchmark script (in
    the heading or the body)."""
    numbers: dict[str, list[float]] = {}
    scripts: dict[str, set[str]] = {}
    open_sections: list[tuple[int, str]] = []  # (level, anchor), outermost first
    columns: list[float | None] = []  # the unit of each column of the table being read
    in_fence, previous = False, ""
    for line in text.splitlines():
        in_fence ^= line.startswith("```")
        heading = None if in_fence else re.match(r"(#{1,6}) (.*)", line)
        if heading:
            level = len(heading.group(1))
            open_sections = [(lv, a) for lv, a in open_sections if lv < level]
            open_sections.append((level, _slug(heading.group(2))))
            numbers.setdefault(open_sections[-1][1], [])
        if not open_sections:
            continue
        found = _times(line)
        if line.startswith("|") and not previous.startswith("|"):
            columns = [_column_seconds(header) for header in _cells(line)]
        elif line.startswith("|"):
            found += [
                float(cell.replace(",", "")) * unit
                for cell, unit in zip(_cells(line), columns, strict=False)
                if unit and re.fullmatch(_NUMBER_TEXT, cell)
            ]
        previous = line
        for _, anchor in open_sections:
            numbers[anchor] += found
        for script in _CITED_SCRIPT.findall(line):
            scripts.setdefault(script, set()).add(open_sections[-1][1])
    return numbers, scripts


def _blocks_of(text: str) -> list[str]:
    """A page's blocks outside its code fences: paragraphs, list items, table rows."""
    blocks = re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )|\n(?=\|)", _FENCE.sub("", text))
    return [block.strip() for block in blocks if block.strip()]


def _time_check(page_text: str, benchmarks_text: str) -> tuple[list[str], int, int]:
    """The times of a page that no cited benchmark gives, each said with its block's start and
    the sections its block cites; and how many times were checked and how many were settings."""
    numbers, scripts = _benchmark_sections(benchmarks_text)
    failures, checked, settings = [], 0, 0
    for block in _blocks_of(page_text):
        cited = list(dict.fromkeys(_CITED_ANCHOR.findall(block)))
        failures += [
            f"{block[:60]!r}... cites #{a}, which the benchmarks page has not"
            for a in cited
            if a not in numbers
        ]
        cited += sorted(
            {s for script in _CITED_SCRIPT.findall(block) for s in scripts.get(script, ())}
            - set(cited)
        )
        pool = [number for anchor in cited for number in numbers.get(anchor, [])]
        prose = _CODE_SPAN.sub("`code`", block)
        for match in _TIME.finditer(prose):
            if _SETTING.search(prose[: match.start()]):
                settings += 1
                continue
            checked += 1
            for seconds in _times(match.group()):
                if not any(abs(seconds - number) <= TOLERANCE * number for number in pool):
                    where = ", ".join(f"#{a}" for a in cited) or "no benchmark section"
                    failures.append(f"{match.group()!r} in {block[:60]!r}... (cites {where})")
                    break
    return failures, checked, settings


@pytest.mark.parametrize("page", CHECKED_PAGES)
def test_a_time_a_page_gives_is_a_cited_benchmark_s(page):
    """Every time a page gives was measured, and comes from ``docs/benchmarks.md``, where each
    has its command: within :data:`TOLERANCE` (35 %) of a number of a section that its block (a
    paragraph, a list item, a table row) cites, by a link ``benchmarks.md#anchor`` or by naming a
    benchmark script (``benchmarks/korf100.py``) that the section names.  A table's column of
    seconds (``seconds``, ``median s``) gives times without a unit.  A setting is not a measurement: a time after one of
    :data:`SETTING_WORDS` (``a time limit of 10 s``, ``within 2 s``, ``at most 60 s``), or in a
    code span, is not checked.  The benchmarks and the changelog are not checked; the failure
    names the page, the time, its block's start and the sections it cites."""
    failures, _, _ = _time_check((ROOT / page).read_text(), BENCHMARKS.read_text())
    assert not failures, f"{page}: times no cited benchmark gives:\n" + "\n".join(failures)


def test_the_time_check_fails_a_time_its_cited_source_does_not_give():
    benchmarks = "# B\n\n## Runs {#runs}\n\n| run | seconds |\n|---|---:|\n| one | 4.0 |\n"
    good = "It took 5 s ([runs](benchmarks.md#runs)), with a time limit of 60 s.\n"
    assert _time_check(good, benchmarks) == ([], 1, 1)
    failures, checked, _ = _time_check(
        "It took 9 s ([runs](benchmarks.md#runs)).\n\nThen 4 s.\n", benchmarks
    )
    assert checked == 2 and len(failures) == 2, failures
