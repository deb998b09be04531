"""Pictures of boards and solutions: SVG (for Jupyter and files), and GIF with matplotlib.

The colours are the web page's (``web/static/style.css`` and ``cells.js``; a test keeps them
equal): tiles are amber on a dark frame when every tile is different, a tile already on its
goal cell is a little paler; when labels repeat, every label class has its own colour from
:data:`PALETTE`, in the order the labels first appear in the goal.

Functions take row-major cells (``0`` = blank), not boards, so that :mod:`slidelab.board`
can draw itself with them.  :meth:`Board._repr_svg_ <slidelab.board.Board._repr_svg_>`
and :meth:`Solution._repr_html_ <slidelab.solution.Solution._repr_html_>` are what
Jupyter shows.

Examples
--------
>>> svg = board_svg([1, 2, 3, 0], 2, 2, goal=[1, 2, 3, 0])
>>> svg.startswith("<svg") and svg.count("<rect") == 4   # the frame and three tiles
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from html import escape

from . import _args
from .errors import ArgumentError, SlidelabError
from .parse import Cell

#: the web page's tile, tile text, frame and goal-cell look (``style.css``)
TILE = "#f4e4c1"
TILE_INK = "#3a2a10"
FRAME = "#2f3a45"
HOME_FILTER = "saturate(0.75) brightness(1.04)"
#: one colour per label class when labels repeat (``web/static/cells.js``'s ``PALETTE``)
PALETTE = (
    "#f4d58d", "#a8dcc3", "#b9cdf5", "#f5b8b8", "#d9c4f3", "#f5c9a0", "#c3e5a0",
    "#f3c2df", "#bfdede", "#e5dbb1", "#cfcff0", "#efcaca",
)  # fmt: skip

#: pixels: the margin around a board, and the gap between two tiles
PAD, GAP = 6, 4


@functools.cache
def require_matplotlib():
    """A matplotlib ``Figure`` class that Jupyter shows as a PNG without pyplot (it has
    ``_repr_png_``), or a one-line :class:`SlidelabError` saying how to install matplotlib
    (the plots of :mod:`slidelab.analysis.plot` and :func:`solution_gif` need it)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise SlidelabError(
            "plotting needs matplotlib, which is not installed:"
            ' pip install matplotlib (or, in a checkout of slidelab, pip install ".[plot]")'
        ) from None

    class ShownFigure(Figure):
        def _repr_png_(self) -> bytes:
            from io import BytesIO

            buffer = BytesIO()
            self.savefig(buffer, format="png", dpi=110)
            return buffer.getvalue()

    return ShownFigure


def _colours(goal: Sequence[Cell]) -> dict[Cell, str] | None:
    """Label -> colour when labels repeat in ``goal``, else None (every tile amber)."""
    labels = [c for c in goal if c != 0]
    if len(set(labels)) == len(labels):
        return None
    order = list(dict.fromkeys(labels))
    return {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(order)}


def _fill(colours: dict[Cell, str] | None, label: Cell) -> str:
    return TILE if colours is None else colours.get(label, TILE)


def _frame(width: int, height: int, tile: int, body: str) -> str:
    w, h = width * tile + 2 * PAD, height * tile + 2 * PAD
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"'
        f' viewBox="0 0 {w} {h}" font-family="system-ui, sans-serif" font-weight="700">'
        f'<rect width="{w}" height="{h}" rx="8" fill="{FRAME}"/>{body}</svg>'
    )


def _tile(label: Cell, tile: int, colours: dict[Cell, str] | None, home: bool) -> str:
    """One tile drawn at the origin (placed by a ``transform``)."""
    side = tile - GAP
    font = max(11, int(tile * 0.38))
    look = f' style="filter: {HOME_FILTER}"' if home else ""
    return (
        f'<rect width="{side}" height="{side}" rx="6" fill="{_fill(colours, label)}"{look}/>'
        f'<text x="{side / 2:g}" y="{side / 2:g}" dy="0.35em" text-anchor="middle"'
        f' font-size="{font}" fill="{TILE_INK}">{escape(str(label))}</text>'
    )


