// slidelab's page: plain JavaScript, no build step, no external libraries.
// Moves name the direction the TILE travels: R slides the tile left of the blank to the right.
"use strict";

const $ = (id) => document.getElementById(id);

const S = {
  W: 3, H: 3,
  goal: [],        // goal cells (0 = blank)
  start: [],       // where the move record begins
  cells: [],       // current cells
  ids: [],         // tile identity per cell (for animation of repeated labels)
  history: [],     // single-tile moves made since `start`
  undoSteps: [],   // how many single-tile moves each click or key made (what undo takes back)
  solution: null,  // {moves: [...single-tile...], text, length, optimal, method, stats}
  step: 0,         // replay position in solution.moves
  playing: null,   // interval id while playing
  solveId: null,
  pollTimer: null,
  lastMoved: -1,   // tile id that moved last (highlighted during replay)
  chartGoal: null,
  sizeError: false, // the board's last check failed for want of a size: the size menus give it
  methods: new Map(), // the server's methods by name (GET /api/methods)
};

const DIRS = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] }; // tile direction -> where the tile comes from, relative to the blank
const OPPOSITE = { U: "D", D: "U", L: "R", R: "L" };
const PALETTE = ["#f2c14e", "#7cc6a4", "#8fb3f0", "#f08f8f", "#c7a4f0", "#f0b27a", "#9fd86b",
  "#f0a0d0", "#a0c8c8", "#d8c890", "#b0b0e8", "#e8b0b0"];

// ---------------------------------------------------------------------------------------- boards

function solvedCells(W, H) {
  const out = [];
  for (let i = 1; i < W * H; i++) out.push(i);
  out.push(0);
  return out;
}

function formatCells(cells, W) {
  const rows = [];
  for (let r = 0; r < cells.length / W; r++) rows.push(cells.slice(r * W, r * W + W).join(" "));
  return rows.join("/");
}

function hasRepeats(cells) {
  const seen = new Set();
  for (const c of cells) {
    if (c === 0) continue;
    if (seen.has(String(c))) return true;
    seen.add(String(c));
  }
  return false;
}

/** Apply one single-tile move to cells (and ids); returns the moved tile's id or null if illegal. */
function applyMove(cells, ids, W, H, m) {
  const b = cells.indexOf(0);
  const br = Math.floor(b / W), bc = b % W;
  const [dr, dc] = DIRS[m];
  const r = br + dr, c = bc + dc;
  if (r < 0 || r >= H || c < 0 || c >= W) return null;
  const t = r * W + c;
  cells[b] = cells[t]; cells[t] = 0;
  let moved = null;
  if (ids) { moved = ids[t]; ids[b] = ids[t]; ids[t] = -1; }
  return moved === null ? true : moved;
}

/** "R2 U L" or "LD2R" -> ["R","R","U","L"]; null when unreadable. */
function expandMoves(text) {
  const out = [];
  const clean = String(text || "").replace(/[\s,]+/g, "");
  const re = /([UDLR])(\d*)/gy;
  let m, used = 0;
  while ((m = re.exec(clean)) !== null) {
    const n = m[2] ? parseInt(m[2], 10) : 1;
    if (n > 100000) return null;
    for (let i = 0; i < n; i++) out.push(m[1]);
    used = re.lastIndex;
  }
  return used === clean.length ? out : null;
}

/** ["R","R","U"] -> "R2 U" */
function compactMoves(moves) {
  const parts = [];
  for (let i = 0; i < moves.length;) {
    let j = i;
    while (j < moves.length && moves[j] === moves[i]) j++;
    parts.push(moves[i] + (j - i > 1 ? String(j - i) : ""));
    i = j;
  }
  return parts.join(" ");
}

/** "1 move", "2 moves" */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function sameCells(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

// ------------------------------------------------------------------------------------------- API

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, opts);
  } catch (e) {
    throw new Error("server unreachable");
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const err = new Error((data && data.error) || `HTTP ${resp.status}`);
    err.status = resp.status;
    err.data = data;
    throw err;
  }
  return data;
}

// ---------------------------------------------------------------------------------------- render

let tileEls = new Map();

