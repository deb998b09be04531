"""``slidelab serve``: the web page and its JSON API (needs the ``web`` extra)."""

from __future__ import annotations

import click

from .options import _fail
from .program import needs


def _web_missing(exc: ImportError):
    _fail(
        f'slidelab serve needs the web extra ({exc.name} is missing): pip install "slidelab[web]"'
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
@needs("fastapi", "uvicorn", "slidelab.web", missing=_web_missing)
def serve_command(host, port, workers):
    """Serve the web page (play, set up, solve, replay) and its JSON API."""
    from ..web import serve

    click.echo(f"slidelab: serving http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    serve(host, port, workers=workers)
