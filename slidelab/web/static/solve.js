// Solving: the solve job (start, poll, cancel), the solution it finds (the solver tab's result)
// and the solve status line, which speaks of the position shown.

import { api } from "./api.js";
import { $, num, plural, secs } from "./dom.js";
import { compactMoves, expandMoves, formatCells, mtmCount } from "./cells.js";
import { line, metric, pos, positionKey, renderBoard } from "./position.js";
import { resetTiles } from "./board.js";
import { stopClock } from "./clock.js";
import { setHint } from "./hint.js";
import { phasesDetails } from "./phases.js";
import { stopPlaying } from "./replay.js";
import { buildingNow, seconds } from "./server.js";

/** ``solveId`` while a solve's request is on its way (no id yet) */
const STARTING = "starting";

let solveId = null;
let pollTimer = null;
let solveMsg = ["", ""]; // what the status line says of the last solve when no solution is shown: [text, kind]
let note = null;         // {text, kind, key}: a solve that failed or was cancelled while a solution is shown
let inputError = false;  // the position typed cannot be read: no solve

/** The id of the solve job running (for a page that closes), or null. */
export function solveJobId() {
  return solveId && solveId !== STARTING ? solveId : null;
}

/** A new position: a solve of the previous one is stopped, quietly, and nothing said about it
 * stays. */
export function leavePosition() {
  if (solveId) {
    const id = solveId;
    finishSolve(); // (one still starting is stopped when its id comes)
    if (id !== STARTING) api("DELETE", `/api/solve/${id}`).catch(() => {});
  }
  solveMsg = ["", ""];
}

/** What the status line says when no solution is shown: ``[text, kind]``. */
export function setSolveMsg(msg) {
  solveMsg = msg;
  renderStatus();
}

/** While the position typed cannot be read, solve is off (the board shown is not what was
 * typed) and says why; the message stays until the input is fixed. */
export function setInputError(on) {
  inputError = on;
  $("solve-btn").disabled = on || Boolean(solveId);
  $("solve-btn").title = on ? "fix the position typed in the puzzle panel first"
    : "solve from the position shown (options in the solver tab)";
}

function describeProgress(p) {
  if (!p || !Object.keys(p).length) return "starting...";
  const said = p.notice ? `${p.notice}. ` : "";
  if (p.tables !== undefined) return `${said}building tables ${Math.round(p.tables * 100)}% ${p.message || ""}`;
  if (p.method === undefined) return said || "starting...";
  const where = p.bound !== undefined ? `bound ${p.bound}` : `depth ${p.depth ?? "?"}`;
  return `${p.method}: ${where}, ${Number(p.generated || 0).toLocaleString("en")} nodes,`
    + ` ${Number(p.seconds || 0).toFixed(1)} s`;
}

function solveBody() {
  const body = {
    board: formatCells(pos.cells, pos.W),
    goal: formatCells(pos.goal, pos.W),
    method: $("method").value || "auto",
    time_limit: seconds("time-limit", "time_limit"),
    wait: false,
  };
  if ($("heuristic").value && !$("heuristic").disabled) body.heuristic = $("heuristic").value;
  body.metric = metric();
  return body;
}

export async function startSolve() {
  if (solveId || inputError) return; // one solve at a time; none of a board not read
  solveId = STARTING;
  $("solve-btn").disabled = true;
  $("resolve-btn").disabled = true;
  stopPlaying();
  const body = solveBody();
  const from = pos.cells.slice();
  const began = performance.now();
  $("offpath").hidden = true;
  setSolveStatus("starting...", "");
  try {
    const data = await api("POST", "/api/solve", body);
    if (solveId !== STARTING) { // the position changed meanwhile: this solve is nobody's
      api("DELETE", `/api/solve/${data.id}`).catch(() => {});
      return;
    }
    solveId = data.id;
    const focused = [$("solve-btn"), $("resolve-btn")].includes(document.activeElement);
    $("cancel-btn").disabled = false;
    $("cancel-btn").hidden = false;
    $("solve-btn").disabled = true;
    $("solve-btn").hidden = true;
    if (focused) $("cancel-btn").focus(); // the keyboard's place stays in the same spot
    pollSolve(from, began);
  } catch (e) {
    finishSolve();
    noteSolve(["error: " + e.message, "error"]);
    renderStatus();
  }
}

function pollSolve(from, began) {
  pollTimer = setTimeout(async () => {
    const id = solveId;
    if (!id) return;
    let data;
    try {
      data = await api("GET", `/api/solve/${id}`);
    } catch (e) {
      finishSolve();
      noteSolve(["error: " + e.message, "error"]);
      renderStatus();
      return;
    }
    if (solveId !== id) return;
    if (data.status === "queued" || data.status === "running") {
      const waiting = data.warm_up ? `waiting: ${data.warm_up}${buildingNow() || ""} (its time starts after)...`
        : "waiting for a worker...";
      setSolveStatus(data.status === "queued" ? waiting : describeProgress(data.progress), "");
      pollSolve(from, began);
      return;
    }
    finishSolve();
    if (data.status === "done") {
      showSolution(data.result, from, (performance.now() - began) / 1000);
      return;
    }
    // a solve that did not finish: the solution shown before (if any) stays
    noteSolve(data.status === "cancelled" ? ["cancelled", "warn"] : ["error: " + data.error, "error"]);
    renderBoard();
  }, 200);
}

function finishSolve() {
  clearTimeout(pollTimer);
  solveId = null;
  const focused = document.activeElement === $("cancel-btn");
  $("solve-btn").disabled = Boolean(inputError);
  $("solve-btn").hidden = false;
  $("resolve-btn").disabled = false;
  $("cancel-btn").disabled = true;
  $("cancel-btn").hidden = true;
  if (focused) $("solve-btn").focus();
}

