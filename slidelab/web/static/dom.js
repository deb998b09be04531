// The page's DOM helpers and the words numbers are written in: no state, no imports.

export const SVG_NS = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

export function icon(name, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "icon" + (cls ? " " + cls : ""));
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#i-${name}`);
  svg.appendChild(use);
  return svg;
}

export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** An SVG chart `w` x `h` with its accessible label, and `add(tag, attrs, text)`, which
 * appends an element to it and returns it. */
export function newChart(w, h, label) {
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

/** Say something to a screen reader (the live region). */
export function announce(text) {
  $("announce").textContent = text;
}

/** "1 move", "2 moves" */
export function plural(n, word) {
  return `${Number(n).toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

export function num(n) {
  return n === null || n === undefined ? "–" : Number(n).toLocaleString("en");
}

export function secs(s) {
  if (s === null || s === undefined) return "–";
  return s < 0.01 ? s.toFixed(4) : s < 10 ? s.toFixed(3) : s.toFixed(1);
}

export function bytes(n) {
  if (n === null || n === undefined) return "–";
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${n < 10 && i ? n.toFixed(1) : Math.round(n)} ${units[i]}`;
}

export function clockText(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
