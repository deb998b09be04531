// A search's phases (its layers, iterations or contours) as a table: the solution's details,
// the lab's rows and the watch's words share them.

import { el, num, secs } from "./dom.js";

/** What a phase's ``depth`` is, and its ``frontier``, by its kind. */
export const PHASE_WORDS = { layer: ["depth", "layer size"], iteration: ["bound", "frontier"], contour: ["f", "still open"] };

export function phasesDetails(phases) {
  const iter = phases[0].kind === "iteration";
  const d = el("details", {}, el("summary", { text: iter ? `${phases.length} iterations` : `${phases.length} layers` }));
  d.append(el("div", { class: "table-wrap" }, phasesTable(phases)));
  return d;
}

export function phasesTable(phases) {
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
