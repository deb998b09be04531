"""Batch solving: files of instances, resumable JSON-lines results, local cores or a Dask cluster.

* :mod:`.instances` reads the input (one instance per line, several layouts);
* :mod:`.run` solves them in worker processes or on a Dask cluster;
* :mod:`.results` keeps the output file (append, flush, resume) and sums it up.

``slidelab batch`` on the command line puts the three together.
"""

from .instances import Instance, read_instances
from .results import ResultsFile, Summary, summarize
from .run import default_workers, solve_batch

__all__ = [
    "Instance",
    "ResultsFile",
    "Summary",
    "default_workers",
    "read_instances",
    "solve_batch",
    "summarize",
]
