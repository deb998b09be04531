"""Connecting to a Dask distributed cluster: the one place that knows how.

``slidelab batch``, ``solve`` and ``analyze`` take ``--scheduler ADDRESS`` (or a
:class:`distributed.Client`); each connects here, so the error a person meets when the
package is missing or the scheduler does not answer is the same one-line message everywhere.
A cluster that cannot answer (its scheduler, a worker lost) raises
:class:`~slidelab.errors.ClusterError`, not an input error.
"""

from __future__ import annotations

from .errors import ClusterError, SlidelabError

#: seconds to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = 20


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
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT if timeout is None else timeout)
    except (OSError, ValueError, TypeError) as exc:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {scheduler}: {first_line(exc)}"
        ) from None


def wait_for_workers(client, timeout: float | None = None) -> None:
    """Return once the cluster of ``client`` has a worker; raise :class:`ClusterError` (one line,
    naming the command that starts one) when none has joined within ``timeout`` seconds
    (default :data:`CONNECT_TIMEOUT`), or the scheduler went away meanwhile."""
    address = client.scheduler.address
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT if timeout is None else timeout)
    except Exception:  # noqa: BLE001 - a time-out, or the scheduler gone
        raise ClusterError(
            f"the Dask cluster at {address} has no workers (start some with: dask worker {address})"
        ) from None


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
