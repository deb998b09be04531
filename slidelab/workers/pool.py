"""The process pool that runs jobs (:mod:`.jobs`): the web server's and the batch's.

A job runs in a separate process, started with the ``spawn`` method (no
inherited threads or locks), rather than in a thread: building tables and the
Python parts of a search hold the GIL, which would stall the server's other
requests, and a compiled kernel can only be stopped by ending its process.  Workers are kept warm
(slidelab imported, kernels loaded, pattern databases memory-mapped) and reused
from job to job.  What a job does is :mod:`.jobs` (:func:`~.jobs.run_job`, also what a
Dask worker runs for ``slidelab batch --scheduler``).

A job is watched by a thread of the server: it waits its turn (jobs start in
the order they were submitted), hands the job to an idle worker, collects its
progress messages, and enforces two limits: the search's own ``time_limit``
(``SearchLimitError``, raised inside the worker) and a hard deadline a little
later, past which the worker is killed.  A solve's time limit bounds its whole
answer, tables built for it included (a build that would not be done in time is
not started), so the hard deadline needs no allowance for building; compiling
kernels is not on the clock, and the worker reports it as it goes, so the deadline
moves by it (a first use of a method's kernels is not killed for compiling them).
Cancelling a job kills its worker too (a compiled kernel cannot be interrupted
from outside); a fresh worker is started at once in its place and warms up
while it waits for the next job.

A pool can run its workers at a lower priority once they have warmed up
(``nice``: the web server's lane of long solves yields the CPU to its lane of
quick ones; the warm-up is the server's one-time work, which the requests that
come meanwhile wait for, at the server's priority) and tells
whether they have all warmed up (:meth:`WorkerPool.ready`); each job may name
an ``owner`` (the web server's client) so that the jobs of one owner can be
counted (:meth:`WorkerPool.active`).

This module imports neither FastAPI nor numba: the server process never loads
the kernels, and the worker processes never load the web framework.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import secrets
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from .jobs import DONE, FAILED, alike, run_job, solve_job, warm_up_jobs
from .priority import lower_priority

#: seconds a job may run past its search time limit before its worker is killed
GRACE = 20.0
#: finished jobs remembered for ``GET /api/solve/{id}``
KEEP_FINISHED = 200
#: seconds a job waits at most for a worker still warming up (its limits start when the worker starts it)
WARM_UP_LIMIT = 600.0
#: what a job waiting for a worker's warm-up, and a pool warming up, say (:attr:`Job.warm_up`)
WARMING_UP = "compiling, first start"

QUEUED, RUNNING, CANCELLED = "queued", "running", "cancelled"


def default_warm_up() -> tuple:
    """The jobs a worker runs before it says it is ready, by default: the solver imported, the
    8-puzzle's kernels loaded."""
    from ..search.request import read_request

    return (solve_job(read_request("1 2 3/4 5 6/0 7 8")),)


# --------------------------------------------------------------------------------------------
# the worker process


