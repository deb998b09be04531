"""Checking the arguments of the public functions at the door.

Every public function checks its arguments with these helpers before doing any
work, so that a wrong type gives an :class:`~slidelab.errors.ArgumentError` (a
:class:`TypeError`) and a wrong value a :class:`~slidelab.errors.SlidelabError`
(a :class:`ValueError`), each one line naming the argument, instead of an
``AttributeError`` or ``KeyError`` from deep inside.

Whole numbers are Python or numpy integers, never floats (``1.5`` is not
rounded, ``2.0`` is refused too) and never ``True``/``False``; numbers are
ints or floats, never booleans or text.

Examples
--------
>>> integer(3, "n", minimum=1)
3
>>> integer(1.5, "n")
Traceback (most recent call last):
...
slidelab.errors.ArgumentError: n must be a whole number, got 1.5 (float)
>>> number(float("inf"), "weight", minimum=1)
Traceback (most recent call last):
...
slidelab.errors.SlidelabError: weight must be a finite number, got inf
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Literal, overload

from .errors import ArgumentError, SlidelabError

if TYPE_CHECKING:
    from typing_extensions import TypedDict, Unpack

    class _Limits(TypedDict, total=False):
        """The bounds :func:`integer` takes, declared once for its two signatures."""

        minimum: int | None
        maximum: int | None
        positive: bool
        why: str


def show(value: Any, limit: int = 40) -> str:
    """A short text for ``value`` in a message: its repr, cut, and its type when that helps."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, numbers.Integral):
        value = int(value)
        digits = len(str(abs(value))) if abs(value) < 10**4000 else None
        if digits is None or digits > 30:
            return f"a {'negative ' if value < 0 else ''}whole number of {digits or 'over 4000'} digits"
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    text = text.replace("\n", "\\n").replace("\r", "\\r")
    if isinstance(value, (float, str)):
        return text if isinstance(value, str) or not math.isfinite(value) else f"{text} (float)"
    return f"{text} ({type(value).__name__})"


def is_integer(value) -> bool:
    """True for Python and numpy integers, False for booleans and everything else."""
    if type(value) is int:  # the common case, without the abstract base class's checks
        return True
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and type(value).__name__ != "bool_"
    )


@overload
def integer(
    value, name: str, *, optional: Literal[False] = False, **limits: Unpack[_Limits]
) -> int: ...
@overload
def integer(value, name: str, *, optional: bool, **limits: Unpack[_Limits]) -> int | None: ...
def integer(
    value,
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    positive: bool = False,
    optional: bool = False,
    why: str = "",
) -> int | None:
    """``value`` as an ``int`` within ``minimum .. maximum``, ``> 0`` if ``positive`` (None
    allowed when ``optional``).

    ``why`` is appended to the message of a value over ``maximum`` (``" (the ... limit)"``).
    """
    if value is None and optional:
        return None
    if not is_integer(value):
        raise ArgumentError(f"{name} must be a whole number, got {show(value)}")
    value = int(value)
    if positive and value <= 0:
        raise SlidelabError(f"{name} must be positive, got {show(value)}")
    if minimum is not None and value < minimum:
        raise SlidelabError(f"{name} must be at least {minimum:,}, got {show(value)}")
    if maximum is not None and value > maximum:
        raise SlidelabError(f"{name} must be at most {maximum:,}{why}, got {show(value)}")
    return value


def number(
    value,
    name: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    positive: bool = False,
    finite: bool = True,
    optional: bool = False,
) -> float | None:
    """``value`` as a ``float``: not NaN, finite unless ``finite=False``, ``> 0`` if ``positive``,
    within ``minimum`` and ``maximum`` where given."""
    if value is None and optional:
        return None
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or type(value).__name__ == "bool_"
    ):
        raise ArgumentError(f"{name} must be a number, got {show(value)}")
    try:
        result = float(value)
    except OverflowError:  # an int too large for a float
        result = math.inf if value > 0 else -math.inf
    if math.isnan(result):
        raise SlidelabError(f"{name} must be a number, got nan")
    if finite and math.isinf(result):
        raise SlidelabError(f"{name} must be a finite number, got {show(value)}")
    if positive and not result > 0:
        raise SlidelabError(f"{name} must be positive, got {result:g}")
    if minimum is not None and result < minimum:
        raise SlidelabError(f"{name} must be at least {minimum:g}, got {result:g}")
    if maximum is not None and result > maximum:
        raise SlidelabError(f"{name} must be at most {maximum:g}, got {result:g}")
    return result


def boolean(value, name: str) -> bool:
    """``value`` as a ``bool`` (Python or numpy booleans only)."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise ArgumentError(f"{name} must be True or False, got {show(value)}")


@overload
def text(value, name: str, *, optional: Literal[False] = False) -> str: ...
@overload
def text(value, name: str, *, optional: bool) -> str | None: ...
def text(value, name: str, *, optional: bool = False) -> str | None:
    """``value``, which must be a ``str`` (None allowed when ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be text (a str), got {show(value)}")
    return value


def callback(value, name: str):
    """``value``, which must be callable or None."""
    if value is not None and not callable(value):
        raise ArgumentError(f"{name} must be a function (or None), got {show(value)}")
    return value


def instance(value, name: str, kind: type, *, optional: bool = False, what: str = ""):
    """``value``, which must be an instance of ``kind`` (None allowed when ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, kind):
        article = "an" if kind.__name__[0] in "AEIOU" else "a"
        raise ArgumentError(
            f"{name} must be {what or f'{article} {kind.__name__}'}, got {show(value)}"
        )
    return value


def items(values, name: str, *, what: str = "a list") -> Iterator:
    """Iterate over ``values``, refusing a non-iterable, text and bytes with an :class:`ArgumentError`."""
    if isinstance(values, (str, bytes, bytearray)) or not isinstance(values, Iterable):
        raise ArgumentError(f"{name} must be {what}, got {show(values)}")
    return iter(values)
