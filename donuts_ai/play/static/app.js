// The Donuts page: draws the state the server sends, and sends clicks back. No build step.
"use strict";

const $ = (id) => document.getElementById(id);
let options = null;
let state = null;
let busy = false;            // a request that changes the game is under way
let analysisToken = 0;       // only the newest analysis is drawn
let analysisCache = null;    // the last analysis received (for its fen)
let hint = null;             // {fen, move}: the hinted square, while the position stays
const squares = {};          // square name -> button

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError("cannot reach the server: is donuts-ai serve still running?", 0);
  }
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
  return data;
}

function say(text, error = false) {
  $("message").textContent = text || "";
  $("message").classList.toggle("error", error);
}

// --- think time: a log-scale slider --------------------------------------------------------
function thinkSeconds() {
  const lo = options.min_think, hi = options.max_think, v = Number($("think").value) / 100;
  const t = lo * Math.pow(hi / lo, v);
  return Math.round(t * 100) / 100;
}
function setThink(seconds) {
  const lo = options.min_think, hi = options.max_think;
  $("think").value = String(Math.round(100 * Math.log(seconds / lo) / Math.log(hi / lo)));
  showThink();
}
function showThink() {
  const kind = $("opponent").value;
  const timed = kind === "alphabeta" || kind === "mcts" || kind === "alphabeta+solver";
  $("think-value").textContent = timed ? `${thinkSeconds().toFixed(2)} s` : "(not used by this agent)";
  const agent = options.agents.find((a) => a.kind === kind);
  $("about-opponent").textContent = agent ? agent.about : "";
}

// --- the board ------------------------------------------------------------------------------
function buildOverlay(geometry) {
  const overlay = $("overlay");
  const pct = (x) => `${(x * 100).toFixed(4)}%`;
  overlay.style.left = overlay.style.top = pct(geometry.origin);
  overlay.style.width = overlay.style.height = pct(6 * geometry.cell);
  if (overlay.childElementCount) return;
  for (let rank = 6; rank >= 1; rank--) {
    for (const file of "abcdef") {
      const name = file + rank;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sq";
      button.dataset.square = name;
      button.addEventListener("click", () => clickSquare(name));
      overlay.appendChild(button);
      squares[name] = button;
    }
  }
}

function lineName(symbol) {
  return { "-": "horizontal line", "|": "vertical line", "/": "rising diagonal", "\\": "falling diagonal" }[symbol];
}

