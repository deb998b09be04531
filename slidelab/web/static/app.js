// slidelab's page: plain JavaScript, no build step, no external libraries.
// Moves name the direction the TILE travels: R slides the tile left of the blank to the right.
"use strict";

const $ = (id) => document.getElementById(id);

const S = {
  W: 3, H: 3,
  goal: [],        // goal cells (0 = blank)
  start: [],       // where the player's record begins (no solution shown)
  cells: [],       // current cells
  ids: [],         // tile identity per cell (for animation of repeated labels)
  history: [],     // single-tile moves made since `start` (no solution shown)
  undoSteps: [],   // how many single-tile moves each click or key made (what undo takes back)
  solution: null,  // {moves, text, start, length, metric, optimal, method, stats, status, wall, index}
  step: 0,         // replay position in solution.moves
  detour: [],      // moves made off the solution, from its position at `step`
  playing: null,   // timeout id while playing
  solveId: null,
  pollTimer: null,
  solveMsg: ["", ""], // what the status line says of the last solve when no solution is shown: [text, kind]
  building: "", // the tables the server's warm-up builds now, for the status lines (buildingText)
  note: null,      // {text, key}: a solve that failed or was cancelled while a solution is shown
  lastMoved: -1,   // tile id that moved last (highlighted during replay)
  sizeError: false, // the board's last check failed for want of a size: the size menus give it
  methods: new Map(), // the server's methods by name (GET /api/methods)
  clock: { began: null, stopped: null, timer: null },
  won: false,      // the player's own move reached the goal (the solved moment)
  hint: null,      // {key, data}: the last hint, for the position `key`
  hintSeq: 0,
  tab: "puzzle",
  analyses: new Map(), // goal|metric -> analysis, or {error}
  lab: new Map(),  // position key -> Map(row key -> entry)
  labOpen: new Map(),  // position key -> Set(row keys whose phases are shown)
  limits: null,    // the server's limits and defaults, once it has said them (GET /api/status)
  watch: { step: 0, timer: null }, // the lab's search played back: the phase shown, the player
  review: null,     // the last review: {key, data, start, moves}
  reviewGood: null, // the good moves outlined: {key, moves} (a lost move jumped to)
  labJob: null,    // {id, key, timer}
  urlBoard: null,  // the board and goal the address bar's history entry is for
  restoring: false,
};

const DIRS = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] }; // tile direction -> where the tile comes from, relative to the blank
const OPPOSITE = { U: "D", D: "U", L: "R", R: "L" };
const WORD = { U: "up", D: "down", L: "left", R: "right" };
const PALETTE = ["#f4d58d", "#a8dcc3", "#b9cdf5", "#f5b8b8", "#d9c4f3", "#f5c9a0", "#c3e5a0",
  "#f3c2df", "#bfdede", "#e5dbb1", "#cfcff0", "#efcaca"];
const SVG_NS = "http://www.w3.org/2000/svg";
/** ``S.solveId`` while a solve's request is on its way (no id yet) */
const STARTING = "starting";

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

/** Apply one single-tile move to cells (and ids); returns the moved tile's id (true without ids)
 * or null if illegal. */
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

/** The tile a move slides (its label), or null if illegal. */
function tileOf(cells, W, H, m) {
  const b = cells.indexOf(0);
  const r = Math.floor(b / W) + DIRS[m][0], c = (b % W) + DIRS[m][1];
  if (r < 0 || r >= H || c < 0 || c >= W) return null;
  return cells[r * W + c];
}

