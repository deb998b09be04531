"""Korf's instance sets for the tests (``benchmarks/data``, copied from ../shared/benchmarks),
read as a batch reads them (:func:`slidelab.read_instances`)."""

from __future__ import annotations

from pathlib import Path

from slidelab import Board, Puzzle, read_instances

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"


def instances(name: str = "korf100.txt", size: str = "4x4") -> list[tuple[int, Puzzle, int]]:
    """``(number, puzzle, published optimal length)`` of every instance of the file ``name``
    (the goal: blank first), in the file's order."""
    lines = (DATA / name).read_text().splitlines()
    return [
        (int(i.id), Puzzle(Board(i.start, size), blank_first=True), i.known)
        for i in read_instances(lines, size=size)
    ]


def korf15(number: int) -> tuple[Puzzle, int]:
    """Korf's 15-puzzle ``number`` (from 1): its puzzle and its optimal length."""
    _, puzzle, known = instances()[number - 1]
    return puzzle, known


def korf24(number: int) -> tuple[Puzzle, int]:
    """Korf and Felner's 24-puzzle ``number`` (from 1): its puzzle and its optimal length."""
    _, puzzle, known = instances("korf24_50.txt", "5x5")[number - 1]
    return puzzle, known
