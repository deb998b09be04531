"""A freshly started ``slidelab serve``: how long its warm-up lasts and when its first 3x3 is answered.

Starts ``slidelab serve`` on a free 127.0.0.1 port with a fresh table cache
(``SLIDELAB_CACHE``; or ``--cache DIR``) and the kernel cache of the environment
(``NUMBA_CACHE_DIR``, or slidelab's own), sends an 8-puzzle solve (``auto``,
``wait: true``) as soon as the page answers, polls ``GET /api/status`` every
0.2 s, and prints: when the page answered, when the 3x3 was answered (its status
and the seconds the answer gives), the warm-up status the server showed
(``warm_up``), when each lane said ready, and the table cache's size at the end.
Every time counts from the start of the ``slidelab serve`` process.

Run twice: once with an empty ``NUMBA_CACHE_DIR`` (kernels compiled), once more
with it (kernels cached), e.g.
``NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/web_first_start.py --runs 2``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BOARD = "8 6 7/2 5 4/3 0 1"  # 31 moves, the 8-puzzle's hardest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 5.0):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


def _post(url: str, body: dict, timeout: float = 300.0):
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def one_run(cache: str, limit: float) -> dict:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "SLIDELAB_CACHE": cache}
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "slidelab", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out: dict = {"lanes_ready": {}, "warm_up": set()}
    try:
        while True:
            try:
                _get(base + "/api/status", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        out["page"] = time.monotonic() - began
        answer: dict = {}

        def solve():
            status, body = _post(base + "/api/solve", {"board": BOARD, "wait": True})
            answer.update(at=time.monotonic() - began, status=status, body=body)

        t = threading.Thread(target=solve, daemon=True)
        t.start()
        while time.monotonic() - began < limit:
            try:
                status = _get(base + "/api/status")
            except OSError:
                status = {}
            if status.get("warm_up"):
                out["warm_up"].add(str(status["warm_up"]))
            for name, lane in status.get("lanes", {}).items():
                if lane.get("ready") and name not in out["lanes_ready"]:
                    out["lanes_ready"][name] = time.monotonic() - began
            if status.get("ready") and not t.is_alive():
                out["ready"] = time.monotonic() - began
                break
            time.sleep(0.2)
        t.join(max(0.0, limit - (time.monotonic() - began)))
        out["answer"] = answer
    finally:
        proc.terminate()
        proc.wait(10)
    out["cache_mb"] = sum(os.path.getsize(os.path.join(cache, f)) for f in os.listdir(cache)) / 1e6
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="servers started one after the other")
    parser.add_argument("--cache", help="the table cache (default: a fresh one per run)")
    parser.add_argument("--limit", type=float, default=600, help="seconds a run may last")
    args = parser.parse_args()
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores,"
        f" NUMBA_CACHE_DIR={os.environ.get('NUMBA_CACHE_DIR', '(slidelab default)')}"
    )
    for run in range(args.runs):
        cache = args.cache or tempfile.mkdtemp(prefix="slidelab-web-first-")
        r = one_run(cache, args.limit)
        a = r["answer"]
        body = a.get("body", {})
        said = (
            f"{body.get('length')} moves, {body.get('method')}, search {body['stats']['seconds']:.3f} s"
            if a.get("status") == 200
            else body.get("error")
        )
        print(
            f"run {run + 1}: page at {r['page']:.1f} s; first 3x3 answered at"
            f" {a.get('at', float('nan')):.1f} s ({a.get('status')}: {said});"
            f" lanes ready {', '.join(f'{k} {v:.1f} s' for k, v in r['lanes_ready'].items()) or '-'};"
            f" all ready {r.get('ready', float('nan')):.1f} s;"
            f" warm-up shown {sorted(r['warm_up']) or '-'}; table cache {r['cache_mb']:.1f} MB"
        )


if __name__ == "__main__":
    main()
