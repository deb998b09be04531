// The lab: the methods chosen run on the position shown (POST /api/compare, a run a metric),
// their table (a row a method, its phases under it) and the chart of their nodes.

import { api } from "./api.js";
import { $, bytes, el, icon, newChart, num, secs, SVG_NS } from "./dom.js";
import { formatCells } from "./cells.js";
import { pos, positionKey } from "./position.js";
import { clearLabRows, labOpen, labRows, rowKey, saveLab } from "./labrows.js";
import { phasesTable } from "./phases.js";
import { recordLimit, seconds } from "./server.js";
import { renderWatch } from "./watch.js";

/** Boards of at most this many cells get their searches recorded node by node (the watch). */
const WATCH_CELLS = 12;

let labJob = null; // {key, id, cancelled} while the lab runs

/** The id of the comparison running (for a page that closes), or null. */
export function labJobId() {
  return labJob && labJob.id ? labJob.id : null;
}

export async function runLab() {
  if (labJob) return;
  const methods = [...document.querySelectorAll("#lab-methods input:checked")].map((i) => i.value);
  const metrics = ["stm", "mtm"].filter((m) => $(`lab-${m}`).checked);
  const status = $("lab-status");
  if (!methods.length || !metrics.length) {
    status.className = "status warn";
    status.textContent = "choose at least one method and one metric";
    return;
  }
  const key = positionKey();
  const body = { board: formatCells(pos.cells, pos.W), goal: formatCells(pos.goal, pos.W), methods,
    time_limit: seconds("lab-time", "lab_time_limit"), wait: false };
  if ($("lab-heuristic").value) body.heuristic = $("lab-heuristic").value;
  if (pos.W * pos.H <= WATCH_CELLS && recordLimit()) body.record = recordLimit();
  labJob = { key, id: null, cancelled: false };
  $("lab-run").disabled = true;
  $("lab-cancel").disabled = false;
  status.className = "status";
  const walls = [];
  try {
    for (const m of metrics) {
      if (labJob.cancelled) break;
      const began = performance.now();
      status.textContent = `starting (${m.toUpperCase()})...`;
      const view = await runMetric(key, { ...body, metric: m });
      if (labJob.cancelled) break;
      if (view.status !== "done") throw new Error(view.error || view.status);
      walls.push(`${m.toUpperCase()} ${secs((performance.now() - began) / 1000)} s`);
    }
    status.className = labJob.cancelled ? "status warn" : "status ok";
    status.textContent = labJob.cancelled ? "cancelled"
      : `done; wall time of the run${walls.length > 1 ? "s" : ""}: ${walls.join(", ")}`;
  } catch (e) {
    status.className = "status error";
    status.textContent = "error: " + e.message;
  } finally {
    labJob = null;
    $("lab-run").disabled = false;
    $("lab-cancel").disabled = true;
    renderLab();
  }
}

/** One comparison (one metric) started and followed to its end: its rows kept as they come,
 * the status line saying how far it is; its last view. */
async function runMetric(key, body) {
  const status = $("lab-status");
  const m = body.metric;
  const started = await api("POST", "/api/compare", body);
  labJob.id = started.id;
  let view;
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    if (labJob.cancelled) break;
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
  return view;
}

export async function cancelLab() {
  if (!labJob) return;
  labJob.cancelled = true;
  const id = labJob.id;
  $("lab-cancel").disabled = true;
  if (id) await api("DELETE", `/api/compare/${id}`).catch(() => {});
}

/** The lab's "clear": its rows of the position shown forgotten. */
export function clearLab() {
  clearLabRows(positionKey());
  renderLab();
}

/** The lab's table, its chart and the watch, for the position shown. */
export function renderLab() {
  const key = positionKey();
  const rows = [...labRows(key).values()];
  const open = labOpen(key);
  $("lab-wrap").hidden = !rows.length;
  const body = $("lab-table").querySelector("tbody");
  const out = [];
  rows.forEach((e, i) => out.push(...labRow(e, i, key, open)));
  body.replaceChildren(...out);
  drawLabChart(rows);
  renderWatch();
}

/** A method's row of the lab (the ``i``-th), why it stopped under it, and its phases (shown
 * when open: its button opens and closes them). */
function labRow(e, i, key, open) {
  const out = [];
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
  return out;
}

/** Why a method stopped, in a few words ("stopped at the 1 s time limit"). */
function stoppedWhy(e) {
  const said = e.error.replace(/^limit reached: /, "").replace(new RegExp(`^${e.method} `), "");
  const short = said.split(/ after |[(;]/)[0].trim();
  return short.startsWith("stopped") ? short : `stopped: ${short}`;
}

/** The hatching of a stopped method's bars. */
function hatchPattern(add) {
  const defs = add("defs", {});
  const pattern = document.createElementNS(SVG_NS, "pattern");
  for (const [k, v] of Object.entries({ id: "hatch", width: "6", height: "6", patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" })) pattern.setAttribute(k, v);
  const stripe = document.createElementNS(SVG_NS, "rect");
  for (const [k, v] of Object.entries({ width: "3", height: "6", class: "hatch" })) stripe.setAttribute(k, v);
  pattern.appendChild(stripe);
  defs.appendChild(pattern);
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
  if (stopped) hatchPattern(add);
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
