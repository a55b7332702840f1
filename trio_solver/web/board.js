// The Trio web board: plain modern JavaScript, no build step. Every computation is a call to the
// HTTP API of `trio-solver serve` (POST /v1/OP with the record in the body); the page keeps the
// record and the position and draws what the API answers.

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
};
const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

// -- the API --------------------------------------------------------------------------------

class ApiError extends Error {}

async function api(op, body = {}) {
  let resp;
  try {
    resp = await fetch(`/v1/${op}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(`The service cannot be reached (${e.message}).`);
  }
  let data;
  try { data = await resp.json(); } catch { throw new ApiError(`The service answered ${resp.status} without JSON.`); }
  if (!resp.ok) throw new ApiError(data.error || `The service answered ${resp.status}.`);
  return data;
}

// -- state ------------------------------------------------------------------------------------

const app = {
  mode: "record",
  record: null,      // the trio-record/1 object
  frames: [],        // replay frames for the chosen seat
  pos: 0,            // index into frames
  seat: "default",   // "default" | "all" | null | number
  replaySeat: null,  // the seat the replay answered for
  analysis: null,
  me: null,          // table/play mode: my seat
  playBot: "memory",
  busy: 0,
  token: 0,          // bumps when the position changes, so late answers are dropped
};

function showError(message) {
  const box = $("#error");
  box.textContent = message;
  box.hidden = !message;
}
function setStatus(message) { $("#status").textContent = message; }

async function guarded(fn) {
  try {
    app.busy++;
    document.body.dataset.busy = "1";
    setStatus("Working…");
    await fn();
    showError("");
  } catch (e) {
    showError(e instanceof ApiError ? e.message : `Error: ${e.message}`);
  } finally {
    app.busy--;
    if (!app.busy) {
      delete document.body.dataset.busy;
      if ($("#status").textContent === "Working…") setStatus("");
    }
  }
}

const names = () => (app.record && app.record.names) || null;
const seatName = (s) => (names() ? `${names()[s]} (seat ${s})` : `Seat ${s}`);
const shortReveal = (r) => ("centre" in r ? `c${r.centre}` : "lowest" in r ? `l${r.lowest}` : `h${r.highest}`);
const fmt = (x) => x.toFixed(4);
const pct = (x) => `${Math.round(x * 100)}%`;

// -- loading a record ------------------------------------------------------------------------------

async function loadRecord(doc, { seat = "default", pos = "last" } = {}) {
  if (typeof doc === "string") {
    try { doc = JSON.parse(doc); } catch (e) { throw new ApiError(`This is not JSON: ${e.message}`); }
  }
  await api("validate", { record: doc });
  app.record = doc;
  app.analysis = null;
  $("#chart").replaceChildren();
  $("#decisions").replaceChildren();
  app.seat = seat;
  fillSeatChoice();
  await replay(pos);
}

function fillSeatChoice() {
  const rec = app.record;
  const sel = $("#seat");
  const opts = [];
  const n = rec.rules.players;
  if (rec.deal) {
    opts.push(["all", "Every hand"]);
    for (let s = 0; s < n; s++) opts.push([String(s), seatName(s)]);
  } else if (rec.viewer) {
    opts.push([String(rec.viewer.seat), seatName(rec.viewer.seat)]);
  }
  opts.push(["none", "Spectator"]);
  sel.replaceChildren(...opts.map(([v, t]) => el("option", { value: v, text: t })));
  let want = app.seat;
  if (want === "default") want = rec.viewer ? rec.viewer.seat : rec.deal ? "all" : null;
  const value = want === null ? "none" : String(want);
  sel.value = opts.some(([v]) => v === value) ? value : opts[0][0];
  app.seat = parseSeat(sel.value);
  sel.disabled = app.mode === "play";
}

function parseSeat(v) { return v === "none" ? null : v === "all" ? "all" : Number(v); }

// the game being entered or played is kept in the browser, so a reload on the phone loses nothing
const SAVE_KEY = "trio-board-game";

function saveGame() {
  if (app.mode === "record" || !app.record) return;
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify({ mode: app.mode, me: app.me, bot: app.playBot, record: app.record }));
  } catch { /* private mode or full: the download button still works */ }
}

function savedGame() {
  try { return JSON.parse(localStorage.getItem(SAVE_KEY) || "null"); } catch { return null; }
}

function offerResume() {
  const g = savedGame();
  $("#resume-box").hidden = !g;
  if (g) $("#resume").textContent = `Resume the ${g.mode === "play" ? "game against the bots" : "game at the table"} `
    + `(${g.record.events.length} events)`;
}

async function resume() {
  const g = savedGame();
  if (!g) return;
  setMode(g.mode);
  app.me = g.me;
  app.playBot = g.bot || "memory";
  await loadRecord(g.record, { seat: g.me });
  if (g.mode === "table") $("#entry").hidden = false;
  if (g.mode === "play") { $("#play-moves").hidden = false; await botsMove(); }
  $("#resume-box").hidden = true;
}

async function replay(pos = "keep") {
  saveGame();
  const data = await api("replay", { record: app.record, seat: app.seat });
  app.frames = data.frames;
  app.replaySeat = data.seat;
  const last = app.frames.length - 1;
  app.pos = pos === "last" ? last : pos === "keep" ? Math.min(app.pos, last) : Math.max(0, Math.min(pos, last));
  for (const id of ["#board", "#beliefs-panel", "#advice-panel", "#analysis-panel"]) $(id).hidden = false;
  $("#analysis-panel").hidden = app.mode === "play" && !gameOver();
  await showPosition();
}

function gameOver() { return app.frames.length && app.frames[app.frames.length - 1].winner !== null; }

// -- drawing the position ----------------------------------------------------------------------------

async function showPosition() {
  const fr = app.frames[app.pos];
  const total = app.frames.length - 1;
  const slider = $("#slider");
  slider.max = String(total);
  slider.value = String(app.pos);
  $("#position").textContent = `After ${app.pos} of ${total} events — ` + (fr.winner !== null
    ? `${seatName(fr.winner)} won` : `${seatName(fr.to_move)} to move${fr.turn.length ? " (turn in progress)" : ""}`);
  $("#event-desc").textContent = app.pos === 0 ? "Start of the game" : `Event ${app.pos - 1}: ${fr.description}`;
  drawTable(fr, null);
  const token = ++app.token;
  showChances(fr, token);  // playouts take longer: not waited for
  await Promise.all([showBeliefs(fr, token), showAdvice(fr, token)]);
  await updateModeControls(fr);
}

const EVAL_SAMPLES = 200;

async function showChances(fr, token) {
  const box = $("#chances");
  const seat = beliefsSeat(fr);
  let data;
  try {
    data = await api("evaluate", { record: app.record, after: app.pos, seat, samples: EVAL_SAMPLES, seed: 0 });
  } catch (e) {
    if (token === app.token) box.replaceChildren(el("p", { class: "hint", text: e.message }));
    return;
  }
  if (token !== app.token) return;
  const rows = Object.entries(data.win_chance).map(([s, p]) => el("div", { class: "chance", "data-seat": s },
    el("span", { class: "cname", text: seatName(Number(s)) }),
    el("span", { class: "cbar" }, el("span", { style: `width:${(p * 100).toFixed(1)}%;background:${COLOURS[s % 6]}` })),
    el("span", { class: "cval", text: `${pct(p)} ± ${pct(data.stderr[s])}` })));
  box.replaceChildren(el("h3", { text: "Chance to win the game" }), ...rows);
}

function beliefsSeat(fr) {
  // whose information the beliefs use: the chosen seat; for "every hand" the seat to move
  if (app.replaySeat === "all") return fr.to_move;
  return app.replaySeat;
}

function certain(dist) {
  if (!dist) return null;
  for (const [v, p] of Object.entries(dist)) if (p > 1 - 1e-9) return Number(v);
  return null;
}

function faceUpInHands(fr) {
  // cards of the turn in progress that lie face up at a hand end: seat -> Map(index -> value)
  const out = new Map();
  const depth = new Map();
  for (const t of fr.turn) {
    const m = /^([lh])(\d+)=(\d+)$/.exec(t);
    if (!m) continue;
    const seat = Number(m[2]), key = m[1] + m[2];
    const d = depth.get(key) || 0;
    depth.set(key, d + 1);
    const size = fr.hands[seat].size;
    if (!out.has(seat)) out.set(seat, new Map());
    out.get(seat).set(m[1] === "l" ? d : size - 1 - d, Number(m[3]));
  }
  return out;
}

function drawTable(fr, beliefs) {
  const upCards = faceUpInHands(fr);
  const rows = fr.hands.map((h) => {
    const s = h.seat;
    const cards = [];
    const upHere = upCards.get(s) || new Map();
    if (h.cards) {
      h.cards.forEach((v, i) => cards.push(el("span", { class: `card${upHere.has(i) ? " up" : ""}`, text: String(v),
        title: upHere.has(i) ? "face up this turn" : null })));
    } else {
      const lo = beliefs ? certain(beliefs.lowest[String(s)]) : null;
      const hi = beliefs ? certain(beliefs.highest[String(s)]) : null;
      for (let i = 0; i < h.size; i++) {
        let v = null;
        if (i === 0 && lo !== null) v = lo;
        if (i === h.size - 1 && hi !== null) v = hi;
        if (upHere.has(i)) v = upHere.get(i);
        cards.push(el("span", { class: `card back${v !== null ? " known" : ""}${upHere.has(i) ? " up" : ""}`, text: v !== null ? String(v) : "",
          title: v !== null ? `known: ${i === 0 ? "lowest" : "highest"} card is ${v}` : "hidden card" }));
      }
    }
    if (!h.size) cards.push(el("span", { class: "card empty", text: "–", title: "no card left" }));
    const trios = fr.trios[s].map((v) => el("span", { class: "set", title: `trio of ${v}s` },
      ...[0, 1, 2].map(() => el("span", { class: "card trio", text: String(v) }))));
    const cls = ["seat"];
    if (fr.winner === s) cls.push("winner");
    else if (fr.winner === null && fr.to_move === s) cls.push("to-move");
    return el("div", { class: cls.join(" "), "data-seat": s },
      el("div", { class: "who" }, seatName(s),
        el("small", { text: `${h.size} cards${fr.winner === s ? " · winner" : fr.winner === null && fr.to_move === s ? " · to move" : ""}` })),
      el("div", { class: "cards" }, cards),
      trios.length ? el("div", { class: "trios" }, trios) : null);
  });
  const centre = fr.centre.length ? el("div", { class: "centre" }, el("h3", { text: "Centre" }),
    el("div", { class: "cards" }, fr.centre.map((c) => el("div", { class: "slot" },
      c.present
        ? el("span", { class: `card${c.known === null ? " back" : ""}${c.face_up ? " up" : ""}`,
          text: c.known === null ? "" : String(c.known),
          title: c.known === null ? `slot ${c.slot}: never shown` : `slot ${c.slot}: ${c.known}` })
        : el("span", { class: "card empty", text: "–", title: `slot ${c.slot}: taken in a trio` }),
      `c${c.slot}`)))) : null;
  const up = fr.turn.length ? el("p", { class: "faceup", text: `Face up this turn: ${fr.turn.join(" ")}` }) : null;
  $("#table").replaceChildren(...rows, centre || "", up || "");
}

function distBox(name, dist, title) {
  const probs = [];
  for (let v = 1; v <= 12; v++) probs.push(dist[String(v)] || 0);
  const best = probs.indexOf(Math.max(...probs));
  const sorted = Object.entries(dist).sort((a, b) => b[1] - a[1]);
  const label = sorted.map(([v, p]) => `${v}: ${pct(p)}`).join(", ");
  return el("div", { class: "dist", "data-name": name, role: "img", "aria-label": `${title}: ${label}`, title: label },
    el("div", { class: "name" }, el("span", { text: name }), el("span", { class: "top", text: `${best + 1} · ${pct(probs[best])}` })),
    el("div", { class: "bars" }, probs.map((p) => el("span", { class: p ? "" : "zero", style: `height:${Math.max(2, p * 100)}%` }))),
    el("div", { class: "axis" }, probs.map((_, i) => el("span", { text: String(i + 1) }))));
}

async function showBeliefs(fr, token) {
  const seat = beliefsSeat(fr);
  $("#beliefs-who").textContent = seat === null ? "What a spectator can infer." : `What ${seatName(seat)} can infer.`;
  let data;
  try {
    data = await api("beliefs", { record: app.record, after: app.pos, seat });
  } catch (e) {
    if (token !== app.token) return;
    $("#beliefs").replaceChildren(el("p", { class: "hint", text: e.message }));
    return;
  }
  if (token !== app.token) return;
  app.beliefs = data;
  drawTable(fr, data);
  const boxes = [];
  for (const [slot, d] of Object.entries(data.centre)) boxes.push(distBox(`c${slot}`, d, `centre slot ${slot}`));
  for (const s of Object.keys(data.lowest)) {
    boxes.push(distBox(`l${s}`, data.lowest[s], `lowest card of seat ${s}`));
    boxes.push(distBox(`h${s}`, data.highest[s], `highest card of seat ${s}`));
  }
  const ded = data.deductions.length ? el("ul", { class: "hint" }, data.deductions.slice(0, 12).map((d) => el("li", { text: d }))) : null;
  $("#beliefs").replaceChildren(el("div", { class: "dists" }, boxes), ded || "",
    data.approximate ? el("p", { class: "hint", text: "Approximate: secret swaps beyond the tracking budget." }) : "");
}

async function showAdvice(fr, token) {
  const body = $("#advice tbody");
  const note = $("#advice-note");
  const mover = fr.to_move;
  const knows = app.replaySeat === "all" || app.replaySeat === mover;
  if (fr.winner !== null) { body.replaceChildren(); note.textContent = "The game is over."; return; }
  if (!knows || (app.mode === "play" && !app.hint)) {
    body.replaceChildren();
    note.textContent = app.mode === "play" ? "Press Hint for advice on your move."
      : app.record.deal ? `Advice is for the seat to move (${seatName(mover)}): view the game as that seat to see it.`
        : `Advice appears when it is ${seatName(app.record.viewer ? app.record.viewer.seat : mover)}'s turn: the record knows only that hand.`;
    return;
  }
  const objective = $("#objective").value;
  let data;
  try {
    data = await api("advise", { record: app.record, after: app.pos, seat: mover, objective });
  } catch (e) {
    if (token !== app.token) return;
    body.replaceChildren();
    note.textContent = e.message;
    return;
  }
  if (token !== app.token) return;
  const hasGame = data.reveals.some((r) => "p_game" in r);
  document.querySelectorAll(".game-col").forEach((c) => { c.hidden = !hasGame; });
  note.textContent = `For ${seatName(data.seat)}, best first for the objective “${data.objective}”.`
    + (data.approximate ? " Approximate (secret swaps)." : "");
  const mine = app.mode !== "record" && mover === app.me;
  body.replaceChildren(...data.reveals.map((r) => {
    const short = shortReveal(r.reveal);
    const tr = el("tr", { "data-reveal": short, "data-p-trio": r.p_trio, "data-p-win": r.p_win, "data-p-game": r.p_game,
      class: mine && app.mode === "play" ? "clickable" : null },
      el("td", { text: short }), el("td", { text: fmt(r.p_trio) }), el("td", { text: fmt(r.p_win) }),
      hasGame ? el("td", { text: fmt(r.p_game) }) : null,
      hasGame ? el("td", { text: fmt(r.p_game_gap_stderr) }) : null);
    if (mine && app.mode === "play") tr.addEventListener("click", () => guarded(() => playMove(short)));
    return tr;
  }));
}

// -- stepping ----------------------------------------------------------------------------------

function go(pos) {
  if (!app.frames.length) return;
  const p = Math.max(0, Math.min(pos, app.frames.length - 1));
  if (p === app.pos) return;
  app.pos = p;
  guarded(showPosition);
}

document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if (t instanceof HTMLInputElement && t.type !== "range" || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const keys = { ArrowLeft: () => go(app.pos - 1), ArrowRight: () => go(app.pos + 1), Home: () => go(0),
    End: () => go(app.frames.length - 1) };
  if (keys[ev.key] && !$("#board").hidden) { ev.preventDefault(); keys[ev.key](); }
});

