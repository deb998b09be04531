"""Can the goal be reached from the start?

For a W x H board (W, H >= 2) with distinct tiles, the positions reachable
from a goal are exactly those where the parity of the permutation taking the
goal to the position (over all cells, blank included) equals the parity of the
blank's taxicab distance between the two; every move is one transposition and
one step of the blank.  This is the familiar rule "inversions, plus the blank's
row distance when the width is even" in a form that holds for any goal.  When a
label repeats, two identical tiles can be exchanged to fix the parity, so every
arrangement is solvable.
"""

from __future__ import annotations

from dataclasses import dataclass

from .puzzle import Puzzle
from .units import counted

_PARITY = ("even", "odd")

#: how the options that make an unsolvable puzzle solvable are named in messages where the
#: caller names them no other way (:func:`check`'s ``names``): the Python API's words.  The
#: command line names them ``--blank-first`` and ``slidelab check --fix swap``
#: (:data:`slidelab.cli.common.FIX_NAMES`), the web API its own way.
FIX_NAMES = {"blank_first": "blank_first=True", "fix": "slidelab.fix_parity()"}


@dataclass(frozen=True)
class Check:
    """Result of :func:`check`: ``solvable`` and a one-line ``reason``."""

    solvable: bool
    reason: str

    def __bool__(self):
        return self.solvable


def permutation_parity(perm) -> int:
    """0 for an even permutation of ``0..n-1``, 1 for an odd one (cycle count)."""
    seen = [False] * len(perm)
    parity = 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = perm[j]
                length += 1
            parity ^= (length - 1) & 1
    return parity


def check(start, goal=None, *, blank_first: bool = False, size=None, names=None) -> Check:
    """Decide solvability and say why in one line.

    An unsolvable verdict names what fixes it: the other ordered goal where that one is
    reachable (``blank_first``), else swapping two tiles (``fix``); ``names`` maps those to the
    caller's words (:data:`FIX_NAMES` by default).

    Examples
    --------
    >>> check("1 2 3/4 5 6/8 7 0")
    Check(solvable=False, reason='unsolvable: permutation parity is odd, but the blank is 0 moves
    from its goal cell, which needs even; swapping two tiles makes it solvable
    (slidelab.fix_parity())')
    >>> check("ABA_/CDCD/ABAB/CDCD", "ACA_/CDCA/DBAB/CDBD").reason
    'solvable: the goal has identical tiles, so every arrangement is reachable'

    A start that cannot reach one of the two ordered goals (blank last or
    first) of an even-width board reaches the other; the reason says so:

    >>> check("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3").reason
    "unsolvable: permutation parity is even, but the blank is 3 moves from its goal cell, which
    needs odd; it is solvable to the ordered goal with the blank first (Korf's convention:
    blank_first=True)"
    """
    puzzle = (
        start
        if isinstance(start, Puzzle)
        else Puzzle(start, goal, blank_first=blank_first, size=size)
    )
    verdict = _verdict(puzzle)
    if verdict.solvable:
        return verdict
    return Check(False, verdict.reason + _fix(puzzle, {**FIX_NAMES, **(names or {})}))


def _verdict(puzzle: Puzzle) -> Check:
    s, g = puzzle.start, puzzle.goal
    if puzzle.has_repeats:
        return Check(
            True, "solvable: the goal has identical tiles, so every arrangement is reachable"
        )
    where = {label: i for i, label in enumerate(g.cells)}
    perm = [where[c] for c in s.cells]
    parity = permutation_parity(perm)
    w = s.width
    b, gb = s.blank, g.blank
    distance = abs(b // w - gb // w) + abs(b % w - gb % w)
    if parity == distance % 2:
        return Check(
            True,
            f"solvable: permutation parity is {_PARITY[parity]}"
            f" and the blank is {counted(distance, 'move')} from its goal cell",
        )
    return Check(
        False,
        f"unsolvable: permutation parity is {_PARITY[parity]}, but the blank is"
        f" {counted(distance, 'move')} from its goal cell, which needs {_PARITY[distance % 2]}",
    )


def _fix(puzzle: Puzzle, names: dict) -> str:
    """For an unsolvable start: what makes it solvable, in the words of ``names``: the other
    ordered goal where it reaches that one, else swapping two tiles."""
    start, goal = puzzle.start, puzzle.goal
    for blank_first, name in (
        (True, f"the blank first (Korf's convention: {names['blank_first']})"),
        (False, f"the blank last (the default goal, without {names['blank_first']})"),
    ):
        other = start.goal(blank_first)
        if goal == start.goal(not blank_first) and _verdict(Puzzle(start, other)).solvable:
            return f"; it is solvable to the ordered goal with {name}"
    return f"; swapping two tiles makes it solvable ({names['fix']})"


def is_solvable(start, goal=None, **kwargs) -> bool:
    """``check(...).solvable``."""
    return check(start, goal, **kwargs).solvable
