// The address bar: its fragment says what is shown (board, goal, metric, the solution and its
// step with the moves made off it, or the player's moves, and the review), and follows it.

import { $ } from "./dom.js";
import { compactMoves, formatCells } from "./cells.js";
import { line, metric, pos } from "./position.js";

let urlBoard = null;    // the board and goal the address bar's history entry is for
let restoring = false;  // a link is being restored: its entry is replaced, not pushed
let reviewLink = null;  // the moves of the review shown, which a link opens again

/** While a link (or the page's first position) is restored, the address bar's entry is
 * replaced, never a new one. */
export function setRestoring(on) {
  restoring = on;
}

/** The moves of the review shown (null: none), for the link. */
export function setReviewLink(moves) {
  reviewLink = moves;
}

function encodeValue(v) {
  return encodeURIComponent(v).replace(/%2F/gi, "/").replace(/%20/g, "+");
}

/** The fragment for what is shown: board, goal, metric, and the solution and replay step (with
 * the moves made off it), or the player's moves. */
export function stateHash() {
  const parts = [];
  const add = (k, v) => parts.push(`${k}=${encodeValue(v)}`);
  add("board", formatCells(line.solution ? line.solution.start : pos.start, pos.W));
  add("goal", formatCells(pos.goal, pos.W));
  add("metric", metric());
  if (line.solution) {
    add("solution", line.solution.text);
    add("step", String(line.step));
    if (line.detour.length) add("detour", compactMoves(line.detour));
  } else if (line.history.length) {
    add("moves", compactMoves(line.history));
  }
  if (reviewLink) add("review", reviewLink); // a review link opens it again
  return "#" + parts.join("&");
}

/** The address bar follows what is shown: a new position is a new history entry (back returns
 * to the one before), moves and replay steps replace the current one. */
export function updateUrl() {
  const hash = stateHash();
  const boardKey = `${formatCells(line.solution ? line.solution.start : pos.start, pos.W)}|${formatCells(pos.goal, pos.W)}`;
  if (hash !== window.location.hash) {
    const push = !restoring && urlBoard !== null && urlBoard !== boardKey;
    try {
      if (push) history.pushState(null, "", hash);
      else history.replaceState(null, "", hash);
    } catch (e) { /* a browser that refuses: the share box still has the link */ }
  }
  urlBoard = boardKey;
  $("share-url").value = window.location.href;
  try { localStorage.setItem("slidelab-last", hash); } catch (e) { /* not kept: a shuffled board next time */ }
}
