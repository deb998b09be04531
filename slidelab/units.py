"""Byte sizes and durations: read from text and written for people, one way everywhere.

Byte sizes are binary: ``K``, ``M``, ``G`` and ``T`` are powers of 1024 when read,
and sizes are written with the same units (``KiB``, ``MiB``, ``GiB``, ``TiB``), so a
size prints as it was given: ``--max-memory 2G`` is ``2 GiB`` in every message.
Durations read ``90``, ``90s``, ``20m``, ``2h`` or ``1d`` and print as ``45 s``,
``12 min``, ``3.2 h`` or ``41 days``.

Examples
--------
>>> parse_bytes("2G"), format_bytes(parse_bytes("2G"))
(2147483648, '2 GiB')
>>> parse_duration("20m"), format_duration(1200)
(1200.0, '20 min')
"""

from __future__ import annotations

import re
from decimal import Decimal

from .errors import SlidelabError

_BYTES = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*\Z", re.I)
_BYTE_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d)?\s*\Z", re.I)
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_bytes(text: str) -> int:
    """``"2G"``, ``"512M"``, ``"1.5GiB"``, ``"1000000"`` to bytes (K, M, G and T are powers of 1024).

    At least one byte; a size of more digits than any memory has is refused.

    >>> parse_bytes("512M"), parse_bytes("1.5 GiB"), parse_bytes("1000")
    (536870912, 1610612736, 1000)
    >>> parse_bytes("lots")
    Traceback (most recent call last):
    ...
    slidelab.errors.SlidelabError: memory size 'lots' is not a number with an optional K, M, G or T (at most 30 digits)
    """
    match = _BYTES.match(str(text))
    if not match or len(match.group(1)) > 30:
        raise SlidelabError(
            f"memory size {str(text)[:40]!r} is not a number with an optional"
            " K, M, G or T (at most 30 digits)"
        )
    scale = 1024 ** " kmgt".index(match.group(2).lower() or " ")
    amount = int(float(match.group(1)) * scale)
    if amount < 1:
        raise SlidelabError(f"memory size {text!r} is less than one byte")
    return amount


def format_bytes(amount: float) -> str:
    """``2 GiB``, ``88.6 KiB``, ``500 bytes``: binary units, three figures; a size past the
    largest unit (a zebibyte and more: a visited table of a 14x14 board's states) in bytes,
    as a power of ten (a float cannot hold it).

    >>> format_bytes(2 * 1024 ** 3), format_bytes(90720), format_bytes(500)
    ('2 GiB', '88.6 KiB', '500 bytes')
    >>> format_bytes(1023 * 1024)
    '1023 KiB'
    >>> format_bytes(10 ** 400)
    '1.00e+400 bytes'
    """
    if abs(amount) >= 1024 ** len(_BYTE_UNITS):
        return f"{Decimal(amount):.3g} bytes"
    for unit in _BYTE_UNITS:
        if abs(amount) < 1024 or unit == _BYTE_UNITS[-1]:
            if unit == "bytes":
                return f"{int(amount)} bytes"
            text = f"{amount:.3g}"
            return f"{text if 'e' not in text else f'{amount:.0f}'} {unit}"  # 1023 KiB
        amount /= 1024
    raise AssertionError("unreachable")


def parse_duration(text: str) -> float:
    """``"90"``, ``"90s"``, ``"20m"``, ``"2h"``, ``"1d"`` to seconds.

    >>> parse_duration("90"), parse_duration("2h")
    (90.0, 7200.0)
    """
    match = _DURATION.match(str(text))
    if not match:
        raise SlidelabError(
            f"duration {str(text)[:40]!r} is not a number of seconds with an optional s, m, h or d"
        )
    unit = (match.group(2) or "s").lower()[0]
    return float(match.group(1)) * _SECONDS[unit]


def format_duration(seconds: float) -> str:
    """``45 s``, ``12 min``, ``3.2 h``, ``41 days``: two or three figures.

    >>> format_duration(40), format_duration(5400), format_duration(1e7)
    ('40 s', '1.5 h', '116 days')
    """
    if seconds < 90:
        return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"
    if seconds < 5400 - 1:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.2g} h"
    if seconds < 1000 * 365 * 86400:
        return f"{seconds / 86400:.3g} days"
    return f"{seconds / (365 * 86400):.2g} years"


def durations_apart(larger: float, smaller: float) -> tuple[str, str]:
    """``larger`` and ``smaller`` as :func:`format_duration` writes them, with more figures
    where they would read the same (a message that says one passed the other must show it).

    >>> durations_apart(1.24, 1.2)
    ('1.24 s', '1.2 s')
    >>> durations_apart(40, 12)
    ('40 s', '12 s')
    """
    a, b = format_duration(larger), format_duration(smaller)
    if a == b and larger < 90:
        for digits in (3, 4, 6):
            a, b = f"{larger:.{digits}g} s", f"{smaller:.{digits}g} s"
            if a != b:
                break
    return a, b


def counted(count: int, noun: str) -> str:
    """``1 move``, ``2 moves``, ``1,000 boards``: a count and its noun, singular for one.

    >>> counted(1, "move"), counted(0, "move"), counted(12000, "board")
    ('1 move', '0 moves', '12,000 boards')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
