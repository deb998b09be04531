// Watch the search: the lab's methods played back phase by phase (a layer, an iteration, a
// contour a step), side by side, stepping together.
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

/** The lab's rows of this position that can be watched: those whose search has phases. */
function watchRows() {
  return [...labRows(positionKey()).values()].filter((e) => (e.phases || []).length);
}

/** The steps of the longest search watched. */
function watchSteps(rows) {
  return Math.max(0, ...rows.map((e) => e.phases.length));
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
  const top = Math.max(1, ...rows.flatMap((e) => e.phases.map((p) => p.generated || 0)));
  $("watch-charts").replaceChildren(...rows.map((e) => watchChart(e, watch.step, top)));
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
  const now = rows.filter((e) => watch.step > 0 && watch.step <= e.phases.length)
    .map((e) => phaseText(e, e.phases[watch.step - 1]));
  const done = rows.filter((e) => watch.step > e.phases.length).map((e) => `${e.method}: done`);
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