function tileSize() {
  // the board is at most 440 px wide, and never wider than the screen (a phone: 390 px)
  const room = Math.min(440, document.documentElement.clientWidth - 44);
  return Math.max(20, Math.min(72, Math.floor(room / Math.max(S.W, S.H))));
}

function renderBoard() {
  const board = $("board");
  const s = tileSize(), gap = 4, pad = 6;
  board.style.width = `${S.W * s + 2 * pad}px`;
  board.style.height = `${S.H * s + 2 * pad}px`;
  const repeats = hasRepeats(S.goal);
  const labels = [...new Set(S.goal.filter((c) => c !== 0).map(String))];
  const seen = new Set();
  S.cells.forEach((label, i) => {
    if (label === 0) return;
    const id = S.ids[i];
    seen.add(id);
    let el = tileEls.get(id);
    if (!el) {
      el = document.createElement("div");
      el.className = "tile";
      el.addEventListener("click", () => clickTile(el));
      board.appendChild(el);
      tileEls.set(id, el);
    }
    el.textContent = String(label);
    el.dataset.label = String(label);
    el.dataset.cell = String(i);
    el.style.width = el.style.height = `${s - gap}px`;
    el.style.fontSize = `${Math.max(11, Math.floor(s * 0.38))}px`;
    const r = Math.floor(i / S.W), c = i % S.W;
    el.style.transform = `translate(${pad + c * s + gap / 2}px, ${pad + r * s + gap / 2}px)`;
    el.style.background = repeats ? PALETTE[labels.indexOf(String(label)) % PALETTE.length] : "";
    el.classList.toggle("home", !repeats && String(S.goal[i]) === String(label));
    el.classList.toggle("moving", S.solution !== null && id === S.lastMoved);
  });
  for (const [id, el] of tileEls) {
    if (!seen.has(id)) { el.remove(); tileEls.delete(id); }
  }
  board.dataset.board = formatCells(S.cells, S.W);
  board.dataset.size = `${S.W}x${S.H}`;
  $("move-count").textContent = String(S.history.length);
  $("move-string").textContent = compactMoves(S.history);
  const solved = sameCells(S.cells, S.goal);
  $("solved-badge").hidden = !solved;
  board.dataset.solved = solved ? "yes" : "no";
  renderReplay();
  updateShare();
}

function resetTiles() {
  for (const el of tileEls.values()) el.remove();
  tileEls = new Map();
  S.ids = S.cells.map((c, i) => (c === 0 ? -1 : i));
}

function renderReplay() {
  const sol = S.solution;
  $("replay").disabled = !sol;
  const n = sol ? sol.moves.length : 0;
  const slider = $("replay-slider");
  slider.max = String(n);
  slider.value = String(sol ? S.step : 0);
  $("replay-pos").textContent = `${sol ? S.step : 0} / ${n}`;
  $("play-btn").textContent = S.playing ? "pause" : "play";
}

function updateShare() {
  const params = new URLSearchParams();
  params.set("board", formatCells(S.solution ? S.solution.start : S.start, S.W));
  params.set("goal", formatCells(S.goal, S.W));
  if (S.solution) {
    params.set("solution", S.solution.text);
    params.set("step", String(S.step));
  } else if (S.history.length) {
    params.set("moves", S.history.join(""));
  }
  const url = new URL(window.location.href);
  url.hash = params.toString();
  $("share-url").value = url.toString();
}

// ----------------------------------------------------------------------------------- set-up

/** Make a new position current: the move record and any solution start over. */
function setPosition(cells, goal, W, H, { keepInput = false } = {}) {
  stopPlaying();
  if (S.solveId) { // it was solving the previous board: stop it, quietly
    const id = S.solveId;
    finishSolve();
    api("DELETE", `/api/solve/${id}`).catch(() => {});
  }
  setSolveStatus("", "");       // nothing said about the previous board stays
  S.undoSteps = [];
  const sizeChanged = W !== S.W || H !== S.H;
  S.W = W; S.H = H;
  S.goal = goal.slice();
  S.start = cells.slice();
  S.cells = cells.slice();
  S.history = [];
  clearSolution();
  resetTiles();
  if (sizeChanged) { $("width").value = String(W); $("height").value = String(H); }
  if (!keepInput) {
    $("board-input").value = formatCells(cells, W);
    const ordered = sameCells(goal, solvedCells(W, H));
    $("goal-input").value = ordered ? "" : formatCells(goal, W);
    setCheck("", "");
  }
  renderBoard();
  refreshChart();
}

