// Playing: the player's moves (a click, a key, a swipe), along the solution shown or off it or
// on the player's own record; undo and reset; the solved moment and the personal bests.

import { $, announce, clockText, num, plural } from "./dom.js";
import { DIRS, OPPOSITE, WORD, applyMove, formatCells, mtmCount, sameCells, solvedCells } from "./cells.js";
import { line, metric, pathMoves, pos, renderBoard, solutionIndex } from "./position.js";
import { resetTiles, slideOf } from "./board.js";
import { clockMs, isWon, resetClock, setWon, startClock, stopClock, wasAssisted } from "./clock.js";
import { currentHint, followHint } from "./hint.js";
import { replayTo, stopPlaying } from "./replay.js";

let swipe = null;    // where a touch began: {x, y}
let swiped = false;  // a swipe just ended: not a click too

/** One single-tile move by the player: along the solution shown (a replay step), off it (the
 * solution is kept: its position and the moves since are shown), or on the player's record. */
export function userMove(m) {
  const moved = applyMove(pos.cells, pos.ids, pos.W, pos.H, m);
  if (moved === null) return false;
  pos.lastMoved = moved;
  startClock();
  const sol = line.solution;
  if (sol) {
    if (!line.detour.length && line.step < sol.moves.length && sol.moves[line.step] === m) {
      line.step += 1;               // the same as stepping the replay forward
    } else if (!line.detour.length && line.step > 0 && sol.moves[line.step - 1] === OPPOSITE[m]) {
      line.step -= 1;               // back along it
    } else {
      line.detour.push(m);
      // back on the solution's path (the moves off it undone, or a way round): rejoin it there
      const k = solutionIndex(sol).get(formatCells(pos.cells, pos.W));
      if (k !== undefined) { line.step = k; line.detour = []; }
    }
    return true;
  }
  line.history.push(m);
  return true;
}

/** After the player's own move: the solved moment when it reaches the goal (again after
 * leaving it, with the moves then), and a personal best where it is one. */
function afterPlayerMove() {
  const there = sameCells(pos.cells, pos.goal);
  if (!there) setWon(false);
  if (there && pathMoves().length > 0 && !isWon()) {
    setWon(true);
    stopClock();
    const took = clockMs();
    const moves = metric() === "mtm" ? mtmCount(pathMoves()) : pathMoves().length;
    const best = wasAssisted() ? "" : recordBest(moves, took);
    const text = `Solved! ${plural(moves, metric() === "mtm" ? "MTM move" : "move")} in ${clockText(took)}${best}`;
    $("celebration").textContent = text;
    announce(text);
  }
  renderBoard();
}

// ------------------------------------------------------------------------------ personal bests

/** Where the bests of the board's size and the metric are kept (the goal in order only). */
function bestKey() {
  return sameCells(pos.goal, solvedCells(pos.W, pos.H)) ? `slidelab-best|${pos.W}x${pos.H}|${metric()}` : null;
}

function readBest() {
  const key = bestKey();
  if (!key) return null;
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
}

/** Keep a solve of the player's own (no solution shown, no hint asked) where it beats the best
 * time or the fewest moves; what it beat, for the banner. */
function recordBest(moves, ms) {
  const key = bestKey();
  if (!key) return "";
  const was = readBest() || {};
  const now = { ms: Math.min(ms, was.ms ?? Infinity), moves: Math.min(moves, was.moves ?? Infinity) };
  try { localStorage.setItem(key, JSON.stringify(now)); } catch (e) { return ""; }
  const beat = [];
  if (was.ms === undefined || ms < was.ms) beat.push("time");
  if (was.moves === undefined || moves < was.moves) beat.push("moves");
  renderBest();
  return beat.length ? ` — a personal best (${beat.join(" and ")})` : "";
}

export function renderBest() {
  const best = readBest();
  $("best").hidden = !best;
  if (best) $("best").querySelector("b").textContent = `${clockText(best.ms)} · ${num(best.moves)}`;
  $("best").title = `your best time and fewest moves on ${pos.W}x${pos.H} (${metric().toUpperCase()}), kept in this browser`;
  $("best-reset").disabled = !best;
}

export function resetBest() {
  const key = bestKey();
  if (key) try { localStorage.removeItem(key); } catch (e) { /* nothing kept */ }
  renderBest();
}

