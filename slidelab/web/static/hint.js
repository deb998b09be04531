// The hint and the distance: the last hint asked (or implied by an optimal solution shown),
// the score bar's distance and the hint's status line.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { WORD, formatCells } from "./cells.js";
import { line, metric, pos, positionKey, renderBoard } from "./position.js";
import { markAssisted } from "./clock.js";

let hint = null; // {key, data}: the last hint, for the position `key` (positionKey|metric)
let hintSeq = 0;

/** Keep what is known of the position `key` (``positionKey()|metric``): a hint's answer. */
export function setHint(key, data) {
  hint = { key, data };
}

/** The hint of the position shown in the metric chosen, if known. */
export function currentHint() {
  const key = `${positionKey()}|${metric()}`;
  if (hint && hint.key === key) return hint;
  // along an optimal STM solution, each position's distance is what is left of it
  const sol = line.solution;
  if (sol && sol.optimal && sol.metric === "stm" && metric() === "stm" && !line.detour.length
      && sol.moves.length === sol.length) {
    const left = sol.moves.length - line.step;
    return { key, data: { distance: left, exact: true, lower_bound: left,
      move: left ? sol.moves[line.step] : null, how: "solution", message: "" }, implied: true };
  }
  return null;
}

/** The player made the hinted move (one of an optimal solution): the distance is one less. */
export function followHint(hinted, made) {
  const d = hinted && hinted.data;
  if (!d || !d.exact || !d.move || hinted.implied || d.move !== made) return;
  setHint(`${positionKey()}|${metric()}`, { distance: d.distance - 1, exact: true,
    lower_bound: null, move: null, tile: null, how: "the hinted move made", message: "" });
}

export function renderDistance() {
  renderHintLine();
  const h = currentHint();
  const out = $("distance");
  if (!h) { out.textContent = "?"; out.title = "press hint to find it"; return; }
  const d = h.data;
  out.textContent = d.exact ? String(d.distance) : `≥ ${d.lower_bound}`;
  out.title = d.exact ? `exactly ${d.distance} (${metric().toUpperCase()})` : d.message;
}

function renderHintLine() {
  const hs = $("hint-status");
  if (hs.dataset.key && hs.dataset.key !== `${positionKey()}|${metric()}`) {
    hs.textContent = "";
    delete hs.dataset.key;
  }
}

export async function askHint(auto) {
  if (!auto) markAssisted(); // a solve helped by a hint is not a personal best
  const key = `${positionKey()}|${metric()}`;
  const seq = ++hintSeq;
  const hs = $("hint-status");
  if (!auto) { hs.className = "status"; hs.textContent = "thinking..."; hs.dataset.key = key; }
  try {
    const data = await api("POST", "/api/hint", {
      board: formatCells(pos.cells, pos.W), goal: formatCells(pos.goal, pos.W), metric: metric() });
    if (`${positionKey()}|${metric()}` !== key) return; // the board moved on meanwhile
    hint = { key, data };
    if (!auto && seq === hintSeq) {
      hs.dataset.key = key;
      hs.className = "status ok";
      hs.textContent = hintText(data);
    }
    renderBoard();
  } catch (e) {
    if (!auto && seq === hintSeq) { hs.className = "status error"; hs.textContent = "hint: " + e.message; }
  }
}

function hintText(d) {
  const units = metric() === "mtm" ? "MTM moves" : "moves";
  if (d.distance === 0) return "already solved";
  let move = "";
  if (d.move) {
    const m = d.move[0], k = parseInt(d.move.slice(1) || "1", 10);
    move = `best next move: tile ${d.tile} ${WORD[m]}` + (k > 1 ? ` (${k} tiles in one move)` : "") + "; ";
  }
  if (d.exact) return `${move}${d.distance} ${units} to go`;
  return `${move}at least ${d.lower_bound} ${units} to go: ${d.message}`;
}