function setCheck(text, kind) {
  const el = $("check-status");
  el.textContent = text;
  el.className = "status" + (kind ? " " + kind : "");
}

let checkTimer = null;
let checkSeq = 0;

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 250);
}

async function runCheck() {
  const board = $("board-input").value.trim();
  const goal = $("goal-input").value.trim();
  if (!board) { setCheck("type or paste a board", "warn"); return; }
  const seq = ++checkSeq;
  const body = goal ? { board, goal } : { board };
  try {
    let data;
    try {
      data = await api("POST", "/api/check", body);
    } catch (e) {
      if (!(e.data && e.data.field === "size")) throw e;
      // a one-line board of a cell count that is not a square: the size menus give its size
      try {
        data = await api("POST", "/api/check", { ...body, size: `${$("width").value}x${$("height").value}` });
      } catch (e2) {
        const what = e.message.split(";")[0];
        const err = new Error(`${what}; choose its width and height in the size menus above,`
          + " or write rows separated by '/'");
        err.data = e.data;
        throw err;
      }
    }
    if (seq !== checkSeq) return;
    S.sizeError = false;
    setCheck(data.reason, data.solvable ? "ok" : "warn");
    setPosition(data.cells, data.goal_cells, data.width, data.height, { keepInput: true });
  } catch (e) {
    if (seq !== checkSeq) return;
    S.sizeError = Boolean(e.data && e.data.field === "size");
    setCheck("error: " + e.message, "error");
  }
}

function newBoard() {
  const W = parseInt($("width").value, 10), H = parseInt($("height").value, 10);
  const goal = solvedCells(W, H);
  setPosition(goal, goal, W, H);
}

function linePuzzle() {
  $("board-input").value = "ABA_/CDCD/ABAB/CDCD";
  $("goal-input").value = "ACA_/CDCA/DBAB/CDBD";
  runCheck();
}

async function shuffle(moves) {
  const body = { goal: formatCells(S.goal, S.W), n: 1 };
  if (moves !== undefined) body.moves = moves;
  try {
    const data = await api("POST", "/api/generate", body);
    const check = await api("POST", "/api/check", { board: data.boards[0], goal: body.goal });
    setPosition(check.cells, check.goal_cells, check.width, check.height);
    setCheck(check.reason, check.solvable ? "ok" : "warn");
  } catch (e) {
    setCheck("error: " + e.message, "error");
  }
}

// ------------------------------------------------------------------------------------- playing

function userMove(m) {
  const moved = applyMove(S.cells, S.ids, S.W, S.H, m);
  if (moved === null) return false;
  S.lastMoved = moved;
  if (S.solution) {
    if (S.step < S.solution.moves.length && S.solution.moves[S.step] === m) {
      S.step += 1;                       // the same as stepping the replay forward
      S.history = S.solution.moves.slice(0, S.step);
      return true;
    }
    // leaving the solution's path: it no longer applies; keep the record of moves
    S.start = S.solution.start.slice();
    clearSolution();
  }
  S.history.push(m);
  return true;
}

function clickTile(el) {
  const i = parseInt(el.dataset.cell, 10);
  const b = S.cells.indexOf(0);
  const r = Math.floor(i / S.W), c = i % S.W, br = Math.floor(b / S.W), bc = b % S.W;
  let m = null, k = 0;
  if (r === br && c < bc) { m = "R"; k = bc - c; }
  else if (r === br && c > bc) { m = "L"; k = c - bc; }
  else if (c === bc && r < br) { m = "D"; k = br - r; }
  else if (c === bc && r > br) { m = "U"; k = r - br; }
  if (!m) return;
  stopPlaying();
  let made = 0;
  for (let j = 0; j < k; j++) if (userMove(m)) made += 1;
  if (made) S.undoSteps.push(made); // one click, one undo
  renderBoard();
}