// ----------------------------------------------------------------------- clicks, keys, swipes

/** A swipe on the board slides the tile next to the blank the swipe's way (a touch screen's
 * arrow keys); a tap stays a tap. */
export function swipeStart(ev) {
  if (ev.pointerType === "mouse") return;
  swipe = { x: ev.clientX, y: ev.clientY };
}

export function swipeEnd(ev) {
  const from = swipe;
  swipe = null;
  if (!from) return;
  const dx = ev.clientX - from.x, dy = ev.clientY - from.y;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return; // a tap: the tile's own click
  swiped = true; // not a click too
  setTimeout(() => { swiped = false; }, 0);
  const m = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : (dy > 0 ? "D" : "U");
  stopPlaying();
  if (userMove(m)) { line.undoSteps.push(1); afterPlayerMove(); }
}

export function swipeCancel() {
  swipe = null;
}

/** A click on a tile slides it (and the tiles between it and the blank). */
export function clickTile(t) {
  if (swiped) return;
  const [m, k] = slideOf(parseInt(t.dataset.cell, 10));
  if (!m) return;
  stopPlaying();
  const hinted = currentHint();
  let made = 0;
  for (let j = 0; j < k; j++) if (userMove(m)) made += 1;
  if (made) line.undoSteps.push(made); // one click, one undo
  followHint(hinted, m + (made > 1 ? String(made) : ""));
  afterPlayerMove();
}

/** The arrow keys slide the tile next to the blank (not while typing or in the tabs). */
export function onKey(ev) {
  const keys = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };
  const m = keys[ev.key];
  if (!m || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const t = ev.target || {};
  const tag = t.tagName || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (t.getAttribute && t.getAttribute("role") === "tab") return; // the tabs' own arrows
  ev.preventDefault();
  stopPlaying();
  const hinted = currentHint();
  if (userMove(m)) {
    line.undoSteps.push(1);
    followHint(hinted, m);
    const tile = pos.cells[pos.cells.indexOf(0) - DIRS[m][0] * pos.W - DIRS[m][1]];
    announce(`tile ${tile} ${WORD[m]}`);
    afterPlayerMove();
  }
}

// ----------------------------------------------------------------------- undo, reset, jumps

export function resetPosition() {
  stopPlaying();
  line.undoSteps = [];
  const start = line.solution ? line.solution.start : pos.start;
  pos.cells = start.slice();
  line.history = [];
  line.detour = [];
  if (line.solution) line.step = 0;
  pos.lastMoved = -1;
  resetTiles();
  resetClock();
  renderBoard();
}

/** Take back the last click or key: all the tiles it slid. */
export function undo() {
  stopPlaying();
  const made = line.solution ? line.step + line.detour.length : line.history.length;
  const n = Math.min(line.undoSteps.pop() || 1, made);
  if (!n) return;
  if (line.solution && !line.detour.length) { replayTo(line.step - n); return; }
  for (let j = 0; j < n; j++) {
    const list = line.solution ? line.detour : line.history;
    if (!list.length) break;
    pos.lastMoved = applyMove(pos.cells, pos.ids, pos.W, pos.H, OPPOSITE[list.pop()]);
  }
  setWon(false);
  renderBoard();
}

/** Back on the solution, where the board left it. */
export function rejoin() {
  if (!line.solution) return;
  line.undoSteps = [];
  replayTo(line.step, true);
}

/** A click in the move list: to that step of the solution, or back to that move of the
 * player's record (the later ones taken back), or of the moves made off the solution. */
export function moveListClick(ev) {
  const b = ev.target.closest("button");
  if (!b) return;
  stopPlaying();
  line.undoSteps = [];
  if (b.dataset.step !== undefined) {
    const k = parseInt(b.dataset.step, 10);
    if (line.solution) replayTo(k, line.detour.length > 0);
    else {
      while (line.history.length > k) {
        pos.lastMoved = applyMove(pos.cells, pos.ids, pos.W, pos.H, OPPOSITE[line.history.pop()]);
      }
      setWon(false);
      renderBoard();
    }
  } else if (b.dataset.detour !== undefined) {
    const k = parseInt(b.dataset.detour, 10);
    while (line.detour.length > k) pos.lastMoved = applyMove(pos.cells, pos.ids, pos.W, pos.H, OPPOSITE[line.detour.pop()]);
    renderBoard();
  }
}