/** "R2 U L" or "LD2R" -> ["R","R","U","L"]; null when unreadable. */
function expandMoves(text) {
  const out = [];
  const clean = String(text || "").replace(/[\s,]+/g, "");
  const re = /([UDLR])(\d*)/gy;
  let m, used = 0;
  while ((m = re.exec(clean)) !== null) {
    const n = m[2] ? parseInt(m[2], 10) : 1;
    if (n > 100000 || out.length + n > 1000000) return null;
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

/** Multi-tile moves of single-tile moves: the runs of one direction. */
function mtmCount(moves) {
  let n = 0;
  for (let i = 0; i < moves.length; i++) if (i === 0 || moves[i] !== moves[i - 1]) n++;
  return n;
}

/** "1 move", "2 moves" */
function plural(n, word) {
  return `${Number(n).toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

function sameCells(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

function num(n) {
  return n === null || n === undefined ? "–" : Number(n).toLocaleString("en");
}

function secs(s) {
  if (s === null || s === undefined) return "–";
  return s < 0.01 ? s.toFixed(4) : s < 10 ? s.toFixed(3) : s.toFixed(1);
}

function bytes(n) {
  if (n === null || n === undefined) return "–";
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${n < 10 && i ? n.toFixed(1) : Math.round(n)} ${units[i]}`;
}

function clockText(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function metric() {
  return $("metric").value || "stm";
}

function positionKey() {
  return `${formatCells(S.cells, S.W)}|${formatCells(S.goal, S.W)}`;
}

function icon(name, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "icon" + (cls ? " " + cls : ""));
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#i-${name}`);
  svg.appendChild(use);
  return svg;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
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

// ------------------------------------------------------------------------- the line shown

/** The moves from the start of what is shown to the board: the solution's up to the replay
 * step and the moves made off it, or the player's record. */
function pathMoves() {
  return S.solution ? S.solution.moves.slice(0, S.step).concat(S.detour) : S.history;
}

/** The position after each step of the solution (formatted), and the step of each. */
function solutionIndex(sol) {
  if (!sol.index) {
    const cells = sol.start.slice();
    const index = new Map([[formatCells(cells, S.W), 0]]);
    sol.moves.forEach((m, k) => {
      applyMove(cells, null, S.W, S.H, m);
      const key = formatCells(cells, S.W);
      if (!index.has(key)) index.set(key, k + 1);
    });
    sol.index = index;
  }
  return sol.index;
}

// ---------------------------------------------------------------------------------------- render

let tileEls = new Map();

/** The board's width in pixels: the game column's width, at most 560 px, and on a wide screen
 * no taller than the window leaves room for (never under 480 px there). */
function boardPixels() {
  const column = $("play-area").clientWidth || document.documentElement.clientWidth;
  let px = Math.min(560, column);
  if (window.innerWidth >= 960) px = Math.min(px, Math.max(480, window.innerHeight - 290));
  return Math.max(160, Math.floor(px));
}

function slideOf(i) {
  // the move that slides the tile at cell i (and the tiles between it and the blank), and how many
  const b = S.cells.indexOf(0);
  const r = Math.floor(i / S.W), c = i % S.W, br = Math.floor(b / S.W), bc = b % S.W;
  if (r === br && c < bc) return ["R", bc - c];
  if (r === br && c > bc) return ["L", c - bc];
  if (c === bc && r < br) return ["D", br - r];
  if (c === bc && r > br) return ["U", r - br];
  return [null, 0];
}

/** The tiles of the board, each a button placed on its cell (``place``) at ``s`` px a cell;
 * the ids of those drawn. */
function drawTiles(board, place, s) {
  const repeats = hasRepeats(S.goal);
  const labels = [...new Set(S.goal.filter((c) => c !== 0).map(String))];
  const hinted = currentHint();
  const seen = new Set();
  S.cells.forEach((label, i) => {
    if (label === 0) return;
    const id = S.ids[i];
    seen.add(id);
    let t = tileEls.get(id);
    if (!t) {
      t = document.createElement("button");
      t.type = "button";
      t.className = "tile";
      t.tabIndex = -1;
      t.addEventListener("click", () => clickTile(t));
      board.appendChild(t);
      tileEls.set(id, t);
    }
    t.textContent = String(label);
    t.dataset.label = String(label);
    t.dataset.cell = String(i);
    place(t, i);
    t.style.fontSize = `${Math.max(11, Math.floor(s * (String(label).length > 2 ? 0.28 : 0.36)))}px`;
    t.style.background = repeats ? PALETTE[labels.indexOf(String(label)) % PALETTE.length] : "";
    t.classList.toggle("home", !repeats && String(S.goal[i]) === String(label));
    t.classList.toggle("moving", S.solution !== null && id === S.lastMoved && !S.detour.length);
    const [m, k] = slideOf(i);
    t.classList.toggle("fixed", !m);
    t.classList.toggle("good", reviewGood(m, k));
    t.classList.toggle("hinted", !!(hinted && hinted.data.move && !hinted.implied
      && m === hinted.data.move[0] && k === (parseInt(hinted.data.move.slice(1), 10) || 1)));
    const r = Math.floor(i / S.W), c = i % S.W;
    t.setAttribute("aria-label", `tile ${label}, row ${r + 1}, column ${c + 1}, `
      + (!m ? "cannot slide" : k === 1 ? `slides ${WORD[m]}` : `slides ${WORD[m]} with the ${k - 1} between`));
  });
  return seen;
}

function renderBoard() {
  const board = $("board");
  const px = boardPixels();
  const pad = Math.max(5, Math.round(px * 0.018)), gap = Math.max(3, Math.round(px * 0.01));
  const s = (px - 2 * pad) / Math.max(S.W, S.H);
  const w = Math.round(S.W * s + 2 * pad), h = Math.round(S.H * s + 2 * pad);
  board.style.width = `${w}px`;
  board.style.height = `${h}px`;
  document.documentElement.style.setProperty("--board-px", `${Math.max(px, 320)}px`);
  const place = (e, i) => {
    const r = Math.floor(i / S.W), c = i % S.W;
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
  const b = S.cells.indexOf(0);
  place(blank, b);
  blank.setAttribute("aria-label", `blank, row ${Math.floor(b / S.W) + 1}, column ${(b % S.W) + 1}`);
  board.dataset.board = formatCells(S.cells, S.W);
  board.dataset.size = `${S.W}x${S.H}`;
  const moves = pathMoves();
  $("move-count").textContent = String(moves.length);
  $("move-string").textContent = compactMoves(moves);
  const solved = sameCells(S.cells, S.goal);
  $("solved-badge").hidden = !solved;
  board.dataset.solved = solved ? "yes" : "no";
  if (solved) stopClock();
  board.classList.toggle("won", S.won && solved);
  $("celebration").hidden = !(S.won && solved);
  renderReplay();
  renderMoveList();
  renderStatus();
  renderDistance();
  renderClock();
  renderBest();
  renderGoal();
  updateUrl();
  if (S.tab === "analysis") refreshAnalysis();
  if (S.tab === "lab") renderLab();
}

/** A goal other than the tiles in order is drawn small beside the score (where the tiles go). */
function renderGoal() {
  const box = $("goal-mini");
  const custom = !sameCells(S.goal, solvedCells(S.W, S.H));
  box.hidden = !custom;
  if (!custom) return;
  const key = formatCells(S.goal, S.W);
  if (box.dataset.goal === key) return;
  box.dataset.goal = key;
  box.style.gridTemplateColumns = `repeat(${S.W}, 1fr)`;
  box.setAttribute("aria-label", `goal: ${key}`);
  box.replaceChildren(...S.goal.map((c) => el("span", { class: c === 0 ? "blank" : "", text: c === 0 ? "" : String(c) })));
}

function resetTiles() {
  for (const t of tileEls.values()) t.remove();
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
  const pos = `${sol ? S.step : 0} / ${n}`;
  $("replay-pos").textContent = pos;
  slider.setAttribute("aria-valuetext", `step ${pos}`);
  const play = $("play-btn");
  play.setAttribute("aria-label", S.playing ? "pause" : "play");
  play.querySelector("use").setAttribute("href", S.playing ? "#i-pause" : "#i-play");
}

/** The move list under the board: the solution's moves (the current one marked, a click jumps
 * there) with the moves made off it, or the player's moves (a click goes back there). */
function renderMoveList() {
  const list = $("move-list");
  const sol = S.solution;
  const moves = sol ? sol.moves : S.history;
  const current = sol ? S.step : S.history.length;
  const items = [];
  const cells = (sol ? sol.start : S.start).slice();
  const LIMIT = 400;
  const from = Math.max(0, Math.min(current - LIMIT / 2, moves.length - LIMIT));
  const upto = Math.min(moves.length, from + LIMIT);
  for (let k = 0; k < from; k++) applyMove(cells, null, S.W, S.H, moves[k]);
  const item = (k, m, tile, cls, jump) => {
    // named by its text: "move 3: tile 8 right", of which "3 8" shows (an arrow for the rest)
    const b = el("button", { type: "button", class: `dir-${m}` + (cls ? " " + cls : "") },
      el("span", { class: "sr-only", text: "move " }), el("span", { class: "num", text: String(k) }),
      el("span", { class: "sr-only", text: ": tile " }), String(tile), icon("arrow"),
      el("span", { class: "sr-only", text: ` ${WORD[m]}` }));
    if (jump === null) b.disabled = true;
    else b.dataset.step = String(jump);
    return el("li", {}, b);
  };
  if (from > 0) items.push(el("li", { class: "gap", text: "…" }));
  for (let k = from; k < upto; k++) {
    const tile = tileOf(cells, S.W, S.H, moves[k]);
    applyMove(cells, null, S.W, S.H, moves[k]);
    const li = item(k + 1, moves[k], tile, k === current ? "next" : "", k + 1);
    if (k + 1 === current) li.firstChild.setAttribute("aria-current", "step");
    items.push(li);
    if (sol && k + 1 === current && S.detour.length) items.push(...detourItems());
  }
  if (upto < moves.length) items.push(el("li", { class: "gap", text: "…" }));
  if (sol && current === 0 && S.detour.length) items.unshift(...detourItems());
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

function detourItems() {
  const cells = solutionPosition(S.step);
  return S.detour.map((m, j) => {
    const tile = tileOf(cells, S.W, S.H, m);
    applyMove(cells, null, S.W, S.H, m);
    const b = el("button", { type: "button", class: `detour dir-${m}` },
      el("span", { class: "sr-only", text: "your move " }), el("span", { class: "num", text: "+" + (j + 1) }),
      el("span", { class: "sr-only", text: " off the solution: tile " }), String(tile), icon("arrow"),
      el("span", { class: "sr-only", text: ` ${WORD[m]}` }));
    b.dataset.detour = String(j + 1);
    return el("li", {}, b);
  });
}

function solutionPosition(k) {
  const cells = S.solution.start.slice();
  for (let j = 0; j < k; j++) applyMove(cells, null, S.W, S.H, S.solution.moves[j]);
  return cells;
}

/** The solve status line: what the solver does now, the solution shown, or that the board has
 * left it; never a solution no longer shown. */
function renderStatus() {
  const off = $("offpath");
  if (S.solveId) { off.hidden = true; return; } // the poll says what the solve does
  if (S.solution && S.detour.length) {
    const text = `off the solution: ${plural(S.detour.length, "move")} since its move ${S.step}`;
    setSolveStatus(text, "warn");
    $("offpath-text").textContent = `You left the solution after its move ${S.step} of ${S.solution.moves.length}.`;
    off.hidden = false;
    return;
  }
  off.hidden = true;
  // the last solve's end (an error, a cancel) is the status of its position, in its own style,
  // never run together with what is said of the solution shown before
  const note = S.note && S.note.key === positionKey() ? S.note : null;
  if (note) setSolveStatus(note.text, note.kind);
  else if (S.solution) setSolveStatus(S.solution.status, "ok");
  else setSolveStatus(...S.solveMsg);
}

/** Remember how the last solve of this position ended (``[text, kind]``) and show it. */
function noteSolve(msg) {
  S.solveMsg = msg;
  S.note = { text: msg[0], kind: msg[1], key: positionKey() };
}

function setSolveStatus(text, kind) {
  const e = $("solve-status");
  if (e.textContent !== text) e.textContent = text;
  e.className = "status" + (kind ? " " + kind : "");
}

// ------------------------------------------------------------------------------ the address bar

function encodeValue(v) {
  return encodeURIComponent(v).replace(/%2F/gi, "/").replace(/%20/g, "+");
}

/** The fragment for what is shown: board, goal, metric, and the solution and replay step (with
 * the moves made off it), or the player's moves. */
function stateHash() {
  const parts = [];
  const add = (k, v) => parts.push(`${k}=${encodeValue(v)}`);
  add("board", formatCells(S.solution ? S.solution.start : S.start, S.W));
  add("goal", formatCells(S.goal, S.W));
  add("metric", metric());
  if (S.solution) {
    add("solution", S.solution.text);
    add("step", String(S.step));
    if (S.detour.length) add("detour", compactMoves(S.detour));
  } else if (S.history.length) {
    add("moves", compactMoves(S.history));
  }
  if (S.review) add("review", S.review.moves); // a review link opens it again
  return "#" + parts.join("&");
}

/** The address bar follows what is shown: a new position is a new history entry (back returns
 * to the one before), moves and replay steps replace the current one. */
function updateUrl() {
  const hash = stateHash();
  const boardKey = `${formatCells(S.solution ? S.solution.start : S.start, S.W)}|${formatCells(S.goal, S.W)}`;
  if (hash !== window.location.hash) {
    const push = !S.restoring && S.urlBoard !== null && S.urlBoard !== boardKey;
    try {
      if (push) history.pushState(null, "", hash);
      else history.replaceState(null, "", hash);
    } catch (e) { /* a browser that refuses: the share box still has the link */ }
  }
  S.urlBoard = boardKey;
  $("share-url").value = window.location.href;
  try { localStorage.setItem("slidelab-last", hash); } catch (e) { /* not kept: a shuffled board next time */ }
}

// ------------------------------------------------------------------------------------- set-up

/** Make a new position current: the move record and any solution start over. */
function setPosition(cells, goal, W, H, { keepInput = false } = {}) {
  stopPlaying();
  if (S.solveId) { // it was solving the previous board: stop it, quietly
    const id = S.solveId;
    finishSolve(); // (one still starting is stopped when its id comes)
    if (id !== STARTING) api("DELETE", `/api/solve/${id}`).catch(() => {});
  }
  S.solveMsg = ["", ""];       // nothing said about the previous board stays
  if (!S.keepReview) { S.review = null; S.reviewGood = null; } // a review is of its start
  S.undoSteps = [];
  const sizeChanged = W !== S.W || H !== S.H;
  S.W = W; S.H = H;
  S.goal = goal.slice();
  S.start = cells.slice();
  S.cells = cells.slice();
  S.history = [];
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

function setCheck(text, kind) {
  const e = $("check-status");
  e.textContent = text;
  e.className = "status" + (kind ? " " + kind : "");
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
        const err = new Error(`${what}; choose its width and height in the size menus,`
          + " or write rows separated by '/'");
        err.data = e.data;
        throw err;
      }
    }
    if (seq !== checkSeq) return;
    S.sizeError = false;
    setInputError(false);
    setCheck(data.reason, data.solvable ? "ok" : "warn");
    setPosition(data.cells, data.goal_cells, data.width, data.height, { keepInput: true });
  } catch (e) {
    if (seq !== checkSeq) return;
    S.sizeError = Boolean(e.data && e.data.field === "size");
    setCheck("error: " + e.message, "error");
    setInputError(true);
  }
}

/** While the position typed cannot be read, solve is off (the board shown is not what was
 * typed) and says why; the message stays until the input is fixed. */
function setInputError(on) {
  S.inputError = on;
  $("solve-btn").disabled = on || Boolean(S.solveId);
  $("solve-btn").title = on ? "fix the position typed in the puzzle panel first"
    : "solve from the position shown (options in the solver tab)";
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
  const asked = `${S.W}x${S.H} ${formatCells(S.cells, S.W)}`;
  try {
    const data = await api("POST", "/api/generate", body);
    const check = await api("POST", "/api/check", { board: data.boards[0], goal: body.goal });
    // a position set meanwhile (typed while a busy server shuffled) is the player's: kept
    if (`${S.W}x${S.H} ${formatCells(S.cells, S.W)}` !== asked) return;
    setPosition(check.cells, check.goal_cells, check.width, check.height);
    setCheck(check.reason, check.solvable ? "ok" : "warn");
  } catch (e) {
    setCheck("error: " + e.message, "error");
    setSolveStatus("error: " + e.message, "error");
  }
}

// ------------------------------------------------------------------------------------- playing

/** One single-tile move by the player: along the solution shown (a replay step), off it (the
 * solution is kept: its position and the moves since are shown), or on the player's record. */
function userMove(m) {
  const moved = applyMove(S.cells, S.ids, S.W, S.H, m);
  if (moved === null) return false;
  S.lastMoved = moved;
  startClock();
  const sol = S.solution;
  if (sol) {
    if (!S.detour.length && S.step < sol.moves.length && sol.moves[S.step] === m) {
      S.step += 1;               // the same as stepping the replay forward
    } else if (!S.detour.length && S.step > 0 && sol.moves[S.step - 1] === OPPOSITE[m]) {
      S.step -= 1;               // back along it
    } else {
      S.detour.push(m);
      // back on the solution's path (the moves off it undone, or a way round): rejoin it there
      const k = solutionIndex(sol).get(formatCells(S.cells, S.W));
      if (k !== undefined) { S.step = k; S.detour = []; }
    }
    return true;
  }
  S.history.push(m);
  return true;
}

/** After the player's own move: the solved moment when it reaches the goal (again after
 * leaving it, with the moves then), and a personal best where it is one. */
function afterPlayerMove() {
  const there = sameCells(S.cells, S.goal);
  if (!there) S.won = false;
  if (there && pathMoves().length > 0 && !S.won) {
    S.won = true;
    stopClock();
    const took = S.clock.began === null ? 0 : S.clock.stopped - S.clock.began;
    const moves = metric() === "mtm" ? mtmCount(pathMoves()) : pathMoves().length;
    const best = S.assisted ? "" : recordBest(moves, took);
    const text = `Solved! ${plural(moves, metric() === "mtm" ? "MTM move" : "move")} in ${clockText(took)}${best}`;
    $("celebration").textContent = text;
    announce(text);
  }
  renderBoard();
}

// ------------------------------------------------------------------------------ personal bests

/** Where the bests of the board's size and the metric are kept (the goal in order only). */
function bestKey() {
  return sameCells(S.goal, solvedCells(S.W, S.H)) ? `slidelab-best|${S.W}x${S.H}|${metric()}` : null;
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

function renderBest() {
  const best = readBest();
  $("best").hidden = !best;
  if (best) $("best").querySelector("b").textContent = `${clockText(best.ms)} · ${num(best.moves)}`;
  $("best").title = `your best time and fewest moves on ${S.W}x${S.H} (${metric().toUpperCase()}), kept in this browser`;
  $("best-reset").disabled = !best;
}

function resetBest() {
  const key = bestKey();
  if (key) try { localStorage.removeItem(key); } catch (e) { /* nothing kept */ }
  renderBest();
}

// --------------------------------------------------------------------------------------- swipe

/** A swipe on the board slides the tile next to the blank the swipe's way (a touch screen's
 * arrow keys); a tap stays a tap. */
function swipeStart(ev) {
  if (ev.pointerType === "mouse") return;
  S.swipe = { x: ev.clientX, y: ev.clientY };
}

function swipeEnd(ev) {
  const from = S.swipe;
  S.swipe = null;
  if (!from) return;
  const dx = ev.clientX - from.x, dy = ev.clientY - from.y;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return; // a tap: the tile's own click
  S.swiped = true; // not a click too
  setTimeout(() => { S.swiped = false; }, 0);
  const m = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : (dy > 0 ? "D" : "U");
  stopPlaying();
  if (userMove(m)) { S.undoSteps.push(1); afterPlayerMove(); }
}

function clickTile(t) {
  if (S.swiped) return;
  const [m, k] = slideOf(parseInt(t.dataset.cell, 10));
  if (!m) return;
  stopPlaying();
  const hinted = currentHint();
  let made = 0;
  for (let j = 0; j < k; j++) if (userMove(m)) made += 1;
  if (made) S.undoSteps.push(made); // one click, one undo
  followHint(hinted, m + (made > 1 ? String(made) : ""));
  afterPlayerMove();
}

/** The player made the hinted move (one of an optimal solution): the distance is one less. */
function followHint(hinted, made) {
  const d = hinted && hinted.data;
  if (!d || !d.exact || !d.move || hinted.implied || d.move !== made) return;
  S.hint = { key: `${positionKey()}|${metric()}`, data: { distance: d.distance - 1, exact: true,
    lower_bound: null, move: null, tile: null, how: "the hinted move made", message: "" } };
}

function onKey(ev) {
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
    S.undoSteps.push(1);
    followHint(hinted, m);
    const tile = S.cells[S.cells.indexOf(0) - DIRS[m][0] * S.W - DIRS[m][1]];
    announce(`tile ${tile} ${WORD[m]}`);
    afterPlayerMove();
  }
}

function announce(text) {
  $("announce").textContent = text;
}

function resetPosition() {
  stopPlaying();
  S.undoSteps = [];
  const start = S.solution ? S.solution.start : S.start;
  S.cells = start.slice();
  S.history = [];
  S.detour = [];
  if (S.solution) S.step = 0;
  S.lastMoved = -1;
  resetTiles();
  resetClock();
  renderBoard();
}

/** Take back the last click or key: all the tiles it slid. */
function undo() {
  stopPlaying();
  const made = S.solution ? S.step + S.detour.length : S.history.length;
  const n = Math.min(S.undoSteps.pop() || 1, made);
  if (!n) return;
  if (S.solution && !S.detour.length) { replayTo(S.step - n); return; }
  for (let j = 0; j < n; j++) {
    const list = S.solution ? S.detour : S.history;
    if (!list.length) break;
    S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, OPPOSITE[list.pop()]);
  }
  S.won = false;
  renderBoard();
}

/** Back on the solution, where the board left it. */
function rejoin() {
  if (!S.solution) return;
  S.undoSteps = [];
  replayTo(S.step, true);
}

// ---------------------------------------------------------------------------------- the clock

function startClock() {
  if (S.clock.began === null && !sameCells(S.cells, S.goal)) {
    S.clock.began = Date.now();
    S.clock.stopped = null;
    S.clock.timer = setInterval(renderClock, 500);
  } else if (S.clock.began === null) {
    S.clock.began = Date.now();
  }
}

function stopClock() {
  if (S.clock.began !== null && S.clock.stopped === null) S.clock.stopped = Date.now();
  clearInterval(S.clock.timer);
  S.clock.timer = null;
}

function resetClock() {
  clearInterval(S.clock.timer);
  S.clock = { began: null, stopped: null, timer: null };
  S.won = false;
  S.assisted = false;
}

function renderClock() {
  const c = S.clock;
  const ms = c.began === null ? 0 : (c.stopped || Date.now()) - c.began;
  $("timer").textContent = clockText(ms);
}

// --------------------------------------------------------------------------------------- solving

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
  if (S.solveId || S.inputError) return; // one solve at a time; none of a board not read
  S.solveId = STARTING;
  $("solve-btn").disabled = true;
  $("resolve-btn").disabled = true;
  stopPlaying();
  const body = {
    board: formatCells(S.cells, S.W),
    goal: formatCells(S.goal, S.W),
    method: $("method").value || "auto",
    time_limit: seconds("time-limit", "time_limit"),
    wait: false,
  };
  if ($("heuristic").value && !$("heuristic").disabled) body.heuristic = $("heuristic").value;
  body.metric = metric();
  const from = S.cells.slice();
  const began = performance.now();
  $("offpath").hidden = true;
  setSolveStatus("starting...", "");
  try {
    const data = await api("POST", "/api/solve", body);
    if (S.solveId !== STARTING) { // the position changed meanwhile: this solve is nobody's
      api("DELETE", `/api/solve/${data.id}`).catch(() => {});
      return;
    }
    S.solveId = data.id;
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
  S.pollTimer = setTimeout(async () => {
    const id = S.solveId;
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
    if (S.solveId !== id) return;
    if (data.status === "queued" || data.status === "running") {
      const waiting = data.warm_up ? `waiting: ${data.warm_up}${S.building || ""} (its time starts after)...`
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
  clearTimeout(S.pollTimer);
  S.solveId = null;
  const focused = document.activeElement === $("cancel-btn");
  $("solve-btn").disabled = Boolean(S.inputError);
  $("solve-btn").hidden = false;
  $("resolve-btn").disabled = false;
  $("cancel-btn").disabled = true;
  $("cancel-btn").hidden = true;
  if (focused) $("solve-btn").focus();
}

async function cancelSolve() {
  const id = S.solveId;
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
  if (!moves) { S.solveMsg = ["error: unreadable solution", "error"]; renderStatus(); return; }
  // the solution starts where the solve started; go back there for the replay
  S.cells = from.slice();
  S.start = from.slice();
  resetTiles();
  const m = result.metric || "stm";
  S.solution = { moves, text: result.solution, start: from.slice(), length: result.length,
    metric: m, optimal: result.optimal, method: result.method, stats: result.stats, wall,
    remedy: result.remedy || null, status: `solved: ${lengthText(result.length, m)}` };
  S.step = 0;
  S.detour = [];
  S.history = [];
  S.undoSteps = [];
  S.lastMoved = -1;
  S.note = null;
  stopClock();
  if (result.optimal && m === "mtm" && m === metric()) { // an optimal solution's length is the distance
    S.hint = { key: `${positionKey()}|${m}`, data: { distance: result.length, exact: true, move: null,
      lower_bound: result.length, message: "", how: "solution" } };
  }
  showResult();
  renderBoard();
}

function showResult() {
  const sol = S.solution;
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
  $("solution-stats").textContent = parts.join("; ");
  const phases = st && st.phases && st.phases.length ? st.phases : null;
  $("solution-phases").replaceChildren(...(phases ? [phasesDetails(phases)] : []));
}

function phasesDetails(phases) {
  const iter = phases[0].kind === "iteration";
  const d = el("details", {}, el("summary", { text: iter ? `${phases.length} iterations` : `${phases.length} layers` }));
  d.append(el("div", { class: "table-wrap" }, phasesTable(phases)));
  return d;
}

/** What a phase's ``depth`` is, and its ``frontier``, by its kind. */
const PHASE_WORDS = { layer: ["depth", "layer size"], iteration: ["bound", "frontier"], contour: ["f", "still open"] };

function phasesTable(phases) {
  const [depth, frontier] = PHASE_WORDS[phases[0].kind] || PHASE_WORDS.layer;
  const sides = phases.some((p) => p.side);
  const head = [depth, ...(sides ? ["side"] : []), "expanded", "generated", frontier, "seconds"];
  const t = el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))));
  const body = el("tbody");
  for (const p of phases) {
    body.append(el("tr", {}, el("td", { text: String(p.depth) }), ...(sides ? [el("td", { text: p.side || "" })] : []),
      el("td", { text: num(p.expanded) }), el("td", { text: num(p.generated) }),
      el("td", { text: num(p.frontier) }), el("td", { text: secs(p.seconds) })));
  }
  t.append(body);
  return t;
}

function clearSolution() {
  S.solution = null;
  S.step = 0;
  S.detour = [];
  S.lastMoved = -1;
  $("result").hidden = true;
}

// --------------------------------------------------------------------------------------- replay

function replayTo(k, force) {
  const sol = S.solution;
  if (!sol) return;
  k = Math.max(0, Math.min(sol.moves.length, k));
  if (S.detour.length || force) {
    S.detour = [];
    S.cells = sol.start.slice();
    resetTiles();
    for (let j = 0; j < k; j++) S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, sol.moves[j]);
  } else if (k === S.step + 1) {
    S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, sol.moves[S.step]);
  } else if (k === S.step - 1) {
    S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, OPPOSITE[sol.moves[k]]);
  } else if (k !== S.step) {
    S.cells = sol.start.slice();
    resetTiles();
    for (let j = 0; j < k; j++) S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, sol.moves[j]);
  }
  S.step = k;
  S.won = false;
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
  if (S.detour.length || S.step >= S.solution.moves.length) replayTo(S.detour.length ? S.step : 0, true);
  setSlide();
  const tick = () => {
    if (!S.solution || S.step >= S.solution.moves.length) { stopPlaying(); renderReplay(); return; }
    replayTo(S.step + 1);
    S.playing = setTimeout(tick, 1000 / speed());
    renderReplay();
  };
  S.playing = setTimeout(tick, 1000 / speed());
  renderReplay();
}

