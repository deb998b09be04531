// The review tab: the moves played (or pasted) reviewed from the start (POST /api/review), the
// chart of the distance after each move, and the lost moves, each a jump to the position
// before it with its good moves outlined.

import { api } from "./api.js";
import { $, announce, el, newChart, SVG_NS } from "./dom.js";
import { compactMoves, expandMoves, formatCells, mtmPrefix } from "./cells.js";
import { line, metric, pos, renderBoard } from "./position.js";
import { clearOutline, outlineGood } from "./board.js";
import { setReviewLink, updateUrl } from "./address.js";
import { setPosition } from "./setup.js";
import { userMove } from "./play.js";

let review = null; // the last review: {key, data, start, moves}

function setReview(r) {
  review = r;
  setReviewLink(r ? r.moves : null);
}

/** A review is of its start: a new position ends it. */
export function clearReview() {
  setReview(null);
  clearOutline();
}

/** The review box takes the moves played. */
export function reviewPlayed() {
  $("review-moves").value = compactMoves(line.history);
}

/** Review the moves in the review box (or, empty, the moves played) from the start position. */
export async function runReview() {
  if (!$("review-moves").value.trim()) reviewPlayed();
  const moves = $("review-moves").value.trim();
  const status = $("review-status");
  if (!moves) { status.className = "status warn"; status.textContent = "no moves to review: play or paste some"; return; }
  const start = line.solution ? line.solution.start : pos.start;
  const key = `${formatCells(start, pos.W)}|${formatCells(pos.goal, pos.W)}|${metric()}|${moves}`;
  status.className = "status";
  status.textContent = "reviewing...";
  $("review-run").disabled = true;
  try {
    const data = await api("POST", "/api/review", { board: formatCells(start, pos.W),
      goal: formatCells(pos.goal, pos.W), moves, metric: metric() });
    setReview({ key, data, start: start.slice(), moves });
    status.className = data.lost_bounds[0] ? "status warn" : "status ok";
    status.textContent = data.summary;
  } catch (e) {
    setReview(null);
    status.className = "status error";
    status.textContent = "error: " + e.message;
  } finally {
    $("review-run").disabled = false;
    renderReview();
    updateUrl();
  }
}

/** The review's chart (distance against move number, the optimal line beside it, the lost
 * moves marked) and its list of lost moves, each a jump to the position before it. */
function renderReview() {
  const r = review && review.data;
  $("review-chart-box").hidden = !r;
  if (!r) { $("review-list").replaceChildren(); return; }
  const w = Math.max(300, Math.round($("review-chart").clientWidth || 420)), h = 160, pad = 28;
  const start = known(r.optimum, r.optimum_bounds);
  const n = Math.max(1, r.length, start), top = Math.max(1, start, ...r.steps.map((s) => known(s.after, s.after_bounds)));
  const x = (i) => pad + (w - pad - 8) * i / n, y = (d) => 8 + (h - 8 - pad) * (1 - d / top);
  const { svg, add } = newChart(w, h, `distance after each move: ${r.summary}`);
  add("line", { x1: x(0), y1: y(start), x2: x(start), y2: y(0), class: "optimal" });
  const points = [[0, start], ...r.steps.map((s) => [s.number, known(s.after, s.after_bounds)])];
  add("polyline", { points: points.map(([i, d]) => `${x(i)},${y(d)}`).join(" "), class: "solve" });
  for (const s of r.steps.filter(lostForCertain)) {
    const dot = add("circle", { cx: x(s.number), cy: y(known(s.after, s.after_bounds)), r: 4, class: "lost" });
    const t = document.createElementNS(SVG_NS, "title");
    t.textContent = `move ${s.number} (${s.move}) lost ${lostText(s)}`;
    dot.appendChild(t);
  }
  add("text", { x: 2, y: y(top) + 4 }, String(top));
  add("text", { x: 2, y: y(0) }, "0");
  add("text", { x: x(n), y: h - 6, "text-anchor": "end" }, `move ${n}`);
  $("review-chart").replaceChildren(svg);
  $("review-list").replaceChildren(...r.steps.filter(lostForCertain).map((t) => el("li", {},
    el("button", { type: "button", "data-number": String(t.number), title: "show the position before it, its good moves outlined" },
      `move ${t.number}: ${t.move} lost ${lostText(t)}; good there: ${goodText(t.good)}`))));
}

/** A distance: exact where proven, else its lower bound (where the chart draws it). */
function known(exact, bounds) {
  return exact !== null && exact !== undefined ? exact : bounds[0];
}

/** A move proven to have lost moves (exactly, or by its bounds). */
function lostForCertain(step) {
  return step.lost_bounds[0] > 0;
}

/** "2", or "2-2" bounds said as "at least 2" where not proven exactly. */
function lostText(step) {
  return step.lost !== null ? String(step.lost) : `at least ${step.lost_bounds[0]}`;
}

/** The good moves in words ("not known" where the distance is not proven). */
function goodText(good) {
  return good === null ? "not known" : good.join(", ") || "none";
}

/** A click in the list of lost moves. */
export function reviewListClick(ev) {
  const b = ev.target.closest("button");
  if (b) jumpToReviewed(parseInt(b.dataset.number, 10));
}

/** Show the position before the reviewed move ``number``, its good moves outlined. */
function jumpToReviewed(number) {
  const rv = review;
  if (!rv) return;
  const moves = expandMoves(rv.moves) || [];
  const step = rv.data.steps[number - 1];
  const before = metric() === "mtm" ? mtmPrefix(moves, number - 1) : moves.slice(0, number - 1);
  setPosition(rv.start, pos.goal, pos.W, pos.H, { keepReview: true });
  for (const mv of before) userMove(mv);
  outlineGood(step.good || []);
  renderBoard();
  announce(`before move ${number}: the good moves there are ${goodText(step.good)}`);
}
