"""Connecting to a Dask distributed cluster: the one place that knows how.

``slidelab batch``, ``solve`` and ``analyze`` take ``--scheduler ADDRESS`` (or a
:class:`distributed.Client`); each connects here, so the error a person meets when the
package is missing or the scheduler does not answer is the same one-line message everywhere.
A cluster that cannot answer (its scheduler, a worker lost) raises
:class:`~slidelab.errors.ClusterError`, not an input error.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .errors import ClusterError, SlidelabError

#: seconds to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = 20
#: whether Dask's own log lines below CRITICAL are silenced once it is imported (the command
#: line sets it: its user gets slidelab's one-line errors, not the reconnecting client's
#: tracebacks when a scheduler goes away); a program of one's own keeps Dask's logging
QUIET_DASK_LOGS = False


def _quiet_dask_logs() -> None:
    import logging

    for name in list(logging.Logger.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, _OrphanedGather) for f in asyncio_log.filters):
        asyncio_log.addFilter(_OrphanedGather())


class _OrphanedGather:
    """Drops asyncio's "Task exception was never retrieved" for the client's own ``AllExit``: a
    result awaited with a time-out leaves the client's inner waits behind, and when a lost worker
    takes the result away they end in an exception nobody asks for (distributed's, not the
    search's: the search says what happened in its own line)."""

    def filter(self, record) -> bool:
        exc = record.exc_info[1] if record.exc_info else None  # asyncio logs it as exc_info
        return type(exc).__name__ != "AllExit"


def connect(scheduler, timeout: float | None = None):
    """A Dask client of the cluster at ``scheduler`` (an address), or ``scheduler`` if it is one.

    Raises :class:`~slidelab.errors.SlidelabError` (one line) when Dask's ``distributed``
    package is missing, and :class:`~slidelab.errors.ClusterError` when nothing answers at the
    address within ``timeout`` seconds (default :data:`CONNECT_TIMEOUT`).
    """
    try:
        from distributed import Client
    except ImportError:
        raise SlidelabError(
            "--scheduler needs Dask's distributed package: pip install distributed (or, in a"
            " checkout of slidelab, pip install '.[cluster]')"
        ) from None
    if QUIET_DASK_LOGS:
        _quiet_dask_logs()
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT if timeout is None else timeout)
    except (OSError, ValueError, TypeError) as exc:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {scheduler}: {first_line(exc)}"
        ) from None


def wait_seconds(limit: float | None) -> float:
    """Seconds to wait for a cluster (its scheduler, a first worker): :data:`CONNECT_TIMEOUT`,
    or a time limit where that is shorter (at least a second)."""
    return CONNECT_TIMEOUT if limit is None else max(1.0, min(limit, CONNECT_TIMEOUT))


def wait_for_workers(client, limit: float | None = None) -> None:
    """Return once the cluster of ``client`` has a worker; raise :class:`ClusterError` (one line,
    naming the command that starts one) when none has joined within :func:`wait_seconds` of
    ``limit``, or the scheduler went away meanwhile."""
    address = client.scheduler.address
    try:
        client.wait_for_workers(1, timeout=wait_seconds(limit))
    except Exception:  # noqa: BLE001 - a time-out, or the scheduler gone
        raise ClusterError(
            f"the Dask cluster at {address} has no workers (start some with: dask worker {address})"
        ) from None


@contextlib.contextmanager
def faults_as_cluster_errors(what: str) -> Iterator[None]:
    """Inside the block, a fault of the cluster (its scheduler gone: Dask's ``CommClosedError``,
    an ``OSError``, a time-out, a client closed under a future) is raised as one
    :class:`ClusterError` naming ``what`` ran and the fault, not as Dask's traceback; slidelab's
    own errors and Ctrl-C go through as they are."""
    try:
        yield
    except SlidelabError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever Dask raised when its cluster went away
        raise ClusterError(
            f"{what}: the cluster stopped answering ({type(exc).__name__}: {first_line(exc)})"
        ) from None


def scheduler_gone(client) -> bool:
    """Whether ``client`` has lost its scheduler (it is reconnecting, or closed): a worker that
    seems to have left, or a call that failed, is then the scheduler's going."""
    return getattr(client, "status", "running") != "running"


def close_quietly(client) -> None:
    """Close a Dask client whose scheduler may be gone (closing it then raises, or waits)."""
    with contextlib.suppress(Exception):
        client.close(timeout=5)


def check_scheduler(scheduler):
    """``scheduler``, which must be None, an address (``tcp://host:8786``) or a Dask client."""
    from . import _args

    if (
        scheduler is not None
        and not isinstance(scheduler, str)
        and not hasattr(scheduler, "submit")
    ):
        raise _args.ArgumentError(
            f"scheduler must be an address (tcp://host:8786) or a Dask"
            f" client, got {_args.show(scheduler)}"
        )
    return scheduler


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when it has none)."""
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__
