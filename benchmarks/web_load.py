"""The web server under a crowd, on loopback: latency of cheap requests while hard solves run.

Starts ``slidelab serve`` on a free 127.0.0.1 port (or uses ``--url``, which must be a
loopback address), waits for its workers to warm up, then runs three phases of
``--seconds`` each at most:

``idle``
    ``--cheap`` clients, each in a loop: solve a random 8-puzzle position, check a
    random board (3x3 or 4x4), with a short pause between requests.
``busy``
    the same cheap clients while ``--hard`` other clients each solve 15-puzzle
    positions (random walks of 80 moves; IDA* + Manhattan, 10 s time limit) one
    after the other, waiting for each.
``burst``
    ``--burst`` hard solves sent at once without waiting (``wait: false``), three
    per client, then 3x3 solves while they are in line; everything accepted is
    cancelled afterwards.

Each client is its own host for the server's per-client limits: requests carry
``X-Forwarded-For: 10.0.x.y``, which uvicorn trusts from 127.0.0.1 (its default).
Every request has a 30 s client time-out; the whole run is bounded by the
phases' time.  Prints one table: p50/p95/p99/max latency per phase and kind of
request, with the 429s (queue full or per-client limit) counted apart.

Run: ``python benchmarks/web_load.py [--workers 2] [--seconds 15] [--cheap 4] [--hard 3] [--burst 30]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import defaultdict

TIMEOUT = 30.0


class Client:
    """One keep-alive connection, as one host (``X-Forwarded-For``)."""

    def __init__(self, host: str, port: int, as_host: str):
        self.host, self.port, self.as_host = host, port, as_host
        self.conn = None

    def request(self, method: str, path: str, body=None):
        """``(status, json body or None, headers, seconds)``; status 0 on a time-out or error."""
        began = time.perf_counter()
        for attempt in (0, 1):  # a kept-alive connection the server closed: once more
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
            try:
                self.conn.request(
                    method,
                    path,
                    body=None if body is None else json.dumps(body),
                    headers={"Content-Type": "application/json", "X-Forwarded-For": self.as_host},
                )
                response = self.conn.getresponse()
                data = response.read()
                try:
                    payload = json.loads(data) if data else None
                except ValueError:
                    payload = None
                return (
                    response.status,
                    payload,
                    dict(response.getheaders()),
                    time.perf_counter() - began,
                )
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt or time.perf_counter() - began > 1:
                    return 0, None, {}, time.perf_counter() - began
        raise AssertionError("unreachable")

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Record:
    """Latencies and outcomes per (phase, kind), from many threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rows = defaultdict(lambda: {"ok": [], "429": 0, "err": 0, "retry": set()})

    def add(self, phase, kind, status, headers, seconds):
        with self.lock:
            row = self.rows[(phase, kind)]
            if 200 <= status < 300:
                row["ok"].append(seconds)
            elif status == 429:
                row["429"] += 1
                row["retry"].add(headers.get("retry-after") or headers.get("Retry-After"))
            else:
                row["err"] += 1


