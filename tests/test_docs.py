"""The docs site: it builds in strict mode, and its references are complete.

Every public name of ``slidelab.__all__`` is documented on the API page, and every command and
option of the command line on the CLI page (both generated at build time, from the docstrings
and from the Click commands, so this checks the generation, not a hand-kept list).
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

pytest.importorskip("mkdocs", reason="the docs tools are not installed")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
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


def test_every_public_name_is_in_the_api_reference(site):
    import slidelab

    page = (site / "reference" / "api.html").read_text()
    ids = set(re.findall(r'id="(slidelab\.[^"]+)"', page))
    documented = {i.rsplit(".", 1)[-1] for i in ids}
    assert set(slidelab.__all__) <= documented, set(slidelab.__all__) - documented


def _commands(command: click.Command, path: str):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _commands(sub, f"{path} {name}")


def test_every_command_and_option_is_in_the_cli_reference(site):
    from slidelab.cli import main

    text = _text(site / "reference" / "cli.html")
    missing = []
    for path, command in _commands(main, "slidelab"):
        if path not in text:
            missing.append(path)
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("-") and opt not in text:
                    missing.append(f"{path} {opt}")
    assert not missing, missing


def test_the_web_api_and_formats_are_rendered(site):
    text = _text(site / "reference" / "web-api.html")
    for part in ("POST /api/solve", "GET /api/methods", "SolveIn", "metric"):
        assert part in text, part
    formats = _text(site / "reference" / "formats.html")
    assert "SLIDELAB-TABLE" in formats and "known" in formats and "JSON" in formats


def test_the_site_needs_no_network(site):
    """No page loads a script, style or font from another host (the offline plugin's promise)."""
    for page in site.rglob("*.html"):
        for url in re.findall(r'(?:src|href)="(https?://[^"]+)"', page.read_text()):
            assert not url.endswith((".js", ".css", ".woff2", ".woff")), (page, url)