// -- analysis -----------------------------------------------------------------------------------

// "loss 0.12 ± 0.05": the loss of a decision with the standard error of the playouts' paired
// estimate when it was judged by the game (none when judged by the turn, which is exact)
function lossText(d, digits) {
  const se = d.loss_stderr === null || d.loss_stderr === undefined ? "" : ` ± ${d.loss_stderr.toFixed(digits)}`;
  return `loss ${d.loss.toFixed(digits)}${se}`;
}

async function analyse() {
  const seat = app.replaySeat === "all" ? null : app.replaySeat;
  const positions = app.frames.map((_, k) => k);
  const chances = new Array(positions.length);
  const queue = positions.slice();
  const worker = async () => {
    while (queue.length) {
      const k = queue.shift();
      chances[k] = (await api("evaluate", { record: app.record, after: k, seat, samples: 100, seed: 0 })).win_chance;
      setStatus(`Evaluating positions… ${chances.filter(Boolean).length}/${positions.length}`);
    }
  };
  const samples = Number($("#analyse-depth").value);  // playouts per reveal; 0: by the turn only
  const judged = api("analyse", { record: app.record, samples }).catch((e) => {
    if (e instanceof ApiError && /time limit/.test(e.message)) {
      throw new ApiError(`${e.message}: choose fewer playouts per reveal, or start the service with a longer --timeout.`);
    }
    throw e;
  });
  const [data] = await Promise.all([judged, worker(), worker()]);
  app.analysis = data;
  drawChart(data, chances, seat);
}

