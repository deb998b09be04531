import pytest

from slidelab import (
    Board,
    BoardError,
    ParseError,
    Puzzle,
    SlidelabError,
    check,
    parse_cells,
    parse_size,
)

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


@pytest.mark.parametrize(
    "text",
    [
        "1 2 3/4 5 6/7 8 0",
        "1 2 3\n4 5 6\n7 8 0",
        "1 2 3 / 4 5 6 / 7 8 0",
        "1,2,3/4,5,6/7,8,0",
        "123/456/78_",
        "1 2 3/4 5 6/7 8 _",
        "1 2 3/4 5 6/7 8 .",
        "1 2 3/4 5 6/7 8 x",
        "1 2 3/4 5 6/7 8 *",
        "1 2 3 4 5 6 7 8 x",
        "123456780",
        "[[1,2,3],[4,5,6],[7,8,0]]",
        "[1,2,3,4,5,6,7,8,0]",
        '[[1,2,3],[4,5,6],[7,8,"_"]]',
        "[[1,2,3],[4,5,6],[7,8,null]]",
        "\n  1 2 3\n  4 5 6\n  7 8 0\n",
    ],
)
def test_accepted_notations(text):
    assert parse_cells(text) == (3, 3, GOAL)


def test_contest_style_with_size():
    assert parse_cells("1 2 3 x 4 6 7 5 8", "3x3")[2] == (1, 2, 3, 0, 4, 6, 7, 5, 8)
    w, h, cells = parse_cells("1 2 3 4 5 0", "3x2")
    assert (w, h) == (3, 2) and cells == (1, 2, 3, 4, 5, 0)
    w, h, _ = parse_cells("1 2 3 4 5 0", "2x3")
    assert (w, h) == (2, 3)


def test_given_size_reflows_rows():
    w, h, cells = parse_cells("1 2 3/4 5 6/7 8 9/10 11 12/13 15 14 0", "4x4")
    assert (w, h) == (4, 4) and cells[-3:] == (15, 14, 0)


def test_letters_and_repeats():
    w, h, cells = parse_cells("ABA_/CDCD/ABAB/CDCD")
    assert (w, h) == (4, 4)
    assert cells[:4] == ("A", "B", "A", 0)
    assert Board("ABA_/CDCD/ABAB/CDCD").has_repeats


def test_sequences():
    assert Board([[1, 2], [3, 0]]).cells == (1, 2, 3, 0)
    assert Board((1, 2, 3, 0)).size == "2x2"


def test_size():
    assert parse_size("4x3") == (4, 3)
    assert parse_size(" 10 X 10 ") == (10, 10)
    with pytest.raises(ParseError, match="WxH"):
        parse_size("4by4")


# every bad-input case of point 2, each one line and a ValueError
@pytest.mark.parametrize(
    "text,size,message",
    [
        ("", None, "empty board"),
        ("   \n ", None, "empty board"),
        ("1 2 3/4 5/7 8 0", None, "row 2 has 2 cells but row 1 has 3"),
        ("1 2 3/4 5 6/7 8 9", None, "no blank"),
        ("1 2 0/4 5 6/7 8 0", None, "2 blanks"),
        ("1 2 _/4 5 6/7 x 0", None, "3 blanks"),
        ("1 2 3/4 5 6/7 8 ?", None, "unknown token '?' at row 3, column 3"),
        ("1 2 3/4 -5 6/7 8 0", None, "unknown token '-5' at row 2, column 2"),
        ("1 2 3 4 5 6 7 0", "3x3", "a 3x3 board has 9 cells, but 8 were given"),
        ("1 2 3 4 5 6 7 0", None, "cannot tell the size"),
        ("1 2 3/4 5 6/7 8 0", "4x4", "the board is 3x3 but the size given is 4x4"),
        ("1 2 0", None, "cannot tell the size"),
        ("1 2 0", "3x1", "too narrow"),
        ("1/2/0", None, "too narrow"),
        ("1 2 A/4 5 6/7 8 0", None, "mixes numbers and letters"),
        ("[[1,2],[3]", None, "invalid JSON"),
        ("[[1,2],3,0]", None, "mixes rows"),
        ("[]", None, "empty board"),
        ("1 2 3//4 5 0", None, "row 2 is empty"),
        ("[[1,2],[3,true]]", None, "unknown token"),
    ],
)
def test_bad_boards(text, size, message):
    with pytest.raises(SlidelabError) as info:
        Board(text, size)
    assert isinstance(info.value, ValueError)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_board_errors_are_specific():
    with pytest.raises(BoardError):
        Board("1 2 3/4 5 6/7 8 9")
    with pytest.raises(ParseError):
        Board("1 2 3/4 5 6/7 8 ?")


@pytest.mark.parametrize(
    "style,expected",
    [
        ("slash", "1 2 3/4 5 6/7 8 0"),
        ("lines", "1 2 3\n4 5 6\n7 8 0"),
        ("flat", "1 2 3 4 5 6 7 8 0"),
        ("contest", "1 2 3 4 5 6 7 8 *"),
        ("compact", "123/456/780"),
        ("json", "[[1,2,3],[4,5,6],[7,8,0]]"),
        ("grid", "1 2 3\n4 5 6\n7 8 ."),
    ],
)
def test_output_styles(style, expected):
    b = Board("1 2 3/4 5 6/7 8 0")
    assert b.format(style) == expected
    assert Board(expected if style != "grid" else "1 2 3/4 5 6/7 8 0", "3x3") == b


def test_unknown_style():
    with pytest.raises(SlidelabError, match="unknown board style"):
        Board("1 2/3 0").format("fancy")


# -- typos do not become other puzzles ---------------------------------------------------------


@pytest.mark.parametrize(
    "board, message",
    [
        ("8 8 7/2 5 4/3 0 1", "tile 8 appears twice (row 1, column 1 and row 1, column 2)"),
        ("1 2 3/4 5 6/7 7 0", "tile 7 appears twice (row 3, column 1 and row 3, column 2)"),
        ("1 2 3/4 5 6/7 9 0", "8 is missing and 9 is too large"),
    ],
)
def test_a_repeated_or_foreign_number_without_a_goal_is_refused(cli, board, message):
    with pytest.raises(BoardError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Puzzle(board)
    for command in ("solve", "check"):
        result = cli(command, board)
        assert result.exit_code == 2 and message in result.output
    goal = "1 2 3/4 5 6/7 8 0"
    assert Puzzle(board, board).goal == Board(board)  # with the goal given, labels may repeat
    del goal


def test_repeated_letters_need_their_goal():
    with pytest.raises(BoardError, match="tile 'A' appears 4 times"):
        Puzzle("ABA_/CDCD/ABAB/CDCD")
    assert check("ABA_/CDCD/ABAB/CDCD", "ACA_/CDCA/DBAB/CDBD").solvable


# -- huge numbers are input errors, not crashes ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1 2 3/4 5 6/7 " + "9" * 5000 + " 0",
        "[" + "9" * 5000 + ", 1, 2, 0]",
        [10**5000, 1, 2, 0],
        "[NaN, 1, 2, 0]",
        "[Infinity, 1, 2, 0]",
        "x" * 1_000_000,
    ],
)
def test_huge_or_odd_numbers_are_parse_errors(text):
    with pytest.raises(SlidelabError) as info:
        parse_cells(text)
    assert len(str(info.value)) < 200
