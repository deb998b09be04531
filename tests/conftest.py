import importlib
import os
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

sys.path.insert(0, os.path.dirname(__file__))  # the tests' reference helpers

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run the tests marked slow"
    )


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (over about 20 s on 2 cores) run with ``--runslow`` only."""
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def cli():
    """``cli(*args, input=None)``: run ``slidelab ARGS`` in this process, return click's ``Result``
    (``exit_code``, ``stdout``, ``stderr``, ``output``).

    A crash fails the test with its traceback: click's runner would otherwise catch the
    exception and report exit code 1, which is also slidelab's "unsolvable" code, so that
    ``assert result.exit_code == 1`` would pass on a traceback.  Only ``SystemExit`` (the
    command's own exit codes, click's usage errors) comes back as an exit code.  Arguments are
    passed through ``str`` (boards, numbers, paths)."""
    from slidelab.cli import main

    def run(*args, input=None) -> Result:
        return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)

    return run


def _isolate_cache(patch: pytest.MonkeyPatch, directory: Path) -> Path:
    """Point ``SLIDELAB_CACHE`` at ``directory`` (made empty if need be) and forget the tables
    this process has loaded (from other caches), both until ``patch`` is undone."""
    directory.mkdir(parents=True, exist_ok=True)
    patch.setenv("SLIDELAB_CACHE", str(directory))
    loaded = importlib.import_module("slidelab.tables.loaded")
    patch.setattr(loaded, "LOADED", loaded.Loaded())
    return directory


def _distance_tables() -> None:
    from slidelab.tables.distance import DistanceTable

    for metric in ("stm", "mtm"):
        DistanceTable.build("3x3", cache=False, metric=metric)


def _pattern_database_build() -> None:
    from slidelab import Puzzle
    from slidelab.tables.pdb.build import build_group_table

    build_group_table(Puzzle("1 2 3/4 5 6/7 8 0"), [1, 2, 3, 4])


def _abstraction_search() -> None:
    import slidelab

    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as cache:
        _isolate_cache(patch, Path(cache))  # its small tables built and dropped here
        slidelab.solve("1 2 3/4 5 6/0 7 8", method="idastar", heuristic="abstraction", metric="mtm")


#: kernels that a test run compiles anyway (a first run's CPU seconds: about 20, 25 and 30), the
#: first of them needed before any test
_FIRST_KERNELS = (_distance_tables, _pattern_database_build, _abstraction_search)


@pytest.fixture(scope="session", autouse=True)
def _small_tables_compiled():
    """The kernels of a small space's distance table compiled before any test (once per
    install: tens of seconds on a first run, which some test would spend anyway), so that what
    ``auto`` answers a small board with does not depend on which tests ran before
    (:func:`slidelab.search.policy.choose_method` uses the table where it is quick to make).

    With them, other kernels the run compiles anyway (:data:`_FIRST_KERNELS`), each test
    process starting at another of them: on a first run the processes compile different
    kernels side by side, where they all waited for the one that compiles the first (the kernel
    cache's lock lets one process compile a kernel, the others load it), one core idle for a
    minute."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    turn = int(worker[2:]) if worker[2:].isdigit() else 0
    first = turn % len(_FIRST_KERNELS)
    for make_ready in _FIRST_KERNELS[first:] + _FIRST_KERNELS[:first]:
        make_ready()


@pytest.fixture(scope="session")
def dask_cluster():
    """One real Dask cluster for the run (:func:`dask_cluster.local_cluster`: two worker
    processes, a thread each); a worker a test kills is restarted by its nanny."""
    from dask_cluster import local_cluster

    with local_cluster() as local:
        yield local


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty table cache of the test's own: ``SLIDELAB_CACHE`` set to the directory returned
    (child processes inherit it), and no pattern databases loaded in this process, so that the
    test's tables are built (and announced) in it, not taken from what earlier tests loaded.
    Both are undone after the test."""
    return _isolate_cache(monkeypatch, tmp_path / "cache")


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory) -> Path:
    """As :func:`cache`, for a whole test module: the tables its tests build are built once
    and shared among them."""
    with pytest.MonkeyPatch.context() as patch:
        yield _isolate_cache(patch, tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory) -> str:
    """The cache directory the web servers of this run warm up from (the 15-puzzle's tables):
    ``$SLIDELAB_CACHE`` where it is set (tables the developer has built already), else one
    temporary directory for the whole run.  Nothing is set: a test passes it on itself."""
    return os.environ.get("SLIDELAB_CACHE") or str(tmp_path_factory.mktemp("session-cache"))