function drawChart(data, chances, viewSeat) {
  const W = 760, H = 280, L = 40, R = 10, T = 16, B = 30;
  const ds = data.decisions;
  const n = app.record.rules.players;
  const last = chances.length - 1 || 1;
  const x = (k) => L + (k / last) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group",
    "aria-label": "Each seat's chance to win the game over the events, with the decisions marked" });
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e5e5e5" }));
    const t = svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 10, fill: "#666" });
    t.textContent = `${v * 100}%`;
    s.append(t);
  }
  const xl = svg("text", { x: (W + L) / 2, y: H - 6, "text-anchor": "middle", "font-size": 11, fill: "#666" });
  xl.textContent = "events";
  s.append(xl);
  const point = (k, seat, label, text, r, stroke) => {
    const c = svg("circle", { cx: x(k), cy: y(chances[k][String(seat)]), r, fill: COLOURS[seat % 6], class: "pt",
      tabindex: 0, role: "button", "data-after": k, "aria-label": text });
    if (stroke) { c.setAttribute("stroke", stroke); c.setAttribute("stroke-width", 3); }
    const tip = svg("title");
    tip.textContent = text;
    c.append(tip);
    const open = () => go(k);
    c.addEventListener("click", open);
    c.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(); } });
    s.append(c);
    if (label) {
      const t = svg("text", { x: x(k), y: y(chances[k][String(seat)]) - 9, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#333" });
      t.textContent = label;
      s.append(t);
    }
  };
  for (let seat = 0; seat < n; seat++) {
    const pts = chances.map((c, k) => `${x(k)},${y(c[String(seat)])}`).join(" ");
    s.append(svg("polyline", { points: pts, fill: "none", stroke: COLOURS[seat % 6], "stroke-width": 2, opacity: 0.8 }));
  }
  // a decision of event k is made at the position after k events: mark it on the mover's line
  const marked = new Map();
  for (const d of ds) {
    const prev = marked.get(d.event);
    const rank = { blunder: 3, mistake: 2, inaccuracy: 1 };
    if (!prev || (rank[d.label] || 0) > (rank[prev.label] || 0)) marked.set(d.event, d);
  }
  for (const [k, d] of marked) {
    const sym = { blunder: "??", mistake: "?", inaccuracy: "?!" }[d.label] || null;
    const stroke = { blunder: "#b3261e", mistake: "#d2691e", inaccuracy: "#b07d00" }[d.label] || null;
    const text = `event ${k}: ${seatName(d.seat)} played ${shortReveal(d.played)}=${d.shown}, best ${shortReveal(d.best)}`
      + `, ${lossText(d, 3)}${d.label ? " — " + d.label : ""}; win chance ${pct(chances[k][String(d.seat)])}`;
    point(k, d.seat, sym, text, d.label ? 6 : 4, stroke);
  }
  if (!ds.length) chances.forEach((c, k) => point(k, 0, null, `position after ${k} events`, 3, null));
  const who = viewSeat === null ? "a spectator" : seatName(viewSeat);
  const legend = el("p", { class: "hint" }, `Seen by ${who}. `,
    Array.from({ length: n }, (_, seat) => el("span", { style: `color:${COLOURS[seat % 6]};margin-right:1rem` }, `● ${seatName(seat)}`)));
  $("#chart").replaceChildren(s, legend);
  const summary = data.seats.map((x) => `${seatName(x.seat)}: accuracy ${pct(x.accuracy)}, ${x.inaccuracies}/${x.mistakes}/${x.blunders} inaccuracies/mistakes/blunders`);
  const labelled = ds.filter((d) => d.label);
  $("#decisions").replaceChildren(
    ...summary.map((t) => el("li", { text: t })),
    ...labelled.map((d) => el("li", {}, el("button", { type: "button", class: `label-${d.label}`, onclick: () => go(d.event) },
      `event ${d.event}: ${seatName(d.seat)} played ${shortReveal(d.played)}=${d.shown} — ${d.label} (best ${shortReveal(d.best)}, ${lossText(d, 2)})`))),
    ...data.moments.map((m) => el("li", { class: "moment" }, el("button", { type: "button", onclick: () => go(m.event) }, m.text))));
}

