import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab import (
    Board,
    IllegalMoveError,
    Move,
    ParseError,
    apply_moves,
    expand,
    format_moves,
    invert,
    moved_tiles,
    mtm,
    parse_moves,
    random_board,
    simplify,
    stm,
)


def test_parse_and_format():
    moves = parse_moves("R3 U2 L")
    assert moves == (Move("R", 3), Move("U", 2), Move("L", 1))
    assert parse_moves("R3U2L") == moves
    assert parse_moves("R3, U2, L") == moves
    assert format_moves(moves) == "R3 U2 L"
    assert format_moves(moves, sep="") == "R3U2L"
    assert format_moves(moves, "blank") == "l3 d2 r"
    assert parse_moves("l3 d2 r", notation="blank") == moves
    assert parse_moves("") == ()


def test_move_value_type():
    m = Move("R", 3)
    assert eval(repr(m)) == m
    assert str(m) == "R3" and str(Move("U")) == "U"
    assert m.inverse == Move("L", 3)
    assert Move.parse("D2") == Move("D", 2)


@pytest.mark.parametrize(
    "text,message",
    [
        ("R3 Q", "'Q' at character 4 of the move string is not a move"),
        ("R0", "amount 0"),
        ("r", "blank-direction notation"),
        ("R?", "unexpected '\\?' at character 2"),
    ],
)
def test_bad_moves(text, message):
    with pytest.raises(ParseError, match=message):
        parse_moves(text)


def test_bad_move_objects():
    with pytest.raises(ParseError):
        Move("X")
    with pytest.raises(ParseError):
        Move("R", 0)


def test_lengths_and_simplify():
    assert stm("R3 U2 L") == 6 and mtm("R3 U2 L") == 3
    assert mtm("R R U") == 2
    assert simplify("R R") == (Move("R", 2),)
    assert simplify("R L") == ()
    assert simplify("R2 L") == (Move("R"),)
    assert simplify("R U D L") == ()
    assert simplify("R U D R") == (Move("R", 2),)
    assert expand("R3") == (Move("R"),) * 3


def test_apply():
    b = Board("1 2 3/4 5 6/7 8 0")
    assert apply_moves(b, "R") == Board("1 2 3/4 5 6/7 0 8")
    assert apply_moves(b, "R2") == Board("1 2 3/4 5 6/0 7 8")
    assert apply_moves(b, "D") == Board("1 2 3/4 5 0/7 8 6")
    assert moved_tiles(b, "R2 D") == [8, 7, 4]
    assert format_moves("R2 D", "numbers", board=b) == "8 7 4"
    with pytest.raises(
        IllegalMoveError, match="move 2 \\(L2\\) is illegal: no tile right of the blank"
    ):
        apply_moves(b, "R L2")
    with pytest.raises(IllegalMoveError, match="no tile below"):
        apply_moves(b, "U")


def test_repeated_labels_apply():
    b = Board("ABA_/CDCD/ABAB/CDCD")
    assert apply_moves(b, "U") == Board("ABAD/CDC_/ABAB/CDCD")


move_lists = st.lists(st.builds(Move, st.sampled_from("UDLR"), st.integers(1, 3)), max_size=30)


def _legal_prefix(board, moves):
    """The longest prefix of single moves that is legal on board."""
    out = []
    for m in expand(moves):
        try:
            board = apply_moves(board, [m])
        except IllegalMoveError:
            continue
        out.append(m)
    return tuple(out)


@given(move_lists)
def test_invert_is_an_involution(moves):
    assert invert(invert(moves)) == tuple(moves)
    assert stm(invert(moves)) == stm(moves)


@given(move_lists, st.integers(0, 10**6))
def test_apply_then_invert_is_identity(moves, seed):
    board = random_board("4x3", seed=seed)
    legal = _legal_prefix(board, moves)
    after = apply_moves(board, legal)
    assert apply_moves(after, invert(legal)) == board


@given(move_lists, st.integers(0, 10**6))
def test_simplify_keeps_the_effect(moves, seed):
    board = random_board("3x4", seed=seed)
    legal = _legal_prefix(board, moves)
    short = simplify(legal)
    assert apply_moves(board, short) == apply_moves(board, legal)
    assert stm(short) <= stm(legal)
    assert simplify(short) == short
    assert all(a.direction != b.direction for a, b in zip(short, short[1:], strict=False))


@given(move_lists)
def test_notation_round_trips(moves):
    moves = tuple(moves)
    assert expand(parse_moves(format_moves(moves))) == expand(moves)
    assert expand(parse_moves(format_moves(moves, sep=""))) == expand(moves)
    assert expand(parse_moves(format_moves(moves, "blank"), "blank")) == expand(moves)


@given(st.lists(st.integers(0, 3), max_size=60))
def test_a_kernel_path_becomes_the_runs_of_its_steps(directions):
    from slidelab.geometry import TILE_LETTERS
    from slidelab.moves import Move, from_blank_path, runs

    assert from_blank_path(directions) == runs(Move(TILE_LETTERS[d]) for d in directions)


def test_a_kernel_path_longer_than_the_longest_move_is_several_moves():
    from slidelab.moves import Move, from_blank_path
    from slidelab.parse import MAX_BOARD_CELLS

    longest = [3] * (MAX_BOARD_CELLS + 7) + [0]  # L (index 3) then D (index 0)
    assert from_blank_path(longest) == (
        Move("L", MAX_BOARD_CELLS),
        Move("L", 7),
        Move("D"),
    )