export async function cancelSolve() {
  const id = solveId;
  if (!id) return;
  finishSolve();
  if (id === STARTING) { noteSolve(["cancelled", "warn"]); renderBoard(); return; } // stopped when its id comes
  setSolveStatus("cancelling...", "warn");
  try {
    await api("DELETE", `/api/solve/${id}`);
    noteSolve(["cancelled", "warn"]);
  } catch (e) {
    noteSolve(["error: " + e.message, "error"]);
  }
  renderBoard();
}

/** "31 moves" (STM) or "20 MTM moves". */
function lengthText(length, m) {
  return plural(length, m === "mtm" ? "MTM move" : "move");
}

function showSolution(result, from, wall) {
  const moves = expandMoves(result.solution);
  if (!moves) { setSolveMsg(["error: unreadable solution", "error"]); return; }
  // the solution starts where the solve started; go back there for the replay
  pos.cells = from.slice();
  pos.start = from.slice();
  resetTiles();
  const m = result.metric || "stm";
  line.solution = { moves, text: result.solution, start: from.slice(), length: result.length,
    metric: m, optimal: result.optimal, method: result.method, stats: result.stats, wall,
    remedy: result.remedy || null, status: `solved: ${lengthText(result.length, m)}` };
  line.step = 0;
  line.detour = [];
  line.history = [];
  line.undoSteps = [];
  pos.lastMoved = -1;
  note = null;
  stopClock();
  if (result.optimal && m === "mtm" && m === metric()) { // an optimal solution's length is the distance
    setHint(`${positionKey()}|${m}`, { distance: result.length, exact: true, move: null,
      lower_bound: result.length, message: "", how: "solution" });
  }
  showResult();
  renderBoard();
}

/** The solver tab's result: the solution (to copy), its length, verdict and statistics. */
export function showResult() {
  const sol = line.solution;
  $("result").hidden = !sol;
  if (!sol) return;
  $("solution-text").value = compactMoves(sol.moves) || "(already solved)";
  const stm = sol.moves.length, mtm = mtmCount(sol.moves);
  const other = sol.metric === "mtm" ? `${stm} STM` : `${mtm} MTM`;
  const verdict = sol.optimal === true ? "optimal" : sol.optimal === false ? "not proven optimal" : "not checked";
  // the tables that would have made it better, in the server's words (what the server does
  // about them, or what time limit builds them: a page has no shell to run a command in)
  $("solution-info").textContent = `${lengthText(sol.length, sol.metric)} (${other}), ${verdict}`
    + (sol.method ? `, method ${sol.method}` : "") + (sol.remedy ? `; ${sol.remedy.advice}` : "");
  $("solution-stats").textContent = statsText(sol);
  const st = sol.stats;
  const phases = st && st.phases && st.phases.length ? st.phases : null;
  $("solution-phases").replaceChildren(...(phases ? [phasesDetails(phases)] : []));
}

/** The solution's statistics in words. */
function statsText(sol) {
  const st = sol.stats;
  const parts = [];
  if (st) {
    if (/^table/.test(sol.method || "")) {
      parts.push(`read from a distance table of ${num(st.stored)} positions, no search:`
        + ` a position a move (${num(st.expanded)}), ${num(st.generated)} neighbours' distances read,`
        + ` ${secs(st.seconds)} s`);
    } else {
      parts.push(`expanded ${num(st.expanded)}`
        + (st.expanded_forward || st.expanded_backward
          ? ` (forward ${num(st.expanded_forward)}, backward ${num(st.expanded_backward)})` : "")
        + `, generated ${num(st.generated)}, stored ${num(st.stored)}, largest frontier ${num(st.peak_frontier)}`);
      parts.push(`search ${secs(st.seconds)} s`);
    }
  }
  if (sol.wall !== undefined) {
    parts.push(`the answer took ${secs(sol.wall)} s here (the search, any tables, waiting for a worker, transfer)`);
  }
  if (!st) parts.push("from the link: its length is checked, not whether it is optimal");
  return parts.join("; ");
}

/** No solution shown (a new position). */
export function clearSolution() {
  line.solution = null;
  line.step = 0;
  line.detour = [];
  pos.lastMoved = -1;
  $("result").hidden = true;
}

/** The solve status line: what the solver does now, the solution shown, or that the board has
 * left it; never a solution no longer shown. */
export function renderStatus() {
  const off = $("offpath");
  if (solveId) { off.hidden = true; return; } // the poll says what the solve does
  if (line.solution && line.detour.length) {
    const text = `off the solution: ${plural(line.detour.length, "move")} since its move ${line.step}`;
    setSolveStatus(text, "warn");
    $("offpath-text").textContent = `You left the solution after its move ${line.step} of ${line.solution.moves.length}.`;
    off.hidden = false;
    return;
  }
  off.hidden = true;
  // the last solve's end (an error, a cancel) is the status of its position, in its own style,
  // never run together with what is said of the solution shown before
  const said = note && note.key === positionKey() ? note : null;
  if (said) setSolveStatus(said.text, said.kind);
  else if (line.solution) setSolveStatus(line.solution.status, "ok");
  else setSolveStatus(...solveMsg);
}

/** Remember how the last solve of this position ended (``[text, kind]``) and show it. */
function noteSolve(msg) {
  solveMsg = msg;
  note = { text: msg[0], kind: msg[1], key: positionKey() };
}

export function setSolveStatus(text, kind) {
  const e = $("solve-status");
  if (e.textContent !== text) e.textContent = text;
  e.className = "status" + (kind ? " " + kind : "");
}