// -- real table ----------------------------------------------------------------------------------

function parseHand(text) {
  const parts = text.trim().split(/[\s,;]+/).filter(Boolean);
  const vals = parts.map(Number);
  if (!parts.length || vals.some((v) => !Number.isInteger(v) || v < 1 || v > 12)) {
    throw new ApiError("Enter your hand as card values 1 to 12, separated by spaces.");
  }
  return vals;
}

async function startTable() {
  const players = Number($("#t-players").value);
  const seat = Number($("#t-seat").value), first = Number($("#t-first").value);
  if (!(seat >= 0 && seat < players)) throw new ApiError(`Your seat must be 0 to ${players - 1}.`);
  if (!(first >= 0 && first < players)) throw new ApiError(`The first player must be a seat 0 to ${players - 1}.`);
  const teams = $("#t-teams").value === "yes";
  if (teams && players !== 4 && players !== 6) throw new ApiError("Team play needs 4 or 6 players.");
  const doc = { format: "trio-record/1", rules: { players, mode: $("#t-mode").value, teams },
    first_player: first, viewer: { seat, hand: parseHand($("#t-hand").value) }, events: [] };
  app.me = seat;
  await loadRecord(doc, { seat });
  $("#entry").hidden = false;
}

let entryTarget = null;

async function updateModeControls(fr) {
  const last = app.pos === app.frames.length - 1;
  if (app.mode === "table" && app.record) await fillEntry(fr, last);
  if (app.mode === "play" && app.record) await fillPlay(fr, last);
}

