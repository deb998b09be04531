"""Compile-time dispatch from a heuristic's data tuple to its move function.

Search kernels call :func:`heuristic_move`; numba picks the implementation
while compiling, from the length of the ``data`` tuple, which each heuristic
registers.  A heuristic that can stop early may also register a *bounded* move:
:func:`heuristic_move_within` lets a kernel that prunes every child whose
estimate exceeds some value (IDA*) say so, and the heuristic may then return as
soon as it knows (pattern databases with reflection skip the second lookup
when the first already exceeds it); for the others it is the plain move.
Passing the move function itself as a kernel argument would work
too, but numba cannot cache kernels that take functions as arguments, so
every process would recompile them; this way the specialised kernels are
cached on disk like any other.  The overloads are inlined into the kernel
(``inline="always"``): called, each move took the heuristic's data tuple (a
dozen arrays for pattern databases) by value, a quarter of IDA*'s time on
the 15-puzzle's tables.
"""

from __future__ import annotations

from numba.extending import overload

_MOVES: dict[int, object] = {}
_BOUNDED: dict[int, object] = {}
_STEPS: dict[int, object] = {}


def register(arity: int, move, bounded=None, step=None) -> None:
    """Use ``move`` (and ``bounded``, if given) for data tuples of length ``arity``.

    One heuristic per length.  ``bounded(data, board, depth, h, tile, frm, to,
    enough)`` returns what ``move`` returns, or any value above ``enough`` once
    the estimate is known to be above it.  ``step``, with ``move``'s arguments: what
    a step inside a slide of several tiles does, whose estimate is not needed
    (:func:`heuristic_step`; for a heuristic read from the board, carry its rows on);
    by default the move itself.
    """
    if _MOVES.get(arity, move) is not move:
        raise ValueError(f"a heuristic already uses data tuples of length {arity}")
    _MOVES[arity] = move
    if bounded is not None:
        _BOUNDED[arity] = bounded
    if step is not None:
        _STEPS[arity] = step


def heuristic_move(data, board, depth, h, tile, frm, to):
    """New estimate after ``tile`` slid from ``frm`` to ``to`` (compiled code only)."""
    raise NotImplementedError("heuristic_move is called from compiled kernels only")


@overload(heuristic_move, inline="always")
def _heuristic_move(data, board, depth, h, tile, frm, to):
    move = _MOVES.get(len(data.types))
    if move is None:
        return None

    def impl(data, board, depth, h, tile, frm, to):
        return move(data, board, depth, h, tile, frm, to)

    return impl


def heuristic_step(data, board, depth, h, tile, frm, to):
    """:func:`heuristic_move` for a step inside a slide of several tiles, whose estimate only
    the slide's last step needs: the value returned is then only what the next step takes
    (the heuristic's registered ``step``, else its move; compiled code only)."""
    raise NotImplementedError("heuristic_step is called from compiled kernels only")


@overload(heuristic_step, inline="always")
def _heuristic_step(data, board, depth, h, tile, frm, to):
    arity = len(data.types)
    move = _STEPS.get(arity, _MOVES.get(arity))
    if move is None:
        return None

    def impl(data, board, depth, h, tile, frm, to):
        return move(data, board, depth, h, tile, frm, to)

    return impl


def heuristic_move_within(data, board, depth, h, tile, frm, to, enough):
    """:func:`heuristic_move`, for a caller that prunes any estimate above ``enough``: the
    result is exact up to ``enough``, and above it once it is known to be (compiled code only).

    The row the move writes for depth ``depth + 1`` is then complete only when the
    result is at most ``enough``: only such a child may be expanded.
    """
    raise NotImplementedError("heuristic_move_within is called from compiled kernels only")


@overload(heuristic_move_within, inline="always")
def _heuristic_move_within(data, board, depth, h, tile, frm, to, enough):
    arity = len(data.types)
    bounded = _BOUNDED.get(arity)
    if bounded is None:
        move = _MOVES.get(arity)
        if move is None:
            return None

        def plain(data, board, depth, h, tile, frm, to, enough):
            return move(data, board, depth, h, tile, frm, to)

        return plain

    def impl(data, board, depth, h, tile, frm, to, enough):
        return bounded(data, board, depth, h, tile, frm, to, enough)

    return impl