def _at(cell: int, width: int, tile: int) -> tuple[int, int]:
    r, c = divmod(cell, width)
    return PAD + c * tile + GAP // 2, PAD + r * tile + GAP // 2


def board_svg(
    cells: Sequence[Cell], width: int, height: int, goal: Sequence[Cell], tile: int = 48
) -> str:
    """An SVG picture of a board, in the web page's colours.

    Parameters
    ----------
    cells : sequence
        Row-major cells, ``0`` the blank.
    width, height : int
    goal : sequence
        The goal's cells: tiles on their goal cell are drawn paler, and repeated labels
        take their colours in the goal's order.
    tile : int
        Pixels per cell.
    """
    colours = _colours(goal)
    body = []
    for i, label in enumerate(cells):
        if label == 0:
            continue
        x, y = _at(i, width, tile)
        home = colours is None and goal[i] == label
        body.append(f'<g transform="translate({x},{y})">{_tile(label, tile, colours, home)}</g>')
    return _frame(width, height, tile, "".join(body))


def solution_svg(
    frames: Sequence[Sequence[Cell]], width: int, height: int, goal: Sequence[Cell],
    tile: int = 48, seconds_per_move: float = 0.3, hold: float = 1.0,
) -> str:  # fmt: skip
    """An animated SVG (SMIL, no script) replaying ``frames``: the start, then the board
    after each single-tile move.  It holds ``hold`` seconds on the start and on the goal
    and loops.

    Tiles are followed by identity (the tile that moves is the one that slides), so
    identical tiles move as the web page's replay moves them.
    """
    if not frames:
        raise ValueError("no frames to draw")
    colours = _colours(goal)
    moves = len(frames) - 1
    total = 2 * hold + moves * seconds_per_move
    # follow each tile through the frames: tile id -> cell per frame
    first = list(frames[0])
    ids = {cell: cell for cell, label in enumerate(first) if label != 0}  # id: starting cell
    where = [dict(ids)]
    for before, after in zip(frames, frames[1:], strict=False):
        blank_after = list(after).index(0)
        blank_before = list(before).index(0)
        current = dict(where[-1])
        for tid, cell in current.items():
            if cell == blank_after:
                current[tid] = blank_before
        where.append(current)
    times = [0.0] + [(hold + k * seconds_per_move) / total for k in range(moves + 1)] + [1.0]
    key_times = ";".join(f"{t:.5f}" for t in times)
    body = []
    for tid in ids:
        label = first[tid]
        cells_along = [where[0][tid]] + [w[tid] for w in where] + [where[-1][tid]]
        points = ";".join("{},{}".format(*_at(c, width, tile)) for c in cells_along)
        x, y = _at(cells_along[0], width, tile)
        anim = (
            f'<animateTransform attributeName="transform" type="translate" values="{points}"'
            f' keyTimes="{key_times}" dur="{total:g}s" repeatCount="indefinite"/>'
            if moves
            else ""
        )
        body.append(
            f'<g transform="translate({x},{y})">{_tile(label, tile, colours, False)}{anim}</g>'
        )
    return _frame(width, height, tile, "".join(body))


#: a GIF's limits: pixels per cell, pixels of a frame, frames (the start and a frame a single-tile
#: move), and the seconds a move shows (a GIF's frame delay is whole hundredths of a second, at
#: most 655.35 s)
MAX_TILE = 1_000
MAX_GIF_PIXELS = 25_000_000
MAX_GIF_FRAMES = 10_001
GIF_SECONDS = (0.01, 600.0)


