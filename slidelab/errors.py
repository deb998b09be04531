"""Exceptions raised by slidelab.

Every error caused by bad input subclasses :class:`SlidelabError`, which is a
:class:`ValueError`, so ``except ValueError`` catches them all.  Messages are a
single line naming what is wrong and where.  A search stopped at a limit
(:class:`SearchLimitError`) and a Dask cluster that could not answer (:class:`ClusterError`)
are :class:`SlidelabError` too, and :class:`RuntimeError`: not bad input.

Ctrl-C is neither: :class:`SearchInterrupted`, what IDA* says it had proved when it was
interrupted, is a :class:`KeyboardInterrupt`, so that it stops everything as Ctrl-C does, and
no handler of slidelab's errors (a comparison's row, a batch's record, a stream's next board)
takes it for one.
"""

from __future__ import annotations


class SlidelabError(ValueError):
    """Base class of every slidelab input error.

    Attributes
    ----------
    option : str or None
        The search option the error is about, where it is one refused on its own
        (:func:`~slidelab.search.options.check_options`): the web API names it as the field.
    """

    option: str | None = None


class ArgumentError(SlidelabError, TypeError):
    """A public function was given an argument of the wrong type (named in the message).

    A :class:`TypeError` as well as a :class:`SlidelabError`, so both
    ``except TypeError`` and ``except SlidelabError`` catch it.
    """


class ParseError(SlidelabError):
    """Text (a board, a size, a move string) could not be read."""


class BoardError(SlidelabError):
    """A board is well formed text but not a valid position (size, blank...)."""


class MismatchError(SlidelabError):
    """Start and goal do not describe the same puzzle (size or tiles differ)."""


class IllegalMoveError(SlidelabError):
    """A move cannot be made on the board it is applied to."""


class UnsolvableError(SlidelabError):
    """The goal cannot be reached from the start."""


class SearchLimitError(SlidelabError, RuntimeError):
    """A search stopped at its time or memory limit before finding a solution.

    A :class:`SlidelabError` (so ``except SlidelabError`` catches every error
    slidelab raises on purpose) and, as before, a :class:`RuntimeError`: catch
    it before :class:`SlidelabError` to tell a limit from bad input.

    Attributes
    ----------
    stats : slidelab.Stats or None
        What the search had done when it stopped.
    lower_bound : float or None
        IDA*'s bound when it stopped: no solution is shorter.
    reason : str
        Why it stopped, without the remedy.
    remedy : slidelab.tables.family.Tables or None
        The tables that would have helped (not built: they did not fit the time left), with
        what they cost and how to build them ahead of time; the message ends with them
        (:meth:`~slidelab.tables.family.Tables.advice`).
    """

    def __init__(self, message: str, stats=None, lower_bound=None, remedy=None):
        super().__init__(message)
        self.stats = stats
        self.lower_bound = lower_bound
        self.reason = message
        self.remedy = remedy

    def __str__(self) -> str:
        if getattr(self, "remedy", None) is None:
            return str(self.args[0]) if self.args else ""
        return f"{self.args[0]}; {self.remedy.advice(self.args[0])}"


class ClusterError(SlidelabError, RuntimeError):
    """A Dask cluster could not answer: its scheduler did not answer or went away, it has no
    workers, a worker left during the search (its tasks or its partition lost), or a task
    failed on it.

    Not bad input: a :class:`SlidelabError` (one line, caught wherever slidelab's errors are)
    and a :class:`RuntimeError`, as :class:`SearchLimitError` is; catch it before
    :class:`SlidelabError` to tell the cluster's fault from bad input (the command line exits
    1, not 2; batch's records and the workers' failures say ``"kind": "cluster"``).
    """


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search, with what was known: a :class:`KeyboardInterrupt`, not a
    :class:`SlidelabError` (it is not bad input) nor a :class:`SearchLimitError` (it is not a
    limit), so that it stops everything as Ctrl-C does, wherever slidelab's errors are caught
    to go on (a comparison's row, a batch's record, a stream's next board), and
    ``except KeyboardInterrupt`` catches it.

    Attributes
    ----------
    stats : slidelab.Stats or None
        What the search had done when it stopped, as :class:`SearchLimitError`'s.
    lower_bound : float or None
        IDA*'s bound when it stopped, as :class:`SearchLimitError`'s.
    """

    def __init__(self, message: str = "interrupted", stats=None, lower_bound=None):
        super().__init__(message)
        self.stats = stats
        self.lower_bound = lower_bound


class SearchTooLong(SearchLimitError):
    """A search given ``patience`` stopped because it has taken, or its next IDA* iteration is
    predicted to take, longer than that (``auto`` then builds stronger tables and searches again)."""


class SpaceTooLargeError(SlidelabError):
    """A space whose complete search would not fit this machine's memory or the time allowed."""


class CacheError(SlidelabError):
    """The table cache cannot be used: a bad spec, or a directory that cannot be created or written."""
