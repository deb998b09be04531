"""Compile-time dispatch from a heuristic's data tuple to its move function.

Search kernels call :func:`heuristic_move`; numba picks the implementation
while compiling, from the length of the ``data`` tuple, which each heuristic
registers.  Passing the move function itself as a kernel argument would work
too, but numba cannot cache kernels that take functions as arguments, so
every process would recompile them; this way the specialised kernels are
cached on disk like any other.
"""

from __future__ import annotations

from numba.extending import overload

_MOVES: dict[int, object] = {}


def register(arity: int, move) -> None:
    """Use ``move`` for data tuples of length ``arity`` (one heuristic per length)."""
    if _MOVES.get(arity, move) is not move:
        raise ValueError(f"a heuristic already uses data tuples of length {arity}")
    _MOVES[arity] = move


def heuristic_move(data, board, depth, h, tile, frm, to):
    """New estimate after ``tile`` slid from ``frm`` to ``to`` (compiled code only)."""
    raise NotImplementedError("heuristic_move is called from compiled kernels only")


@overload(heuristic_move)
def _heuristic_move(data, board, depth, h, tile, frm, to):
    move = _MOVES.get(len(data.types))
    if move is None:
        return None

    def impl(data, board, depth, h, tile, frm, to):
        return move(data, board, depth, h, tile, frm, to)

    return impl
