// Drawing the board: its tiles (buttons that slide; a click is play.js's), the blank, the score
// line's moves, the solved badge, the goal drawn small, the move list, and the good moves a
// review outlines.

import { $, el, icon } from "./dom.js";
import { PALETTE, WORD, applyMove, compactMoves, formatCells, hasRepeats, sameCells, solvedCells, tileOf }
  from "./cells.js";
import { line, pathMoves, pos, positionKey, solutionPosition } from "./position.js";
import { isWon, stopClock } from "./clock.js";
import { currentHint } from "./hint.js";

let tileEls = new Map(); // tile id -> its button
let outlined = null;     // the good moves outlined: {key, moves} (a review's lost move jumped to)

/** Outline the good moves of the position shown (a review's), until the position changes. */
export function outlineGood(moves) {
  outlined = { key: positionKey(), moves };
}

export function clearOutline() {
  outlined = null;
}

/** Whether the tile whose slide is ``m``, ``k`` tiles, makes a good move outlined. */
function isOutlined(m, k) {
  const g = outlined;
  if (!g || g.key !== positionKey() || !m) return false;
  return g.moves.some((mv) => mv[0] === m && (parseInt(mv.slice(1), 10) || 1) === k);
}

/** The board's width in pixels: the game column's width, at most 560 px, and on a wide screen
 * no taller than the window leaves room for (never under 480 px there). */
function boardPixels() {
  const column = $("play-area").clientWidth || document.documentElement.clientWidth;
  let px = Math.min(560, column);
  if (window.innerWidth >= 960) px = Math.min(px, Math.max(480, window.innerHeight - 290));
  return Math.max(160, Math.floor(px));
}

/** The move that slides the tile at cell i (and the tiles between it and the blank), and how
 * many: ``[null, 0]`` when it cannot slide. */
export function slideOf(i) {
  const b = pos.cells.indexOf(0);
  const r = Math.floor(i / pos.W), c = i % pos.W, br = Math.floor(b / pos.W), bc = b % pos.W;
  if (r === br && c < bc) return ["R", bc - c];
  if (r === br && c > bc) return ["L", c - bc];
  if (c === bc && r < br) return ["D", br - r];
  if (c === bc && r > br) return ["U", r - br];
  return [null, 0];
}

/** The tiles of the board, each a button placed on its cell (``place``) at ``s`` px a cell;
 * the ids of those drawn. */
function drawTiles(board, place, s) {
  const repeats = hasRepeats(pos.goal);
  const labels = [...new Set(pos.goal.filter((c) => c !== 0).map(String))];
  const hinted = currentHint();
  const seen = new Set();
  pos.cells.forEach((label, i) => {
    if (label === 0) return;
    const id = pos.ids[i];
    seen.add(id);
    let t = tileEls.get(id);
    if (!t) {
      t = document.createElement("button");
      t.type = "button";
      t.className = "tile";
      t.tabIndex = -1;
      board.appendChild(t);
      tileEls.set(id, t);
    }
    t.textContent = String(label);
    t.dataset.label = String(label);
    t.dataset.cell = String(i);
    place(t, i);
    t.style.fontSize = `${Math.max(11, Math.floor(s * (String(label).length > 2 ? 0.28 : 0.36)))}px`;
    t.style.background = repeats ? PALETTE[labels.indexOf(String(label)) % PALETTE.length] : "";
    t.classList.toggle("home", !repeats && String(pos.goal[i]) === String(label));
    t.classList.toggle("moving", line.solution !== null && id === pos.lastMoved && !line.detour.length);
    const [m, k] = slideOf(i);
    t.classList.toggle("fixed", !m);
    t.classList.toggle("good", isOutlined(m, k));
    t.classList.toggle("hinted", !!(hinted && hinted.data.move && !hinted.implied
      && m === hinted.data.move[0] && k === (parseInt(hinted.data.move.slice(1), 10) || 1)));
    const r = Math.floor(i / pos.W), c = i % pos.W;
    t.setAttribute("aria-label", `tile ${label}, row ${r + 1}, column ${c + 1}, `
      + (!m ? "cannot slide" : k === 1 ? `slides ${WORD[m]}` : `slides ${WORD[m]} with the ${k - 1} between`));
  });
  return seen;
}

/** The board at the window's size, the moves so far and whether it is solved (the clock
 * stops there). */
