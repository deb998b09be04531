// The lab's rows: what each method did on a position, kept per position in session storage (a
// reload keeps them, and which rows are open). The lab's table and the watch read them.

const rows = new Map();  // position key -> Map(row key -> entry)
const opened = new Map(); // position key -> Set(row keys whose phases are shown)

/** The lab's rows of a position (row key -> entry), kept in session storage: a reload keeps
 * them, as it keeps which rows are open (:func:`labOpen`). */
export function labRows(key) {
  if (!rows.has(key)) {
    let saved = [];
    try { saved = JSON.parse(sessionStorage.getItem(`slidelab-lab|${key}`) || "[]"); } catch (e) { saved = []; }
    rows.set(key, new Map(saved));
  }
  return rows.get(key);
}

/** The row keys of a position whose layers or iterations are shown. */
export function labOpen(key) {
  if (!opened.has(key)) {
    let saved = [];
    try { saved = JSON.parse(sessionStorage.getItem(`slidelab-lab-open|${key}`) || "[]"); } catch (e) { saved = []; }
    opened.set(key, new Set(saved));
  }
  return opened.get(key);
}

/** Keep the lab of a position for a reload (quietly not, where storage is full or off). */
export function saveLab(key) {
  try {
    sessionStorage.setItem(`slidelab-lab|${key}`, JSON.stringify([...labRows(key)]));
    sessionStorage.setItem(`slidelab-lab-open|${key}`, JSON.stringify([...labOpen(key)]));
  } catch (e) { /* the table stays for this page */ }
}

/** Forget the lab of a position. */
export function clearLabRows(key) {
  labRows(key).clear();
  labOpen(key).clear();
  saveLab(key);
}

export function rowKey(e) {
  return `${e.method}|${e.heuristic || ""}|${e.metric}`;
}
