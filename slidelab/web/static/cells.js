// Boards as arrays of cells and moves as letters: pure functions, no state, no imports.
// Moves name the direction the TILE travels: R slides the tile left of the blank to the right.

export const DIRS = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] }; // tile direction -> where the tile comes from, relative to the blank
export const OPPOSITE = { U: "D", D: "U", L: "R", R: "L" };
export const WORD = { U: "up", D: "down", L: "left", R: "right" };
export const PALETTE = ["#f4d58d", "#a8dcc3", "#b9cdf5", "#f5b8b8", "#d9c4f3", "#f5c9a0", "#c3e5a0",
  "#f3c2df", "#bfdede", "#e5dbb1", "#cfcff0", "#efcaca"];

export function solvedCells(W, H) {
  const out = [];
  for (let i = 1; i < W * H; i++) out.push(i);
  out.push(0);
  return out;
}

export function formatCells(cells, W) {
  const rows = [];
  for (let r = 0; r < cells.length / W; r++) rows.push(cells.slice(r * W, r * W + W).join(" "));
  return rows.join("/");
}

export function hasRepeats(cells) {
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
export function applyMove(cells, ids, W, H, m) {
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
export function tileOf(cells, W, H, m) {
  const b = cells.indexOf(0);
  const r = Math.floor(b / W) + DIRS[m][0], c = (b % W) + DIRS[m][1];
  if (r < 0 || r >= H || c < 0 || c >= W) return null;
  return cells[r * W + c];
}

/** "R2 U L" or "LD2R" -> ["R","R","U","L"]; null when unreadable. */
export function expandMoves(text) {
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
export function compactMoves(moves) {
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
export function mtmCount(moves) {
  let n = 0;
  for (let i = 0; i < moves.length; i++) if (i === 0 || moves[i] !== moves[i - 1]) n++;
  return n;
}

/** The single-tile moves of the first ``k`` slides of ``moves`` (a run of one direction). */
export function mtmPrefix(moves, k) {
  const out = [];
  let runs = 0;
  for (let i = 0; i < moves.length; i++) {
    if (i === 0 || moves[i] !== moves[i - 1]) runs += 1;
    if (runs > k) break;
    out.push(moves[i]);
  }
  return out;
}

export function sameCells(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}