async function legalNow() {
  const st = await api("state", { record: app.record, seat: app.seat });
  return st.legal;
}

async function fillEntry(fr, last) {
  const targets = $("#entry-targets"), values = $("#entry-values");
  if (!last || fr.winner !== null) {
    targets.replaceChildren(el("p", { class: "hint", text: fr.winner !== null ? "The game is over." : "Go to the last position to enter the next reveal." }));
    values.replaceChildren();
    return;
  }
  const legal = await legalNow();
  entryTarget = null;
  targets.replaceChildren(...legal.map((r) => el("button", { type: "button", "data-target": r, text: r,
    "aria-label": describeTarget(r), onclick: (ev) => chooseTarget(r, ev.currentTarget) })));
  values.replaceChildren(...Array.from({ length: 12 }, (_, i) => el("button", { type: "button", "data-value": i + 1,
    text: String(i + 1), "aria-label": `value ${i + 1}`, onclick: () => guarded(() => enterValue(i + 1)) })));
}

function describeTarget(r) {
  const k = r[0], n = Number(r.slice(1));
  return k === "c" ? `centre slot ${n}` : `${k === "l" ? "lowest" : "highest"} card of ${seatName(n)}`;
}

function chooseTarget(r, button) {
  entryTarget = r;
  document.querySelectorAll("#entry-targets button").forEach((b) => b.classList.toggle("chosen", b === button));
  // my own card: its value is known, no need to ask
  const own = app.beliefs && (r[0] === "l" ? app.beliefs.lowest : r[0] === "h" ? app.beliefs.highest : null);
  const mine = Number(r.slice(1)) === app.me && own ? certain(own[String(app.me)]) : null;
  if (mine !== null) { guarded(() => enterValue(mine)); return; }
  const first = document.querySelector("#entry-values button");
  if (first) first.focus();
}