export function drawBoard() {
  const board = $("board");
  const px = boardPixels();
  const pad = Math.max(5, Math.round(px * 0.018)), gap = Math.max(3, Math.round(px * 0.01));
  const s = (px - 2 * pad) / Math.max(pos.W, pos.H);
  const w = Math.round(pos.W * s + 2 * pad), h = Math.round(pos.H * s + 2 * pad);
  board.style.width = `${w}px`;
  board.style.height = `${h}px`;
  document.documentElement.style.setProperty("--board-px", `${Math.max(px, 320)}px`);
  const place = (e, i) => {
    const r = Math.floor(i / pos.W), c = i % pos.W;
    e.style.width = e.style.height = `${s - gap}px`;
    e.style.transform = `translate(${pad + c * s + gap / 2}px, ${pad + r * s + gap / 2}px)`;
  };
  const seen = drawTiles(board, place, s);
  for (const [id, t] of tileEls) {
    if (!seen.has(id)) { t.remove(); tileEls.delete(id); }
  }
  let blank = board.querySelector(".blank");
  if (!blank) {
    blank = el("div", { class: "blank", role: "img" });
    board.prepend(blank);
  }
  const b = pos.cells.indexOf(0);
  place(blank, b);
  blank.setAttribute("aria-label", `blank, row ${Math.floor(b / pos.W) + 1}, column ${(b % pos.W) + 1}`);
  board.dataset.board = formatCells(pos.cells, pos.W);
  board.dataset.size = `${pos.W}x${pos.H}`;
  const moves = pathMoves();
  $("move-count").textContent = String(moves.length);
  $("move-string").textContent = compactMoves(moves);
  const solved = sameCells(pos.cells, pos.goal);
  $("solved-badge").hidden = !solved;
  board.dataset.solved = solved ? "yes" : "no";
  if (solved) stopClock();
  board.classList.toggle("won", isWon() && solved);
  $("celebration").hidden = !(isWon() && solved);
}

/** A goal other than the tiles in order is drawn small beside the score (where the tiles go). */
export function renderGoal() {
  const box = $("goal-mini");
  const custom = !sameCells(pos.goal, solvedCells(pos.W, pos.H));
  box.hidden = !custom;
  if (!custom) return;
  const key = formatCells(pos.goal, pos.W);
  if (box.dataset.goal === key) return;
  box.dataset.goal = key;
  box.style.gridTemplateColumns = `repeat(${pos.W}, 1fr)`;
  box.setAttribute("aria-label", `goal: ${key}`);
  box.replaceChildren(...pos.goal.map((c) => el("span", { class: c === 0 ? "blank" : "", text: c === 0 ? "" : String(c) })));
}

/** Draw the tiles anew (a new position, or a jump): each cell's tile its own identity. */
export function resetTiles() {
  for (const t of tileEls.values()) t.remove();
  tileEls = new Map();
  pos.ids = pos.cells.map((c, i) => (c === 0 ? -1 : i));
}

/** The move list under the board: the solution's moves (the current one marked, a click jumps
 * there) with the moves made off it, or the player's moves (a click goes back there). */
export function renderMoveList() {
  const list = $("move-list");
  const sol = line.solution;
  const moves = sol ? sol.moves : line.history;
  const current = sol ? line.step : line.history.length;
  const items = [];
  const cells = (sol ? sol.start : pos.start).slice();
  const LIMIT = 400;
  const from = Math.max(0, Math.min(current - LIMIT / 2, moves.length - LIMIT));
  const upto = Math.min(moves.length, from + LIMIT);
  for (let k = 0; k < from; k++) applyMove(cells, null, pos.W, pos.H, moves[k]);
  if (from > 0) items.push(el("li", { class: "gap", text: "…" }));
  for (let k = from; k < upto; k++) {
    const tile = tileOf(cells, pos.W, pos.H, moves[k]);
    applyMove(cells, null, pos.W, pos.H, moves[k]);
    const li = moveItem(k + 1, moves[k], tile, k === current ? "next" : "", k + 1);
    if (k + 1 === current) li.firstChild.setAttribute("aria-current", "step");
    items.push(li);
    if (sol && k + 1 === current && line.detour.length) items.push(...detourItems());
  }
  if (upto < moves.length) items.push(el("li", { class: "gap", text: "…" }));
  if (sol && current === 0 && line.detour.length) items.unshift(...detourItems());
  list.replaceChildren(...items);
  // one tab stop for the list (its current move): Tab goes on to the panels
  const buttons = list.querySelectorAll("button");
  buttons.forEach((b) => { b.tabIndex = -1; });
  const stop = list.querySelector("[aria-current]") || buttons[0];
  if (stop) stop.tabIndex = 0;
  const cur = list.querySelector("[aria-current]");
  if (cur && list.scrollHeight > list.clientHeight) {
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - 40;
  }
}

/** One move of the list, named by its text: "move 3: tile 8 right", of which "3 8" shows (an
 * arrow for the rest); a click jumps to ``jump`` (none: null). */
function moveItem(k, m, tile, cls, jump) {
  const b = el("button", { type: "button", class: `dir-${m}` + (cls ? " " + cls : "") },
    el("span", { class: "sr-only", text: "move " }), el("span", { class: "num", text: String(k) }),
    el("span", { class: "sr-only", text: ": tile " }), String(tile), icon("arrow"),
    el("span", { class: "sr-only", text: ` ${WORD[m]}` }));
  if (jump === null) b.disabled = true;
  else b.dataset.step = String(jump);
  return el("li", {}, b);
}

function detourItems() {
  const cells = solutionPosition(line.step);
  return line.detour.map((m, j) => {
    const tile = tileOf(cells, pos.W, pos.H, m);
    applyMove(cells, null, pos.W, pos.H, m);
    const b = el("button", { type: "button", class: `detour dir-${m}` },
      el("span", { class: "sr-only", text: "your move " }), el("span", { class: "num", text: "+" + (j + 1) }),
      el("span", { class: "sr-only", text: " off the solution: tile " }), String(tile), icon("arrow"),
      el("span", { class: "sr-only", text: ` ${WORD[m]}` }));
    b.dataset.detour = String(j + 1);
    return el("li", {}, b);
  });
}
