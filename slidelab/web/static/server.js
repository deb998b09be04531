// What the server says: its methods, heuristics and metrics (GET /api/methods) in the menus,
// its limits and defaults (GET /api/status) in the time fields, and its warm-up ("warming up"
// while it lasts, and the tables it builds now, which the solve's status line names).

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { metric } from "./position.js";

let methods = new Map(); // the server's methods by name
let limits = null;       // the server's limits and defaults, once it has said them

/** The server's limits and defaults (``GET /api/status``'s ``limits``): the page's time
 * fields take them, and the requests are held to them. */
function applyLimits(said) {
  if (!said) return;
  limits = said;
  for (const [id, value] of [["time-limit", said.time_limit], ["lab-time", said.lab_time_limit]]) {
    $(id).max = String(said.max_time_limit);
    $(id).value = String(value);
  }
}

/** Seconds from a time field, within the server's limits (its default where unreadable);
 * undefined before the server has said them: the request then leaves the time to its default. */
export function seconds(id, fallback) {
  if (!limits) return undefined;
  return Math.min(limits.max_time_limit, Math.max(0.1, parseFloat($(id).value) || limits[fallback]));
}

/** Nodes a lab run asks each search to record for the playback (the server's most), 0 before
 * the server has said its limits. */
export function recordLimit() {
  return limits ? limits.max_record || 0 : 0;
}

/** Fill the method, heuristic and metric menus (and the lab's) from the server's tables; what
 * went wrong, or null. */
export async function loadMethods() {
  let data;
  try {
    let status;
    [data, status] = await Promise.all([api("GET", "/api/methods"), api("GET", "/api/status").catch(() => null)]);
    applyLimits(status && status.limits);
  } catch (e) {
    return "error: cannot list the methods: " + e.message;
  }
  const option = (value, text, title) => {
    const o = document.createElement("option");
    o.value = value; o.textContent = text; o.title = title;
    return o;
  };
  methods = new Map(data.methods.map((m) => [m.name, m]));
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
  return null;
}

/** The heuristic menu is for the methods that take a heuristic; the methods offered are those
 * that search in the chosen metric. */
export function updateHeuristicMenu() {
  const m = metric();
  for (const o of $("method").options) {
    const info = methods.get(o.value);
    o.disabled = !!(info && info.metrics && !info.metrics.includes(m));
  }
  if ($("method").selectedOptions[0] && $("method").selectedOptions[0].disabled) $("method").value = "auto";
  const method = methods.get($("method").value);
  $("heuristic").disabled = !(method && method.options.includes("heuristic"));
}

// ------------------------------------------------------------------------------- the warm-up

let building = ""; // the tables the server's warm-up builds now (buildingText)

/** "; building the 6-6-3 pattern databases of the 4x4 goal" while the warm-up builds them;
 * "" when none. */
export function buildingNow() {
  return building;
}

/** "; building the 6-6-3 pattern databases of the 4x4 goal": the tables the server's warm-up
 * builds now (GET /api/status: tables), which the solves of their boards wait for (not on their
 * clock); "" when none. */
function buildingText(status) {
  const tables = status ? (status.tables || []).filter((t) => t.when === "first" && t.state === "building") : [];
  return tables.length ? `; building ${tables.map((t) => t.tables).join(", ")}` : "";
}

/** Say "warming up" while the server's first warm-up lasts (GET /api/status: warm_up), and
 * say when it is over. */
export async function watchServer(warming = false) {
  const e = $("server-status");
  let status = null;
  try { status = await api("GET", "/api/status"); } catch (err) { status = null; }
  if (status && !status.warm_up) {
    building = "";
    if (!warming) { e.hidden = true; return; }
    e.textContent = "warmed up: ready";         // said once, then the line goes
    e.className = "status ok";
    setTimeout(() => { e.hidden = true; }, 3000);
    return;
  }
  e.hidden = false;
  e.className = "status warn";
  building = buildingText(status);
  e.textContent = status ? `warming up: ${status.warm_up}${building}; solves wait for it...`
    : "server unreachable";
  setTimeout(() => watchServer(warming || !!status), 500);
}
