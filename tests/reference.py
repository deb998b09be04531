"""Independent reference implementations for the tests: plain dictionary breadth-first search."""

from collections import deque


def successors(cells, width, height):
    """Boards one move away (tuples of cells, 0 = blank)."""
    b = cells.index(0)
    r, c = divmod(b, width)
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < height and 0 <= nc < width:
            nb = nr * width + nc
            nxt = list(cells)
            nxt[b], nxt[nb] = nxt[nb], 0
            yield tuple(nxt)


def exact_distances(goal) -> dict:
    """Distance to ``goal`` (a Board) of every reachable board, keyed by its cells."""
    dist = {goal.cells: 0}
    queue = deque([goal.cells])
    while queue:
        cells = queue.popleft()
        for nxt in successors(cells, goal.width, goal.height):
            if nxt not in dist:
                dist[nxt] = dist[cells] + 1
                queue.append(nxt)
    return dist
