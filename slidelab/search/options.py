"""The options of a search, as one checked value.

:func:`check_options` is the front door: the command line, the web API, batch and
:func:`slidelab.solve` all build a :class:`SearchOptions` through it, so they refuse
the same options with the same words, and then pass the value down unchanged
(to worker processes too: it is a small frozen dataclass).  Which methods take
which options is declared in :mod:`slidelab.search.registry`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .. import _args
from ..errors import SlidelabError
from ..heuristics.registry import heuristic_name
from ..moves import metric_name
from ..tables.registry import PARTITION_HELP
from .registry import METHODS, method_name

#: a partition: text (:data:`~slidelab.tables.registry.PARTITION_HELP`) or groups of tiles
Partition = str | tuple | list | None


@dataclass(frozen=True)
class SearchOptions:
    """The options of :func:`slidelab.solve` that do not depend on the board, checked.

    Build it with :func:`check_options` (which checks and canonicalises); the
    attributes are then trusted everywhere below.

    Attributes
    ----------
    method : str
        A name of :data:`~slidelab.search.registry.METHODS`.
    heuristic : str or None
        A name of :data:`~slidelab.heuristics.registry.HEURISTICS`; None: the method's default.
    weight : float or None
        At least 1; None: the method's default.
    partition : str, tuple or None
        Pattern-database groups for the ``pdb`` heuristic.
    time_limit : float or None
        Seconds of search (may be infinite).
    max_states, max_bytes : int or None
        Memory limits of the storing searches.
    metric : str
        ``stm`` (single-tile moves) or ``mtm`` (a slide of several tiles in a line is
        one move): what lengths count, and what an optimal method minimises.
    scheduler : str or None
        The address of a Dask scheduler (``tcp://host:8786``): the iterations of IDA* run as
        tasks on its cluster (:mod:`slidelab.search.cluster_idastar`); only the methods whose
        entry says so take it (:attr:`~.registry.Method.cluster`).  A ``distributed.Client``
        given here is read as its scheduler's address.

    Examples
    --------
    >>> check_options(method="A*", weight=2)
    SearchOptions(method='astar', heuristic=None, weight=2.0, partition=None, time_limit=None,
                  max_states=None, max_bytes=None, metric='stm', scheduler=None)
    """

    method: str = "auto"
    heuristic: str | None = None
    weight: float | None = None
    partition: Any = None
    time_limit: float | None = None
    max_states: int | None = None
    max_bytes: int | None = None
    metric: str = "stm"
    scheduler: str | None = None

    def as_dict(self) -> dict:
        """The options as keyword arguments of :func:`slidelab.solve`."""
        return asdict(self)

    def replace(self, *, names: dict | None = None, **changes) -> SearchOptions:
        """These options with ``changes`` (options by name), checked as :func:`check_options`
        checks them: the changed ones are read again, the others are trusted.

        Examples
        --------
        >>> check_options(method="idastar").replace(time_limit=2).time_limit
        2.0
        >>> check_options(method="bfs").replace(weight=2)
        Traceback (most recent call last):
        ...
        slidelab.errors.SlidelabError: method bfs takes no weight (methods that do: auto, astar, ...)
        """
        return _checked({**self.as_dict(), **changes}, names, tuple(changes))

    def for_method(self, method: str) -> SearchOptions:
        """These options for ``method``, a canonical name of
        :data:`~slidelab.search.registry.METHODS` (read already: nothing is read or resolved
        again), without the heuristic or weight where it takes none, and checked together with
        it (it searches in the metric; it runs on the scheduler, if one is given): one method's
        options in a comparison (:func:`~slidelab.search.compare.compare_request`).

        Examples
        --------
        >>> o = check_options(heuristic="pdb", metric="mtm")
        >>> o.for_method("bfs").heuristic, o.for_method("idastar").heuristic
        (None, 'pdb')
        >>> o.for_method("bidirectional-astar")
        Traceback (most recent call last):
        ...
        slidelab.errors.SlidelabError: method bidirectional-astar does not search in MTM (methods that do: ...)
        """
        if method not in METHODS:
            raise _args.ArgumentError(
                f"for_method takes a canonical method name ({', '.join(METHODS)}),"
                f" got {_args.show(method)}"
            )
        takes = METHODS[method].options
        values = {**self.as_dict(), "method": method}
        for option in ("heuristic", "weight"):
            if option not in takes:
                values[option] = None
        return _checked(values, None, ())


#: the options' names as :func:`check_options` takes them: the fields of :class:`SearchOptions`
OPTION_NAMES = tuple(f.name for f in fields(SearchOptions))


def check_options(*, names: dict | None = None, **given) -> SearchOptions:
    """The options of :func:`slidelab.solve` that do not depend on the board, checked and canonical.

    ``given``: options by name (:data:`OPTION_NAMES`, the fields of
    :class:`SearchOptions`); those left out take their defaults.  The weight must be a
    finite number of at least 1; the limits positive (``time_limit`` may be infinite,
    ``max_states`` and ``max_bytes`` whole numbers); the method and heuristic known
    names (aliases accepted); the partition text or a list of groups (its groups are
    checked against each board when it is solved, whatever the method); and the
    method must take the heuristic and weight given (as its entry in
    :data:`~slidelab.search.registry.METHODS` declares).  ``names`` maps a parameter
    to what the caller calls it in messages (``{"max_bytes": "--max-memory"}``).  The error of
    an option refused on its own has an ``option`` attribute: its name (the web API names it
    as the field at fault).

    Examples
    --------
    >>> check_options(weight=float("inf"), names={"weight": "--weight"})
    Traceback (most recent call last):
    ...
    slidelab.errors.SlidelabError: --weight must be a finite number, got inf
    >>> check_options(method="bfs", heuristic="pdb")
    Traceback (most recent call last):
    ...
    slidelab.errors.SlidelabError: method bfs takes no heuristic (methods that do: auto, astar, ...)
    """
    defaults = SearchOptions()
    return _checked({**defaults.as_dict(), **given}, names, OPTION_NAMES)


def _checked(values: dict, names: dict | None, read: tuple) -> SearchOptions:
    """:class:`SearchOptions` of ``values``, the options named in ``read`` checked one by one
    (in the order of :data:`_CHECKS`), then all of them together."""
    unknown = [key for key in values if key not in _CHECKS]
    if unknown:
        raise _args.ArgumentError(
            f"unknown search option {unknown[0]!r}; the options are {', '.join(OPTION_NAMES)}"
        )
    name = (names or {}).get
    for option, check in _CHECKS.items():
        if option in read:
            try:
                values[option] = check(values[option], name(option, option))
            except SlidelabError as exc:
                exc.option = option  # what it is about: the web API names it as its field
                raise
    _check_together(values, name)
    return SearchOptions(**values)


def _check_together(values: dict, name) -> None:
    """The method searches in the metric, and takes the heuristic and weight given."""
    method, metric = values["method"], values["metric"]
    if metric not in METHODS[method].metrics:
        takers = ", ".join(m.name for m in METHODS.values() if metric in m.metrics)
        raise SlidelabError(
            f"method {method} does not search in {metric.upper()} (methods that do: {takers})"
        )
    # a partition is checked against each board whatever the method (see solve), so a typo in
    # it is named even where it would not be used
    for option in ("heuristic", "weight"):
        if values[option] is not None and option not in METHODS[method].options:
            takers = ", ".join(m.name for m in METHODS.values() if option in m.options)
            raise SlidelabError(
                f"method {method} takes no {name(option, option)} (methods that do: {takers})"
            )
    if values["scheduler"] is not None:
        takers = ", ".join(m.name for m in METHODS.values() if m.cluster)
        if not METHODS[method].cluster:
            raise SlidelabError(
                f"method {method} does not run on a Dask cluster ({name('scheduler', 'scheduler')}"
                f" is for: {takers})"
            )
        if method == "auto" and values["weight"] not in (None, 1):
            raise SlidelabError(
                f"auto with a weight is weighted A*, which does not run on a Dask cluster"
                f" ({name('scheduler', 'scheduler')} is for: {takers}; weighted IDA* is"
                f" method idastar with a weight)"
            )


def _check_partition(partition, name: str):
    """A partition is None, text, or a list of groups (lists) of tile labels (text or numbers);
    groups come back as a tuple of tuples (the options are immutable)."""
    if partition is None or isinstance(partition, str):
        return partition
    what = f"text ({PARTITION_HELP}) or a list of groups of tiles"
    groups = list(_args.items(partition, name, what=what))
    for i, group in enumerate(groups):
        if isinstance(group, (str, bytes)) or not isinstance(group, (list, tuple)):
            raise _args.ArgumentError(
                f"{name}[{i}] must be a list of tiles, got {_args.show(group)}"
            )
        for label in group:
            if not isinstance(label, str) and not _args.is_integer(label):
                raise _args.ArgumentError(
                    f"{name}[{i}] names {_args.show(label)}, which is not a"
                    " tile label (text or a whole number)"
                )
    return tuple(tuple(group) for group in groups)


def _scheduler(value, name: str):
    """A Dask scheduler's address (text, as given), a client's (read as its scheduler's
    address), or None."""
    if value is None:
        return None
    if not isinstance(value, str):
        address = getattr(getattr(value, "scheduler", None), "address", None)
        if not isinstance(address, str):
            raise _args.ArgumentError(
                f"{name} must be a Dask scheduler's address (tcp://host:8786) or a Dask client,"
                f" got {_args.show(value)}"
            )
        value = address
    value = value.strip()
    if not value:
        raise _args.ArgumentError(f"{name} must be a Dask scheduler's address (tcp://host:8786)")
    return value


def _heuristic(value, name: str):
    return None if value is None else heuristic_name(_args.text(value, name))


#: the largest weight taken: past it, ``g + w h`` orders nodes as ``h`` alone would (a greedy
#: search: no bound worth the name), and past about 1e15 the sum loses ``g`` in a float and then
#: overflows (``1e308`` searched the 8-puzzle for a million expansions; in MTM it answered with
#: a path of 32,407 moves for an optimum of 20)
MAX_WEIGHT = 1000.0


def read_weight(value, name: str = "weight", *, optional: bool = False) -> float | None:
    """A weight, as every search that takes one reads it: a number from 1 to
    :data:`MAX_WEIGHT`."""
    return _args.number(value, name, minimum=1, maximum=MAX_WEIGHT, optional=optional)


#: how each option is read, in the order they are checked (the first bad one is named)
_CHECKS = {
    "method": lambda value, name: method_name(_args.text(value, name)),
    "heuristic": _heuristic,
    "weight": lambda value, name: read_weight(value, name, optional=True),
    "time_limit": lambda value, name: _args.number(
        value, name, positive=True, finite=False, optional=True
    ),
    "max_states": lambda value, name: _args.integer(value, name, positive=True, optional=True),
    "max_bytes": lambda value, name: _args.integer(value, name, positive=True, optional=True),
    "partition": lambda value, name: _check_partition(value, name),
    "metric": lambda value, name: metric_name(value, name),
    "scheduler": _scheduler,
}
assert set(_CHECKS) == set(OPTION_NAMES), "every option of SearchOptions has its check"


def options_of(options: SearchOptions | None, **given) -> SearchOptions:
    """``options`` if given (then no other option may be), else :func:`check_options` of ``given``
    (the keyword options of :func:`slidelab.solve` and the other front doors)."""
    if options is None:
        return check_options(**given)
    _args.instance(options, "options", SearchOptions)
    unknown = [key for key in given if key not in OPTION_NAMES]
    if unknown:
        raise _args.ArgumentError(
            f"unknown search option {unknown[0]!r}; the options are {', '.join(OPTION_NAMES)}"
        )
    defaults = SearchOptions()
    extra = [k for k, v in given.items() if v != getattr(defaults, k)]
    if extra:
        raise _args.ArgumentError(f"give options= or {', '.join(extra)}, not both")
    return options
