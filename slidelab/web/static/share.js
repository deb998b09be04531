// Sharing: restoring what the address bar's fragment describes (a reload, back, a bookmark, a
// link), and the copy buttons.

import { api } from "./api.js";
import { $, announce, plural } from "./dom.js";
import { applyMove, expandMoves, mtmCount, sameCells } from "./cells.js";
import { line, pos, renderBoard } from "./position.js";
import { setRestoring, stateHash, updateUrl } from "./address.js";
import { updateHeuristicMenu } from "./server.js";
import { setSolveMsg, showResult } from "./solve.js";
import { replayTo } from "./replay.js";
import { userMove } from "./play.js";
import { setCheck, setPosition } from "./setup.js";
import { showTab } from "./tabs.js";
import { runReview } from "./review.js";

let loading = null; // the fragment being restored

/** Restore what the address bar's fragment describes (a reload, back, a bookmark, a link). */
export async function loadFromHash() {
  const hash = window.location.hash.replace(/^#/, "");
  if (!hash || `#${hash}` === stateHash() || loading === hash) return false;
  loading = hash;
  try {
    return await restore(hash);
  } finally {
    loading = null;
  }
}

async function restore(hash) {
  const p = new URLSearchParams(hash);
  const board = p.get("board");
  if (!board) return false;
  const goal = p.get("goal");
  setRestoring(true);
  try {
    let data;
    try {
      data = await api("POST", "/api/check", goal ? { board, goal } : { board });
    } catch (e) {
      setCheck("link: " + e.message, "error");
      return false;
    }
    const m = p.get("metric");
    if (m && [...$("metric").options].some((o) => o.value === m)) { $("metric").value = m; updateHeuristicMenu(); }
    setPosition(data.cells, data.goal_cells, data.width, data.height);
    setCheck(data.reason, data.solvable ? "ok" : "warn");
    restoreMoves(p);
    const reviewed = p.get("review");
    if (reviewed) { // the review the link names, run again
      $("review-moves").value = reviewed;
      showTab("review");
      runReview();
    }
    return true;
  } finally {
    setRestoring(false);
    updateUrl();
  }
}

/** The link's solution (checked to reach the goal) at its step with the moves made off it,
 * or the player's moves. */
function restoreMoves(p) {
  const solution = p.get("solution");
  const moves = p.get("moves");
  if (solution !== null) {
    const list = expandMoves(solution);
    const end = pos.cells.slice();
    const ok = list && list.every((mv) => applyMove(end, null, pos.W, pos.H, mv) !== null) && sameCells(end, pos.goal);
    if (!ok) {
      setSolveMsg(["link: the solution does not reach the goal", "error"]);
    } else {
      line.solution = { moves: list, text: solution, start: pos.cells.slice(), length: list.length,
        metric: "stm", optimal: null, method: "", stats: null,
        status: `solution from the link: ${plural(list.length, "move")} (${mtmCount(list)} MTM)` };
      showResult();
      replayTo(parseInt(p.get("step") || "0", 10) || 0);
      for (const mv of expandMoves(p.get("detour") || "") || []) userMove(mv);
      renderBoard();
    }
  } else if (moves) {
    for (const mv of expandMoves(moves) || []) userMove(mv);
    renderBoard();
  }
}

/** Copy a field's text (the solution, the link), saying so on its button. */
export async function copyText(id, button) {
  const e = $(id);
  let ok = true;
  try {
    await navigator.clipboard.writeText(e.value);
  } catch (err) {
    e.select();
    try { ok = document.execCommand("copy"); } catch (err2) { ok = false; }
  }
  const label = button.querySelector("span");
  const was = button.dataset.label || (label ? label.textContent : "");
  button.dataset.label = was;
  if (label) label.textContent = ok ? "copied" : "select and copy";
  announce(ok ? "copied" : "could not copy: select the text and copy it");
  setTimeout(() => { if (label) label.textContent = was; }, 1500);
}
