"""The benchmarks' published figures line up with the instances they describe."""

from __future__ import annotations

from korf import DATA, instances


def test_published_24_puzzle_counts_follow_the_instances():
    """``korf24_published.txt`` lists Korf and Felner's 50 in ``korf24_50.txt``'s order, each with
    its optimal length, and two positive node counts."""
    rows = [
        line.split()
        for line in (DATA / "korf24_published.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    known = [(number, length) for number, _, length in instances("korf24_50.txt", "5x5")]
    assert [(int(r[0]), int(r[1])) for r in rows] == known
    assert all(int(r[2]) > 0 and int(r[3]) > 0 for r in rows)
