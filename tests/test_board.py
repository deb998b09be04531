import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab import Board, Puzzle
from slidelab.errors import MismatchError


def test_value_semantics():
    a = Board("1 2 3/4 5 6/7 8 0")
    b = Board("123/456/780")
    assert a == b and hash(a) == hash(b)
    assert eval(repr(a)) == a
    assert a[2, 2] == 0 and a.blank == 8 and a.size == "3x3"
    with pytest.raises(AttributeError):
        a.width = 4


def test_solved_goals():
    assert Board.solved(4, 4).format() == "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"
    assert Board.solved(4, 4, blank_first=True).cells[:2] == (0, 1)
    assert Board("ABA_/CDCD/ABAB/CDCD").goal().format() == "A A A A/B B B C/C C C D/D D D 0"


def test_mismatch_errors():
    with pytest.raises(MismatchError, match="start is 3x3 but goal is 2x2"):
        Puzzle("1 2 3/4 5 6/7 8 0", "1 2/3 0")
    with pytest.raises(MismatchError, match="9: 1 in start, 0 in goal"):
        Puzzle("1 2 3/4 5 6/7 9 0", "1 2 3/4 5 6/7 8 0")
    with pytest.raises(MismatchError, match="'A': 4 in start, 3 in goal"):
        Puzzle("ABA_/CDCD/ABAB/CDCD", "ABB_/CDCD/ABAB/CDCD")


@st.composite
def boards(draw, letters=False):
    w = draw(st.integers(2, 6))
    h = draw(st.integers(2, 6))
    n = w * h
    if letters:
        tiles = draw(
            st.lists(st.sampled_from(["A", "B", "C", "Dx", "e"]), min_size=n - 1, max_size=n - 1)
        )
    else:
        tiles = draw(st.lists(st.integers(1, 99), min_size=n - 1, max_size=n - 1))
    cells = draw(st.permutations(tiles + [0]))
    return Board.from_cells(cells, w, h)


@given(st.one_of(boards(), boards(letters=True)))
def test_format_parse_round_trip(board):
    assert eval(repr(board)) == board
    for style in ("slash", "lines", "json"):
        assert Board(board.format(style)) == board
    for style in ("flat", "contest"):
        assert Board(board.format(style), board.size) == board
    assert Board(board.format("slash", blank="_")) == board