def pct(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def cheap_loop(client, positions, boards, record, phase, stop, rng):
    while not stop.is_set():
        status, _, headers, s = client.request(
            "POST", "/api/solve", {"board": rng.choice(positions)}
        )
        record.add(phase, "3x3 solve", status, headers, s)
        status, _, headers, s = client.request("POST", "/api/check", {"board": rng.choice(boards)})
        record.add(phase, "check", status, headers, s)
        stop.wait(rng.uniform(0.01, 0.05))


def hard_body(board, wait):
    return {
        "board": board,
        "method": "idastar",
        "heuristic": "manhattan",
        "time_limit": 10,
        "wait": wait,
    }


def hard_loop(client, positions, record, phase, stop, rng):
    while not stop.is_set():
        status, body, headers, s = client.request(
            "POST", "/api/solve", hard_body(rng.choice(positions), True)
        )
        if status == 422 and body and body.get("kind") == "limit":
            status = 200  # ran to its time limit: a full hard solve all the same
        record.add(phase, "hard solve (wait)", status, headers, s)
        if status == 429:
            stop.wait(1)


def run_phase(phase, seconds, cheap, hard, host, port, pos3, boards, pos4, record, seed):
    stop = threading.Event()
    threads, clients = [], []
    for i in range(cheap):
        c = Client(host, port, f"10.0.2.{i + 1}")
        clients.append(c)
        threads.append(
            threading.Thread(
                target=cheap_loop,
                args=(c, pos3, boards, record, phase, stop, random.Random(seed + i)),
            )
        )
    for i in range(hard):
        c = Client(host, port, f"10.0.1.{i + 1}")
        clients.append(c)
        threads.append(
            threading.Thread(
                target=hard_loop, args=(c, pos4, record, phase, stop, random.Random(seed + 100 + i))
            )
        )
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(TIMEOUT + 5)
    for c in clients:
        c.close()


def burst(n, host, port, pos3, pos4, record, rng):
    """``n`` hard solves at once (three per client), then 3x3 solves while they wait."""
    results, ids = [], []
    lock = threading.Lock()

    def send(i):
        c = Client(host, port, f"10.0.3.{i // 3 + 1}")
        status, body, headers, s = c.request(
            "POST", "/api/solve", hard_body(pos4[i % len(pos4)], False)
        )
        c.close()
        record.add("burst", "hard solve (no wait)", status, headers, s)
        with lock:
            results.append(status)
            if 200 <= status < 300 and body:
                ids.append(body["id"])

    began = time.perf_counter()
    threads = [threading.Thread(target=send, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT + 5)
    sent = time.perf_counter() - began
    c = Client(host, port, "10.0.4.1")
    for _ in range(10):
        status, _, headers, s = c.request("POST", "/api/solve", {"board": rng.choice(pos3)})
        record.add("burst", "3x3 solve", status, headers, s)
        status, _, headers, s = c.request("POST", "/api/check", {"board": rng.choice(pos3)})
        record.add("burst", "check", status, headers, s)
    for solve_id in ids:
        c.request("DELETE", f"/api/solve/{solve_id}")
    c.close()
    return sent, len(ids)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(host, port, deadline):
    c = Client(host, port, "10.0.9.1")
    while time.monotonic() < deadline:
        status, _, _, _ = c.request("GET", "/")
        if status == 200:
            break
        time.sleep(0.2)
    else:
        raise SystemExit("the server did not start")
    began = time.monotonic()
    while time.monotonic() < deadline:  # its workers warm up (an older server has no status)
        status, body, _, _ = c.request("GET", "/api/status")
        if status != 200 or body.get("ready"):
            break
        time.sleep(0.2)
    c.close()
    return time.monotonic() - began


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running server on loopback (default: start one)")
    parser.add_argument(
        "--workers", type=int, default=2, help="hard-lane workers of the server started"
    )
    parser.add_argument(
        "--seconds", type=float, default=15, help="length of the idle and busy phases"
    )
    parser.add_argument("--cheap", type=int, default=4, help="cheap clients")
    parser.add_argument("--hard", type=int, default=3, help="hard clients")
    parser.add_argument("--burst", type=int, default=30, help="hard solves sent at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not (
        0 < args.seconds <= 120
        and 0 <= args.cheap <= 16
        and 0 <= args.hard <= 16
        and 0 <= args.burst <= 60
    ):
        raise SystemExit(
            "bounded: --seconds up to 120, --cheap and --hard up to 16, --burst up to 60"
        )

    server = None
    if args.url:
        url = urllib.parse.urlsplit(args.url)
        host, port = url.hostname, url.port or 80
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit("loopback only: --url must be http://127.0.0.1:PORT/")
    else:
        host, port = "127.0.0.1", free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "slidelab",
                "serve",
                "--host",
                host,
                "--port",
                str(port),
                "--workers",
                str(args.workers),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    try:
        warm = wait_up(host, port, time.monotonic() + 300)
        setup = Client(host, port, "10.0.9.2")
        _, g3, _, _ = setup.request(
            "POST", "/api/generate", {"size": "3x3", "n": 100, "seed": args.seed}
        )
        _, g4, _, _ = setup.request(
            "POST", "/api/generate", {"size": "4x4", "n": 50, "seed": args.seed}
        )
        _, w4, _, _ = setup.request(
            "POST", "/api/generate", {"size": "4x4", "n": 50, "moves": 80, "seed": args.seed}
        )
        setup.close()
        pos3, pos4 = g3["boards"], w4["boards"]
        boards = pos3[:50] + g4["boards"]
        record = Record()
        rng = random.Random(args.seed)
        run_phase(
            "idle", args.seconds, args.cheap, 0, host, port, pos3, boards, pos4, record, args.seed
        )
        run_phase(
            "busy",
            args.seconds,
            args.cheap,
            args.hard,
            host,
            port,
            pos3,
            boards,
            pos4,
            record,
            args.seed,
        )
        sent, accepted = (
            burst(args.burst, host, port, pos3, pos4, record, rng) if args.burst else (0, 0)
        )
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()};"
        f" server: {args.url or f'slidelab serve --workers {args.workers}'}, warm after {warm:.1f} s"
    )
    print(
        f"phases: idle and busy {args.seconds:g} s each, {args.cheap} cheap clients"
        f" (3x3 solve + check, 10-50 ms apart), {args.hard} hard clients (15-puzzle, 80-move walks,"
        f" IDA* + Manhattan, 10 s limit); burst: {args.burst} hard solves at once"
        f" ({sent:.2f} s to send, {accepted} accepted), then 10 x (3x3 solve + check)\n"
    )
    print(
        "| phase | request | answered | 429 | errors/time-outs | p50 ms | p95 ms | p99 ms | max ms |"
        " Retry-After |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for (phase, kind), row in record.rows.items():
        ok = [s * 1000 for s in row["ok"]]
        retry = ", ".join(sorted(r for r in row["retry"] if r)) or ""
        print(
            f"| {phase} | {kind} | {len(ok)} | {row['429']} | {row['err']} | {pct(ok, 50):.1f} |"
            f" {pct(ok, 95):.1f} | {pct(ok, 99):.1f} | {max(ok, default=float('nan')):.1f} |"
            f" {retry} |"
        )


if __name__ == "__main__":
    main()
