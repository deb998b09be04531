"""Jobs in worker processes, the web server's and the batch's: what a job does (:mod:`.jobs`:
its arguments built in one place, and :func:`~.jobs.run_job`) apart from the process pool
that runs them (:mod:`.pool`) and the priority a worker yields to others once warm
(:mod:`.priority`).

Neither module imports FastAPI or numba: the server process never loads the kernels, and
the worker processes never load the web framework.
"""

from .jobs import (
    DONE,
    FAILED,
    analyze_job,
    generate_job,
    run_job,
    server_tables_job,
    solve_job,
    tables_job,
)
from .pool import (
    CANCELLED,
    GRACE,
    QUEUED,
    RUNNING,
    WARM_UP_LIMIT,
    WARMING_UP,
    Job,
    WorkerPool,
    default_warm_up,
)

__all__ = [
    "CANCELLED",
    "DONE",
    "FAILED",
    "GRACE",
    "QUEUED",
    "RUNNING",
    "WARMING_UP",
    "WARM_UP_LIMIT",
    "Job",
    "WorkerPool",
    "analyze_job",
    "default_warm_up",
    "generate_job",
    "run_job",
    "server_tables_job",
    "solve_job",
    "tables_job",
]
