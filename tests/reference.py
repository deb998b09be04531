"""Independent reference implementations for the tests: plain dictionary breadth-first search."""

from collections import deque


def successors(cells, width, height, metric="stm"):
    """Boards one move away (tuples of cells, 0 = blank): in STM one tile slides into the
    blank; in MTM any number of tiles in the blank's row or column slide one cell towards it."""
    b = cells.index(0)
    r, c = divmod(b, width)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nxt = list(cells)
        blank, nr, nc = b, r + dr, c + dc
        while 0 <= nr < height and 0 <= nc < width:
            nb = nr * width + nc
            nxt[blank], nxt[nb] = nxt[nb], 0
            yield tuple(nxt)
            if metric == "stm":
                break
            blank, nr, nc = nb, nr + dr, nc + dc


def exact_distances(goal, metric="stm") -> dict:
    """Distance to ``goal`` (a Board) in ``metric`` of every reachable board, keyed by its cells."""
    dist = {goal.cells: 0}
    queue = deque([goal.cells])
    while queue:
        cells = queue.popleft()
        for nxt in successors(cells, goal.width, goal.height, metric):
            if nxt not in dist:
                dist[nxt] = dist[cells] + 1
                queue.append(nxt)
    return dist