function render() {
  const s = state;
  $("board-svg").innerHTML = s.svg;   // drawn by the server (donuts_ai.donuts.svg.board_svg)
  buildOverlay(s.geometry);
  for (const sq of s.squares) {
    const b = squares[sq.name];
    b.className = "sq" + (sq.legal ? " legal" : "") + (sq.name === s.last ? " last" : "");
    delete b.dataset.value; delete b.dataset.distance;
    b.textContent = "";
    const what = sq.donut ? `${sq.donut} donut` : `empty, ${lineName(sq.line)}`;
    b.dataset.label = `${sq.name}: ${what}${sq.name === s.last ? ", placed last" : ""}${sq.legal ? ", legal move" : ""}`;
    b.setAttribute("aria-label", b.dataset.label);
  }
  const status = $("status");
  status.textContent = "";
  if (s.outcome) {
    status.append("Game over");
  } else {
    const chip = document.createElement("span");
    chip.className = `chip ${s.turn}`;
    const who = s.your_turn ? (s.you === "both" ? "" : " (you)") : ` (${s.opponent})`;
    status.append(chip, ` ${cap(s.turn)}${who} to move`, s.ai_to_move ? " — thinking…" : "");
  }
  $("rule").textContent = s.outcome ? "" : cap(s.constraint) + ` · placed: chocolate ${s.placed[0]}/${s.donuts}, vanilla ${s.placed[1]}/${s.donuts}`;
  const slot = $("outcome-slot");
  slot.textContent = "";
  if (s.outcome) {
    const banner = document.createElement("div");
    banner.id = "outcome";
    banner.setAttribute("role", "alert");
    banner.dataset.result = s.outcome.result;
    banner.textContent = s.outcome.text;
    const small = document.createElement("small");
    small.textContent = `${s.outcome.result} after ${s.plies.length} moves — undo to go back, or start a new game`;
    banner.appendChild(small);
    slot.appendChild(banner);
  }
  const moves = $("moves");
  moves.textContent = "";
  for (const p of s.plies) {
    const li = document.createElement("li");
    const chip = document.createElement("span");
    chip.className = `chip ${p.color}`;
    const by = document.createElement("span");
    by.className = "by";
    by.textContent = ` ${p.by}`;
    const flips = document.createElement("span");
    flips.className = "flips";
    flips.textContent = p.flips.length ? ` ×${p.flips.join(" ")}` : "";
    flips.title = p.flips.length ? `flipped ${p.flips.join(", ")}` : "";
    li.append(chip, ` ${p.square}`, flips, by);
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  const rules = s.rules.insertion === "group" && s.rules.donuts === 15 ? "official rules" : `${s.rules.insertion} insertion, ${s.rules.donuts} donuts`;
  $("game-info").textContent = `Layout ${s.layout.label}, ${rules}. ` + (s.you === "both" ? "You play both sides." : `You play ${s.you} against ${s.opponent}.`) + (s.info ? ` Last: ${s.info}.` : "");
  $("fen").textContent = s.fen;
  $("record").href = `/api/record?game=${encodeURIComponent(s.game)}`;
  $("undo").disabled = busy || !s.can_undo;
  $("hint").disabled = busy || !s.your_turn;
  $("resign").disabled = busy || !!s.outcome;
  $("verdict").textContent = "";
  $("verdict").removeAttribute("data-fen");
  $("legend").classList.add("hidden");
  if (hint && hint.fen === s.fen && squares[hint.move]) squares[hint.move].classList.add("hinted");
}

function cap(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

// --- analysis -------------------------------------------------------------------------------
// The server proves every move's exact value in the background; while it is at it, each
// answer says complete: false and the page asks again, drawing the moves proven so far
// (estimates for the others). Values known at once (the opening book's first moves) come in
// the first answer, and the distances fill in as the page asks again.
const ANALYSIS_POLL_MS = 300;
const ANALYSIS_CLASSES = ["v-win", "v-draw", "v-loss", "v-est-good", "v-est-bad", "proving"];

async function refreshAnalysis() {
  const token = ++analysisToken;
  document.body.dataset.analysis = "idle";
  if (!$("analysis").checked || !state || state.outcome || state.ai_to_move) return;
  let a = analysisCache && analysisCache.fen === state.fen ? analysisCache : null;
  if (!a || !a.complete) {
    if (!a) {
      document.body.dataset.analysis = "pending";
      $("verdict").innerHTML = '<span class="how">analysing…</span>';
    }
    try {
      a = await api("/api/analyze", { game: state.game });
    } catch (err) {
      if (token === analysisToken) { $("verdict").textContent = err.message; document.body.dataset.analysis = "failed"; }
      return;
    }
    analysisCache = a;
  }
  if (token !== analysisToken || !state || state.fen !== a.fen) return;   // the position moved on
  drawAnalysis(a);
  document.body.dataset.analysis = a.complete ? "done" : "proving";
  if (!a.complete) setTimeout(() => { if (token === analysisToken) refreshAnalysis(); }, ANALYSIS_POLL_MS);
}

function drawAnalysis(a) {
  for (const m of a.moves) {
    const b = squares[m.move];
    if (!b) continue;
    b.classList.remove(...ANALYSIS_CLASSES);
    const cls = m.value ? `v-${m.value}` : (m.score > 0 ? "v-est-good" : m.score < 0 ? "v-est-bad" : "");
    if (cls) b.classList.add(cls);
    if (!m.exact && !a.complete) b.classList.add("proving");
    b.dataset.value = m.value || "unknown";
    if (m.distance !== null) b.dataset.distance = String(m.distance); else delete b.dataset.distance;
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = m.short;
    b.textContent = "";
    b.appendChild(tag);
    b.setAttribute("aria-label", `${b.dataset.label}, ${m.text}`);
  }
  const v = $("verdict");
  const head = document.createElement("strong");
  head.textContent = "Who is winning: ";
  v.textContent = "";
  v.append(head, a.verdict + " ");
  const how = document.createElement("span");
  how.className = "how";
  const total = a.moves.length;
  const distances = a.moves.filter((m) => m.distance !== null).length;
  if (!a.complete && a.proven === total) how.textContent = `(every move's value exact; distances: ${distances} of ${total} proved so far, ${a.seconds.toFixed(1)} s)`;
  else if (!a.complete) how.textContent = `(proving: ${a.proven} of ${total} moves exact so far, ${a.seconds.toFixed(1)} s)`;
  else if (a.exact) how.textContent = `(exact, ${a.seconds.toFixed(2)} s)`;
  else how.textContent = `(${a.proven} of ${total} moves exact; the others are search estimates: their proofs passed the node limit)`;
  v.appendChild(how);
  v.dataset.fen = a.fen;
  v.dataset.exact = String(a.exact);
  v.dataset.complete = String(a.complete);
  $("legend").classList.toggle("hidden", a.proven === 0);
}

// --- actions --------------------------------------------------------------------------------
async function run(action) {
  if (busy) { say("Wait: the opponent is thinking.", true); return; }
  busy = true;
  document.body.dataset.busy = "1";
  try {
    await action();
  } catch (err) {
    say(err.message, true);
    if (err.status === 404 && state) sessionStorage.removeItem("donuts-game");
  } finally {
    busy = false;
    if (state) render();
    document.body.dataset.busy = "0";
    refreshAnalysis();
  }
}

async function opponentMoves() {
  while (state && state.ai_to_move) {
    render();
    state = await api("/api/reply", { game: state.game, think: thinkSeconds() });
  }
}

function clickSquare(name) {
  if (!state) return;
  if (busy) { say("Wait: the opponent is thinking.", true); return; }
  if (state.outcome) { say("The game is over: undo, or start a new game.", true); flash(name); return; }
  run(async () => {
    try {
      state = await api("/api/move", { game: state.game, square: name });
    } catch (err) {
      flash(name);
      throw err;
    }
    say("");
    await opponentMoves();
  });
}

function flash(name) {
  const b = squares[name];
  if (!b) return;
  b.classList.remove("flash");
  void b.offsetWidth;
  b.classList.add("flash");
}

function newGameBody() {
  const kind = $("layout-kind").value;
  const body = {
    color: $("color").value, opponent: $("opponent").value, think: thinkSeconds(),
    insertion: $("insertion").value, donuts: Number($("donuts").value),
  };
  if (kind === "fen") body.fen = $("fen-input").value.trim();
  else if (kind === "text") { body.layout = "text"; body.layout_text = $("layout-text").value; }
  else if ((kind === "random" || kind === "grid") && $("seed").value !== "") body.layout = `${kind}:${$("seed").value}`;
  else body.layout = kind;
  return body;
}

function newGame() {
  return run(async () => {
    const fresh = await api("/api/new", newGameBody());
    state = fresh;
    sessionStorage.setItem("donuts-game", state.game);
    const label = state.layout.label;
    if (/^(random|grid):/.test(label)) $("seed").value = label.split(":")[1];   // show the seed drawn
    say("");
    render();
    await opponentMoves();
  });
}

function layoutKindChanged() {
  const kind = $("layout-kind").value;
  $("seed-box").classList.toggle("hidden", !(kind === "random" || kind === "grid"));
  $("text-box").classList.toggle("hidden", kind !== "text");
  $("fen-box").classList.toggle("hidden", kind !== "fen");
  if (kind === "random" || kind === "grid") $("seed").value = "";
}

async function init() {
  document.body.dataset.busy = "0";
  options = await api("/api/options");
  const select = $("opponent");
  for (const a of options.agents) {
    const option = document.createElement("option");
    option.value = a.kind;
    option.textContent = a.kind;
    select.appendChild(option);
  }
  select.value = "mcts";
  setThink(options.default_think);
  $("think").addEventListener("input", showThink);
  select.addEventListener("change", showThink);
  $("layout-kind").addEventListener("change", layoutKindChanged);
  layoutKindChanged();
  $("new-game-form").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("undo").addEventListener("click", () => run(async () => {
    state = await api("/api/undo", { game: state.game });
    say("Took back your move.");
  }));
  $("resign").addEventListener("click", () => run(async () => { state = await api("/api/resign", { game: state.game }); }));
  $("hint").addEventListener("click", () => run(async () => {
    const h = await api("/api/hint", { game: state.game });
    hint = { fen: h.fen, move: h.move };
    say(`Hint: ${h.text}`);
  }));
  $("analysis").addEventListener("change", () => { if (state) { render(); refreshAnalysis(); } });
  const saved = sessionStorage.getItem("donuts-game");   // per tab: each tab plays its own game
  if (saved) {
    try {
      state = await api("/api/state", { game: saved });
      render();
      refreshAnalysis();
      if (state.ai_to_move) run(opponentMoves);
      return;
    } catch (err) {
      sessionStorage.removeItem("donuts-game");
    }
  }
  await newGame();
}

init().catch((err) => say(err.message, true));
