"""Where slidelab's compiled kernels live, and a word when they are being compiled.

Every module with numba kernels imports ``njit`` from here, so this module is
set up before the first kernel is declared.  It does two things:

Kernel cache outside the package
    numba caches a ``cache=True`` kernel next to its source file by default
    (``__pycache__`` inside the installed package).  Files written there outlive
    the package: ``pip install .``, a run, then ``pip install -e .`` leaves a
    ``slidelab/`` folder of cache files in ``site-packages`` that Python then
    takes for a namespace package, and every ``slidelab`` command fails.  So
    slidelab's kernels are cached in a folder of their own,
    :func:`kernel_cache_dir`: ``$NUMBA_CACHE_DIR`` when the user set numba's own
    variable, else ``kernels/`` in the user's cache directory for slidelab (for
    example ``~/.cache/slidelab/kernels``), else, where that cannot be written, a
    folder in the system's temporary directory.  Other code's kernels are left to
    numba's own rules.

Kernels inlined across files
    numba checks a cached kernel against its own source file only, but a search
    kernel inlines the heuristic's move function from another file: a change
    there alone would load the stale kernel.  So slidelab's kernels are checked
    against a stamp of every source file with compiled code
    (:data:`KERNEL_SOURCES`, :func:`package_stamp`): a change to any of them
    recompiles them all.  The stamp is of the files' contents, and the cache's
    folders are named by the package's own layout, not by where it is installed:
    a reinstall, or another checkout of the same code, loads the kernels
    compiled before instead of compiling them again (minutes on 2 cores).

Pedantic warnings
    Inlining the heuristics' move functions into the search kernels (see
    :mod:`slidelab.heuristics.dispatch`) makes numba's SSA pass warn, while
    compiling, that some inlined variables are "not in scope": a pedantic check
    of numba's own (``NumbaIRAssumptionWarning``), about nothing the kernels do
    wrong.  That one category is ignored, so that a first run prints no pages of it.

Compile notice
    Compiling the kernels takes seconds to tens of seconds the first time; later
    runs load them from the cache.  When the first kernel of a process is compiled
    rather than loaded, one INFO line goes to the ``slidelab.kernels`` logger; the
    command line shows it on standard error, so a first run says why it is quiet.

Which kernels are compiled
    Work that needs kernels runs them as a named *set* (:func:`kernel_set`: ``walk-stm-suffix``,
    the whole-space search's; ``pdb-distinct``, a pattern database's build), and the seconds
    its first run spent compiling are written down beside the kernels, in a ledger of the
    package's stamp (:func:`kernels_compiled`).  So a choice between a build and a search
    can count compiling as a cost, before anything is compiled (:func:`compile_estimate`:
    the set's declared seconds, scaled by this machine's own past compiles).

Examples
--------
>>> kernel_cache_dir().name in ("kernels", "numba") or "NUMBA_CACHE_DIR" in os.environ
True
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import statistics
import tempfile
import threading
import time
import warnings
from pathlib import Path

from numba import njit
from numba.core import caching, config, event
from numba.core.errors import NumbaIRAssumptionWarning

from . import _compile_lock
from ._clock import compiling_ended, compiling_started

__all__ = [
    "KernelLocator",
    "compile_estimate",
    "kernel_cache_dir",
    "kernel_set",
    "kernels_compiled",
    "njit",
    "package_stamp",
]

#: the folder that holds slidelab's source files; kernels declared below it are ours
_PACKAGE = Path(__file__).resolve().parent


def kernel_cache_dir() -> Path:
    """The folder where slidelab's compiled kernels are cached (see the module's notes).

    Returns
    -------
    pathlib.Path
        ``$NUMBA_CACHE_DIR`` if set, else ``<user cache dir>/slidelab/kernels``.
    """
    if config.CACHE_DIR:
        return Path(config.CACHE_DIR)
    import platformdirs

    return Path(platformdirs.user_cache_dir("slidelab")) / "kernels"


def _fallback_dir() -> Path:
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"slidelab-kernels-{uid}"


#: the source files with compiled code (kernels, intrinsics, overloads), relative to the package;
#: ``tests/test_architecture.py`` checks that it lists every module importing numba
KERNEL_SOURCES = (
    "_bits.py",
    "_slide.py",
    "_jit.py",
    "_compile_lock.py",
    "tables/driver.py",
    "heuristics/abstraction_kernels.py",
    "tables/index_kernels.py",
    "tables/layers.py",
    "tables/pack.py",
    "heuristics/dispatch.py",
    "heuristics/linear_conflict.py",
    "heuristics/manhattan.py",
    "tables/pdb/build.py",
    "heuristics/walking.py",
    "tables/pdb/distinct.py",
    "tables/pdb/layout.py",
    "heuristics/pdb/lookup.py",
    "heuristics/pdb/dual.py",
    "ranking.py",
    "search/_bestfirst.py",
    "search/_ida.py",
    "search/_mm.py",
    "search/bfs.py",
)


def package_stamp(root: Path = _PACKAGE, files=KERNEL_SOURCES) -> str:
    """A digest of the contents of ``files`` under ``root`` (about 300 KB, a millisecond):
    the same sources give the same stamp wherever they are and whenever they were written, so
    a reinstall or another checkout of the same code finds the kernels compiled before.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     (Path(d) / "a.py").write_text("x = 1")
    ...     before = package_stamp(Path(d), ["a.py"])
    ...     (Path(d) / "a.py").write_text("x = 22")
    ...     before != package_stamp(Path(d), ["a.py"])
    5
    6
    True
    """
    ours = root == _PACKAGE and files is KERNEL_SOURCES
    if ours and _STAMP:
        return _STAMP[0]
    digest = hashlib.sha256()
    for name in files:
        try:
            content = (root / name).read_bytes()
        except OSError:
            continue
        digest.update(f"{name}:{len(content)}:".encode())
        digest.update(hashlib.sha256(content).digest())
    stamp = digest.hexdigest()
    if ours:
        _STAMP.append(stamp)
    return stamp


_STAMP: list[str] = []  # the package's stamp, read once per process


class KernelLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """numba cache locator for the kernels declared in slidelab's own source files; their
    cache is stale when any source file with compiled code changed (:func:`package_stamp`)."""

    def get_source_stamp(self):
        return package_stamp()

    def __init__(self, py_func, py_file, base: Path):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(base / self.package_subpath(py_file))

    @staticmethod
    def package_subpath(py_file) -> str:
        """The kernel cache's folder for a source file: its folder inside the package
        (``slidelab_search`` for ``slidelab/search/_ida.py``), not its place on disk, so that
        every install and checkout of the same sources shares one set of compiled kernels
        (numba's own locator names the folder by a hash of its absolute path)."""
        folder = Path(py_file).resolve().parent.relative_to(_PACKAGE.parent)
        return "_".join(folder.parts)

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if config.CACHE_DIR:  # numba's own variable: numba's own locator honours it
            return None
        try:
            Path(py_file).resolve().relative_to(_PACKAGE)
        except (OSError, ValueError):
            return None  # not one of ours
        for base in (kernel_cache_dir(), _fallback_dir()):
            locator = cls(py_func, py_file, base)
            try:
                locator.ensure_cache_path()
            except OSError:
                continue
            return locator
        return None


# numba tries its cache locators in this order (the list is numba's, the same since 0.5x)
if KernelLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, KernelLocator)


