"""``slidelab serve``: the web page and its JSON API (needs the ``web`` extra)."""

from __future__ import annotations

import click

from .common import fail
from .program import needs


def _web_missing(exc: ImportError):
    fail(
        f"slidelab serve needs the web extra ({exc.name} is missing): pip install '.[web]' in a"
        " checkout of slidelab"
    )


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (localhost only by default).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=2,
    show_default=True,
    help="Solves that run at once (one process each).",
)
@click.option(
    "--cache-limit",
    default="2G",
    show_default=True,
    help="Bytes of the tables it writes that the table cache keeps at most (e.g. 500M, 10G;"
    " 'none': no limit): after each solve, the least recently used of them are deleted."
    " Tables in the cache when it starts are never deleted.",
)
@needs("fastapi", "uvicorn", "slidelab.web", missing=_web_missing)
def serve_command(host, port, workers, cache_limit):
    """Serve the web page (play, set up, solve, replay) and its JSON API."""
    from ..errors import SlidelabError
    from ..units import parse_bytes
    from ..web import serve

    try:
        limit = None if cache_limit.strip().lower() == "none" else parse_bytes(cache_limit)
    except SlidelabError as exc:
        fail(f"--cache-limit: {exc}")
    click.echo(f"slidelab: serving http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    serve(host, port, workers=workers, cache_limit=limit)
