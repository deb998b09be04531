"""The README's examples work as written: its six command lines and its Python lines.

The set-up commands are run by ``.ci/run`` itself (literally, in a fresh venv).
"""

from __future__ import annotations

import ast
import json
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _block(heading: str, language: str) -> list[str]:
    section = README.split(heading, 1)[1]
    body = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert body, f"no {language} block under {heading}"
    return [line for line in body.group(1).splitlines() if line.strip()]


EXAMPLES = _block("## Six examples", "sh")


def _slidelab(args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "slidelab", *args], capture_output=True, text=True, **kwargs
    )


def test_there_are_six_examples():
    assert len(EXAMPLES) == 6 and all(line.startswith("slidelab ") for line in EXAMPLES)


@pytest.mark.parametrize("line", [e for e in EXAMPLES if " serve" not in e])
def test_an_example_command_works(line, tmp_path):
    pytest.importorskip("matplotlib") if "--plot" in line else None
    command, _, comment = line.partition("#")
    args = shlex.split(command)[1:]
    done = _slidelab(args, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    for number in re.findall(r"\b\d[\d,]*\b", comment.split("(")[0]):
        if number.replace(",", "").isdigit() and int(number.replace(",", "")) > 2:
            assert number in done.stdout or number.replace(",", "") in done.stdout, (
                number,
                done.stdout[-2000:],
            )


def test_the_serve_example_serves_the_page():
    pytest.importorskip("fastapi")
    (line,) = [e for e in EXAMPLES if " serve" in e]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = shlex.split(line.partition("#")[0])[1:] + ["--port", str(port), "--workers", "1"]
    server = subprocess.Popen([sys.executable, "-m", "slidelab", *args])
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status") as r:
                    status = json.loads(r.read())
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.3)
        assert "ready" in status
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
            assert b"slidelab" in r.read()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_python_lines_give_what_their_comments_say():
    import slidelab as sl

    scope = {"sl": sl}
    for line in _block("The same in Python:", "python"):
        code, _, comment = line.partition("#")
        code, comment = code.strip(), comment.strip()
        tree = ast.parse(code)
        if isinstance(tree.body[0], ast.Expr) and comment:
            value = eval(code, scope)
            expected = comment.split(" ")[0] if comment[0].isdigit() else comment
            if comment[0] in "(['0123456789":
                assert repr(value) == expected or str(value) == expected, (code, value)
        else:
            exec(code, scope)