function onKey(ev) {
  const keys = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };
  const m = keys[ev.key];
  if (!m) return;
  const tag = (ev.target && ev.target.tagName) || "";
  if ((tag === "INPUT" && ev.target.type !== "range") || tag === "TEXTAREA" || tag === "SELECT") return;
  if (ev.target && ev.target.type === "range") return;
  ev.preventDefault();
  stopPlaying();
  if (userMove(m)) { S.undoSteps.push(1); renderBoard(); }
}

function resetPosition() {
  stopPlaying();
  S.undoSteps = [];
  const start = S.solution ? S.solution.start : S.start;
  S.cells = start.slice();
  S.history = [];
  if (S.solution) S.step = 0;
  resetTiles();
  renderBoard();
}

/** Take back the last click or key: all the tiles it slid. */
function undo() {
  stopPlaying();
  const made = S.solution ? S.step : S.history.length;
  const n = Math.min(S.undoSteps.pop() || 1, made);
  if (!n) return;
  if (S.solution) { replayTo(S.step - n); return; }
  for (let j = 0; j < n; j++) {
    S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, OPPOSITE[S.history.pop()]);
  }
  renderBoard();
}

// --------------------------------------------------------------------------------------- solving

function setSolveStatus(text, kind) {
  const el = $("solve-status");
  el.textContent = text;
  el.className = "status" + (kind ? " " + kind : "");
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

async function startSolve() {
  if (S.solveId) return;
  stopPlaying();
  const body = {
    board: formatCells(S.cells, S.W),
    goal: formatCells(S.goal, S.W),
    method: $("method").value || "auto",
    time_limit: Math.min(60, Math.max(0.1, parseFloat($("time-limit").value) || 10)),
    wait: false,
  };
  if ($("heuristic").value && !$("heuristic").disabled) body.heuristic = $("heuristic").value;
  if ($("metric").value) body.metric = $("metric").value;
  const from = S.cells.slice();
  setSolveStatus("starting...", "");
  $("result").hidden = true;
  try {
    const data = await api("POST", "/api/solve", body);
    S.solveId = data.id;
    $("solve-btn").disabled = true;
    $("cancel-btn").disabled = false;
    pollSolve(from);
  } catch (e) {
    setSolveStatus("error: " + e.message, "error");
  }
}

function pollSolve(from) {
  S.pollTimer = setTimeout(async () => {
    const id = S.solveId;
    if (!id) return;
    let data;
    try {
      data = await api("GET", `/api/solve/${id}`);
    } catch (e) {
      finishSolve(); setSolveStatus("error: " + e.message, "error"); return;
    }
    if (S.solveId !== id) return;
    if (data.status === "queued" || data.status === "running") {
      const waiting = data.warm_up ? `waiting: ${data.warm_up} (its time starts after)...`
        : "waiting for a worker...";
      setSolveStatus(data.status === "queued" ? waiting : describeProgress(data.progress), "");
      pollSolve(from);
      return;
    }
    finishSolve();
    if (data.status === "done") showSolution(data.result, from);
    else if (data.status === "cancelled") setSolveStatus("cancelled", "warn");
    else setSolveStatus("error: " + data.error, "error");
  }, 200);
}

function finishSolve() {
  clearTimeout(S.pollTimer);
  S.solveId = null;
  $("solve-btn").disabled = false;
  $("cancel-btn").disabled = true;
}

async function cancelSolve() {
  const id = S.solveId;
  if (!id) return;
  finishSolve();
  setSolveStatus("cancelling...", "warn");
  try {
    await api("DELETE", `/api/solve/${id}`);
    setSolveStatus("cancelled", "warn");
  } catch (e) {
    setSolveStatus("error: " + e.message, "error");
  }
}

function showSolution(result, from) {
  const moves = expandMoves(result.solution);
  if (!moves) { setSolveStatus("error: unreadable solution", "error"); return; }
  // the solution starts where the solve started; go back there for the replay
  S.cells = from.slice();
  S.start = from.slice();
  resetTiles();
  S.solution = { moves, text: result.solution, start: from.slice(), length: result.length,
    metric: result.metric || "stm", optimal: result.optimal, method: result.method,
    stats: result.stats };
  S.step = 0;
  S.history = [];
  S.undoSteps = [];
  setSolveStatus(`solved: ${lengthText(S.solution)}`, "ok");
  showResult();
  renderBoard();
  refreshChart();
}

/** "31 moves" (STM) or "20 MTM moves". */
function lengthText(sol) {
  return plural(sol.length, sol.metric === "mtm" ? "MTM move" : "move");
}

function showResult() {
  const sol = S.solution;
  $("result").hidden = !sol;
  if (!sol) return;
  $("solution-text").value = compactMoves(sol.moves) || "(already solved)";
  const mtm = compactMoves(sol.moves).split(" ").filter(Boolean).length;
  $("solution-info").innerHTML = "";
  const other = sol.metric === "mtm" ? `${sol.moves.length} STM` : `${mtm} MTM`;
  const info = `${lengthText(sol)} (${other}), `
    + (sol.optimal === true ? "optimal" : sol.optimal === false ? "not proven optimal" : "")
    + (sol.method ? `, method ${sol.method}` : "");
  $("solution-info").textContent = info;
  const st = sol.stats;
  $("solution-stats").textContent = st
    ? `expanded ${st.expanded.toLocaleString("en")}`
      + (st.expanded_forward || st.expanded_backward
        ? ` (forward ${st.expanded_forward.toLocaleString("en")},`
          + ` backward ${st.expanded_backward.toLocaleString("en")})` : "")
      + `, generated ${st.generated.toLocaleString("en")},`
      + ` stored ${st.stored.toLocaleString("en")}, peak frontier ${st.peak_frontier.toLocaleString("en")},`
      + ` ${st.seconds.toFixed(3)} s`
    : "";
}

function clearSolution() {
  S.solution = null;
  S.step = 0;
  S.lastMoved = -1;
  $("result").hidden = true;
}

// --------------------------------------------------------------------------------------- replay

function replayTo(k) {
  const sol = S.solution;
  if (!sol) return;
  k = Math.max(0, Math.min(sol.moves.length, k));
  if (k === S.step + 1) {
    S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, sol.moves[S.step]);
  } else if (k === S.step - 1) {
    S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, OPPOSITE[sol.moves[k]]);
  } else if (k !== S.step) {
    S.cells = sol.start.slice();
    resetTiles();
    for (let j = 0; j < k; j++) S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, sol.moves[j]);
  }
  S.step = k;
  S.history = sol.moves.slice(0, k);
  renderBoard();
}

