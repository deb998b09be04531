"""Reading Korf's 100 15-puzzle instances and Korf and Felner's 50 24-puzzles (copied from
../shared/benchmarks)."""

from __future__ import annotations

from pathlib import Path

from slidelab import Board, Puzzle

KORF100 = Path(__file__).parent / "data" / "korf100.txt"
KORF24 = Path(__file__).parent / "data" / "korf24_50.txt"


def korf100(limit=None):
    """``(number, puzzle, known optimal length)`` for each instance (goal: blank first)."""
    out = []
    for i, line in enumerate(KORF100.read_text().splitlines(), start=1):
        values = line.split()
        if len(values) != 17:
            continue
        board = Board(" ".join(values[:16]), "4x4")
        out.append((i, Puzzle(board, blank_first=True), int(values[16])))
        if limit is not None and len(out) >= limit:
            break
    return out


def korf24():
    """``(number, puzzle, published optimal length)`` for each instance (goal: blank first)."""
    out = []
    for i, line in enumerate(KORF24.read_text().splitlines(), start=1):
        values = line.split()
        if len(values) == 26:
            board = Board(" ".join(values[:25]), "5x5")
            out.append((i, Puzzle(board, blank_first=True), int(values[25])))
    return out
