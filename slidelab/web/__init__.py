"""The web page: ``slidelab serve`` (FastAPI on uvicorn; needs the ``web`` extra).

:func:`create_app` builds the application (see :mod:`slidelab.web.app` for the API);
:func:`serve` runs it.  Importing this package imports neither FastAPI nor numba.
"""

from __future__ import annotations


def create_app(**kwargs):
    """The FastAPI application (see :func:`slidelab.web.app.create_app`)."""
    from .app import create_app as make

    return make(**kwargs)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 2,
    log_level: str = "warning",
    cache_limit: int | None = 2 * 1024**3,
) -> None:
    """Run the page and its API on ``host:port`` until interrupted; ``cache_limit``: bytes of
    the tables written while it runs that the table cache keeps at most (those in the cache
    when it starts are never deleted; None: no limit)."""
    import uvicorn

    app = create_app(workers=workers, cache_limit=cache_limit)
    uvicorn.run(app, host=host, port=port, log_level=log_level)


__all__ = ["create_app", "serve"]