function speed() {
  return Math.min(50, Math.max(0.5, parseFloat($("speed").value) || 4));
}

function setSlide() {
  const ms = Math.min(300, Math.round(800 / speed()));
  document.documentElement.style.setProperty("--slide", `${ms}ms`);
}

function togglePlay() {
  if (S.playing) { stopPlaying(); renderReplay(); return; }
  if (!S.solution) return;
  if (S.step >= S.solution.moves.length) replayTo(0);
  setSlide();
  const tick = () => {
    if (!S.solution || S.step >= S.solution.moves.length) { stopPlaying(); renderReplay(); return; }
    replayTo(S.step + 1);
    S.playing = setTimeout(tick, 1000 / speed());
  };
  S.playing = setTimeout(tick, 1000 / speed());
  renderReplay();
}

function stopPlaying() {
  if (S.playing) { clearTimeout(S.playing); S.playing = null; }
}

// ---------------------------------------------------------------------------------------- chart

const chartCache = new Map();

async function refreshChart() {
  const box = $("chart-box");
  if (S.W * S.H > 9) { box.hidden = true; return; }
  const goal = formatCells(S.goal, S.W);
  let data = chartCache.get(goal);
  if (!data) {
    if (S.chartGoal === goal) return; // a request is on its way
    S.chartGoal = goal;
    try {
      data = await api("POST", "/api/analyze", { goal });
      chartCache.set(goal, data);
    } catch (e) {
      box.hidden = true; S.chartGoal = null; return;
    }
    S.chartGoal = null;
    if (goal !== formatCells(S.goal, S.W)) return;
  }
  drawChart(data);
}

