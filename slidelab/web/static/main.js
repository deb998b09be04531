// slidelab's page: plain JavaScript modules, no build step, no external libraries.
// This module starts the page: it wires what is drawn after a change (position.js's
// ``onRender``), what a new position ends (setup.js's ``onNewPosition``) and every control's
// listener, then opens the page where the address bar says.
//
// Imports point one way: dom, cells, api, phases (helpers) <- position (the position shown) <-
// the features (board, clock, hint, replay, play, solve, setup, lab, watch, analysis, review,
// address, share, tabs, server) <- main.

import { $, el } from "./dom.js";
import { solvedCells } from "./cells.js";
import { line, onRender, renderBoard } from "./position.js";
import { drawBoard, renderGoal, renderMoveList } from "./board.js";
import { renderClock } from "./clock.js";
import { askHint, renderDistance } from "./hint.js";
import { renderReplay, replayBack, replayFirst, replayForward, replayLast, replayTo, setSlide, stopPlaying,
  togglePlay } from "./replay.js";
import { clickTile, moveListClick, onKey, rejoin, renderBest, resetBest, resetPosition, swipeCancel, swipeEnd,
  swipeStart, undo } from "./play.js";
import { cancelSolve, renderStatus, setSolveMsg, solveJobId, startSolve } from "./solve.js";
import { linePuzzle, newBoard, onNewPosition, scheduleCheck, setPosition, shuffle, sizeChosen } from "./setup.js";
import { loadMethods, updateHeuristicMenu, watchServer } from "./server.js";
import { cancelLab, clearLab, labJobId, runLab } from "./lab.js";
import { restartWatch, stepWatch, stopWatch, toggleWatch } from "./watch.js";
import { clearReview, reviewListClick, reviewPlayed, runReview } from "./review.js";
import { setRestoring, updateUrl } from "./address.js";
import { copyText, loadFromHash } from "./share.js";
import { renderTab, showTab, tabKeys } from "./tabs.js";

/** What ``renderBoard`` shows, in order, and what a new position ends. */
function wire() {
  for (const fn of [drawBoard, renderReplay, renderMoveList, renderStatus, renderDistance, renderClock,
    renderBest, renderGoal, updateUrl, renderTab]) onRender(fn);
  onNewPosition(({ keepReview }) => { if (!keepReview) clearReview(); });
}

/** A page closed or left ends its jobs (the server would end them too, a few seconds after the
 * page stops asking: UNPOLLED_SECONDS); a request that outlives its page says so. */
function endJobs() {
  const paths = [];
  if (solveJobId()) paths.push(`/api/solve/${solveJobId()}`);
  if (labJobId()) paths.push(`/api/compare/${labJobId()}`);
  for (const path of paths) fetch(path, { method: "DELETE", keepalive: true }).catch(() => {});
}

/** The puzzle tab's and the board's listeners: setting up a position, and playing it. */
function listenPlay() {
  $("new-btn").addEventListener("click", newBoard);
  for (const id of ["width", "height"]) $(id).addEventListener("change", sizeChosen);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(renderBoard, 100);
  });
  $("line-btn").addEventListener("click", linePuzzle);
  $("board-input").addEventListener("input", scheduleCheck);
  $("goal-input").addEventListener("input", scheduleCheck);
  $("random-btn").addEventListener("click", () => shuffle());
  $("best-reset").addEventListener("click", resetBest);
  $("board").addEventListener("click", (ev) => {
    const t = ev.target.closest(".tile");
    if (t) clickTile(t);
  });
  $("board").addEventListener("pointerdown", swipeStart);
  $("board").addEventListener("pointerup", swipeEnd);
  $("board").addEventListener("pointercancel", swipeCancel);
  $("walk-btn").addEventListener("click", () => shuffle(Math.max(0, parseInt($("walk-moves").value, 10) || 0)));
  $("reset-btn").addEventListener("click", resetPosition);
  $("undo-btn").addEventListener("click", undo);
  $("hint-btn").addEventListener("click", () => askHint(false));
  $("move-list").addEventListener("click", moveListClick);
  document.addEventListener("keydown", onKey);
}

