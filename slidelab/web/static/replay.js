// The replay of the solution shown: its step (a jump redraws the tiles), the player that plays
// it at the speed chosen, and the replay bar.

import { $ } from "./dom.js";
import { OPPOSITE, applyMove } from "./cells.js";
import { line, pos, renderBoard } from "./position.js";
import { resetTiles } from "./board.js";
import { setWon } from "./clock.js";

let playing = null; // timeout id while playing

/** Show the solution after its ``k`` moves (``force``: from its start, the moves off it
 * dropped). */
export function replayTo(k, force) {
  const sol = line.solution;
  if (!sol) return;
  k = Math.max(0, Math.min(sol.moves.length, k));
  if (line.detour.length || force) {
    line.detour = [];
    pos.cells = sol.start.slice();
    resetTiles();
    for (let j = 0; j < k; j++) pos.lastMoved = applyMove(pos.cells, pos.ids, pos.W, pos.H, sol.moves[j]);
  } else if (k === line.step + 1) {
    pos.lastMoved = applyMove(pos.cells, pos.ids, pos.W, pos.H, sol.moves[line.step]);
  } else if (k === line.step - 1) {
    pos.lastMoved = applyMove(pos.cells, pos.ids, pos.W, pos.H, OPPOSITE[sol.moves[k]]);
  } else if (k !== line.step) {
    pos.cells = sol.start.slice();
    resetTiles();
    for (let j = 0; j < k; j++) pos.lastMoved = applyMove(pos.cells, pos.ids, pos.W, pos.H, sol.moves[j]);
  }
  line.step = k;
  setWon(false);
  renderBoard();
}

/** The replay bar's buttons: to the start, a step back or forward (back on the solution where
 * the board left it), to the end. */
export function replayFirst() {
  stopPlaying();
  replayTo(0);
}

export function replayBack() {
  stopPlaying();
  replayTo(line.step - (line.detour.length ? 0 : 1));
}

export function replayForward() {
  stopPlaying();
  replayTo(line.step + (line.detour.length ? 0 : 1));
}

export function replayLast() {
  stopPlaying();
  replayTo(line.solution ? line.solution.moves.length : 0);
}

function speed() {
  return Math.min(50, Math.max(0.5, parseFloat($("speed").value) || 4));
}

/** The tiles' slide takes the time the speed leaves it. */
export function setSlide() {
  const ms = Math.min(300, Math.round(800 / speed()));
  document.documentElement.style.setProperty("--slide", `${ms}ms`);
}

export function togglePlay() {
  if (playing) { stopPlaying(); renderReplay(); return; }
  if (!line.solution) return;
  if (line.detour.length || line.step >= line.solution.moves.length) replayTo(line.detour.length ? line.step : 0, true);
  setSlide();
  const tick = () => {
    if (!line.solution || line.step >= line.solution.moves.length) { stopPlaying(); renderReplay(); return; }
    replayTo(line.step + 1);
    playing = setTimeout(tick, 1000 / speed());
    renderReplay();
  };
  playing = setTimeout(tick, 1000 / speed());
  renderReplay();
}

export function stopPlaying() {
  if (playing) { clearTimeout(playing); playing = null; }
}

export function renderReplay() {
  const sol = line.solution;
  $("replay").disabled = !sol;
  const n = sol ? sol.moves.length : 0;
  const slider = $("replay-slider");
  slider.max = String(n);
  slider.value = String(sol ? line.step : 0);
  const at = `${sol ? line.step : 0} / ${n}`;
  $("replay-pos").textContent = at;
  slider.setAttribute("aria-valuetext", `step ${at}`);
  const play = $("play-btn");
  play.setAttribute("aria-label", playing ? "pause" : "play");
  play.querySelector("use").setAttribute("href", playing ? "#i-pause" : "#i-play");
}