function drawChart(data) {
  const box = $("chart-box");
  const counts = data.counts;
  const w = 420, h = 150, padL = 46, padB = 22, padT = 8;
  const max = Math.max(...counts);
  const bw = (w - padL - 4) / counts.length;
  // the chart counts single-tile moves: an STM optimum is marked on it
  const here = S.solution && S.solution.optimal && S.solution.metric !== "mtm"
    ? S.solution.length : -1;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`); // drawn 420 px wide, or narrower (CSS)
  const text = (x, y, s, anchor) => {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", x); t.setAttribute("y", y); t.setAttribute("font-size", "10");
    t.setAttribute("fill", "#555"); t.setAttribute("text-anchor", anchor || "middle");
    t.textContent = s; svg.appendChild(t);
  };
  counts.forEach((c, d) => {
    const bh = max ? (c / max) * (h - padB - padT) : 0;
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", padL + d * bw + 0.5);
    r.setAttribute("y", h - padB - bh);
    r.setAttribute("width", Math.max(1, bw - 1));
    r.setAttribute("height", Math.max(bh, c ? 1 : 0));
    r.setAttribute("class", "bar" + (d === here ? " here" : ""));
    const tip = document.createElementNS(ns, "title");
    tip.textContent = `distance ${d}: ${c.toLocaleString("en")} arrangements`;
    r.appendChild(tip);
    svg.appendChild(r);
    if (counts.length <= 12 || d % 5 === 0) text(padL + d * bw + bw / 2, h - 8, String(d));
  });
  text(padL - 4, padT + 8, max.toLocaleString("en"), "end");
  text(padL - 4, h - padB, "0", "end");
  $("chart").replaceChildren(svg);
  $("chart-info").textContent = `${data.states.toLocaleString("en")} states, diameter ${data.diameter}`
    + (here >= 0 ? `; this board: ${here}` : "");
  box.hidden = false;
}

// ---------------------------------------------------------------------------------------- share

async function loadFromHash() {
  const hash = window.location.hash.replace(/^#/, "");
  if (!hash) return false;
  const p = new URLSearchParams(hash);
  const board = p.get("board");
  if (!board) return false;
  const goal = p.get("goal");
  try {
    const data = await api("POST", "/api/check", goal ? { board, goal } : { board });
    setPosition(data.cells, data.goal_cells, data.width, data.height);
    setCheck(data.reason, data.solvable ? "ok" : "warn");
  } catch (e) {
    setCheck("share link: " + e.message, "error");
    return false;
  }
  const solution = p.get("solution");
  const moves = p.get("moves");
  if (solution !== null) {
    const list = expandMoves(solution);
    const end = S.cells.slice();
    const ok = list && list.every((m) => applyMove(end, null, S.W, S.H, m) !== null) && sameCells(end, S.goal);
    if (!ok) {
      setSolveStatus("share link: the solution does not reach the goal", "error");
    } else {
      S.solution = { moves: list, text: solution, start: S.cells.slice(), length: list.length,
        optimal: null, method: "", stats: null };
      setSolveStatus(`shared solution: ${plural(list.length, "move")}`, "ok");
      showResult();
      replayTo(parseInt(p.get("step") || "0", 10) || 0);
      refreshChart();
    }
  } else if (moves) {
    for (const m of expandMoves(moves) || []) userMove(m);
    renderBoard();
  }
  return true;
}

async function copyText(id) {
  const el = $(id);
  el.select();
  try { await navigator.clipboard.writeText(el.value); } catch (e) { document.execCommand("copy"); }
}

// --------------------------------------------------------------------------------------- methods

/** Fill the method and heuristic menus from the server's tables (GET /api/methods). */
async function loadMethods() {
  let data;
  try {
    data = await api("GET", "/api/methods");
  } catch (e) {
    setSolveStatus("error: cannot list the methods: " + e.message, "error");
    return;
  }
  const option = (value, text, title) => {
    const o = document.createElement("option");
    o.value = value; o.textContent = text; o.title = title;
    return o;
  };
  S.methods = new Map(data.methods.map((m) => [m.name, m]));
  $("method").replaceChildren(...data.methods.map((m) => option(m.name, m.name, m.summary)));
  $("heuristic").replaceChildren(option("", "default", "the method's own choice"),
    ...data.heuristics.map((h) => option(h.name, h.name, h.summary)));
  const metricTitle = { stm: "single-tile moves: each tile moved counts",
    mtm: "multi-tile moves: a slide of tiles in one line counts once" };
  $("metric").replaceChildren(...(data.metrics || ["stm"]).map(
    (m) => option(m, m.toUpperCase(), metricTitle[m] || m)));
  updateHeuristicMenu();
}

/** The heuristic menu is for the methods that take a heuristic; the methods offered are those
 * that search in the chosen metric. */
function updateHeuristicMenu() {
  const metric = $("metric").value || "stm";
  for (const o of $("method").options) {
    const m = S.methods.get(o.value);
    o.disabled = !!(m && m.metrics && !m.metrics.includes(metric));
  }
  if ($("method").selectedOptions[0] && $("method").selectedOptions[0].disabled) $("method").value = "auto";
  const method = S.methods.get($("method").value);
  $("heuristic").disabled = !(method && method.options.includes("heuristic"));
}

// ---------------------------------------------------------------------------------------- server

/** Say "warming up" while the server's first warm-up lasts (GET /api/status: warm_up), and
 * say when it is over. */
async function watchServer(warming = false) {
  const el = $("server-status");
  let status = null;
  try { status = await api("GET", "/api/status"); } catch (e) { status = null; }
  if (status && !status.warm_up) {
    if (!warming) { el.hidden = true; return; }
    el.textContent = "warmed up: ready";         // said once, then the line goes
    el.className = "status ok";
    setTimeout(() => { el.hidden = true; }, 3000);
    return;
  }
  el.hidden = false;
  el.className = "status warn";
  el.textContent = status ? `warming up: ${status.warm_up}; solves wait for it...`
    : "server unreachable";
  setTimeout(() => watchServer(warming || !!status), 500);
}

// ---------------------------------------------------------------------------------------- start

function init() {
  for (const id of ["width", "height"]) {
    const sel = $(id);
    for (let n = 2; n <= 10; n++) {
      const o = document.createElement("option");
      o.value = o.textContent = String(n);
      sel.appendChild(o);
    }
    sel.value = "3";
  }
  $("new-btn").addEventListener("click", newBoard);
  for (const id of ["width", "height"]) {
    $(id).addEventListener("change", () => { if (S.sizeError) runCheck(); });
  }
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(renderBoard, 100);
  });
  $("line-btn").addEventListener("click", linePuzzle);
  $("board-input").addEventListener("input", scheduleCheck);
  $("goal-input").addEventListener("input", scheduleCheck);
  $("random-btn").addEventListener("click", () => shuffle());
  $("walk-btn").addEventListener("click", () => shuffle(Math.max(0, parseInt($("walk-moves").value, 10) || 0)));
  $("reset-btn").addEventListener("click", resetPosition);
  $("undo-btn").addEventListener("click", undo);
  $("method").addEventListener("change", updateHeuristicMenu);
  $("metric").addEventListener("change", updateHeuristicMenu);
  $("solve-btn").addEventListener("click", startSolve);
  $("cancel-btn").addEventListener("click", cancelSolve);
  $("replay").addEventListener("click", () => { S.undoSteps = []; }, true);
  $("replay-slider").addEventListener("input", () => { S.undoSteps = []; }, true);
  $("first-btn").addEventListener("click", () => { stopPlaying(); replayTo(0); });
  $("back-btn").addEventListener("click", () => { stopPlaying(); replayTo(S.step - 1); });
  $("fwd-btn").addEventListener("click", () => { stopPlaying(); replayTo(S.step + 1); });
  $("last-btn").addEventListener("click", () => { stopPlaying(); replayTo(S.solution ? S.solution.moves.length : 0); });
  $("play-btn").addEventListener("click", togglePlay);
  $("replay-slider").addEventListener("input", (e) => { stopPlaying(); replayTo(parseInt(e.target.value, 10)); });
  $("speed").addEventListener("change", setSlide);
  $("copy-solution-btn").addEventListener("click", () => copyText("solution-text"));
  $("copy-share-btn").addEventListener("click", () => copyText("share-url"));
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", loadFromHash);
  setSlide();
  watchServer();
  const goal = solvedCells(3, 3);
  setPosition(goal, goal, 3, 3);
  Promise.allSettled([loadMethods(), loadFromHash()])
    .finally(() => { document.body.dataset.ready = "yes"; });
}

init();
