"""Estimates that hold on this machine: a model's seconds scaled by this machine's own past
builds and by its load now.

Each family models its builds' seconds on the 2-core development machine, unloaded
(:attr:`slidelab.tables.family.Part.model_seconds`).  Two things move the real time away
from that model, and both are measured here:

- **the machine**: after every build, the measured seconds are recorded beside the model's
  (:func:`record`, in ``timings.json`` in the user's cache folder for slidelab, beside the
  kernels; ``$SLIDELAB_TIMINGS`` names another file), with the load the build started under;
  the factor for a kind of table is the median of the last :data:`KEEP` ratios (measured over
  model, the load taken out), 1 before any;
- **the load**: other work running takes cores from the build; with ``L`` threads of other
  work running on ``C`` cores (:func:`busy_cores`), a build of ``T`` threads gets about
  ``C / (T + L)`` of what it would alone, when that is under 1 (:func:`load_factor`).

Examples
--------
>>> import os, tempfile
>>> from unittest import mock
>>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(
...     os.environ, SLIDELAB_TIMINGS=os.path.join(tmp, "timings.json")
... ):
...     before = machine_factor("pdb")
...     record("pdb", 10.0, 1.0, 15.0)
...     record("pdb", 10.0, 2.0, 26.0)
...     after = machine_factor("pdb")
>>> before, after
(1.0, 1.4)
"""

from __future__ import annotations

import json
import os
import statistics
import threading
from contextlib import suppress

#: the ratios kept for each kind of table: the newest
KEEP = 9
#: the file of the records, in the user's cache folder for slidelab
FILE = "timings.json"
#: the environment variable that names another file
ENV_VAR = "SLIDELAB_TIMINGS"
#: a factor from past builds is kept within these bounds (a record from a machine that was
#: suspended mid-build says nothing)
BOUNDS = (0.25, 8.0)

_lock = threading.Lock()


def _path():
    from pathlib import Path

    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    import platformdirs

    return Path(platformdirs.user_cache_dir("slidelab")) / FILE


def _read() -> dict:
    with suppress(OSError, ValueError):
        data = json.loads(_path().read_text())
        if isinstance(data, dict):
            return data
    return {}


def record(kind: str, model_seconds: float, load: float, seconds: float) -> None:
    """Record a build of a table of ``kind``: the model's seconds, the load factor it started
    under (:func:`load_factor`) and the seconds it took (compiling left out).  Builds of under
    a tenth of a second are not recorded (their time is mostly noise)."""
    if model_seconds < 0.1 or seconds < 0.1:
        return
    ratio = seconds / (model_seconds * max(load, 1.0))
    with _lock:
        data = _read()
        ratios = [r for r in data.get(kind, []) if isinstance(r, (int, float))]
        data[kind] = (ratios + [round(ratio, 4)])[-KEEP:]
        path = _path()
        with suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
            temp.write_text(json.dumps(data, sort_keys=True))
            os.replace(temp, path)


def machine_factor(kind: str) -> float:
    """How much longer than the model builds of ``kind`` take on this machine, unloaded: the
    median of the recorded ratios, 1.0 before any."""
    ratios = [r for r in _read().get(kind, []) if isinstance(r, (int, float)) and r > 0]
    if not ratios:
        return 1.0
    low, high = BOUNDS
    return min(max(statistics.median(ratios), low), high)


#: seconds a reading of the cores busy is reused
BUSY_FRESH = 5.0
#: seconds the cores busy are read over
BUSY_WINDOW = 0.1

_busy: dict = {"at": -1e9, "cores": 0.0}


def _proc_stat() -> tuple[int, int]:
    """(busy, total) jiffies of all cores, from ``/proc/stat``."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and waiting for I/O
    return sum(fields) - idle, sum(fields)


def _own_share() -> float:
    """About how many of the one-minute load average's threads are this process's own: its CPU
    seconds over the last minute of its life (all of it, when younger)."""
    import time

    try:
        with open("/proc/self/stat") as f:
            started = int(f.read().rsplit(")", 1)[1].split()[19])  # clock ticks after boot
        with open("/proc/uptime") as f:
            age = float(f.read().split()[0]) - started / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0
    return time.process_time() / max(age, 60.0)


def busy_cores() -> float:
    """How many threads of other work are running now (this thread sleeps while it looks):
    the cores busy in ``/proc/stat`` over :data:`BUSY_WINDOW` seconds, or, where more threads
    than cores are running, the one-minute load average less this process's own share; reused
    for :data:`BUSY_FRESH` seconds.  The load average alone where there is no ``/proc/stat``,
    0 where neither is."""
    import time

    now = time.monotonic()
    if now - _busy["at"] < BUSY_FRESH:
        return _busy["cores"]
    try:
        load = max(0.0, os.getloadavg()[0] - _own_share())
    except (AttributeError, OSError):
        load = 0.0
    try:
        busy0, total0 = _proc_stat()
        time.sleep(BUSY_WINDOW)
        busy1, total1 = _proc_stat()
        cores = (os.cpu_count() or 1) * (busy1 - busy0) / max(1, total1 - total0)
        if cores >= 0.9 * (os.cpu_count() or 1):  # every core busy: how many more wait for one
            cores = max(cores, load)
    except (OSError, ValueError, IndexError):
        cores = load
    _busy.update(at=time.monotonic(), cores=cores)
    return cores


def load_factor(threads: int = 0) -> float:
    """How much longer a job of ``threads`` threads (0: every usable core) takes now than on
    an idle machine: ``(threads + busy) / cores`` when that is over 1 (:func:`busy_cores`)."""
    from .memory import usable_cores

    cores = max(1, usable_cores())
    threads = cores if threads <= 0 else min(threads, cores)
    return max(1.0, (threads + busy_cores()) / cores)


def scaled(kind: str, model_seconds: float, threads: int = 0) -> float:
    """The seconds a build of ``kind`` that the model puts at ``model_seconds`` takes here,
    now: the model times :func:`machine_factor` and :func:`load_factor`."""
    return model_seconds * machine_factor(kind) * load_factor(threads)


__all__ = ["busy_cores", "load_factor", "machine_factor", "record", "scaled"]