def check_gif(
    path, n_frames: int, width: int, height: int, tile, seconds_per_move
) -> tuple[int, float]:
    """Refuse a GIF that cannot be written or is too large to make, with a one-line error
    naming the argument; return ``tile`` and ``seconds_per_move`` checked.

    >>> check_gif("replay.gif", 32, 3, 3, 48, 0.3)
    (48, 0.3)
    >>> check_gif("replay.gif", 32, 3, 3, 48, float("nan"))
    Traceback (most recent call last):
    ...
    slidelab.errors.SlidelabError: seconds_per_move must be a number, got nan
    """
    import os

    tile = _args.integer(tile, "tile", minimum=1, maximum=MAX_TILE, why=" (pixels per cell)")
    seconds = _args.number(seconds_per_move, "seconds_per_move", positive=True)
    low, high = GIF_SECONDS
    if not low <= seconds <= high:
        raise SlidelabError(
            f"seconds_per_move must be from {low:g} to {high:g} (a GIF's frame delay),"
            f" got {seconds:g}"
        )
    side = width * tile + 2 * PAD, height * tile + 2 * PAD
    if side[0] * side[1] > MAX_GIF_PIXELS:
        raise SlidelabError(
            f"a GIF of {side[0]:,}x{side[1]:,} pixels is too large (at most"
            f" {MAX_GIF_PIXELS:,} pixels a frame); give a smaller tile"
        )
    if n_frames > MAX_GIF_FRAMES:
        raise SlidelabError(
            f"a GIF of {n_frames - 1:,} moves is too long: at most {MAX_GIF_FRAMES - 1:,}"
            " moves, a frame each"
        )
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError(f"path must be a file name, got {_args.show(path)}")
    if os.path.isdir(path):
        raise SlidelabError(f"cannot write the GIF {os.fspath(path)!r}: it is a directory")
    if not os.fspath(path).lower().endswith(".gif"):
        raise SlidelabError(f"the GIF's file name {os.fspath(path)!r} must end in .gif")
    return tile, seconds


def solution_gif(
    path, frames: Sequence[Sequence[Cell]], width: int, height: int, goal: Sequence[Cell],
    tile: int = 48, seconds_per_move: float = 0.3,
) -> None:  # fmt: skip
    """Write a GIF replaying ``frames`` to ``path`` (needs matplotlib, the plot extra; drawn
    without pyplot, so the caller's backend stays)."""
    tile, seconds_per_move = check_gif(path, len(frames), width, height, tile, seconds_per_move)
    Figure = require_matplotlib()
    from matplotlib.animation import FuncAnimation, PillowWriter
    from matplotlib.patches import FancyBboxPatch

    colours = _colours(goal)
    w, h = width * tile + 2 * PAD, height * tile + 2 * PAD
    fig = Figure(figsize=(w / 100, h / 100), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))

    def draw(k: int):
        ax.clear()
        ax.set_xlim(0, w)
        ax.set_ylim(h, 0)
        ax.axis("off")
        ax.add_patch(FancyBboxPatch((0, 0), w, h, "round,pad=0,rounding_size=8", color=FRAME))
        for i, label in enumerate(frames[k]):
            if label == 0:
                continue
            x, y = _at(i, width, tile)
            side = tile - GAP
            ax.add_patch(
                FancyBboxPatch(
                    (x, y), side, side, "round,pad=0,rounding_size=6", color=_fill(colours, label)
                )
            )
            ax.text(
                x + side / 2, y + side / 2, str(label), ha="center", va="center",
                color=TILE_INK, fontsize=max(8, tile * 0.38 * 0.72), fontweight="bold",
            )  # fmt: skip
        return []

    hold = max(1, round(1.0 / seconds_per_move))
    order = [0] * hold + list(range(len(frames))) + [len(frames) - 1] * hold
    animation = FuncAnimation(fig, lambda i: draw(order[i]), frames=len(order), blit=False)
    try:
        animation.save(path, writer=PillowWriter(fps=1 / seconds_per_move))
    except OSError as e:
        raise SlidelabError(f"cannot write the GIF {str(path)!r}: {e.strerror or e}") from None