async function enterValue(v) {
  if (!entryTarget) throw new ApiError("First choose where the card came from (a hand end or a centre slot).");
  await addMove(`${entryTarget}=${v}`);
}

function parseEntry(text) {
  const m = /^swap\s+(\d)\s+(\d)(?:\s+(\d+)\s+(\d+))?$/i.exec(text.trim());
  if (!m) return text;
  return { swap: [Number(m[1]), Number(m[2])], cards: m[3] === undefined ? null : [Number(m[3]), Number(m[4])] };
}

async function addMove(text) {
  const move = parseEntry(text);
  const res = await api("move", { record: app.record, reveal: move });
  if (typeof move !== "string") {
    app.record = res.record;
    setStatus(`${text}: swap recorded.`);
    await replay("last");
    return res;
  }
  app.record = res.record;
  app.hint = false;
  const outcome = { trio: "a trio!", failed: "no match: the turn passes.", won: "the game is won!", continue: "the turn goes on." }[res.status] || res.status;
  setStatus(`${text.includes("=") ? text : `${text}=${res.value}`}: ${outcome}`);
  await replay("last");
  return res;
}

function undoLast() {
  const evs = app.record.events;
  if (!evs.length) throw new ApiError("Nothing to undo.");
  const lastEv = evs[evs.length - 1];
  if (lastEv.reveals && lastEv.reveals.length > 1) lastEv.reveals.pop(); else evs.pop();
  return replay("last");
}