# by category only: numba reports them at the kernel's own line (``_mm.py:338``), not its own
warnings.filterwarnings("ignore", category=NumbaIRAssumptionWarning)

#: says "compiling ..." (INFO) when this process first compiles a kernel instead of loading it
log = logging.getLogger("slidelab.kernels")


class _FirstCompile(event.Listener):
    """Logs one line when a set of kernels (:func:`kernel_set`) first compiles in this process
    (not a load from the cache): which, and about how long; one line for the first compile
    outside any set."""

    said: set = set()

    def on_start(self, ev):
        stack = kernel_set._stack.__dict__.get("sets", [])
        current = stack[-1] if stack else None
        key = current.key if current is not None else ""
        if key in self.said:
            return
        self.said.add(key)
        if current is None:
            log.info(
                "compiling kernels for first use, once (cached in %s; not counted in time limits)",
                kernel_cache_dir(),
            )
            return
        about = compile_estimate(current.key, current.model) if current.model else 0.0
        log.info(
            "compiling the kernels of %s for first use, once: %s (cached in %s; not counted in"
            " time limits)",
            current.what,
            f"about {_seconds(about)}" if about >= 1 else "a few seconds",
            kernel_cache_dir(),
        )

    def on_end(self, ev):
        pass


def _seconds(seconds: float) -> str:
    """``12 s`` or ``2 min 5 s`` (:func:`slidelab.units.format_duration`, imported late)."""
    from .units import format_duration

    return format_duration(seconds)


class _KernelClock(event.Listener):
    """Counts the seconds numba holds its compiler lock: compiling a kernel, or loading it from
    the cache on its first call in a process (:func:`slidelab._clock.compile_seconds`: a time
    limit leaves them out)."""

    def on_start(self, ev):
        compiling_started()

    def on_end(self, ev):
        compiling_ended()


event.register("numba:compile", _FirstCompile())

_compile_lock.install(KernelLocator)  # one process compiles a kernel, the others load it
event.register("numba:compiler_lock", _KernelClock())


# ---------------------------------------------------------------------------- which are compiled

# compiling proper (not loading), process-wide: wall seconds, and seconds of the compiling
# thread's CPU (numba compiles on the thread that calls the kernel; what another process takes
# of the machine slows the first, not the second)
_real = {"seconds": 0.0, "cpu": 0.0, "depth": 0, "began": 0.0, "cpu_began": 0.0}
_real_lock = threading.Lock()


