"""The notebook-friendly API: boards that move, answer questions and draw themselves;
solutions as boards and as an animated replay (issue 15, part 4)."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab import (
    ArgumentError,
    Board,
    IllegalMoveError,
    Puzzle,
    SlidelabError,
    Solution,
    random_board,
    solve,
)
from slidelab.draw import FRAME, PALETTE, TILE, TILE_INK
from slidelab.moves import expand, mtm, stm

STATIC = Path(__file__).resolve().parent.parent / "slidelab" / "web" / "static"


# ------------------------------------------------------------------------------ boards


def test_print_shows_the_grid_and_repr_round_trips():
    b = Board("8 6 7/2 5 4/3 0 1")
    assert str(b) == "8 6 7\n2 5 4\n3 . 1"
    assert eval(repr(b)) == b
    assert Board(str(b)) == b  # the grid reads back


def test_apply_and_move_return_new_boards():
    b = Board("1 2 3/4 5 6/7 8 0")
    after = b.apply("D R2")
    assert after == Board("1 2 3/0 4 5/7 8 6") and b == Board("1 2 3/4 5 6/7 8 0")
    assert b.move("D") == Board("1 2 3/4 5 0/7 8 6")
    assert b.move("R2") == Board("1 2 3/4 5 6/0 7 8")
    with pytest.raises(IllegalMoveError, match=r"move 1 \(U\) is illegal"):
        b.move("U")
    with pytest.raises(ArgumentError, match="2 moves; use apply"):
        b.move("D R")
    with pytest.raises(ArgumentError):
        b.move(3)


def test_legal_moves_in_both_metrics():
    corner = Board("1 2 3/4 5 6/7 8 0")
    assert [str(m) for m in corner.legal_moves()] == ["D", "R"]
    assert [str(m) for m in corner.legal_moves("mtm")] == ["D", "D2", "R", "R2"]
    centre = Board("1 2 3/4 0 5/6 7 8")
    assert [str(m) for m in centre.legal_moves()] == ["U", "D", "L", "R"]
    with pytest.raises(ArgumentError, match="unknown metric"):
        corner.legal_moves("qtm")


@given(st.integers(0, 10**6), st.sampled_from(["3x3", "4x2", "2x5", "4x4"]))
def test_every_legal_move_applies_and_none_other_does(seed, size):
    b = random_board(size, seed=seed)
    for metric in ("stm", "mtm"):
        legal = b.legal_moves(metric)
        for m in legal:
            b.move(m)  # no error
        for d in "UDLR":
            for k in range(1, 5):
                made = any(m.direction == d and m.amount == k for m in legal)
                if metric == "stm" and k > 1:
                    continue
                try:
                    b.move(f"{d}{k}")
                    ok = True
                except IllegalMoveError:
                    ok = False
                assert ok == made, (b, metric, d, k)


def test_is_solved():
    assert Board("1 2 3/4 5 6/7 8 0").is_solved()
    assert not Board("0 1 2/3 4 5/6 7 8").is_solved()
    assert Board("0 1 2/3 4 5/6 7 8").is_solved("0 1 2/3 4 5/6 7 8")
    assert Board("ABA_/CDCD/ABAB/CDCD").is_solved(Board("ABA_/CDCD/ABAB/CDCD"))
    assert Puzzle("1 2/3 0").is_solved and not Puzzle("1 2/0 3").is_solved


def test_solved_reached_through_a_board_explains_itself():
    b = Board("1 2 3/4 5 6/7 8 0")
    with pytest.raises(ArgumentError, match="is_solved"):
        b.solved()
    assert b.solved(2, 2) == Board.solved(2, 2) == Board("1 2/3 0")  # still a constructor


# ------------------------------------------------------------------------------ pictures


def test_a_board_draws_in_the_web_page_colours():
    svg = Board("1 2 3/4 5 6/7 0 8")._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count(f'fill="{TILE}"') == 8 and FRAME in svg and TILE_INK in svg
    assert svg.count("filter:") == 7  # tiles 1..7 are home, 8 is not
    lettered = Board("ABA_/CDCD/ABAB/CDCD").to_svg()
    assert {PALETTE[i] for i in range(4)} <= set(re.findall(r'fill="(#[0-9a-f]{6})"', lettered))


def test_the_colours_are_the_web_pages():
    css = (STATIC / "style.css").read_text()
    js = (STATIC / "cells.js").read_text()  # the page's boards (board.js draws with it)
    assert f"--tile: {TILE};" in css and f"--tile-ink: {TILE_INK};" in css
    assert f"--frame: {FRAME};" in css
    palette = re.search(r"export const PALETTE = \[(.*?)\];", js, re.S).group(1)
    assert tuple(re.findall(r'"(#[0-9a-f]{6})"', palette)) == PALETTE


# ------------------------------------------------------------------------------ solutions


def test_boards_walk_the_path():
    s = solve("8 6 7/2 5 4/3 0 1")
    path = s.boards()
    assert len(path) == s.length + 1 and path[0] == s.start and path[-1] == s.goal
    for a, b in zip(path, path[1:], strict=False):
        assert b in [a.move(m) for m in a.legal_moves()]


def test_a_solution_replays_as_an_animated_svg():
    s = solve("1 2 3/4 5 6/0 7 8")
    svg = s.to_svg()
    assert svg.count("<animateTransform") == 8  # every tile, moving or not
    html = s._repr_html_()
    assert "2 moves" in html and "(1 MTM)" in html and "<script" not in html
    still = Solution("1 2/3 0", "1 2/3 0", "")
    assert "animateTransform" not in still.to_svg() and still.boards() == [still.start]


def test_a_solution_as_a_gif(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "replay.gif"
    solve("1 2 3/4 5 6/0 7 8").to_gif(path)
    assert path.read_bytes()[:6] in (b"GIF89a", b"GIF87a")
    with pytest.raises(SlidelabError, match="cannot write the GIF"):
        solve("1 2 3/4 5 6/0 7 8").to_gif(tmp_path / "missing" / "replay.gif")


# ------------------------------------------------------------------------------ moves convert


@pytest.mark.parametrize(
    "args, out",
    [
        (["R3 U2 L", "--expand"], "R R R U U L"),
        (["RRRUUL", "--compact"], "R3 U2 L"),
        (["R R R U", "--compact", "--sep", ""], "R3U"),
        (["R3U", "--expand", "--sep", ""], "RRRU"),
        (["r3 u", "--notation", "blank", "--expand", "--to", "blank"], "r r r u"),
        (["R2", "--expand", "--to", "numbers", "--board", "1 2 3/4 5 6/7 8 0"], "8 7"),
    ],
)
def test_moves_convert_expands_and_compacts(cli, args, out):
    result = cli("moves", "convert", *args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == out


def test_moves_convert_refuses_both(cli):
    result = cli("moves", "convert", "R3", "--expand", "--compact")
    assert result.exit_code == 2 and "exclude each other" in result.stderr


@given(st.lists(st.sampled_from("UDLR"), max_size=30))
def test_expand_and_runs_keep_the_lengths(letters):
    text = "".join(letters)
    assert stm(expand(text)) == stm(text) and mtm(expand(text)) == mtm(text)
