// Setting up a position: a new one (the move record and any solution start over), the puzzle
// tab's board and goal typed (checked as typed, POST /api/check), a new board, a shuffle.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { formatCells, sameCells, solvedCells } from "./cells.js";
import { line, pos, renderBoard } from "./position.js";
import { resetTiles } from "./board.js";
import { resetClock } from "./clock.js";
import { stopPlaying } from "./replay.js";
import { clearSolution, leavePosition, setInputError, setSolveStatus } from "./solve.js";
import { renderLab } from "./lab.js";

let checkTimer = null;
let checkSeq = 0;
let edits = 0; // the board or goal typed: a shuffle under way when it changes leaves it alone
let sizeError = false; // the board's last check failed for want of a size: the size menus give it
const leaving = [];    // what a new position ends (the review's, wired by main.js)

/** Add what a new position ends: ``fn({keepReview})`` runs as the position is left. */
export function onNewPosition(fn) {
  leaving.push(fn);
}

/** Make a new position current: the move record and any solution start over (``keepInput``:
 * the puzzle tab's fields stay as typed; ``keepReview``: the review shown stays). */
export function setPosition(cells, goal, W, H, { keepInput = false, keepReview = false } = {}) {
  stopPlaying();
  leavePosition(); // a solve of the previous board stops, quietly
  for (const fn of leaving) fn({ keepReview });
  line.undoSteps = [];
  const sizeChanged = W !== pos.W || H !== pos.H;
  pos.W = W; pos.H = H;
  pos.goal = goal.slice();
  pos.start = cells.slice();
  pos.cells = cells.slice();
  line.history = [];
  clearSolution();
  resetTiles();
  resetClock();
  if (sizeChanged) { $("width").value = String(W); $("height").value = String(H); }
  if (!keepInput) {
    $("board-input").value = formatCells(cells, W);
    const ordered = sameCells(goal, solvedCells(W, H));
    $("goal-input").value = ordered ? "" : formatCells(goal, W);
    setCheck("", "");
  }
  renderBoard();
  renderLab();
}

/** The puzzle tab's status line: what the check of the board typed says. */
export function setCheck(text, kind) {
  const e = $("check-status");
  e.textContent = text;
  e.className = "status" + (kind ? " " + kind : "");
}

export function scheduleCheck() {
  edits += 1;
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 250);
}

/** A size menu changed: a board that wanted a size is checked again. */
export function sizeChosen() {
  if (sizeError) runCheck();
}

/** Check the board and goal typed (POST /api/check) and show them. */
async function runCheck() {
  const board = $("board-input").value.trim();
  const goal = $("goal-input").value.trim();
  if (!board) { setCheck("type or paste a board", "warn"); return; }
  const seq = ++checkSeq;
  const body = goal ? { board, goal } : { board };
  try {
    const data = await checkTyped(body);
    if (seq !== checkSeq) return;
    sizeError = false;
    setInputError(false);
    setCheck(data.reason, data.solvable ? "ok" : "warn");
    setPosition(data.cells, data.goal_cells, data.width, data.height, { keepInput: true });
  } catch (e) {
    if (seq !== checkSeq) return;
    sizeError = Boolean(e.data && e.data.field === "size");
    setCheck("error: " + e.message, "error");
    setInputError(true);
  }
}

/** POST /api/check of what was typed; a one-line board of a cell count that is not a square
 * takes its size from the size menus. */
async function checkTyped(body) {
  try {
    return await api("POST", "/api/check", body);
  } catch (e) {
    if (!(e.data && e.data.field === "size")) throw e;
    try {
      return await api("POST", "/api/check", { ...body, size: `${$("width").value}x${$("height").value}` });
    } catch (e2) {
      const what = e.message.split(";")[0];
      const err = new Error(`${what}; choose its width and height in the size menus,`
        + " or write rows separated by '/'");
      err.data = e.data;
      throw err;
    }
  }
}

export function newBoard() {
  const W = parseInt($("width").value, 10), H = parseInt($("height").value, 10);
  const goal = solvedCells(W, H);
  setPosition(goal, goal, W, H);
}

export function linePuzzle() {
  $("board-input").value = "ABA_/CDCD/ABAB/CDCD";
  $("goal-input").value = "ACA_/CDCA/DBAB/CDBD";
  runCheck();
}

/** A shuffled board of the goal (POST /api/generate), or a random walk of ``moves`` from it. */
export async function shuffle(moves) {
  const body = { goal: formatCells(pos.goal, pos.W), n: 1 };
  if (moves !== undefined) body.moves = moves;
  const asked = `${pos.W}x${pos.H} ${formatCells(pos.cells, pos.W)}`;
  const typed = edits;
  try {
    const data = await api("POST", "/api/generate", body);
    const check = await api("POST", "/api/check", { board: data.boards[0], goal: body.goal });
    // a position set meanwhile, or a board typed while a busy server shuffled (its own check
    // maybe still on the way), is the player's: kept
    if (`${pos.W}x${pos.H} ${formatCells(pos.cells, pos.W)}` !== asked || edits !== typed) return;
    setPosition(check.cells, check.goal_cells, check.width, check.height);
    setCheck(check.reason, check.solvable ? "ok" : "warn");
  } catch (e) {
    setCheck("error: " + e.message, "error");
    setSolveStatus("error: " + e.message, "error");
  }
}