def compiling_seconds(cpu: bool = False) -> float:
    """Seconds this process has spent compiling kernels (not loading them from the cache), one
    compile in progress counted up to now; with ``cpu``, the compiling thread's CPU seconds."""
    with _real_lock:
        seconds = _real["cpu" if cpu else "seconds"]
        if _real["depth"] and not cpu:
            seconds += time.perf_counter() - _real["began"]
        return seconds


class _CompileTimer(event.Listener):
    """Adds the wall and CPU seconds of each outermost compilation to
    :func:`compiling_seconds`."""

    def on_start(self, ev):
        with _real_lock:
            if _real["depth"] == 0:
                _real["began"] = time.perf_counter()
                _real["cpu_began"] = time.thread_time()
            _real["depth"] += 1

    def on_end(self, ev):
        with _real_lock:
            _real["depth"] = max(0, _real["depth"] - 1)
            if _real["depth"] == 0:
                _real["seconds"] += time.perf_counter() - _real["began"]
                _real["cpu"] += max(0.0, time.thread_time() - _real["cpu_began"])


event.register("numba:compile", _CompileTimer())


def _ledger_path() -> Path:
    return kernel_cache_dir() / f"compiled-{package_stamp()[:16]}.json"


_LEDGER: dict = {}  # what this process read or wrote of the ledger


def _ledger() -> dict:
    try:
        data = json.loads(_ledger_path().read_text())
    except (OSError, ValueError):
        data = {}
    if isinstance(data, dict):
        _LEDGER.update(data)
    return _LEDGER


def kernels_compiled(key: str) -> bool:
    """Whether the set of kernels ``key`` has been compiled with these sources (its run
    finished once: see :func:`kernel_set`), so that it now only loads."""
    return key in _LEDGER or key in _ledger()


def compile_estimate(key: str, model_seconds: float) -> float:
    """Seconds compiling the set ``key`` would take here: 0 where it is compiled, else
    ``model_seconds`` (CPU seconds on the development machine) times this machine's ratio of its
    own compiles' CPU seconds to their models (the median over the sets it compiled, 1 before
    any), times the load now (one thread: :func:`slidelab.calibration.load_factor`)."""
    if kernels_compiled(key):
        return 0.0
    from .calibration import load_factor

    ratios = [
        entry["cpu"] / entry["model"]
        for entry in _LEDGER.values()
        if isinstance(entry, dict)
        and isinstance(entry.get("cpu"), (int, float))
        and isinstance(entry.get("model"), (int, float))
        and entry["model"] >= 1
        and entry["cpu"] >= 1
    ]
    factor = min(max(statistics.median(ratios), 0.25), 8.0) if ratios else 1.0
    return model_seconds * factor * load_factor(1)


class kernel_set:  # noqa: N801 - used as a function: ``with kernel_set("walk-stm-suffix"):``
    """Runs work that needs the set of kernels ``key`` (``model_seconds``: its compiling from
    nothing on the development machine; ``what``: its name in the compile notice); once the
    work has run, the set is in the ledger
    (:func:`kernels_compiled`) with the seconds its compiling took (loading left out; sets
    inside it left out).  ``seconds()`` tells the compiling so far.  Work that ends in an error
    other than a :class:`ValueError` (slidelab's errors: a limit, bad input) is not recorded:
    it may have stopped before its kernels were compiled."""

    _stack = threading.local()

    def __init__(self, key: str, model_seconds: float = 0.0, what: str | None = None):
        self.key, self.model = key, float(model_seconds)
        self.what = what or key
        self.inner = self.inner_cpu = 0.0

    def __enter__(self) -> kernel_set:
        self.began = compiling_seconds()
        self.cpu_began = compiling_seconds(cpu=True)
        stack = self._stack.__dict__.setdefault("sets", [])
        stack.append(self)
        return self

    def seconds(self) -> float:
        """Seconds this set has spent compiling so far (sets inside it left out)."""
        return max(0.0, compiling_seconds() - self.began - self.inner)

    def __exit__(self, kind, exc, tb) -> None:
        stack = self._stack.__dict__.get("sets", [])
        if stack and stack[-1] is self:
            stack.pop()
        spent = compiling_seconds() - self.began
        cpu = compiling_seconds(cpu=True) - self.cpu_began
        if stack:
            stack[-1].inner += spent
            stack[-1].inner_cpu += cpu
        if kind is not None and not issubclass(kind, ValueError):  # ValueError: a limit, bad input
            return
        if self.key in _LEDGER:
            return
        entry = {
            "seconds": round(max(0.0, spent - self.inner), 3),
            "cpu": round(max(0.0, cpu - self.inner_cpu), 3),
            "model": self.model,
        }
        with _real_lock:
            data = _ledger()
            data[self.key] = entry
            path = _ledger_path()
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
                temp.write_text(json.dumps(data, sort_keys=True))
                os.replace(temp, path)
            except OSError:
                pass
