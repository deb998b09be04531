// The clock of the player's solve and the solved moment: when the first move was made, when the
// goal was reached, whether the player's own move reached it, and whether a hint helped.

import { $, clockText } from "./dom.js";
import { pos } from "./position.js";
import { sameCells } from "./cells.js";

let clock = { began: null, stopped: null, timer: null };
let won = false;      // the player's own move reached the goal (the solved moment)
let assisted = false; // a hint was asked: the solve is not a personal best

export function startClock() {
  if (clock.began === null && !sameCells(pos.cells, pos.goal)) {
    clock.began = Date.now();
    clock.stopped = null;
    clock.timer = setInterval(renderClock, 500);
  } else if (clock.began === null) {
    clock.began = Date.now();
  }
}

export function stopClock() {
  if (clock.began !== null && clock.stopped === null) clock.stopped = Date.now();
  clearInterval(clock.timer);
  clock.timer = null;
}

export function resetClock() {
  clearInterval(clock.timer);
  clock = { began: null, stopped: null, timer: null };
  won = false;
  assisted = false;
}

/** The milliseconds the solve took (stopped), or has taken so far. */
export function clockMs() {
  return clock.began === null ? 0 : (clock.stopped || Date.now()) - clock.began;
}

export function renderClock() {
  $("timer").textContent = clockText(clockMs());
}

export function isWon() {
  return won;
}

export function setWon(on) {
  won = on;
}

export function wasAssisted() {
  return assisted;
}

export function markAssisted() {
  assisted = true;
}