// -- play against the bots ------------------------------------------------------------------------------

async function startPlay() {
  const players = Number($("#p-players").value);
  const seat = Number($("#p-seat").value);
  if (!(seat >= 0 && seat < players)) throw new ApiError(`Your seat must be 0 to ${players - 1}.`);
  const seed = Number($("#p-seed").value) || 0;
  const res = await api("new_game", { rules: { players, mode: $("#p-mode").value }, seed });
  app.me = seat;
  app.playBot = $("#p-bot").value;
  app.hint = false;
  await loadRecord(res.record, { seat });
  $("#play-moves").hidden = false;
  await botsMove();
}

async function botsMove() {
  // the bots play until it is my turn or the game ends
  let guard = 0;
  while (app.mode === "play" && guard++ < 200) {
    const fr = app.frames[app.frames.length - 1];
    if (fr.winner !== null || fr.to_move === app.me) break;
    await new Promise((r) => setTimeout(r, 350));
    const seed = (Number($("#p-seed").value) || 0) * 1000 + app.record.events.length;
    const choice = await api("bot", { record: app.record, bot: app.playBot, seed });
    const res = await addMove(choice.reveal);
    setStatus(`${seatName(choice.seat)} reveals ${choice.reveal}=${res.value}: ${res.status}`);
  }
}