def _worker_main(
    conn, cache_dir: str | None, nice: int, warm_up
) -> None:  # pragma: no cover - runs in a child
    """Serve jobs from ``conn`` until it closes: ``(kind, args)`` in, messages out.

    First run the ``warm_up`` jobs (:func:`~.jobs.warm_up_jobs`: the server's first tables one
    set at a time; their results are dropped: a failure shows on the first real job instead)
    at the server's priority, serving any job that comes meanwhile before the next of them
    (after the warm-up jobs like it: its tables, its kernels); then lower the process's
    priority by ``nice`` (every thread's: :func:`~.priority.lower_priority`) and say
    ``("ready", None)``.  Each job is answered with ``("start", None)``, progress messages,
    the seconds it has spent compiling kernels (:func:`_compile_watch`: its deadline moves by
    them) and its result.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the server, which stops us
    if cache_dir:
        os.environ["SLIDELAB_CACHE"] = cache_dir

    warm = warm_up_jobs(warm_up)
    sending = threading.Lock()  # the job's reports and the compile watch's share the pipe

    def send(message) -> None:
        with sending:
            conn.send(message)

    def serve() -> bool:
        """Serve the next job; False when we are to stop (or the parent is gone)."""
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return False
        if message is None:
            return False
        kind, args = message
        _let_go()
        # during the warm-up, the warm-up jobs like this one go first: its kernels are
        # compiled (or loaded) and its tables built before its clock starts
        for job in [job for job in warm if alike(job, (kind, args))]:
            warm.remove(job)
            run_job(*job)
        try:
            send(("start", None))
            with _compile_watch(send):
                answer = run_job(kind, args, _sender(send))
            send(answer)
        except (BrokenPipeError, EOFError, OSError):
            return False  # the parent is gone (killed): nobody to report to
        return True

    while warm:
        if conn.poll():  # a job first: the rest of the warm-up goes on after it
            if not serve():
                return
        else:
            kind, args = warm.pop(0)
            run_job(kind, args)
    lower_priority(nice)  # the warm-up was the server's one-time work; now the lane's share
    try:
        conn.send(("ready", None))
    except (BrokenPipeError, EOFError, OSError):
        return
    while serve():
        pass


def _let_go() -> None:  # pragma: no cover - runs in a child
    """Let go of the loaded tables whose files were deleted from the cache meanwhile (the
    server's size limit, :meth:`WorkerPool.trim`): their memory and disk space are freed."""
    loaded = sys.modules.get("slidelab.tables.loaded")
    if loaded is not None:
        try:
            loaded.LOADED.forget_deleted()
        except Exception:  # noqa: BLE001 - kept, as before
            pass


def _sender(send):
    """A ``report(info)`` that sends progress messages up the pipe (``send``)."""

    def report(info: dict) -> None:
        send(("progress", info))

    return report


#: seconds between a job's reports of its compiling
COMPILE_WATCH_EVERY = 0.5


@contextlib.contextmanager
def _compile_watch(send):  # pragma: no cover - runs in a child
    """While a job runs, report the seconds it has spent compiling kernels so far
    (``("compiling", seconds)``, whenever they grew), so that the pool moves the job's deadline
    by as much: compiling is not counted in time limits, and a first use of a method's kernels
    (tens of seconds on a first start) is not killed for it."""
    from .._clock import compile_seconds

    began, stop = compile_seconds(), threading.Event()

    def watch() -> None:
        said = 0.0
        while not stop.wait(COMPILE_WATCH_EVERY):
            spent = compile_seconds() - began
            if spent - said >= COMPILE_WATCH_EVERY:
                said = spent
                try:
                    send(("compiling", spent))
                except (BrokenPipeError, EOFError, OSError):
                    return

    thread = threading.Thread(target=watch, name="slidelab-compile-watch", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


# --------------------------------------------------------------------------------------------
# the server's side


@dataclass
class Job:
    """A solve or an analysis, as the server tracks it."""

    id: str
    kind: str
    args: dict
    hard_limit: float
    owner: str | None = None
    status: str = QUEUED
    progress: dict = field(default_factory=dict)
    result: dict | None = None
    error: dict | None = None
    started: float | None = None
    finished: float | None = None
    #: while the job waits for its worker to warm up (still queued): :data:`WARMING_UP`
    warm_up: str | None = None
    #: when its client last asked for it (``time.monotonic()``), for a job its client polls
    #: (started without waiting for it); None for a job a request waits for
    watched: float | None = None
    future: Future = field(default_factory=Future)
    cancel_requested: threading.Event = field(default_factory=threading.Event)

    def view(self) -> dict:
        """What ``GET /api/solve/{id}`` shows."""
        now = time.monotonic()
        out: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "progress": self.progress,
            "elapsed": round((self.finished or now) - (self.started or now), 3),
        }
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error["error"]
            out["error_kind"] = self.error.get("kind")
        if self.warm_up is not None:
            out["warm_up"] = self.warm_up
        return out


class _Process:
    """One worker process and the server's end of its pipe."""

    def __init__(self, ctx, cache_dir, nice, warm_up):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main,
            args=(child, cache_dir, nice, warm_up),
            daemon=True,
            name="slidelab-worker",
        )
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self, timeout: float) -> bool:
        if not self.ready and self.conn.poll(timeout):
            try:
                tag, _ = self.conn.recv()
            except (EOFError, OSError):
                return False
            self.ready = tag == "ready"
        return self.ready

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.join(5)
        except Exception:  # noqa: BLE001
            pass
        self.conn.close()

    def ask_to_stop(self) -> None:
        try:
            self.conn.send(None)
        except Exception:  # noqa: BLE001
            pass

    def stop(self) -> None:
        self.ask_to_stop()
        self.process.join(2)
        if self.process.is_alive():
            self.kill()
        else:
            self.conn.close()


