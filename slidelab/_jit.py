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

Examples
--------
>>> kernel_cache_dir().name in ("kernels", "numba") or "NUMBA_CACHE_DIR" in os.environ
True
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import warnings
from pathlib import Path

from numba import njit
from numba.core import caching, config, event
from numba.core.errors import NumbaIRAssumptionWarning

from ._clock import compiling_ended, compiling_started

__all__ = ["KernelLocator", "kernel_cache_dir", "njit", "package_stamp"]

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
    "_jit.py",
    "tables/driver.py",
    "heuristics/abstraction_kernels.py",
    "tables/budget.py",
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
    """Logs one line at the start of the process's first compilation (not a load from the
    cache)."""

    fired = False

    def on_start(self, ev):
        if not self.fired:
            self.fired = True
            log.info(
                "compiling kernels for first use, once: up to ~30 s (cached in %s; not counted"
                " in time limits)",
                kernel_cache_dir(),
            )

    def on_end(self, ev):
        pass


class _KernelClock(event.Listener):
    """Counts the seconds numba holds its compiler lock: compiling a kernel, or loading it from
    the cache on its first call in a process (:func:`slidelab._clock.compile_seconds`: a time
    limit leaves them out)."""

    def on_start(self, ev):
        compiling_started()

    def on_end(self, ev):
        compiling_ended()


event.register("numba:compile", _FirstCompile())
event.register("numba:compiler_lock", _KernelClock())