/** The solver tab's, the replay's and the copy buttons' listeners. */
function listenSolve() {
  $("method").addEventListener("change", updateHeuristicMenu);
  $("metric").addEventListener("change", () => { updateHeuristicMenu(); renderBoard(); });
  $("solve-btn").addEventListener("click", startSolve);
  // cancel takes solve's place once the solve is sent: a double click's second click on
  // solve lands on it (a click count of 2), and is not a cancel
  $("cancel-btn").addEventListener("click", (e) => { if (e.detail < 2) cancelSolve(); });
  $("rejoin-btn").addEventListener("click", rejoin);
  $("resolve-btn").addEventListener("click", startSolve);
  $("replay").addEventListener("click", () => { line.undoSteps = []; }, true);
  $("replay-slider").addEventListener("input", () => { line.undoSteps = []; }, true);
  $("first-btn").addEventListener("click", replayFirst);
  $("back-btn").addEventListener("click", replayBack);
  $("fwd-btn").addEventListener("click", replayForward);
  $("last-btn").addEventListener("click", replayLast);
  $("play-btn").addEventListener("click", togglePlay);
  $("replay-slider").addEventListener("input", (e) => { stopPlaying(); replayTo(parseInt(e.target.value, 10)); });
  $("speed").addEventListener("change", setSlide);
  $("copy-solution-btn").addEventListener("click", (e) => copyText("solution-text", e.currentTarget));
  $("copy-share-btn").addEventListener("click", (e) => copyText("share-url", e.currentTarget));
}

/** The tabs', the lab's, the watch's and the review's listeners. */
function listenPanels() {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => showTab(tab.id.replace("tab-", "")));
    tab.addEventListener("keydown", tabKeys);
  }
  $("lab-run").addEventListener("click", runLab);
  $("review-run").addEventListener("click", runReview);
  $("review-played").addEventListener("click", reviewPlayed);
  $("review-list").addEventListener("click", reviewListClick);
  $("watch-back").addEventListener("click", () => { stopWatch(); stepWatch(-1); });
  $("watch-fwd").addEventListener("click", () => { stopWatch(); stepWatch(1); });
  $("watch-play").addEventListener("click", toggleWatch);
  $("watch-by").addEventListener("change", restartWatch);
  $("lab-cancel").addEventListener("click", cancelLab);
  $("lab-clear").addEventListener("click", clearLab);
}

/** Every control's listener, and the address bar's and the page's own. */
function listen() {
  listenPlay();
  listenSolve();
  listenPanels();
  window.addEventListener("popstate", () => { loadFromHash(); });
  window.addEventListener("pagehide", endJobs);
  window.addEventListener("hashchange", () => { loadFromHash(); });
}

function init() {
  for (const id of ["width", "height"]) {
    const sel = $(id);
    for (let n = 2; n <= 10; n++) sel.appendChild(el("option", { value: String(n), text: String(n) }));
    sel.value = "3";
  }
  wire();
  listen();
  setSlide();
  watchServer();
  // the page opens where the address says, else on the last position played here, else on a
  // shuffled 4x4 (the solved board only until it comes)
  let last = null;
  try { last = localStorage.getItem("slidelab-last"); } catch (e) { last = null; }
  const hashAtStart = window.location.hash || last || "";
  const goal = solvedCells(4, 4);
  setRestoring(true);
  setPosition(goal, goal, 4, 4);
  setRestoring(false);
  if (hashAtStart) history.replaceState(null, "", hashAtStart); // restored below, once the menus are there
  loadMethods()
    .then((failed) => {
      if (failed) setSolveMsg([failed, "error"]);
      return hashAtStart ? loadFromHash() : shuffle();
    })
    .finally(() => { updateUrl(); document.body.dataset.ready = "yes"; });
}

init();
