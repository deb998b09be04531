"""Korf's 100 15-puzzle instances and Korf and Felner's 50 24-puzzles (copied from
../shared/benchmarks), read as a batch reads them (:func:`slidelab.read_instances`)."""

from __future__ import annotations

from pathlib import Path

from slidelab import Board, Puzzle, random_board, read_instances

KORF100 = Path(__file__).parent / "data" / "korf100.txt"
KORF24 = Path(__file__).parent / "data" / "korf24_50.txt"
KORF24_PUBLISHED = Path(__file__).parent / "data" / "korf24_published.txt"


def korf(path: Path, size: str, limit=None):
    """``(number, puzzle, known optimal length)`` for each instance of ``path`` (goal: blank
    first), at most ``limit`` of them."""
    out = []
    for instance in read_instances(path.read_text().splitlines(), size=size):
        board = Board(instance.start, size)
        out.append((int(instance.id), Puzzle(board, blank_first=True), instance.known))
        if limit is not None and len(out) >= limit:
            break
    return out


def korf100(limit=None):
    """Korf's 100 15-puzzles: ``(number, puzzle, known optimal length)`` each."""
    return korf(KORF100, "4x4", limit)


def with_random(limit=None, random: int = 0) -> dict:
    """``{"Korf's 100": [(puzzle, known optimal length)], "N random": [(puzzle, None)]}``: the
    first ``limit`` of Korf's 100, and ``random`` seeded uniformly random 15-puzzles (goal:
    blank first; none when 0)."""
    sets = {"Korf's 100": [(p, length) for _, p, length in korf100(limit)]}
    if random:
        sets[f"{random:,} random"] = [
            (Puzzle(random_board("4x4", seed=i, blank_first=True), blank_first=True), None)
            for i in range(random)
        ]
    return sets


def korf24():
    """Korf and Felner's 50 24-puzzles: ``(number, puzzle, published optimal length)`` each."""
    return korf(KORF24, "5x5")


def korf24_published() -> dict:
    """Published node counts for the 50 24-puzzles, by number: ``{"korf_felner": nodes
    generated (Korf and Felner 2002), "doebbelin": nodes expanded (Döbbelin et al. 2013)}``."""
    out = {}
    for line in KORF24_PUBLISHED.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, _length, korf_felner, doebbelin = line.split()
            out[int(number)] = {"korf_felner": int(korf_felner), "doebbelin": int(doebbelin)}
    return out
