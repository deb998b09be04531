// The tabs beside the board (puzzle, solver, analysis, lab, review): the one shown, and the
// arrow keys between them.

import { $ } from "./dom.js";
import { renderBoard } from "./position.js";
import { refreshAnalysis } from "./analysis.js";
import { renderLab } from "./lab.js";

let tab = "puzzle";

export function showTab(name) {
  tab = name;
  for (const t of document.querySelectorAll("[role=tab]")) {
    const on = t.id === `tab-${name}`;
    t.setAttribute("aria-selected", on ? "true" : "false");
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  const wide = document.body.classList.contains("lab-open");
  document.body.classList.toggle("lab-open", name === "lab"); // the lab takes the page's width
  if (wide !== (name === "lab")) renderBoard();
  if (name === "analysis") refreshAnalysis();
  if (name === "lab") renderLab();
}

/** The tab shown follows the position: the analysis marks its distance, the lab shows its rows. */
export function renderTab() {
  if (tab === "analysis") refreshAnalysis();
  if (tab === "lab") renderLab();
}

export function tabKeys(ev) {
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
