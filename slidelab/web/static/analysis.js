// The analysis tab: the distance chart of the goal's whole space (POST /api/analyze), in the
// metric chosen, the position's distance marked once it is known.

import { api } from "./api.js";
import { $, el, SVG_NS } from "./dom.js";
import { formatCells } from "./cells.js";
import { metric, pos } from "./position.js";
import { currentHint } from "./hint.js";

const analyses = new Map(); // goal|metric -> analysis, or {error}; null while on its way
let analysisTimer = null;

/** The distance chart of the goal's whole space (the server analyses spaces up to its limit;
 * beyond, its reason is shown), in the metric chosen, the position's distance marked. */
export function refreshAnalysis() {
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(drawAnalysis, 60);
}

async function drawAnalysis() {
  const goal = formatCells(pos.goal, pos.W);
  const m = metric();
  const key = `${goal}|${m}`;
  let data = analyses.get(key);
  if (data === undefined) {
    analyses.set(key, null); // on its way
    $("chart-box").hidden = true; // the chart shown is another goal's or metric's
    $("chart-status").className = "status";
    $("chart-status").textContent = "analysing every arrangement...";
    try {
      data = await api("POST", "/api/analyze", { goal, metric: m });
      analyses.set(key, data);
    } catch (e) {
      data = { error: e.message, status: e.status };
      // the server's reason (400: too many arrangements) is kept; a busy server is asked again later
      if (e.status === 400 || e.status === 422) analyses.set(key, data);
      else analyses.delete(key);
    }
    if (key !== `${formatCells(pos.goal, pos.W)}|${metric()}`) return;
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
