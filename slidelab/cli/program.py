"""Program start-up: the garbage collector held while a command imports, notices, interruptions.

The order of start-up is one visible rule: a command declares the modules it
needs with :func:`needs`; they are imported before its body runs, while the
collector is held, and then start-up ends (:func:`end_startup`).  A command
without :func:`needs` (``moves``, ``tables list``) imports only light modules
and runs with the collector held; :class:`ProgramGroup` ends start-up after it.
"""

from __future__ import annotations

import atexit
import functools
import gc
import importlib
import logging
import signal
import sys
from collections.abc import Callable

import click

#: set while the program holds the garbage collector off during its start-up
_gc_held = False

#: set by the first Ctrl-C or SIGTERM of the program
_interrupt_seen = False


def _program_start() -> None:
    """Start-up of the program proper (the console script, ``python -m slidelab``).

    Importing numba and loading its cached kernels creates over 100,000
    objects that live as long as the process and are never garbage; the
    cyclic garbage collector would go through them again and again while they
    are created and once more at exit (about 0.3 s of a 3x3 solve on the
    2-core development machine).  So collection is off until a command has
    imported the modules it :func:`needs` (the short ``moves`` and ``tables
    list/clear`` commands run without it), and the objects that exist then
    are frozen: left out of later collections.  At exit everything is
    frozen, since the memory goes back to the operating system anyway.
    Other programs' calls leave the collector alone: ``main([...])`` with
    arguments, and ``CliRunner`` (which calls ``main.main``).

    The program also says on standard error what the library logs for people
    (the one-line notice when kernels are compiled on first use), and takes
    Ctrl-C and SIGTERM as an interruption wherever they come (see :class:`ProgramGroup`).
    """
    global _gc_held
    atexit.register(gc.freeze)
    if gc.isenabled():
        gc.disable()
        _gc_held = True
    _show_notices()
    from .. import cluster

    cluster.QUIET_DASK_LOGS = True  # a cluster that goes away: slidelab's one line, not Dask's
    signal.signal(signal.SIGINT, interrupt_handler)
    signal.signal(signal.SIGTERM, interrupt_handler)
    sys.unraisablehook = _quiet_interruption(sys.unraisablehook)


def _quiet_interruption(hook):
    """``sys.unraisablehook`` that says nothing of the interruption where Ctrl-C landed in a
    callback from compiled code (llvmlite's kernel cache, while numba compiles), which cannot
    pass it on: the program stops by what follows it (see :class:`ProgramGroup`), and the
    one line it prints is ``interrupted``, not a traceback."""

    def quiet(unraisable):
        if _interrupt_seen and isinstance(unraisable.exc_value, KeyboardInterrupt):
            return
        hook(unraisable)

    return quiet


def end_startup(freeze: bool = True) -> None:
    """The command's modules are imported: freeze what exists, collect garbage again.

    Does nothing outside the program's own runs, or once start-up has ended."""
    global _gc_held
    if _gc_held:
        _gc_held = False
        if freeze:
            gc.freeze()
        gc.enable()


def needs(*modules: str, missing: Callable[[ImportError], None] | None = None):
    """Decorate a command's body: import ``modules`` (absolute names) first, then end start-up.

    The body still imports the names it uses (now cheap); this list is what is
    loaded while the collector is held.  ``missing`` is called with the
    ``ImportError`` when one of them cannot be imported (it should exit).
    """

    def decorate(body):
        @functools.wraps(body)
        def command(*args, **kwargs):
            try:
                for name in modules:
                    importlib.import_module(name)
            except ImportError as exc:
                if missing is None:
                    raise
                missing(exc)
            end_startup()
            return body(*args, **kwargs)

        return command

    return decorate


class _StderrNotices(logging.Handler):
    """Log records as plain lines on (the current) standard error."""

    def emit(self, record):
        click.echo(self.format(record), err=True)


def _show_notices() -> None:
    """Show slidelab's INFO log lines (notices for people, such as kernel compiling) on stderr."""
    logger = logging.getLogger("slidelab")
    if not any(isinstance(h, _StderrNotices) for h in logger.handlers):
        logger.addHandler(_StderrNotices(logging.INFO))
        logger.setLevel(logging.INFO)


def interrupt_handler(signum, frame):
    """The program's SIGINT and SIGTERM handler (``batch`` also sets it for SIGTERM)."""
    global _interrupt_seen
    _interrupt_seen = True
    raise KeyboardInterrupt


class ProgramGroup(click.Group):
    """Starts the program (:func:`_program_start`) and stops it cleanly on Ctrl-C or SIGTERM
    (exit 130) instead of printing a traceback: one line, ``interrupted``, or what the search
    knew (:class:`~slidelab.errors.SearchInterrupted`'s message).

    An interruption can surface as another exception: numba, compiling a
    kernel, turns it into a ``RuntimeError``.  Any error after one is taken
    for its consequence.
    """

    def __call__(self, *args, **kwargs):
        if args or kwargs:  # another program's call: its collector is its own business
            return super().__call__(*args, **kwargs)
        _program_start()  # the program itself: arguments from sys.argv, exits when done
        try:
            return super().__call__()
        finally:
            end_startup(freeze=False)  # for commands without needs()

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:  # a SearchInterrupted too: it says what was known
            click.echo(str(exc).splitlines()[0] if str(exc) else "interrupted", err=True)
            sys.exit(130)
        except Exception:
            if not _interrupt_seen:
                raise
            click.echo("interrupted", err=True)
            sys.exit(130)
