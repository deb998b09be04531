from collections import Counter

from slidelab import Board, check, random_board, random_boards, scramble, solve


def test_seeded_and_solvable():
    a = random_boards(20, "4x4", seed=42)
    assert a == random_boards(20, "4x4", seed=42)
    assert all(check(b).solvable for b in a)
    assert len(set(a)) == 20


def test_other_goals():
    b = random_board(goal="ABA_/CDCD/ABAB/CDCD", seed=1)
    assert b.tiles == Board("ABA_/CDCD/ABAB/CDCD").tiles
    k = random_board("4x4", blank_first=True, seed=5)
    assert check(k, blank_first=True).solvable
    g = Board("3 1 2/4 7 5/6 0 8")
    assert check(random_board(goal=g, seed=9), g).solvable


def test_uniform_on_2x2():
    # 12 solvable 2x2 positions; each should appear about 1/12 of the time
    counts = Counter(random_boards(6000, "2x2", seed=0))
    assert len(counts) == 12
    assert all(380 < c < 620 for c in counts.values())


def test_scramble_distance_bound():
    for k in (0, 1, 5, 12):
        b = scramble(k, "3x3", seed=k)
        assert solve(b).length <= k
        assert solve(b).length % 2 == k % 2
    assert scramble(1, "3x3", seed=0) != Board.solved(3, 3)
