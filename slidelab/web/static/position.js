// The position shown: the board's size, goal, start and cells; the line shown (the solution and
// the replay's step in it with the moves made off it, or the player's own record of moves); and
// the one way to redraw it.
// What is drawn is the renderers' (``onRender``, wired by main.js in the order they run), so
// the modules that change the position need not import the ones that show it.

import { $ } from "./dom.js";
import { applyMove, formatCells } from "./cells.js";

/** The position: a small object the playing, solving and replaying modules move the tiles of. */
export const pos = {
  W: 3, H: 3,
  goal: [],        // goal cells (0 = blank)
  start: [],       // where the player's record begins (no solution shown)
  cells: [],       // current cells
  ids: [],         // tile identity per cell (for animation of repeated labels)
  lastMoved: -1,   // tile id that moved last (highlighted during replay)
};

const renderers = [];

/** Add what ``renderBoard`` draws (or updates) after a change, in the order added. */
export function onRender(fn) {
  renderers.push(fn);
}

/** Show the position: the board, the score, the replay, the status lines, the address bar... */
export function renderBoard() {
  for (const fn of renderers) fn();
}

/** The metric chosen (the solver tab's menu): "stm" or "mtm". */
export function metric() {
  return $("metric").value || "stm";
}

/** The position and its goal, formatted: the key of what is known of a position. */
export function positionKey() {
  return `${formatCells(pos.cells, pos.W)}|${formatCells(pos.goal, pos.W)}`;
}

// ------------------------------------------------------------------------- the line shown

/** The line shown: the solution shown and the replay's place in it, or the player's record. */
export const line = {
  solution: null,  // {moves, text, start, length, metric, optimal, method, stats, status, wall, index}
  step: 0,         // replay position in solution.moves
  detour: [],      // moves made off the solution, from its position at `step`
  history: [],     // single-tile moves made since `pos.start` (no solution shown)
  undoSteps: [],   // how many single-tile moves each click or key made (what undo takes back)
};

/** The moves from the start of what is shown to the board: the solution's up to the replay
 * step and the moves made off it, or the player's record. */
export function pathMoves() {
  return line.solution ? line.solution.moves.slice(0, line.step).concat(line.detour) : line.history;
}

/** The position after each step of the solution (formatted), and the step of each. */
export function solutionIndex(sol) {
  if (!sol.index) {
    const cells = sol.start.slice();
    const index = new Map([[formatCells(cells, pos.W), 0]]);
    sol.moves.forEach((m, k) => {
      applyMove(cells, null, pos.W, pos.H, m);
      const key = formatCells(cells, pos.W);
      if (!index.has(key)) index.set(key, k + 1);
    });
    sol.index = index;
  }
  return sol.index;
}

/** The cells after the solution's first ``k`` moves. */
export function solutionPosition(k) {
  const cells = line.solution.start.slice();
  for (let j = 0; j < k; j++) applyMove(cells, null, pos.W, pos.H, line.solution.moves[j]);
  return cells;
}