function stopPlaying() {
  if (S.playing) { clearTimeout(S.playing); S.playing = null; }
}

// ------------------------------------------------------------------------- hint and distance

/** The hint of the position shown in the metric chosen, if known. */
function currentHint() {
  const key = `${positionKey()}|${metric()}`;
  if (S.hint && S.hint.key === key) return S.hint;
  // along an optimal STM solution, each position's distance is what is left of it
  const sol = S.solution;
  if (sol && sol.optimal && sol.metric === "stm" && metric() === "stm" && !S.detour.length
      && sol.moves.length === sol.length) {
    const left = sol.moves.length - S.step;
    return { key, data: { distance: left, exact: true, lower_bound: left,
      move: left ? sol.moves[S.step] : null, how: "solution", message: "" }, implied: true };
  }
  return null;
}

function renderDistance() {
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

async function askHint(auto) {
  if (!auto) S.assisted = true; // a solve helped by a hint is not a personal best
  const key = `${positionKey()}|${metric()}`;
  const seq = ++S.hintSeq;
  const hs = $("hint-status");
  if (!auto) { hs.className = "status"; hs.textContent = "thinking..."; hs.dataset.key = key; }
  try {
    const data = await api("POST", "/api/hint", {
      board: formatCells(S.cells, S.W), goal: formatCells(S.goal, S.W), metric: metric() });
    if (`${positionKey()}|${metric()}` !== key) return; // the board moved on meanwhile
    S.hint = { key, data };
    if (!auto && seq === S.hintSeq) {
      hs.dataset.key = key;
      hs.className = "status ok";
      hs.textContent = hintText(data);
    }
    renderBoard();
  } catch (e) {
    if (!auto && seq === S.hintSeq) { hs.className = "status error"; hs.textContent = "hint: " + e.message; }
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

// ---------------------------------------------------------------------------------------- tabs

function showTab(name) {
  S.tab = name;
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.id === `tab-${name}`;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
  const wide = document.body.classList.contains("lab-open");
  document.body.classList.toggle("lab-open", name === "lab"); // the lab takes the page's width
  if (wide !== (name === "lab")) renderBoard();
  if (name === "analysis") refreshAnalysis();
  if (name === "lab") renderLab();
}

function tabKeys(ev) {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const i = tabs.indexOf(ev.target);
  let j = null;
  if (ev.key === "ArrowRight") j = (i + 1) % tabs.length;
  else if (ev.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
  else if (ev.key === "Home") j = 0;
  else if (ev.key === "End") j = tabs.length - 1;
  if (j === null) return;
  ev.preventDefault();
  tabs[j].focus();
  showTab(tabs[j].id.replace("tab-", ""));
}

// ------------------------------------------------------------------------------------ analysis

let analysisTimer = null;

/** The distance chart of the goal's whole space (the server analyses spaces up to its limit;
 * beyond, its reason is shown), in the metric chosen, the position's distance marked. */
function refreshAnalysis() {
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(drawAnalysis, 60);
}

async function drawAnalysis() {
  const goal = formatCells(S.goal, S.W);
  const m = metric();
  const key = `${goal}|${m}`;
  let data = S.analyses.get(key);
  if (data === undefined) {
    S.analyses.set(key, null); // on its way
    $("chart-box").hidden = true; // the chart shown is another goal's or metric's
    $("chart-status").className = "status";
    $("chart-status").textContent = "analysing every arrangement...";
    try {
      data = await api("POST", "/api/analyze", { goal, metric: m });
      S.analyses.set(key, data);
    } catch (e) {
      data = { error: e.message, status: e.status };
      // the server's reason (400: too many arrangements) is kept; a busy server is asked again later
      if (e.status === 400 || e.status === 422) S.analyses.set(key, data);
      else S.analyses.delete(key);
    }
    if (key !== `${formatCells(S.goal, S.W)}|${metric()}`) return;
    if (!data.error) { refreshAnalysis(); return; }
  }
  if (data === null) return; // on its way
  const box = $("chart-box");
  if (data.error) {
    box.hidden = true;
    $("chart-status").className = "status warn";
    $("chart-status").textContent = `no chart for this goal: ${data.error}`;
    return;
  }
  $("chart-status").textContent = "";
  const h = currentHint(); // the position's bar is marked once its distance is known (a hint asked)
  drawChart(data, h && h.data.exact ? h.data.distance : -1);
}

function drawChart(data, here) {
  const counts = data.counts;
  const w = 420, h = 170, padL = 52, padB = 24, padT = 10;
  const max = Math.max(...counts);
  const bw = (w - padL - 6) / counts.length;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  const mtm = data.metric === "mtm";
  svg.setAttribute("aria-label", `arrangements at each distance from the goal, in ${mtm ? "MTM" : "STM"} moves`);
  const text = (x, y, s, anchor) => {
    const t = document.createElementNS(SVG_NS, "text");
    t.setAttribute("x", x); t.setAttribute("y", y);
    t.setAttribute("text-anchor", anchor || "middle");
    t.textContent = s; svg.appendChild(t);
  };
  counts.forEach((c, d) => {
    const bh = max ? (c / max) * (h - padB - padT) : 0;
    const r = document.createElementNS(SVG_NS, "rect");
    r.setAttribute("x", padL + d * bw + 0.5);
    r.setAttribute("y", h - padB - Math.max(bh, c ? 1 : 0));
    r.setAttribute("width", Math.max(1, bw - 1));
    r.setAttribute("height", Math.max(bh, c ? 1 : 0));
    r.setAttribute("class", "bar" + (d === here ? " here" : ""));
    const tip = document.createElementNS(SVG_NS, "title");
    tip.textContent = `distance ${d}: ${c.toLocaleString("en")} arrangements` + (d === here ? " (this position)" : "");
    r.appendChild(tip);
    svg.appendChild(r);
    if (counts.length <= 12 || d % 5 === 0) text(padL + d * bw + bw / 2, h - 9, String(d));
  });
  text(padL - 5, padT + 8, max.toLocaleString("en"), "end");
  text(padL - 5, h - padB, "0", "end");
  $("chart").replaceChildren(svg);
  const caption = $("chart-caption");
  caption.replaceChildren(`Distances from the goal, every arrangement`,
    el("span", { class: "metric-tag", text: mtm ? "MTM" : "STM" }));
  $("chart-info").textContent = `${data.states.toLocaleString("en")} arrangements, diameter ${data.diameter}`
    + ` ${mtm ? "multi-tile moves (a slide of tiles in a line counts once)" : "single-tile moves"}`
    + (here >= 0 ? `; this position: ${here} (marked), ${data.counts[here].toLocaleString("en")} arrangements as far`
      : "; this position: press hint to find and mark its distance");
  $("chart-box").hidden = false;
}

// ---------------------------------------------------------------------------------------- the lab

/** The lab's rows of a position (row key -> entry), kept in session storage: a reload keeps
 * them, as it keeps which rows are open (:func:`labOpen`). */
function labRows(key) {
  if (!S.lab.has(key)) {
    let saved = [];
    try { saved = JSON.parse(sessionStorage.getItem(`slidelab-lab|${key}`) || "[]"); } catch (e) { saved = []; }
    S.lab.set(key, new Map(saved));
  }
  return S.lab.get(key);
}

/** The row keys of a position whose layers or iterations are shown. */
function labOpen(key) {
  if (!S.labOpen.has(key)) {
    let saved = [];
    try { saved = JSON.parse(sessionStorage.getItem(`slidelab-lab-open|${key}`) || "[]"); } catch (e) { saved = []; }
    S.labOpen.set(key, new Set(saved));
  }
  return S.labOpen.get(key);
}

/** Keep the lab of a position for a reload (quietly not, where storage is full or off). */
function saveLab(key) {
  try {
    sessionStorage.setItem(`slidelab-lab|${key}`, JSON.stringify([...labRows(key)]));
    sessionStorage.setItem(`slidelab-lab-open|${key}`, JSON.stringify([...labOpen(key)]));
  } catch (e) { /* the table stays for this page */ }
}

function rowKey(e) {
  return `${e.method}|${e.heuristic || ""}|${e.metric}`;
}

async function runLab() {
  if (S.labJob) return;
  const methods = [...document.querySelectorAll("#lab-methods input:checked")].map((i) => i.value);
  const metrics = ["stm", "mtm"].filter((m) => $(`lab-${m}`).checked);
  const status = $("lab-status");
  if (!methods.length || !metrics.length) {
    status.className = "status warn";
    status.textContent = "choose at least one method and one metric";
    return;
  }
  const key = positionKey();
  const body = { board: formatCells(S.cells, S.W), goal: formatCells(S.goal, S.W), methods,
    time_limit: seconds("lab-time", "lab_time_limit"), wait: false };
  if ($("lab-heuristic").value) body.heuristic = $("lab-heuristic").value;
  S.labJob = { key, id: null, cancelled: false };
  $("lab-run").disabled = true;
  $("lab-cancel").disabled = false;
  status.className = "status";
  const walls = [];
  try {
    for (const m of metrics) {
      if (S.labJob.cancelled) break;
      const began = performance.now();
      status.textContent = `starting (${m.toUpperCase()})...`;
      const started = await api("POST", "/api/compare", { ...body, metric: m });
      S.labJob.id = started.id;
      let view;
      for (;;) {
        await new Promise((r) => setTimeout(r, 250));
        if (S.labJob.cancelled) break;
        view = await api("GET", `/api/compare/${started.id}`);
        const entries = (view.result ? view.result.entries : (view.progress && view.progress.entries)) || [];
        for (const e of entries) labRows(key).set(rowKey(e), e);
        for (const [method, why] of Object.entries((view.result && view.result.skipped) || {})) {
          const e = { method, heuristic: null, metric: m, skipped: why };
          labRows(key).set(rowKey(e), e);
        }
        saveLab(key);
        if (view.status === "queued") {
          status.textContent = view.warm_up ? `waiting: ${view.warm_up}...` : "waiting for a worker...";
        } else if (view.status === "running") {
          const p = view.progress || {};
          status.textContent = p.method
            ? `running ${p.method} (${p.done + 1} of ${p.of}, ${m.toUpperCase()}), ${view.elapsed.toFixed(1)} s`
            : `running (${m.toUpperCase()}), ${view.elapsed.toFixed(1)} s`;
        }
        renderLab();
        if (!["queued", "running"].includes(view.status)) break;
      }
      if (S.labJob.cancelled) break;
      if (view.status !== "done") throw new Error(view.error || view.status);
      walls.push(`${m.toUpperCase()} ${secs((performance.now() - began) / 1000)} s`);
    }
    status.className = S.labJob.cancelled ? "status warn" : "status ok";
    status.textContent = S.labJob.cancelled ? "cancelled"
      : `done; wall time of the run${walls.length > 1 ? "s" : ""}: ${walls.join(", ")}`;
  } catch (e) {
    status.className = "status error";
    status.textContent = "error: " + e.message;
  } finally {
    S.labJob = null;
    $("lab-run").disabled = false;
    $("lab-cancel").disabled = true;
    renderLab();
  }
}

async function cancelLab() {
  if (!S.labJob) return;
  S.labJob.cancelled = true;
  const id = S.labJob.id;
  $("lab-cancel").disabled = true;
  if (id) await api("DELETE", `/api/compare/${id}`).catch(() => {});
}

function renderLab() {
  const key = positionKey();
  const rows = [...labRows(key).values()];
  const open = labOpen(key);
  $("lab-wrap").hidden = !rows.length;
  const body = $("lab-table").querySelector("tbody");
  const out = [];
  rows.forEach((e, i) => {
    const phases = e.phases || [];
    const toggle = el("button", { type: "button", class: "expand" + (phases.length ? " has" : "") }, icon("chevron"));
    const cells = [el("td", {}, toggle, " ", e.method), el("td", { text: e.heuristic || "–" }),
      el("td", { text: (e.metric || "").toUpperCase() })];
    if (e.skipped) {
      cells.push(el("td", { class: "note", colspan: "6", text: `not run: ${e.skipped}` }));
    } else {
      const mem = `${num(e.stored)} / ${num(e.peak_frontier)}` + (e.memory_bytes ? ` / ≈${bytes(e.memory_bytes)}` : "");
      cells.push(el("td", { text: e.error ? "–" : num(e.length) }),
        el("td", { text: e.error ? "stopped" : e.optimal ? "yes" : "no", class: e.error ? "err" : "" }),
        el("td", { text: num(e.expanded) }), el("td", { text: num(e.generated) }), el("td", { text: mem }),
        el("td", { text: `${secs(e.search_seconds)} / ${secs(e.total_seconds)} / ${secs(e.setup_seconds)}` }));
    }
    out.push(el("tr", {}, ...cells));
    if (e.error) { // how far it got is in its row; why it stopped, under it
      out.push(el("tr", { class: "why" }, el("td", { class: "err", colspan: "9", text: `stopped: ${e.error}` })));
    }
    if (phases.length) {
      const id = `phases-${i}`;
      const what = phases.some((p) => p.kind === "iteration") ? "iterations" : "layers";
      const shown = open.has(rowKey(e));
      toggle.setAttribute("aria-expanded", shown ? "true" : "false");
      toggle.setAttribute("aria-controls", id);
      toggle.setAttribute("aria-label", `${phases.length} ${what} of ${e.method} (${e.metric})`);
      const detail = el("tr", { class: "phases", id }, el("td", { colspan: "9" }, phasesTable(phases)));
      detail.hidden = !shown;
      toggle.addEventListener("click", () => {
        detail.hidden = !detail.hidden;
        toggle.setAttribute("aria-expanded", detail.hidden ? "false" : "true");
        if (detail.hidden) open.delete(rowKey(e)); else open.add(rowKey(e));
        saveLab(key);
      });
      out.push(detail);
    } else {
      toggle.disabled = true;
      toggle.setAttribute("aria-label", `no per-layer rows for ${e.method}`);
      toggle.hidden = true;
    }
  });
  body.replaceChildren(...out);
  drawLabChart(rows);
  renderWatch();
}

/** Why a method stopped, in a few words ("stopped at the 1 s time limit"). */
function stoppedWhy(e) {
  const said = e.error.replace(/^limit reached: /, "").replace(new RegExp(`^${e.method} `), "");
  const short = said.split(/ after |[(;]/)[0].trim();
  return short.startsWith("stopped") ? short : `stopped: ${short}`;
}

/** An SVG chart `w` x `h` with its accessible label, and `add(tag, attrs, text)`, which
 * appends an element to it and returns it. */
function newChart(w, h, label) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  return { svg, add };
}

/** Nodes per method on a log scale: expanded (dark) and generated (light), each method's name
 * above its bars. */
function drawLabChart(rows) {
  const box = $("lab-chart");
  const ok = rows.filter((e) => !e.skipped && (e.expanded || e.generated));
  if (!ok.length) { box.replaceChildren(); return; }
  const w = Math.max(320, Math.round(box.clientWidth || 420)), rowH = 34, padL = 4, padT = 22, padR = 14; // text at its size
  const h = padT + ok.length * rowH + 20;
  const top = Math.max(1, ...ok.map((e) => Math.max(e.expanded || 0, e.generated || 0)));
  const decades = Math.max(1, Math.ceil(Math.log10(top + 1)));
  const x = (n) => padL + (w - padL - padR) * (Math.log10(Math.max(1, n)) / decades);
  const { svg, add } = newChart(w, h, "nodes expanded and generated by each method, on a log scale");
  const stopped = ok.some((e) => e.error);
  add("text", { x: padL, y: 12 }, "nodes, log scale: expanded (dark), generated (light)"
    + (stopped ? "; hatched: stopped there" : ""));
  if (stopped) { // the pattern of a stopped method's bars
    const defs = add("defs", {});
    const pattern = document.createElementNS(SVG_NS, "pattern");
    for (const [k, v] of Object.entries({ id: "hatch", width: "6", height: "6", patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)" })) pattern.setAttribute(k, v);
    const line = document.createElementNS(SVG_NS, "rect");
    for (const [k, v] of Object.entries({ width: "3", height: "6", class: "hatch" })) line.setAttribute(k, v);
    pattern.appendChild(line);
    defs.appendChild(pattern);
  }
  for (let d = 0; d <= decades; d++) {
    add("line", { x1: x(10 ** d), x2: x(10 ** d), y1: padT, y2: h - 16, class: "axis" });
    const tick = add("text", { x: x(10 ** d), y: h - 4,
      "text-anchor": d === 0 ? "start" : d === decades ? "end" : "middle" }, d <= 3 ? (10 ** d).toLocaleString("en") : "10");
    if (d > 3) { // 10 to the d
      const sup = document.createElementNS(SVG_NS, "tspan");
      sup.setAttribute("dy", "-5");
      sup.setAttribute("font-size", "8");
      sup.textContent = String(d);
      tick.appendChild(sup);
    }
  }
  ok.forEach((e, i) => {
    const y = padT + i * rowH;
    const why = e.error ? ` — ${stoppedWhy(e)}` : "";
    add("text", { x: padL, y: y + 12, class: "label" },
      `${e.method}${e.heuristic ? " (" + e.heuristic + ")" : ""}, ${(e.metric || "").toUpperCase()}${why}`);
    const kind = e.error ? " stopped" : "";
    const gen = add("rect", { x: padL, y: y + 16, width: Math.max(1, x(e.generated || 0) - padL), height: 14, class: "bar-gen" + kind });
    const exp = add("rect", { x: padL, y: y + 19, width: Math.max(1, x(e.expanded || 0) - padL), height: 8, class: "bar-exp" + kind });
    const tg = document.createElementNS(SVG_NS, "title");
    tg.textContent = `${e.method}: generated ${num(e.generated)}${e.error ? " before it stopped" : ""}`;
    gen.appendChild(tg);
    const te = document.createElementNS(SVG_NS, "title");
    te.textContent = `${e.method}: expanded ${num(e.expanded)}${e.error ? " before it stopped" : ""}`;
    exp.appendChild(te);
  });
  box.replaceChildren(svg);
}

// ------------------------------------------------------------------------------ watch the search

/** The lab's rows of this position that can be watched: those whose search has phases. */
function watchRows() {
  return [...labRows(positionKey()).values()].filter((e) => (e.phases || []).length);
}

/** One phase in words: "layer 12 forward: 1,234 expanded, 2,345 generated, 3,456 in the layer". */
function phaseText(e, p) {
  const [depth, frontier] = PHASE_WORDS[p.kind] || PHASE_WORDS.layer;
  const what = p.kind === "layer" ? `layer ${p.depth}${p.side ? " " + p.side : ""}` : `${depth} ${p.depth}`;
  return `${e.method}: ${what}: ${num(p.expanded)} expanded, ${num(p.generated)} generated,`
    + ` ${num(p.frontier)} ${frontier}`;
}

/** Each watched method's search up to the step: its phases so far as bars (log scale), the
 * current one marked; the methods side by side, stepping together. */
function renderWatch() {
  const rows = watchRows();
  $("watch").hidden = !rows.length;
  if (!rows.length) { stopWatch(); return; }
  const steps = Math.max(...rows.map((e) => e.phases.length));
  S.watch.step = Math.min(S.watch.step, steps);
  $("watch-pos").textContent = `step ${S.watch.step} of ${steps}`;
  $("watch-back").disabled = S.watch.step === 0;
  $("watch-fwd").disabled = S.watch.step >= steps;
  const top = Math.max(1, ...rows.flatMap((e) => e.phases.map((p) => p.generated || 0)));
  $("watch-charts").replaceChildren(...rows.map((e) => watchChart(e, S.watch.step, top)));
  const now = rows.filter((e) => S.watch.step > 0 && S.watch.step <= e.phases.length)
    .map((e) => phaseText(e, e.phases[S.watch.step - 1]));
  const done = rows.filter((e) => S.watch.step > e.phases.length).map((e) => `${e.method}: done`);
  $("watch-now").textContent = S.watch.step === 0 ? "step 0: nothing searched yet" : [...now, ...done].join("; ");
}

function watchChart(e, step, top) {
  const w = 300, h = 90, pad = 4, n = e.phases.length, bw = (w - 2 * pad) / Math.max(n, 1);
  const y = (v) => (h - 14) * Math.log10(1 + v) / Math.log10(1 + top);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${e.method} (${e.heuristic || "no heuristic"}, ${(e.metric || "").toUpperCase()}):`
    + ` ${Math.min(step, n)} of ${n} ${e.phases[0].kind}s shown`);
  const add = (tag, attrs) => {
    const x = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) x.setAttribute(k, v);
    svg.appendChild(x);
    return x;
  };
  e.phases.slice(0, step).forEach((p, i) => {
    const side = p.side === "backward" ? " backward" : "";
    const cur = i === step - 1 ? " now" : "";
    add("rect", { x: pad + i * bw, y: h - 2 - y(p.generated), width: Math.max(1, bw - 1), height: y(p.generated), class: `gen${side}${cur}` });
    add("rect", { x: pad + i * bw, y: h - 2 - y(p.expanded), width: Math.max(1, bw - 1), height: y(p.expanded), class: `exp${side}${cur}` });
  });
  const label = el("figcaption", { text: `${e.method} (${e.heuristic || "–"}), ${(e.metric || "").toUpperCase()}:`
    + ` ${e.phases[0].kind}s` });
  return el("figure", { class: "watch-chart" }, label, svg);
}

function stepWatch(by) {
  S.watch.step = Math.max(0, S.watch.step + by);
  renderWatch();
}

function toggleWatch() {
  if (S.watch.timer) { stopWatch(); return; }
  const steps = Math.max(0, ...watchRows().map((e) => e.phases.length));
  if (S.watch.step >= steps) S.watch.step = 0; // from the start again
  $("watch-play").setAttribute("aria-label", "pause");
  $("watch-play").querySelector("span").textContent = "pause";
  const tick = () => {
    stepWatch(1);
    const left = S.watch.step < Math.max(0, ...watchRows().map((e) => e.phases.length));
    S.watch.timer = left ? setTimeout(tick, 1000 / (parseFloat($("watch-speed").value) || 2)) : null;
    if (!left) stopWatch();
  };
  S.watch.timer = setTimeout(tick, 0);
}

function stopWatch() {
  clearTimeout(S.watch.timer);
  S.watch.timer = null;
  $("watch-play").setAttribute("aria-label", "play");
  $("watch-play").querySelector("span").textContent = "play";
}

// --------------------------------------------------------------------------------- the review

/** Review the moves in the review box (or, empty, the moves played) from the start position. */
async function runReview() {
  if (!$("review-moves").value.trim()) $("review-moves").value = compactMoves(S.history);
  const moves = $("review-moves").value.trim();
  const status = $("review-status");
  if (!moves) { status.className = "status warn"; status.textContent = "no moves to review: play or paste some"; return; }
  const start = S.solution ? S.solution.start : S.start;
  const key = `${formatCells(start, S.W)}|${formatCells(S.goal, S.W)}|${metric()}|${moves}`;
  status.className = "status";
  status.textContent = "reviewing...";
  $("review-run").disabled = true;
  try {
    const data = await api("POST", "/api/review", { board: formatCells(start, S.W),
      goal: formatCells(S.goal, S.W), moves, metric: metric() });
    S.review = { key, data, start: start.slice(), moves };
    status.className = data.lost ? "status warn" : "status ok";
    status.textContent = data.summary;
  } catch (e) {
    S.review = null;
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
  const r = S.review && S.review.data;
  $("review-chart-box").hidden = !r;
  if (!r) { $("review-list").replaceChildren(); return; }
  const w = Math.max(300, Math.round($("review-chart").clientWidth || 420)), h = 160, pad = 28;
  const n = Math.max(1, r.length, r.optimum), top = Math.max(1, r.optimum, ...r.steps.map((s) => s.after));
  const x = (i) => pad + (w - pad - 8) * i / n, y = (d) => 8 + (h - 8 - pad) * (1 - d / top);
  const { svg, add } = newChart(w, h, `distance after each move: ${r.summary}`);
  add("line", { x1: x(0), y1: y(r.optimum), x2: x(r.optimum), y2: y(0), class: "optimal" });
  const points = [[0, r.optimum], ...r.steps.map((s) => [s.number, s.after])];
  add("polyline", { points: points.map(([i, d]) => `${x(i)},${y(d)}`).join(" "), class: "solve" });
  for (const s of r.steps.filter((t) => t.lost)) {
    const dot = add("circle", { cx: x(s.number), cy: y(s.after), r: 4, class: "lost" });
    const t = document.createElementNS(SVG_NS, "title");
    t.textContent = `move ${s.number} (${s.move}) lost ${s.lost}`;
    dot.appendChild(t);
  }
  add("text", { x: 2, y: y(top) + 4 }, String(top));
  add("text", { x: 2, y: y(0) }, "0");
  add("text", { x: x(n), y: h - 6, "text-anchor": "end" }, `move ${n}`);
  $("review-chart").replaceChildren(svg);
  $("review-list").replaceChildren(...r.steps.filter((t) => t.lost).map((t) => el("li", {},
    el("button", { type: "button", "data-number": String(t.number), title: "show the position before it, its good moves outlined" },
      `move ${t.number}: ${t.move} lost ${t.lost}; good there: ${t.good.join(", ") || "none"}`))));
}

/** Show the position before the reviewed move ``number``, its good moves outlined. */
function jumpToReviewed(number) {
  const rv = S.review;
  if (!rv) return;
  const moves = expandMoves(rv.moves) || [];
  const step = rv.data.steps[number - 1];
  const before = metric() === "mtm" ? mtmPrefix(moves, number - 1) : moves.slice(0, number - 1);
  S.keepReview = true;
  try { setPosition(rv.start, S.goal, S.W, S.H); } finally { S.keepReview = false; }
  for (const mv of before) userMove(mv);
  S.reviewGood = { key: positionKey(), moves: step.good };
  renderBoard();
  announce(`before move ${number}: the good moves there are ${step.good.join(", ") || "none"}`);
}

/** The single-tile moves of the first ``k`` slides of ``moves`` (a run of one direction). */
function mtmPrefix(moves, k) {
  const out = [];
  let runs = 0;
  for (let i = 0; i < moves.length; i++) {
    if (i === 0 || moves[i] !== moves[i - 1]) runs += 1;
    if (runs > k) break;
    out.push(moves[i]);
  }
  return out;
}

/** Whether the tile at cell ``i`` makes a good move of the review (its slide ``m``, ``k``). */
function reviewGood(m, k) {
  const g = S.reviewGood;
  if (!g || g.key !== positionKey() || !m) return false;
  return g.moves.some((mv) => mv[0] === m && (parseInt(mv.slice(1), 10) || 1) === k);
}

// ---------------------------------------------------------------------------------------- share

/** Restore what the address bar's fragment describes (a reload, back, a bookmark, a link). */
async function loadFromHash() {
  const hash = window.location.hash.replace(/^#/, "");
  if (!hash || `#${hash}` === stateHash() || S.loading === hash) return false;
  S.loading = hash;
  try {
    return await restore(hash);
  } finally {
    S.loading = null;
  }
}

async function restore(hash) {
  const p = new URLSearchParams(hash);
  const board = p.get("board");
  if (!board) return false;
  const goal = p.get("goal");
  S.restoring = true;
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
    const solution = p.get("solution");
    const moves = p.get("moves");
    if (solution !== null) {
      const list = expandMoves(solution);
      const end = S.cells.slice();
      const ok = list && list.every((mv) => applyMove(end, null, S.W, S.H, mv) !== null) && sameCells(end, S.goal);
      if (!ok) {
        S.solveMsg = ["link: the solution does not reach the goal", "error"];
        renderStatus();
      } else {
        S.solution = { moves: list, text: solution, start: S.cells.slice(), length: list.length,
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
    const reviewed = p.get("review");
    if (reviewed) { // the review the link names, run again
      $("review-moves").value = reviewed;
      showTab("review");
      runReview();
    }
    return true;
  } finally {
    S.restoring = false;
    updateUrl();
  }
}

async function copyText(id, button) {
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

// --------------------------------------------------------------------------------------- methods

/** Fill the method, heuristic and metric menus (and the lab's) from the server's tables. */
/** The server's limits and defaults (``GET /api/status``'s ``limits``): the page's time
 * fields take them, and the requests are held to them. */
function applyLimits(limits) {
  if (!limits) return;
  S.limits = limits;
  for (const [id, value] of [["time-limit", limits.time_limit], ["lab-time", limits.lab_time_limit]]) {
    $(id).max = String(limits.max_time_limit);
    $(id).value = String(value);
  }
}

/** Seconds from a time field, within the server's limits (its default where unreadable);
 * undefined before the server has said them: the request then leaves the time to its default. */
function seconds(id, fallback) {
  if (!S.limits) return undefined;
  return Math.min(S.limits.max_time_limit, Math.max(0.1, parseFloat($(id).value) || S.limits[fallback]));
}

async function loadMethods() {
  let data;
  try {
    let status;
    [data, status] = await Promise.all([api("GET", "/api/methods"), api("GET", "/api/status").catch(() => null)]);
    applyLimits(status && status.limits);
  } catch (e) {
    S.solveMsg = ["error: cannot list the methods: " + e.message, "error"];
    renderStatus();
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
  $("lab-heuristic").replaceChildren(option("", "a solve's choice", "the heuristic a solve would search this board with now (its tables ready)"),
    ...data.heuristics.map((h) => option(h.name, h.name, h.summary)));
  const metricTitle = { stm: "single-tile moves: each tile moved counts",
    mtm: "multi-tile moves: a slide of tiles in one line counts once" };
  $("metric").replaceChildren(...(data.metrics || ["stm"]).map(
    (m) => option(m, m.toUpperCase(), metricTitle[m] || m)));
  $("lab-methods").replaceChildren(...data.methods.filter((m) => m.name !== "auto").map((m) => {
    const box = el("input", { type: "checkbox", value: m.name });
    box.checked = (data.compare || []).includes(m.name);
    return el("label", { title: m.summary }, box, m.name);
  }));
  updateHeuristicMenu();
}

/** The heuristic menu is for the methods that take a heuristic; the methods offered are those
 * that search in the chosen metric. */
function updateHeuristicMenu() {
  const m = metric();
  for (const o of $("method").options) {
    const info = S.methods.get(o.value);
    o.disabled = !!(info && info.metrics && !info.metrics.includes(m));
  }
  if ($("method").selectedOptions[0] && $("method").selectedOptions[0].disabled) $("method").value = "auto";
  const method = S.methods.get($("method").value);
  $("heuristic").disabled = !(method && method.options.includes("heuristic"));
}

// ---------------------------------------------------------------------------------------- server

/** "; building the 6-6-3 pattern databases of the 4x4 goal": the tables the server's warm-up
 * builds now (GET /api/status: tables), which the solves of their boards wait for (not on their
 * clock); "" when none. */
function buildingText(status) {
  const building = status ? (status.tables || []).filter((t) => t.when === "first" && t.state === "building") : [];
  return building.length ? `; building ${building.map((t) => t.tables).join(", ")}` : "";
}

/** Say "warming up" while the server's first warm-up lasts (GET /api/status: warm_up), and
 * say when it is over. */
async function watchServer(warming = false) {
  const e = $("server-status");
  let status = null;
  try { status = await api("GET", "/api/status"); } catch (err) { status = null; }
  if (status && !status.warm_up) {
    S.building = "";
    if (!warming) { e.hidden = true; return; }
    e.textContent = "warmed up: ready";         // said once, then the line goes
    e.className = "status ok";
    setTimeout(() => { e.hidden = true; }, 3000);
    return;
  }
  e.hidden = false;
  e.className = "status warn";
  S.building = buildingText(status);
  e.textContent = status ? `warming up: ${status.warm_up}${S.building}; solves wait for it...`
    : "server unreachable";
  setTimeout(() => watchServer(warming || !!status), 500);
}

// ---------------------------------------------------------------------------------------- start

/** A page closed or left ends its jobs (the server would end them too, a few seconds after the
 * page stops asking: UNPOLLED_SECONDS); a request that outlives its page says so. */
function endJobs() {
  const paths = [];
  if (S.solveId && S.solveId !== STARTING) paths.push(`/api/solve/${S.solveId}`);
  if (S.labJob && S.labJob.id) paths.push(`/api/compare/${S.labJob.id}`);
  for (const path of paths) fetch(path, { method: "DELETE", keepalive: true }).catch(() => {});
}

/** The lab's, the watch's and the review's listeners. */
function listenPanels() {
  $("lab-run").addEventListener("click", runLab);
  $("review-run").addEventListener("click", runReview);
  $("review-played").addEventListener("click", () => { $("review-moves").value = compactMoves(S.history); });
  $("review-list").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (b) jumpToReviewed(parseInt(b.dataset.number, 10));
  });
  $("watch-back").addEventListener("click", () => { stopWatch(); stepWatch(-1); });
  $("watch-fwd").addEventListener("click", () => { stopWatch(); stepWatch(1); });
  $("watch-play").addEventListener("click", toggleWatch);
  $("lab-cancel").addEventListener("click", cancelLab);
}

/** Every control's listener. */
function listen() {
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
  $("best-reset").addEventListener("click", resetBest);
  $("board").addEventListener("pointerdown", swipeStart);
  $("board").addEventListener("pointerup", swipeEnd);
  $("board").addEventListener("pointercancel", () => { S.swipe = null; });
  $("walk-btn").addEventListener("click", () => shuffle(Math.max(0, parseInt($("walk-moves").value, 10) || 0)));
  $("reset-btn").addEventListener("click", resetPosition);
  $("undo-btn").addEventListener("click", undo);
  $("hint-btn").addEventListener("click", () => askHint(false));
  $("method").addEventListener("change", updateHeuristicMenu);
  $("metric").addEventListener("change", () => { updateHeuristicMenu(); renderBoard(); });
  $("solve-btn").addEventListener("click", startSolve);
  $("cancel-btn").addEventListener("click", cancelSolve);
  $("rejoin-btn").addEventListener("click", rejoin);
  $("resolve-btn").addEventListener("click", startSolve);
  $("replay").addEventListener("click", () => { S.undoSteps = []; }, true);
  $("replay-slider").addEventListener("input", () => { S.undoSteps = []; }, true);
  $("first-btn").addEventListener("click", () => { stopPlaying(); replayTo(0); });
  $("back-btn").addEventListener("click", () => { stopPlaying(); replayTo(S.step - (S.detour.length ? 0 : 1)); });
  $("fwd-btn").addEventListener("click", () => { stopPlaying(); replayTo(S.step + (S.detour.length ? 0 : 1)); });
  $("last-btn").addEventListener("click", () => { stopPlaying(); replayTo(S.solution ? S.solution.moves.length : 0); });
  $("play-btn").addEventListener("click", togglePlay);
  $("replay-slider").addEventListener("input", (e) => { stopPlaying(); replayTo(parseInt(e.target.value, 10)); });
  $("speed").addEventListener("change", setSlide);
  $("move-list").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    stopPlaying();
    S.undoSteps = [];
    if (b.dataset.step !== undefined) {
      const k = parseInt(b.dataset.step, 10);
      if (S.solution) replayTo(k, S.detour.length > 0);
      else { // the player's record: back to that move (the later ones are taken back)
        while (S.history.length > k) {
          S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, OPPOSITE[S.history.pop()]);
        }
        S.won = false;
        renderBoard();
      }
    } else if (b.dataset.detour !== undefined) {
      const k = parseInt(b.dataset.detour, 10);
      while (S.detour.length > k) S.lastMoved = applyMove(S.cells, S.ids, S.W, S.H, OPPOSITE[S.detour.pop()]);
      renderBoard();
    }
  });
  $("copy-solution-btn").addEventListener("click", (e) => copyText("solution-text", e.currentTarget));
  $("copy-share-btn").addEventListener("click", (e) => copyText("share-url", e.currentTarget));
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => showTab(tab.id.replace("tab-", "")));
    tab.addEventListener("keydown", tabKeys);
  }
  listenPanels();
  $("lab-clear").addEventListener("click", () => {
    labRows(positionKey()).clear();
    labOpen(positionKey()).clear();
    saveLab(positionKey());
    renderLab();
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => { loadFromHash(); });
  window.addEventListener("pagehide", endJobs);
  window.addEventListener("hashchange", () => { loadFromHash(); });
}

function init() {
  for (const id of ["width", "height"]) {
    const sel = $(id);
    for (let n = 2; n <= 10; n++) sel.appendChild(el("option", { value: String(n), text: String(n) }));
    sel.value = "3";
  }
  listen();
  setSlide();
  watchServer();
  // the page opens where the address says, else on the last position played here, else on a
  // shuffled 4x4 (the solved board only until it comes)
  let last = null;
  try { last = localStorage.getItem("slidelab-last"); } catch (e) { last = null; }
  const hashAtStart = window.location.hash || last || "";
  const goal = solvedCells(4, 4);
  S.restoring = true;
  setPosition(goal, goal, 4, 4);
  S.restoring = false;
  if (hashAtStart) history.replaceState(null, "", hashAtStart); // restored below, once the menus are there
  loadMethods()
    .then(() => (hashAtStart ? loadFromHash() : shuffle()))
    .finally(() => { updateUrl(); document.body.dataset.ready = "yes"; });
}

init();
