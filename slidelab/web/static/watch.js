// Watch the search: the lab's methods played back phase by phase (a layer, an iteration, a
// contour a step), side by side, stepping together; or node by node ("step by: node"), from
// the nodes the engine recorded (the entries' ``visits``: A*'s expansions with g, h, f and the
// open and closed counts, each breadth-first layer's first states), each drawn as a board.
//
// State: the step shown and the player's timer. ``renderWatch`` draws the whole panel from the
// lab's rows of the position shown (``watchRows``): the controls and the step
// (``renderWatchControls``), one chart a method (``watchChart``) and the words of the step
// (``renderWatchWords``).

import { $, el, num, SVG_NS } from "./dom.js";
import { positionKey } from "./position.js";
import { labRows } from "./labrows.js";
import { PHASE_WORDS } from "./phases.js";

const watch = { step: 0, timer: null }; // the phase shown, the player

/** Whether the watch steps node by node (the recorded visits) rather than phase by phase. */
function byNode() {
  return $("watch-by").value === "node";
}

/** A row's steps: its recorded nodes, or its phases. */
function stepsOf(e) {
  return byNode() ? e.visits || [] : e.phases || [];
}

/** The lab's rows of this position that can be watched: those with steps to show. */
function watchRows() {
  return [...labRows(positionKey()).values()].filter((e) => stepsOf(e).length);
}

/** The steps of the longest search watched. */
function watchSteps(rows) {
  return Math.max(0, ...rows.map((e) => stepsOf(e).length));
}

/** One recorded node in words: "expands 8 6 7/2 5 4/3 0 1: g 0, h 21, f 21; 3 open, 1 closed"
 * (A*), or "layer 1 (3 states): 8 6 7/2 0 4/3 5 1" (breadth-first). */
function visitText(e, v) {
  if (v.kind === "layer") {
    return `${e.method}: layer ${v.g}${v.side ? " " + v.side : ""} (${num(v.open)} states): ${v.board}`;
  }
  return `${e.method}: expands ${v.board}: g ${v.g}, h ${v.h}, f ${num(v.f)};`
    + ` ${num(v.open)} open, ${num(v.closed)} closed`;
}

/** One method's node at ``step``: its board drawn, and the node in words. */
function nodeFigure(e, step) {
  const visits = e.visits;
  const v = visits[Math.min(Math.max(step, 1), visits.length) - 1];
  const rows = v.board.split("/").map((r) => r.trim().split(/\s+/));
  const grid = el("div", { class: "watch-board", role: "img", "aria-label": `the node: ${v.board}`,
    style: `grid-template-columns: repeat(${rows[0].length}, 24px)` });
  for (const cell of rows.flat()) grid.append(el("span", { class: cell === "0" ? "blank" : "", text: cell === "0" ? "" : cell }));
  const caption = el("figcaption", { text: `${e.method} (${e.heuristic || "–"}), ${(e.metric || "").toUpperCase()}:`
    + ` node ${Math.min(step, visits.length)} of ${num(visits.length)} recorded` });
  const words = step === 0 ? "not started" : visitText(e, v).slice(e.method.length + 2);
  return el("figure", { class: "watch-chart" }, caption, grid, el("p", { class: "watch-node", text: words }));
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
export function renderWatch() {
  const rows = watchRows();
  $("watch").hidden = !rows.length;
  if (!rows.length) { stopWatch(); return; }
  renderWatchControls(watchSteps(rows));
  if (byNode()) {
    $("watch-charts").replaceChildren(...rows.map((e) => nodeFigure(e, watch.step)));
  } else {
    const top = Math.max(1, ...rows.flatMap((e) => e.phases.map((p) => p.generated || 0)));
    $("watch-charts").replaceChildren(...rows.map((e) => watchChart(e, watch.step, top)));
  }
  renderWatchWords(rows);
}

/** The step (within the ``steps`` of the longest search) and the back and forward buttons. */
function renderWatchControls(steps) {
  watch.step = Math.min(watch.step, steps);
  $("watch-pos").textContent = `step ${watch.step} of ${steps}`;
  $("watch-back").disabled = watch.step === 0;
  $("watch-fwd").disabled = watch.step >= steps;
}

/** What each method does at the step, in words (the live line under the charts). */
function renderWatchWords(rows) {
  const words = byNode() ? visitText : phaseText;
  const now = rows.filter((e) => watch.step > 0 && watch.step <= stepsOf(e).length)
    .map((e) => words(e, stepsOf(e)[watch.step - 1]));
  const done = rows.filter((e) => watch.step > stepsOf(e).length)
    .map((e) => `${e.method}: ${byNode() ? "no more nodes recorded" : "done"}`);
  $("watch-now").textContent = watch.step === 0 ? "step 0: nothing searched yet" : [...now, ...done].join("; ");
}

/** One method's chart: its phases up to ``step`` as bars, generated (light) and expanded
 * (dark) on a log scale up to ``top``, the current phase marked. */
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

/** From the start again (the steps changed: phases or nodes). */
export function restartWatch() {
  stopWatch();
  watch.step = 0;
  renderWatch();
}

/** A step back (``by`` -1) or forward (1). */
export function stepWatch(by) {
  watch.step = Math.max(0, watch.step + by);
  renderWatch();
}

/** Play the search back (from the start again when it is at its end), or pause it. */
export function toggleWatch() {
  if (watch.timer) { stopWatch(); return; }
  if (watch.step >= watchSteps(watchRows())) watch.step = 0; // from the start again
  $("watch-play").setAttribute("aria-label", "pause");
  $("watch-play").querySelector("span").textContent = "pause";
  const tick = () => {
    stepWatch(1);
    const left = watch.step < watchSteps(watchRows());
    watch.timer = left ? setTimeout(tick, 1000 / (parseFloat($("watch-speed").value) || 2)) : null;
    if (!left) stopWatch();
  };
  watch.timer = setTimeout(tick, 0);
}

export function stopWatch() {
  clearTimeout(watch.timer);
  watch.timer = null;
  $("watch-play").setAttribute("aria-label", "play");
  $("watch-play").querySelector("span").textContent = "play";
}
