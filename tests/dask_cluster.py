"""The tests' one way to start a real Dask cluster on this machine: a scheduler and worker
processes, with Dask's spilling and pausing off (the codes and tables are not Dask data).

``conftest.py``'s ``dask_cluster`` fixture is one such cluster for the whole run (its workers
load their kernels once); a test that kills a worker or the scheduler, or needs other workers
(one, a memory limit, threads), starts its own with :func:`local_cluster`.
"""

from __future__ import annotations

import contextlib

import pytest


@contextlib.contextmanager
def local_cluster(n_workers: int = 2, **options):
    """A ``distributed.LocalCluster`` of ``n_workers`` single-threaded worker processes (each
    with a nanny that restarts it), no dashboard; ``options`` go to ``LocalCluster``."""
    distributed = pytest.importorskip("distributed")
    import dask

    settings = {
        "distributed.worker.memory.target": False,
        "distributed.worker.memory.spill": False,
        "distributed.worker.memory.pause": False,
    }
    kwargs = {"threads_per_worker": 1, "processes": True, "dashboard_address": None, **options}
    with (
        dask.config.set(settings),
        distributed.LocalCluster(n_workers=n_workers, **kwargs) as local,
    ):
        yield local