def _lost(proc) -> dict:
    """Why a worker's connection ended: killed by a signal (the kernel's out-of-memory killer
    sends SIGKILL) is a limit; an exit of its own is ``internal`` with its code (a worker that
    could not start, as in a script that starts processes without an ``if __name__ ==
    "__main__":`` guard, exits 1)."""
    process = proc.process
    process.join(1.0)
    code = process.exitcode
    if code is None or code < 0:
        how = "" if code is None else f" (signal {-code})"
        return {"error": f"the worker was killed{how}: out of memory?", "kind": "limit"}
    started = "" if proc.ready else " before it was ready (could it start?)"
    return {
        "error": f"internal error: the worker exited with code {code}{started}",
        "kind": "internal",
    }


class WorkerPool:
    """Runs jobs in at most ``workers`` processes at once; the rest wait in line, first come first served.

    ``grace``: seconds a job may run past its time limit before its worker is
    killed.  ``nice``: how much lower the workers' priority is than ours.
    ``warm_up``: the ``(kind, args)`` jobs (:mod:`.jobs`) each worker runs when it starts,
    before it says it is ready (default :func:`default_warm_up`).  ``cache_limit``: bytes of
    the tables written while the pool runs that the table cache keeps at most (:meth:`trim`,
    after each job; the tables found in it when the pool is made are never deleted); None: no
    limit.
    """

    def __init__(
        self,
        workers: int = 1,
        grace: float = GRACE,
        cache_dir: str | None = None,
        nice: int = 0,
        warm_up=None,
        cache_limit: int | None = None,
    ):
        self.workers = max(1, int(workers))
        self.grace = grace
        self.cache_dir = cache_dir if cache_dir is not None else os.environ.get("SLIDELAB_CACHE")
        self.nice = int(nice)
        self.warm_up = default_warm_up() if warm_up is None else tuple(warm_up)
        self.cache_limit = cache_limit
        self._found = frozenset()  # the tables in the cache before: never trimmed
        if cache_limit is not None:
            from ..cache import table_names

            self._found = table_names(self.cache_dir)
        self._trimming = threading.Lock()
        self._ctx = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._turn = threading.Condition(self._lock)  # a job's turn to run, or a cancel
        self._line: deque[Job] = deque()  # jobs waiting for a worker, oldest first
        self._running = 0
        self._idle: list[_Process] = []
        self._busy: set = set()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._closed = False
        self._counter = itertools.count(1)

    # -- life cycle ------------------------------------------------------------------------

    def prestart(self, count: int | None = None) -> None:
        """Start the workers now (``count`` of them in all, default ``workers``), so the
        first job does not wait for one.

        Starting a process takes a few milliseconds (it loads slidelab and warms
        up on its own, in the background: see :meth:`ready`); they are started
        here and not in a thread, so that jobs submitted right after find them
        instead of starting more.
        """
        while self._start_one(count):
            pass

    def _start_one(self, count: int | None = None) -> bool:
        """Start a worker if the pool has fewer than ``count`` (default ``workers``); whether
        one was started."""
        most = self.workers if count is None else min(count, self.workers)
        with self._lock:
            if self._closed or len(self._idle) + len(self._busy) >= most:
                return False
        proc = self._new_process()
        with self._lock:
            if not self._closed and len(self._idle) + len(self._busy) < most:
                self._idle.append(proc)
                return True
        proc.kill()
        return False

    def _new_process(self) -> _Process:
        return _Process(self._ctx, self.cache_dir, self.nice, self.warm_up)

    def ready(self, count: int | None = None) -> bool:
        """Whether ``count`` worker processes (default: all ``workers``) have started and
        warmed up (after :meth:`prestart`)."""
        with self._lock:
            if self._closed:
                return False
            # the idle workers' pipes are ours to read: no job thread holds them
            warm = sum(1 for p in self._idle if p.ready or p.wait_ready(0))
            warm += sum(1 for p in self._busy if p.ready)
            return warm >= (self.workers if count is None else min(count, self.workers))

    def pids(self) -> list:
        """Process ids of the live workers, idle and busy."""
        with self._lock:
            return sorted(p.process.pid for p in [*self._idle, *self._busy])

    def close(self, wait: float = 0.0) -> None:
        """Cancel every job (killing the workers running one) and stop the idle workers.

        With ``wait``, up to that many seconds are spent waiting for the jobs'
        workers to be gone.
        """
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
            jobs = list(self._jobs.values())
            for job in jobs:
                job.cancel_requested.set()
            self._turn.notify_all()
        for proc in idle:  # all at once: each takes a moment to exit
            proc.ask_to_stop()
        for proc in idle:
            proc.stop()
        deadline = time.monotonic() + wait
        for job in jobs:
            try:
                job.future.result(timeout=max(0.0, deadline - time.monotonic()))
            except Exception:  # noqa: BLE001 - a timeout: the workers are daemons, gone at exit
                break

    # -- jobs ------------------------------------------------------------------------------

    def submit(self, kind: str, args: dict, time_limit: float, owner: str | None = None) -> Job:
        """Queue a job; it runs when a worker is free and the jobs before it have started."""
        job = Job(
            id=f"{next(self._counter)}-{secrets.token_hex(4)}",
            kind=kind,
            args=args,
            hard_limit=time_limit + self.grace,
            owner=owner,
        )
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker pool is closed")
            self._jobs[job.id] = job
            self._line.append(job)
            self._forget_old()
        threading.Thread(
            target=self._run, args=(job,), name=f"slidelab-job-{job.id}", daemon=True
        ).start()
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Ask a job to stop; its worker is killed if it is running.  Returns the job."""
        job = self.get(job_id)
        if job is not None and job.status in (QUEUED, RUNNING):
            job.cancel_requested.set()
            with self._lock:
                self._turn.notify_all()
        return job

    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        with self._lock:
            return len(self._line)

    def active(self, owner: str | None = None) -> int:
        """Jobs waiting or running (of ``owner``, if given)."""
        with self._lock:
            return sum(
                1
                for j in self._jobs.values()
                if not j.future.done() and (owner is None or j.owner == owner)
            )

    def unwatched(self, seconds: float) -> list[Job]:
        """Jobs waiting or running whose client polls them but has not asked for ``seconds``."""
        since = time.monotonic() - seconds
        with self._lock:
            return [
                j
                for j in self._jobs.values()
                if not j.future.done() and j.watched is not None and j.watched < since
            ]

    def _forget_old(self) -> None:
        finished = [j.id for j in self._jobs.values() if j.status in (DONE, FAILED, CANCELLED)]
        for job_id in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self._jobs[job_id]

    def _take(self) -> _Process:
        """An idle worker, a warm one first (one started in place of a killed worker may still
        be warming up while another waits ready), or a new one."""
        with self._lock:
            warm = [p for p in self._idle if p.ready or p.wait_ready(0)]
            proc = (warm or self._idle or [None])[-1]
            if proc is not None:
                self._idle.remove(proc)
        if proc is None:
            proc = self._new_process()
        with self._lock:
            self._busy.add(proc)
        return proc

    def _give_back(self, proc: _Process) -> None:
        with self._lock:
            self._busy.discard(proc)
            if not self._closed and len(self._idle) + len(self._busy) < self.workers:
                self._idle.append(proc)
                return
        proc.stop()

    def _kill(self, proc: _Process, job: Job, status: str, error: dict) -> None:
        """Kill a busy worker, finish its job, and start another worker in its place at once
        (it warms up for the next job)."""
        proc.kill()
        with self._lock:
            self._busy.discard(proc)
        self._finish(job, status, error=error)
        self._start_one()

    def _finish(self, job: Job, status: str, result=None, error=None) -> None:
        job.status, job.result, job.error = status, result, error
        job.finished = time.monotonic()
        if not job.future.done():
            job.future.set_result(job)

    def _wait_turn(self, job: Job) -> bool:
        """Wait until ``job`` is first in line and a worker is free (True), or it is cancelled."""
        with self._turn:
            while not job.cancel_requested.is_set():
                if self._line and self._line[0] is job and self._running < self.workers:
                    self._line.popleft()
                    self._running += 1
                    self._turn.notify_all()  # the next in line may go too
                    return True
                self._turn.wait(0.5)
            self._line.remove(job)
            self._turn.notify_all()
            return False

    def _run(self, job: Job) -> None:
        if not self._wait_turn(job):
            self._finish(job, CANCELLED, error={"error": "cancelled", "kind": "cancelled"})
            return
        try:
            self._run_in_slot(job)
        except Exception as exc:  # noqa: BLE001 - a job never takes the server down
            self._finish(job, FAILED, error={"error": f"internal error: {exc}", "kind": "internal"})
        finally:
            with self._turn:
                self._running -= 1
                self._turn.notify_all()
        self.trim()

    def trim(self) -> list:
        """Keep the tables written since the pool was made within ``cache_limit`` bytes (if
        set): the least recently used of them are deleted (:func:`slidelab.cache.trim_tables`);
        done after each job.  The tables that were in the cache before (a user's, built by
        ``slidelab tables build`` or an earlier run) are never deleted.  A worker lets go of
        a deleted table it had loaded when it starts its next job."""
        if self.cache_limit is None or not self._trimming.acquire(blocking=False):
            return []  # no limit, or another job's thread is at it
        try:
            from ..cache import trim_tables

            return trim_tables(self.cache_limit, self.cache_dir or None, keep=self._found)
        except Exception:  # noqa: BLE001 - the cache is left as it is; the next job tries again
            return []
        finally:
            self._trimming.release()

    def _run_in_slot(self, job: Job) -> None:
        if job.cancel_requested.is_set():
            self._finish(job, CANCELLED, error={"error": "cancelled", "kind": "cancelled"})
            return
        proc = self._take()
        # a worker still warming up takes the job after its current warm-up job and those
        # like the job (its kernels, its tables): the job stays queued meanwhile, and its
        # deadline starts when the worker starts it
        if proc.ready:
            job.status, job.started = RUNNING, time.monotonic()
        else:
            job.warm_up = WARMING_UP
        deadline = time.monotonic() + job.hard_limit + (0.0 if proc.ready else WARM_UP_LIMIT)
        try:
            proc.conn.send((job.kind, job.args))
        except (OSError, ValueError):
            self._kill(
                proc,
                job,
                FAILED,
                {"error": "internal error: worker unavailable", "kind": "internal"},
            )
            return
        while True:
            if job.cancel_requested.is_set():
                self._kill(proc, job, CANCELLED, {"error": "cancelled", "kind": "cancelled"})
                return
            if time.monotonic() > deadline:
                self._kill(
                    proc,
                    job,
                    FAILED,
                    {
                        "error": f"limit reached: stopped after {job.hard_limit:g} s",
                        "kind": "limit",
                    },
                )
                return
            try:
                ready = proc.conn.poll(0.05)
                message = proc.conn.recv() if ready else None
            except (EOFError, OSError):
                message = ("lost", None)
            if message is None:
                continue
            tag, payload = message
            if tag == "start":
                job.status, job.started, job.warm_up = RUNNING, time.monotonic(), None
                deadline = job.started + job.hard_limit
            elif tag == "compiling" and job.started is not None:
                deadline = job.started + job.hard_limit + float(payload)  # not on its clock
            elif tag == "ready":
                proc.ready = True
            elif tag == "progress":
                job.progress = payload
            elif tag == "lost":
                self._kill(proc, job, FAILED, _lost(proc))
                return
            else:
                self._give_back(proc)
                if tag == DONE:
                    self._finish(job, DONE, result=payload)
                else:
                    self._finish(job, FAILED, error=payload)
                return
