"""What this process may use of the machine: memory (the default budget of every storing search
and table) and cores.

Searches (A*, BFS), heuristic tables and the state-space analysis all take
:func:`default_max_bytes` as their memory limit when none is given; a stream of
solves and a batch run as many at once as :func:`usable_cores` says.  Both sit
here, below them all, so that each can use them without importing the others.
"""

from __future__ import annotations

import contextlib
import os
import threading


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


#: the last-level cache assumed where the system does not say (bytes)
CACHE_BYTES = 32 << 20


def cache_bytes() -> int:
    """Bytes of this machine's last-level cache (Linux's ``/sys``), else :data:`CACHE_BYTES`."""
    folder = "/sys/devices/system/cpu/cpu0/cache"
    try:
        sizes = []
        for entry in os.listdir(folder):
            if entry.startswith("index"):
                with open(os.path.join(folder, entry, "size")) as f:
                    text = f.read().strip().upper()
                scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
                sizes.append(int(text.rstrip("KMG")) * scale)
        return max(sizes) if sizes else CACHE_BYTES
    except (OSError, ValueError):
        return CACHE_BYTES


_GRANTED = threading.local()


def grant_cores(cores) -> None:
    """Say that work in this thread should use at most ``cores`` cores (a pool that already runs
    one job per core grants each of its threads or processes one), or a callable that says how
    many when asked (a pool's share of the cores among the jobs it runs now)."""
    _GRANTED.cores = cores if callable(cores) else max(1, int(cores))


@contextlib.contextmanager
def granted(cores: int):
    """:func:`grant_cores` for the ``with`` block only (the thread's grant is restored after)."""
    before = getattr(_GRANTED, "cores", None)
    grant_cores(cores)
    try:
        yield
    finally:
        _GRANTED.cores = before


def cores_for_this_thread() -> int:
    """The cores this thread's work may spread over: what :func:`grant_cores` granted it, else
    :func:`usable_cores`."""
    cores = getattr(_GRANTED, "cores", None)
    if callable(cores):
        return max(1, int(cores()))
    return cores or usable_cores()


def physical_memory() -> int:
    """Bytes of RAM on this machine (8 GiB if it cannot be told)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 << 30


#: where Linux says how much memory is available (read by :func:`available_memory`)
MEMINFO = "/proc/meminfo"
#: the share of the available memory a search may take by default
AVAILABLE_SHARE = 0.75


def _meminfo() -> dict:
    """``/proc/meminfo`` as ``{field: bytes}`` (empty where there is none)."""
    out = {}
    try:
        with open(MEMINFO) as f:
            for line in f:
                key, _, value = line.partition(":")
                parts = value.split()
                if parts and parts[0].isdigit():
                    out[key.strip()] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    except OSError:
        pass
    return out


def _cgroup_headroom() -> int | None:
    """Bytes this process's cgroup (v2) may still use, if it has a limit."""
    try:
        with open("/proc/self/cgroup") as f:
            path = next(
                (line.strip().split(":", 2)[2] for line in f if line.startswith("0::")), None
            )
        if path is None:
            return None
        base = os.path.join("/sys/fs/cgroup", path.lstrip("/"))
        with open(os.path.join(base, "memory.max")) as f:
            limit = f.read().strip()
        if not limit.isdigit():
            return None  # "max": no limit
        with open(os.path.join(base, "memory.current")) as f:
            return max(0, int(limit) - int(f.read().strip()))
    except (OSError, ValueError, IndexError):
        return None


def _address_space_headroom() -> int | None:
    """Bytes of address space this process may still map, under ``ulimit -v`` (RLIMIT_AS)."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * resource.getpagesize()
        return max(0, limit - used)
    except (ImportError, OSError, ValueError, IndexError):
        return None


def available_memory() -> int:
    """Bytes this process could allocate now: the least of the machine's available memory
    (``MemAvailable``), its cgroup's headroom and its address-space headroom; the physical
    memory where none of these can be told."""
    found = [
        v
        for v in (_meminfo().get("MemAvailable"), _cgroup_headroom(), _address_space_headroom())
        if v is not None
    ]
    return min(found) if found else physical_memory()


def default_max_bytes() -> int:
    """The default memory limit of storing searches: three quarters of the memory available
    now (:func:`available_memory`), and never more than half the machine's memory."""
    total = _meminfo().get("MemTotal") or physical_memory()
    return max(1, min(total // 2, int(available_memory() * AVAILABLE_SHARE)))