async function playMove(r) {
  await addMove(r);
  await botsMove();
}

async function fillPlay(fr, last) {
  const box = $("#play-legal");
  if (fr.winner !== null) {
    $("#play-prompt").textContent = fr.winner === app.me ? "You won!" : `${seatName(fr.winner)} won.`;
    box.replaceChildren();
    $("#analysis-panel").hidden = false;
    return;
  }
  if (!last || fr.to_move !== app.me) {
    $("#play-prompt").textContent = last ? `${seatName(fr.to_move)} is playing…` : "Go to the last position to play.";
    box.replaceChildren();
    return;
  }
  $("#play-prompt").textContent = fr.turn.length ? `Your turn goes on (face up: ${fr.turn.join(" ")})` : "Your move";
  const legal = await legalNow();
  box.replaceChildren(...legal.map((r) => el("button", { type: "button", "data-reveal": r, text: r,
    "aria-label": `reveal ${describeTarget(r)}`, onclick: () => guarded(() => playMove(r)) })));
}

// -- wiring ---------------------------------------------------------------------------------------------

function setMode(mode) {
  app.mode = mode;
  document.querySelectorAll("button.mode").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
  for (const m of ["record", "table", "play"]) $(`#panel-${m}`).hidden = m !== mode;
  for (const id of ["#board", "#beliefs-panel", "#advice-panel", "#analysis-panel"]) $(id).hidden = true;
  app.record = null; app.frames = []; app.analysis = null; app.hint = false;
  $("#entry").hidden = true; $("#play-moves").hidden = true;
  $("#resume-box").hidden = true;
  showError("");
}

function download() {
  if (!app.record) return;
  const blob = new Blob([JSON.stringify(app.record, null, 1) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: `trio-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function init() {
  document.querySelectorAll("button.mode").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("#example").addEventListener("change", (ev) => {
    const name = ev.target.value;
    if (!name) return;
    guarded(async () => {
      const resp = await fetch(`/static/examples/${name}`);
      if (!resp.ok) throw new ApiError(`Example ${name} not found.`);
      await loadRecord(await resp.text());
    });
  });
  $("#file").addEventListener("change", (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    guarded(async () => {
      if (f.size > 8 * 1024 * 1024) throw new ApiError("This file is larger than 8 MB; a game record is a few kB.");
      await loadRecord(await f.text());
    });
  });
  $("#load-paste").addEventListener("click", () => guarded(() => loadRecord($("#paste").value)));
  $("#seat").addEventListener("change", (ev) => { app.seat = parseSeat(ev.target.value); guarded(() => replay("keep")); });
  $("#objective").addEventListener("change", () => guarded(showPosition));
  $("#slider").addEventListener("input", (ev) => go(Number(ev.target.value)));
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => go(app.pos - 1));
  $("#next").addEventListener("click", () => go(app.pos + 1));
  $("#last").addEventListener("click", () => go(app.frames.length - 1));
  $("#download").addEventListener("click", download);
  $("#analyse").addEventListener("click", () => guarded(analyse));
  $("#table-form").addEventListener("submit", (ev) => { ev.preventDefault(); guarded(startTable); });
  $("#entry-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("#entry-text").value.trim();
    guarded(async () => { await addMove(text); $("#entry-text").value = ""; $("#entry-text").focus(); });
  });
  $("#entry-undo").addEventListener("click", () => guarded(undoLast));
  $("#play-form").addEventListener("submit", (ev) => { ev.preventDefault(); guarded(startPlay); });
  $("#hint").addEventListener("click", () => { app.hint = true; guarded(showPosition); });
  $("#resume").addEventListener("click", () => guarded(resume));
  $("#forget").addEventListener("click", () => { localStorage.removeItem(SAVE_KEY); offerResume(); });
  offerResume();
  document.body.dataset.ready = "1";
}

init();
