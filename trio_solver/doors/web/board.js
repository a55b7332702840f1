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
const TEAM_NAMES = ["A", "B", "C"];
// the fewest pixels between two events on the analysis chart: a longer game scrolls sideways in its box
// rather than draw its points on top of each other
const MIN_GAP = 8;

// -- the API --------------------------------------------------------------------------------

class ApiError extends Error {}
// the service's messages place an event or a reveal by its 0-based index in the record (docs/RECORD.md); the
// board numbers both from 1, as its move list does ("event 3" is row 3)
const fromOne = (text) => text.replace(/\b(event|reveal) (\d+)\b/g, (_, word, k) => `${word} ${Number(k) + 1}`);
// the answer to a move of a game the board has dropped since (a new game, another record, another mode):
// nothing to show, nothing to change
class Dropped extends Error {}

// while the service is starting (its workers load the playout kernel, up to a minute on a machine's first
// run) a request is tried again every 2 s, for up to 3 minutes, and the status line says why
const STARTING_RETRIES = 90;

async function api(op, body = {}) {
  for (let attempt = 0; ; attempt++) {
    let resp;
    const signal = app.abort.signal;  // the game this request belongs to: dropped with it
    try {
      resp = await fetch(`/v1/${op}`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
      });
    } catch (e) {
      if (signal.aborted) throw new Dropped();
      throw new ApiError(`The service cannot be reached (${e.message}).`);
    }
    let data;
    try { data = await resp.json(); } catch {
      if (signal.aborted) throw new Dropped();
      throw new ApiError(`The service answered ${resp.status} without JSON.`);
    }
    if (resp.status === 503 && /is starting/.test(data.error || "") && attempt < STARTING_RETRIES) {
      const before = $("#status").textContent;
      setStatus("The service is starting (it loads its playout kernel); trying again in a moment…");
      await new Promise((r) => setTimeout(r, 2000));
      if (signal.aborted) throw new Dropped();
      setStatus(before);
      continue;
    }
    if (!resp.ok) throw new ApiError(data.error ? fromOne(data.error) : `The service answered ${resp.status}.`);
    return data;
  }
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
  chances: null,     // the analysis chart's win chances, one entry per position
  allFrames: null,   // whole-deal record viewed as a seat: the frames with every hand, for hindsight
  me: null,          // table/play mode: my seat
  playBot: "memory",
  busy: 0,
  moving: 0,         // moves (and the bots' answers) under way: while any is, a tap is ignored
  game: 0,           // bumps with every record or game asked for and every mode: what an older one asked is dropped
  abort: new AbortController(),  // aborts the requests of the game dropped last
  token: 0,          // bumps when the position changes, so late answers are dropped
  swapDecided: new Set(),  // play mode, team game: the swap moments decided (swapKey)
};

// a new record, game or mode: the requests of the one before are aborted, and its answers dropped
function newGame() {
  app.game++;
  app.swapDecided = new Set();
  app.abort.abort();
  app.abort = new AbortController();
  return app.game;
}

// after each await of a load: nothing more to do if another record, game or mode was asked for since
function still(game) {
  if (app.game !== game) throw new Dropped();
}

function showError(message) {
  const box = $("#error");
  box.textContent = message;
  box.hidden = !message;
  $("#error-bar").hidden = !message;
}
// at a real table the person entering the game is the record's viewer: the service's "the viewer's hand" is theirs
function inPlayersWords(message) {
  return app.mode === "table" ? message.replaceAll("the viewer's hand", "your hand") : message;
}
function setStatus(message) { $("#status").textContent = message; }

// runs a player's action: the last error is cleared as it starts, and its own shown; ``clears`` false for what
// the board does on its own (a redraw, the bots going on), which leaves an error in sight (an action that ends
// later than another's refusal leaves that refusal in sight too)
async function guarded(fn, clears = true) {
  try {
    app.busy++;
    document.body.dataset.busy = "1";
    setStatus("Working…");
    if (clears) showError("");
    await fn();
  } catch (e) {
    if (!(e instanceof Dropped)) showError(e instanceof ApiError ? inPlayersWords(e.message) : `Error: ${e.message}`);
  } finally {
    app.busy--;
    if (!app.busy) {
      delete document.body.dataset.busy;
      if ($("#status").textContent === "Working…") setStatus("");
    }
  }
}

const names = () => (app.record && app.record.names) || null;
// the right-to-left letters and the Arabic digits: a copy of trio_solver._text.RTL_CLASS (a test holds them equal)
const RTL = /[\u{5be}\u{5c0}\u{5c3}\u{5c6}\u{5d0}-\u{5ea}\u{5ef}-\u{5f4}\u{600}-\u{605}\u{608}\u{60b}\u{60d}\u{61b}-\u{64a}\u{660}-\u{669}\u{66b}-\u{66f}\u{671}-\u{6d5}\u{6dd}\u{6e5}-\u{6e6}\u{6ee}-\u{6ef}\u{6fa}-\u{70d}\u{70f}-\u{710}\u{712}-\u{72f}\u{74d}-\u{7a5}\u{7b1}\u{7c0}-\u{7ea}\u{7f4}-\u{7f5}\u{7fa}\u{7fe}-\u{815}\u{81a}\u{824}\u{828}\u{830}-\u{83e}\u{840}-\u{858}\u{85e}\u{860}-\u{86a}\u{870}-\u{88e}\u{890}-\u{891}\u{8a0}-\u{8c9}\u{8e2}\u{200f}\u{fb1d}\u{fb1f}-\u{fb28}\u{fb2a}-\u{fb36}\u{fb38}-\u{fb3c}\u{fb3e}\u{fb40}-\u{fb41}\u{fb43}-\u{fb44}\u{fb46}-\u{fbc2}\u{fbd3}-\u{fd3d}\u{fd50}-\u{fd8f}\u{fd92}-\u{fdc7}\u{fdf0}-\u{fdfc}\u{fe70}-\u{fe74}\u{fe76}-\u{fefc}\u{10800}-\u{10805}\u{10808}\u{1080a}-\u{10835}\u{10837}-\u{10838}\u{1083c}\u{1083f}-\u{10855}\u{10857}-\u{1089e}\u{108a7}-\u{108af}\u{108e0}-\u{108f2}\u{108f4}-\u{108f5}\u{108fb}-\u{1091b}\u{10920}-\u{10939}\u{1093f}\u{10980}-\u{109b7}\u{109bc}-\u{109cf}\u{109d2}-\u{10a00}\u{10a10}-\u{10a13}\u{10a15}-\u{10a17}\u{10a19}-\u{10a35}\u{10a40}-\u{10a48}\u{10a50}-\u{10a58}\u{10a60}-\u{10a9f}\u{10ac0}-\u{10ae4}\u{10aeb}-\u{10af6}\u{10b00}-\u{10b35}\u{10b40}-\u{10b55}\u{10b58}-\u{10b72}\u{10b78}-\u{10b91}\u{10b99}-\u{10b9c}\u{10ba9}-\u{10baf}\u{10c00}-\u{10c48}\u{10c80}-\u{10cb2}\u{10cc0}-\u{10cf2}\u{10cfa}-\u{10d23}\u{10d30}-\u{10d39}\u{10e60}-\u{10e7e}\u{10e80}-\u{10ea9}\u{10ead}\u{10eb0}-\u{10eb1}\u{10f00}-\u{10f27}\u{10f30}-\u{10f45}\u{10f51}-\u{10f59}\u{10f70}-\u{10f81}\u{10f86}-\u{10f89}\u{10fb0}-\u{10fcb}\u{10fe0}-\u{10ff6}\u{1e800}-\u{1e8c4}\u{1e8c7}-\u{1e8cf}\u{1e900}-\u{1e943}\u{1e94b}\u{1e950}-\u{1e959}\u{1e95e}-\u{1e95f}\u{1ec71}-\u{1ecb4}\u{1ed01}-\u{1ed3d}\u{1ee00}-\u{1ee03}\u{1ee05}-\u{1ee1f}\u{1ee21}-\u{1ee22}\u{1ee24}\u{1ee27}\u{1ee29}-\u{1ee32}\u{1ee34}-\u{1ee37}\u{1ee39}\u{1ee3b}\u{1ee42}\u{1ee47}\u{1ee49}\u{1ee4b}\u{1ee4d}-\u{1ee4f}\u{1ee51}-\u{1ee52}\u{1ee54}\u{1ee57}\u{1ee59}\u{1ee5b}\u{1ee5d}\u{1ee5f}\u{1ee61}-\u{1ee62}\u{1ee64}\u{1ee67}-\u{1ee6a}\u{1ee6c}-\u{1ee72}\u{1ee74}-\u{1ee77}\u{1ee79}-\u{1ee7c}\u{1ee7e}\u{1ee80}-\u{1ee89}\u{1ee8b}-\u{1ee9b}\u{1eea1}-\u{1eea3}\u{1eea5}-\u{1eea9}\u{1eeab}-\u{1eebb}]/u;
// a name holding a right-to-left letter between the Unicode isolates, so that it never reorders the text
// around it (a hand beside it would show reversed); other names as they are
const isolated = (n) => (RTL.test(n) ? `\u2068${n}\u2069` : n);
const seatName = (s) => (names() ? `${isolated(names()[s])} (seat ${s})` : `Seat ${s}`);
const shortName = (s) => (names() ? isolated(names()[s]) : `Seat ${s}`);
// a text of the server's (a key moment) with each right-to-left name isolated, longest names first
function isolateNames(text) {
  const rtl = (names() || []).filter((n) => n && RTL.test(n)).sort((x, y) => y.length - x.length);
  if (!rtl.length) return text;
  const re = new RegExp(rtl.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gu");
  return text.replace(re, (m) => `\u2068${m}\u2069`);
}
const shortReveal = (r) => ("centre" in r ? `c${r.centre}` : "lowest" in r ? `l${r.lowest}` : `h${r.highest}`);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
// a chance for people, as trio_solver.words.percent writes it: never 100% unless certain, "<1%" above 0
function pctN(p, digits) {
  const scale = 10 ** digits, x = p * 100 * scale;
  let n = Math.floor(x + 1e-9);
  if (x - n >= 0.5 - 1e-9) n += 1;
  if (p >= 1 - 1e-12) n = 100 * scale; else if (n >= 100 * scale) n = 100 * scale - 1;
  if (p > 0 && n === 0) return `<${(1 / scale).toFixed(digits)}%`;
  return `${(n / scale).toFixed(digits)}%`;
}
const pct = (p) => pctN(p, 0);
const pct1 = (p) => pctN(p, 1);
// small chances get a second decimal, so that two rows ranked apart never show the same figure
const pctFine = (p) => (p > 0 && p < 0.01 ? pctN(p, 2) : pct1(p));
const pm = (p, se) => (se === null || se === undefined ? pct1(p) : `${pct1(p)} ± ${pct1(se)}`);
const teamsOf = () => {
  const r = app.record.rules;
  if (!r.teams) return null;
  const half = r.players / 2;
  return Array.from({ length: half }, (_, t) => [t, t + half]);
};
const teamOf = (s) => { const t = teamsOf(); return t ? t.findIndex((x) => x.includes(s)) : -1; };
const sideName = (s) => {
  const t = teamsOf();
  if (!t) return seatName(s);
  const [a, b] = t[teamOf(s)];
  return `Team ${TEAM_NAMES[teamOf(s)]} (${shortName(a)} & ${shortName(b)})`;
};

// -- loading a record ------------------------------------------------------------------------------

async function loadRecord(doc, { seat = "default", pos = "last", game = newGame() } = {}) {
  try {
    if (typeof doc === "string") {
      try { doc = JSON.parse(doc); } catch (e) { throw new ApiError(`This is not JSON: ${e.message}`); }
    }
    await api("validate", { record: doc });
  } catch (e) {
    if (!(e instanceof Dropped) && app.game === game) keepShown(game);
    throw e;
  }
  still(game);
  app.record = doc;
  app.analysis = null;
  app.chances = null;
  $("#chart").replaceChildren();
  $("#decisions").replaceChildren();
  app.seat = seat;
  fillSeatChoice();
  await replay(pos);
}

// a record or game refused: the board keeps the one it shows, drawn again (its figures were dropped with it), and
// in a game against the bots the bots go on where they were stopped; the refusal stays in sight
function keepShown(game) {
  if (!app.record || !app.frames.length) return;
  guarded(async () => {
    await showPosition();
    if (app.mode === "play" && app.game === game) await moving(() => botsMove(game));
  }, false);
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
}

function parseSeat(v) { return v === "none" ? null : v === "all" ? "all" : Number(v); }

// the game being entered or played is kept in the browser, so a reload on the phone loses nothing
const SAVE_KEY = "trio-board-game";

function saveGame() {
  if (app.mode === "record" || !app.record) return;
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify({ mode: app.mode, me: app.me, bot: app.playBot, seed: app.seed,
      record: app.record, swaps: [...app.swapDecided] }));
  } catch { /* private mode or full: the download button still works */ }
}

function savedGame() {
  try { return JSON.parse(localStorage.getItem(SAVE_KEY) || "null"); } catch { return null; }
}

function offerResume() {
  const g = savedGame();
  $("#resume-box").hidden = !g;
  if (g) $("#resume").textContent = `Resume the ${g.mode === "play" ? "game against the bots" : "game at the table"} `
    + `(${plural(g.record.events.length, "event")})`;
}

// a new game takes the place of the one kept in the browser; a game at the table with events entered (which no
// seed deals again) is given up only when the player says so
function mayReplaceSaved() {
  const g = savedGame();
  if (!g || g.mode !== "table" || !g.record || !Array.isArray(g.record.events) || !g.record.events.length) return true;
  if (window.confirm(`Start a new game? The game at the table kept in this browser (${plural(g.record.events.length, "event")} `
    + "entered) will be lost: Download keeps it as a record.")) return true;
  setStatus("The game at the table is kept.");
  return false;
}

async function resume() {
  const g = savedGame();
  if (!g) return;
  setMode(g.mode);
  app.me = g.me;
  app.playBot = g.bot || "memory";
  app.seed = Number(g.seed) || 0;
  app.swapDecided = new Set(Array.isArray(g.swaps) ? g.swaps : []);  // a pass is in no record: it is kept here
  if (g.mode === "play") {  // the form shows the game resumed, so that "New game" deals one like it
    const r = g.record.rules;
    $("#p-players").value = String(r.players);
    $("#p-mode").value = r.mode;
    $("#p-teams").value = r.teams ? "yes" : "no";
    $("#p-bot").value = app.playBot;
    $("#p-seat").value = String(g.me);
    $("#p-seed").value = String(app.seed);
  } else if (g.record.viewer) {  // and at a table, the set-up the game was started with
    const r = g.record.rules;
    $("#t-players").value = String(r.players);
    $("#t-mode").value = r.mode;
    $("#t-teams").value = r.teams ? "yes" : "no";
    $("#t-seat").value = String(g.record.viewer.seat);
    $("#t-first").value = String(g.record.first_player);
    $("#t-hand").value = g.record.viewer.hand.join(" ");
  }
  await loadRecord(g.record, { seat: g.me, game: app.game });  // the game setMode began: its swaps kept
  if (g.mode === "table") $("#entry").hidden = false;
  if (g.mode === "play") { $("#play-moves").hidden = false; await moving(botsMove); }
  $("#resume-box").hidden = true;
}

async function replay(pos = "keep") {
  saveGame();
  const game = app.game;
  const data = await api("replay", { record: app.record, seat: app.seat });
  if (app.game !== game) throw new Dropped();
  app.frames = data.frames;
  app.replaySeat = data.seat;
  // against the bots the other hands stay hidden until the game is over; then any view, and hindsight, is open
  const open = app.mode !== "play" || gameOver();
  $("#seat").disabled = !open;
  // a whole-deal record seen by one seat (or a spectator) can also show where the cards really were
  const canHindsight = Boolean(app.record.deal) && data.seat !== "all" && open;
  $("#hindsight-box").hidden = !canHindsight;
  app.allFrames = null;
  if (canHindsight && $("#hindsight").checked) app.allFrames = (await api("replay", { record: app.record, seat: "all" })).frames;
  document.body.classList.toggle("hindsight-on", canHindsight && $("#hindsight").checked);
  const last = app.frames.length - 1;
  app.pos = pos === "last" ? last : pos === "keep" ? Math.min(app.pos, last) : Math.max(0, Math.min(pos, last));
  for (const id of ["#board", "#beliefs-panel", "#advice-panel", "#analysis-panel"]) $(id).hidden = false;
  $("#analysis-panel").hidden = app.mode === "play" && !gameOver();
  drawMoves();
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
    ? `${sideName(fr.winner)} won` : `${seatName(fr.to_move)} to move${fr.turn.length ? " (turn in progress)" : ""}`);
  $("#event-desc").textContent = app.pos === 0 ? "Start of the game" : `Event ${app.pos}: ${eventText(fr)}`;
  drawTable(fr);
  markMove();
  markChart();
  const token = ++app.token;
  computing();
  showChances(fr, token);  // playouts take longer: not waited for
  await Promise.all([showBeliefs(fr, token), showAdvice(fr, token)]);
  if (token !== app.token) return;  // another position is being drawn: its controls are the ones to show
  await updateModeControls(fr, token);
}

// while a request runs, the old figures go: they belong to another position (or another record)
function computing() {
  const wait = (text) => el("p", { class: "computing", text });
  $("#chances").replaceChildren(el("h3", { text: "Chance to win the game" }), wait("computing…"));
  $("#chances").setAttribute("aria-busy", "true");
  $("#beliefs").replaceChildren(wait("computing…"));
  $("#advice tbody").replaceChildren();
  $("#advice-note").textContent = "computing…";
}

async function showChances(fr, token) {
  const box = $("#chances");
  const seat = beliefsSeat(fr);
  let data;
  try {
    data = await api("evaluate", { record: app.record, after: app.pos, seat });
  } catch (e) {
    if (token === app.token && !(e instanceof Dropped)) box.replaceChildren(el("p", { class: "hint", text: e.message }));
    return;
  }
  if (token !== app.token) return;
  // one row per side: a team's partners share their chance
  const teams = teamsOf();
  const sides = teams || Object.keys(data.win_chance).map((s) => [Number(s)]);
  const rows = sides.map((seats) => {
    const s = seats[0], p = data.win_chance[String(s)], se = data.stderr[String(s)];
    return el("div", { class: "chance", "data-seat": s },
      el("span", { class: "cname", text: teams ? sideName(s) : seatName(s) }),
      el("span", { class: "cbar" }, el("span", { style: `width:${(p * 100).toFixed(1)}%;background:${COLOURS[s % 6]}` })),
      el("span", { class: "cval", text: pm(p, se) }));
  });
  box.removeAttribute("aria-busy");
  box.replaceChildren(el("h3", { text: "Chance to win the game" }), ...rows,
    el("p", { class: "hint", text: fr.winner !== null ? "The game is over."
      : `${data.samples} playouts, as ${seat === null ? "a spectator" : seatName(seat)}`
        + `${app.replaySeat === "all" ? " (the seat to move)" : ""} sees it.` }));
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

// where each seat sits: the viewer at the bottom, then clockwise (to its left, across, to its right)
const PLACES = { 3: ["b", "tl", "tr"], 4: ["b", "l", "t", "r"], 5: ["b", "l", "tl", "tr", "r"], 6: ["b", "l", "tl", "t", "tr", "r"] };

function bottomSeat(fr) {
  if (typeof app.replaySeat === "number") return app.replaySeat;
  if (app.me !== null && app.me !== undefined) return app.me;
  return 0;
}

function card(v, { pub = false, up = false, last = false, hind = false, trio = false, title = "" } = {}) {
  const cls = ["card", v === null ? "back" : `face v${v}`];
  if (pub) cls.push("pub");
  if (up) cls.push("up");
  if (last) cls.push("last");
  if (hind) cls.push("hind");
  if (trio) cls.push("trio");
  return el("span", { class: cls.join(" "), text: v === null ? "" : String(v), title: title || null,
    "aria-label": title || (v === null ? "hidden card" : `card ${v}`) });
}

function trioSets(fr, values) {
  // a side's trios as mini cards; in Picante the linked ones are ringed and the open links named
  const side = (fr.sides || []).find((sd) => values.some((v) => String(v) in sd.pairs_with));
  const linked = new Set((side ? side.links : []).flat());
  return values.map((v) => {
    const pairs = side ? side.pairs_with[String(v)] : null;
    return el("span", { class: `set${linked.has(v) ? " linked" : ""}`,
      title: `trio of ${v}s` + (linked.has(v) ? " (linked: the goal)" : pairs && pairs.length ? `; pairs with ${pairs.join(", ")}` : "") },
    ...[0, 1, 2].map(() => card(v, { trio: true })),
    pairs && pairs.length && !linked.has(v) ? el("span", { class: "links", text: `↔ ${pairs.join(", ")}` }) : null);
  });
}

function drawTable(fr) {
  const n = fr.hands.length;
  const places = PLACES[n];
  const bottom = bottomSeat(fr);
  const truth = app.allFrames && $("#hindsight").checked ? app.allFrames[app.pos] : null;
  const lastAt = new Set(fr.last.filter((x) => "seat" in x).map((x) => `${x.seat}:${x.position}`));
  const lastSlots = new Set(fr.last.filter((x) => "slot" in x).map((x) => x.slot));
  const viewer = typeof app.replaySeat === "number" ? app.replaySeat : null;
  const seats = fr.hands.map((h) => {
    const s = h.seat;
    const rel = (s - bottom + n) % n;
    const cards = [];
    // the two ends a request would show now: the first and last cards not face up
    const lo = h.up.indexOf(false), hi = h.up.lastIndexOf(false);
    for (let i = 0; i < h.size; i++) {
      const known = h.cards[i];
      const v = truth ? truth.hands[s].cards[i] : known;
      const pub = h.public[i] && known !== null;
      const title = v === null ? "hidden card"
        : known === null ? `${v}: where it really was (this view did not know it)`
          : pub ? (s === viewer ? `${v}: your card, and every player knows it` : `${v}: every player knows it`)
            : `${v}: known only to ${s === viewer ? "you" : "this view"}`;
      const c = card(v, { pub, up: h.up[i], last: lastAt.has(`${s}:${i}`), hind: truth !== null && known === null && v !== null, title });
      if (i === lo) c.dataset.reveal = `l${s}`;
      else if (i === hi) c.dataset.reveal = `h${s}`;
      cards.push(c);
    }
    if (!h.size) cards.push(el("span", { class: "card empty", text: "–", title: "no card left" }));
    const cls = ["seat", `pos-${places[rel]}`];
    const team = teamOf(s);
    if (team >= 0) cls.push(`team${team}`);
    if (fr.winner === s) cls.push("winner");
    else if (fr.winner === null && fr.to_move === s) cls.push("to-move");
    const status = fr.winner === s ? " · winner" : fr.winner === null && fr.to_move === s ? " · to move" : "";
    const sets = trioSets(fr, fr.trios[s]);
    return el("div", { class: cls.join(" "), "data-seat": s, style: `--order:${rel === 0 ? 99 : rel}` },
      el("div", { class: "who" }, el("span", { text: seatName(s) + (s === viewer ? " — you" : "") }),
        team >= 0 ? el("span", { class: `badge team${team}`, text: `team ${TEAM_NAMES[team]}`, title: `partners: ${teamsOf()[team].map(shortName).join(" & ")}` }) : null,
        el("small", { text: `${plural(h.size, "card")}${status}` })),
      el("div", { class: "cards" }, cards),
      sets.length ? el("div", { class: "trios" }, "trios", sets) : null);
  });
  // the middle of the table: the centre slots, the cards face up, and each side's progress to the goal
  const middle = [];
  if (fr.centre.length) {
    middle.push(el("div", { class: "label", text: "Centre" }), el("div", { class: "cards" }, fr.centre.map((c) => {
      let v = c.present ? c.known : null;
      if (truth && c.present) v = truth.centre[c.slot].known;
      const slotCard = c.present
        ? card(v, { pub: c.present && c.public, up: c.face_up, last: lastSlots.has(c.slot), hind: truth !== null && c.known === null,
          title: v === null ? `slot ${c.slot}: never shown` : c.known === null ? `slot ${c.slot}: ${v} (hindsight)` : `slot ${c.slot}: ${v}, every player knows it` })
        : el("span", { class: "card empty", text: "–", title: `slot ${c.slot}: taken in a trio` });
      if (c.present && !c.face_up) slotCard.dataset.reveal = `c${c.slot}`;
      return el("div", { class: "slot" }, slotCard, `c${c.slot}`);
    })));
  }
  if (fr.turn.length) middle.push(el("p", { class: "faceup", text: `Face up this turn: ${fr.turn.join(" ")}` }));
  const teams = teamsOf();
  if (teams || fr.mode === "picante") {
    middle.push(el("div", { class: "scores" }, fr.sides.map((sd) => {
      const s = sd.seats[0];
      const who = teams ? `Team ${TEAM_NAMES[teamOf(s)]}` : shortName(s);
      const goal = sd.goal;
      return el("div", { class: "side", "data-side": sd.seats.join("+") },
        teams ? el("span", { class: `badge team${teamOf(s)}`, text: who }) : el("span", { text: who }),
        el("span", { text: `${sd.trios.length ? sd.trios.join(", ") : "no trio"} · ${goal}` }));
    })));
  }
  const centre = el("div", { class: "centre" }, middle);
  const felt = $("#table");
  felt.className = `felt n${n}`;
  felt.replaceChildren(...seats, centre);
}

function distBox(name, dist, title) {
  const probs = [];
  for (let v = 1; v <= 12; v++) probs.push(dist[String(v)] || 0);
  const best = probs.indexOf(Math.max(...probs));
  const sorted = Object.entries(dist).sort((a, b) => b[1] - a[1]);
  const label = sorted.map(([v, p]) => `${v}: ${pct(p)}`).join(", ");
  return el("div", { class: "dist", "data-name": name, role: "img", "aria-label": `${title}: ${label}`, title: label },
    el("div", { class: "name" }, el("span", { text: name }), el("span", { class: "top", text: `${best + 1} · ${pct(probs[best])}` })),
    el("div", { class: "bars" }, probs.map((p, i) => el("span", { class: p ? `v${i + 1}` : "zero", style: `height:${Math.max(2, p * 100)}%` }))),
    el("div", { class: "axis" }, probs.map((_, i) => el("span", { text: String(i + 1) }))));
}

async function showBeliefs(fr, token) {
  const seat = beliefsSeat(fr);
  $("#beliefs-who").textContent = seat === null ? "What a spectator can infer." : `What ${seatName(seat)} can infer.`;
  let data;
  try {
    data = await api("beliefs", { record: app.record, after: app.pos, seat });
  } catch (e) {
    if (token !== app.token || e instanceof Dropped) return;
    $("#beliefs").replaceChildren(el("p", { class: "hint", text: e.message }));
    return;
  }
  if (token !== app.token) return;
  app.beliefs = data;
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
  $("#advice-plan").textContent = "";  // until this position's advice is in
  $("#advice").hidden = true;  // no table without rows: the note says why
  if (fr.winner !== null) { body.replaceChildren(); note.textContent = "The game is over."; return; }
  if (!knows || (app.mode === "play" && !app.hint)) {
    body.replaceChildren();
    // the note says what a person can do now: Hint shows only on my own move at the live position of a game
    // in progress, once any swap of my team is decided (fillPlay)
    const end = app.frames[app.frames.length - 1];
    note.textContent = app.mode === "play"
      ? (end.winner !== null ? "Hints are for a game in progress."
        : mover !== app.me ? "Advice is for your own moves."
          : app.pos !== app.frames.length - 1 ? "Go to the last position and press Hint for advice on your move."
            : mySwapTeam() ? "Give your partner a card, or pass, first: then press Hint for advice on your move."
              : "Press Hint for advice on your move.")
      : app.record.deal ? `Advice is for the seat to move (${seatName(mover)}): view the game as that seat to see it.`
        : `Advice appears when it is ${seatName(app.record.viewer ? app.record.viewer.seat : mover)}'s turn: the record knows only that hand.`;
    return;
  }
  const objective = $("#objective").value;
  let data;
  try {
    data = await api("advise", { record: app.record, after: app.pos, seat: mover, objective });
  } catch (e) {
    if (token !== app.token || e instanceof Dropped) return;
    body.replaceChildren();
    note.textContent = e.message;
    return;
  }
  if (token !== app.token) return;
  const hasGame = data.reveals.some((r) => "p_game" in r);
  document.querySelectorAll(".game-col").forEach((c) => { c.hidden = !hasGame; });
  const by = { turn: "this turn's worth, a win now counting as three trios",
    win: "the chance to win now, then the chance of a trio", trio: "the chance of a trio this turn",
    game: "the chance to win the game (playouts)" }[data.objective] || data.objective;
  // by the game, the playouts' noise: the service names the rows it does not tell apart from the first (a
  // phone shows no column title to say so)
  const best = data.reveals[0];
  const tied = (data.not_told_apart || []).map(shortReveal);
  note.textContent = `For ${seatName(data.seat)}, best first by ${by} (objective “${data.objective}”).`
    + (data.approximate ? " Approximate (secret swaps)." : "")
    + (hasGame ? " Win game is ± the playouts' error; gap ± is the error of a row's difference from the first, on the same deals."
      + (tied.length ? ` Not told apart from ${shortReveal(best.reveal)} by the playouts: ${tied.join(", ")}; `
        + "their chances this turn (win now, trio) are exact." : "") : "");
  const mine = app.mode !== "record" && mover === app.me && app.pos === app.frames.length - 1;
  body.replaceChildren(...data.reveals.map((r, i) => {
    const short = shortReveal(r.reveal);
    const tr = el("tr", { "data-reveal": short, "data-p-trio": r.p_trio, "data-p-win": r.p_win, "data-p-game": r.p_game,
      class: mine && app.mode === "play" ? "clickable" : null },
      el("td", { text: short, title: describeTarget(short) }), el("td", { text: pctFine(r.p_win) }),
      el("td", { text: pctFine(r.p_trio) }),
      hasGame ? el("td", { text: pm(r.p_game, r.p_game_stderr) }) : null,
      // the first row is what the gaps are measured from
      hasGame ? el("td", { text: i === 0 ? "—" : pct1(r.p_game_gap_stderr) }) : null);
    if (mine && app.mode === "play") tr.addEventListener("click", () => guarded(() => playMove(short)));
    return tr;
  }));
  $("#advice").hidden = false;
  const side = fr.sides.find((sd) => sd.seats.includes(data.seat));
  $("#advice-plan").textContent = best ? `The plan for ${shortReveal(best.reveal)} (${describeTarget(shortReveal(best.reveal))}): `
    + planText(best.plan, data.turn.length, side ? side.wins : []) : "";
}

// the advisor's plan, in words: the values the reveal most likely shows that can still make a trio, what to ask
// next and the chance of a trio then, every value whose trio wins the game (`wins`) among them and said so; the
// other values together (`shown`: cards face up in the turn before it)
function planText(plan, shown, wins = []) {
  const hopes = (plan || []).filter((step) => step.p_trio > 0).sort((a, b) => b.probability - a.probability);
  // no value it can show makes a trio: say how the turn ends, as the command's plan does (a value face up it can
  // still show makes a pair that no third card follows; any other value fails the turn at once)
  if (!hopes.length) {
    if (!shown) return "no trio can be made this turn: the turn goes on and fails at the first card that differs.";
    const dead = (plan || []).filter((step) => step.probability > 0);
    if (!dead.length) return "it cannot show the value face up: the turn fails whatever it shows.";
    const other = 1 - dead.reduce((p, step) => p + step.probability, 0);
    return dead.map((step) => `if it shows ${step.value} (${pct(step.probability)}), no trio of ${step.value}s can `
      + "follow: the turn goes on and fails at the first card that differs").join("; ")
      + (other > 1e-9 ? `; any other value (${pct(other)}) fails the turn` : "") + ".";
  }
  const says = (step) => `if it shows ${step.value} (${pct(step.probability)}), `
    + (step.then.length ? `then ${step.then.map(shortReveal).join(", then ")}: ${pctFine(step.p_trio)} chance of a trio`
      : "the trio is made")
    + (wins.includes(step.value) ? ", which wins the game" : "");
  const listed = hopes.filter((step, k) => k < 4 || wins.includes(step.value));
  const rest = hopes.filter((step) => !listed.includes(step)).reduce((p, step) => p + step.probability, 0);
  // the values with no trio after them: mid-turn a value unlike the one face up fails the turn at once; at the
  // start of a turn the turn goes on, and fails at the first card that differs
  const none = 1 - hopes.reduce((p, step) => p + step.probability, 0);
  return listed.map(says).join("; ")
    + (rest > 0 ? `; ${plural(hopes.length - listed.length, "more value")} (${pct(rest)}) that can still make one` : "")
    + (none > 1e-9 ? `; any other value (${pct(none)}) ${shown ? "fails the turn" : "leaves no trio this turn"}` : "") + ".";
}

// -- the move list ---------------------------------------------------------------------------

function moveChips(move) {
  return el("span", { class: "chips" }, move.reveals.map((t) => {
    const m = /^([clh]\d+)=(\d+)$/.exec(t);
    return el("span", { class: `chip${m ? ` v${m[2]}` : ""}`, text: t });
  }));
}

function drawMoves() {
  // one row per event, like a chess move list: who, the cards shown (on their colours), the outcome
  const items = app.frames.map((fr, k) => {
    let body;
    if (k === 0) body = [el("span", { class: "num", text: "0" }), el("span", { text: "Start of the game" })];
    else if (fr.move && "swap" in fr.move) {
      const [a, b] = fr.move.swap;
      body = [el("span", { class: "num", text: String(k) }),
        el("span", { class: "mv-who", text: `${shortName(a)} ⇄ ${shortName(b)}` }),
        el("span", { class: "out", text: fr.move.cards ? `swap ${fr.move.cards[0]} ⇄ ${fr.move.cards[1]}` : "secret swap" })];
    } else if (fr.move) {
      const out = { failure: "✗", trio: "✓", "in progress": "…" }[fr.move.outcome];
      body = [el("span", { class: "num", text: String(k) }), el("span", { class: "mv-who", text: shortName(fr.move.seat) }),
        moveChips(fr.move), el("span", { class: `out ${fr.move.outcome === "trio" ? "trio" : ""}`, text: fr.winner !== null && k === app.frames.length - 1 ? "✓ won" : out,
          title: { failure: "no match: the cards go back", trio: "a trio", "in progress": "turn in progress" }[fr.move.outcome] })];
    } else body = [el("span", { class: "num", text: String(k) }), el("span", { text: fr.description })];
    return el("li", { "data-after": k }, el("button", { type: "button", title: k ? eventText(fr) : "start", onclick: () => go(k) }, body));
  });
  $("#moves").replaceChildren(...items);
}

function markMove() {
  for (const li of document.querySelectorAll("#moves li")) {
    const here = Number(li.dataset.after) === app.pos;
    li.classList.toggle("current", here);
    if (here) {
      li.querySelector("button").setAttribute("aria-current", "step");
      const list = $("#moves");
      if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = li.offsetTop - list.clientHeight / 2;
      }
    } else li.querySelector("button").removeAttribute("aria-current");
  }
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

// "loss 12.0% (likely 3.0% to 21.0%)": the loss of a decision with the interval its label goes by when it was
// judged by the game, one range as the analysis's text gives it ("loss 12.0% ± 5.0%", the playouts' standard
// error, where there is no interval; none when judged by the turn, which is exact, nor for a loss known exactly);
// then the follow-up it is measured with, when the advisor's plan after a known card was clearly worse
function lossText(d) {
  const follow = d.follow_up ? `, with ${d.follow_up} next, the best follow-up` : "";
  if (d.loss_low === null || d.loss_low === undefined) return `loss ${pm(d.loss, d.loss_stderr)}${follow}`;
  if (pct1(d.loss_low) === pct1(d.loss_high)) return `loss ${pct1(d.loss)}${follow}`;
  return `loss ${pct1(d.loss)} (likely ${pct1(d.loss_low)} to ${pct1(d.loss_high)})${follow}`;
}

// "Turn 2, East, 2nd reveal: played l1=2 — inaccuracy (perhaps a blunder)": a decision named as the analysis's
// key moments name it, with the analysis's own verdict in words
function decisionText(d) {
  const nth = ["1st", "2nd", "3rd"][d.reveal_index] || `${d.reveal_index + 1}th`;
  return `Turn ${d.turn} (row ${d.event + 1}), ${seatName(d.seat)}, ${nth} reveal: played ${shortReveal(d.played)}=${d.shown}`
    + (d.verdict ? ` — ${d.verdict}` : "");
}

async function analyse() {
  const seat = app.replaySeat === "all" ? null : app.replaySeat;
  const byGame = $("#analyse-depth").value === "game";
  // by the game: the library's default analysis, the same verdict as the command and the HTML report
  // (the service runs it with its defaults); by the turn: exact, no playouts
  const data = await api("analyse", byGame ? { record: app.record } : { record: app.record, samples: 0 }).catch((e) => {
    if (e instanceof ApiError && /time limit/.test(e.message)) {
      throw new ApiError(`${e.message}: judge by the turn only, or start the service with a longer --timeout.`);
    }
    throw e;
  });
  let chances;
  if (data.curve && data.curve.length) {
    // the analysis's own curve (each side's chance after every turn, as the report draws it): a
    // position between two turns (a swap) keeps the chance of the turn before it
    const after = new Map(data.curve.map((c) => [c.event + 1, c.win_chance]));
    let c = data.curve[0].win_chance;
    chances = app.frames.map((_, k) => {
      c = after.get(k) || c;
      return Object.fromEntries(c.map((p, s) => [String(s), p]));
    });
  } else {
    // judged by the turn: each position evaluated as the evaluate command does, with its defaults
    chances = new Array(app.frames.length);
    const queue = app.frames.map((_, k) => k);
    const worker = async () => {
      while (queue.length) {
        const k = queue.shift();
        chances[k] = (await api("evaluate", { record: app.record, after: k, seat })).win_chance;
        setStatus(`Evaluating positions… ${chances.filter(Boolean).length}/${app.frames.length}`);
      }
    };
    await Promise.all([worker(), worker()]);
  }
  app.analysis = data;
  app.chances = chances;
  app.chartSeat = seat;
  drawChart(data, chances, seat);
}

function drawChart(data, chances, viewSeat) {
  // drawn at the chart's real width, so its text and points keep their size on a phone; a game too long for
  // that width keeps MIN_GAP pixels between two events and the chart scrolls sideways in its box
  const room = Math.max(300, Math.round($("#chart").clientWidth || 760));
  const phone = room < 560;
  const H = phone ? 230 : 280, L = 42, R = 12, T = 18, B = 40;
  const ds = data.decisions;
  const n = app.record.rules.players;
  const last = chances.length - 1 || 1;
  const W = Math.max(room, Math.ceil(L + R + last * MIN_GAP));
  const x = (k) => L + (k / last) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "group",
    "aria-label": "Each side's chance to win the game over the events, with the decisions marked" });
  if (W > room) s.style.width = `${W}px`;
  const text = (attrs, content) => { const t = svg("text", { "font-size": 12, fill: "#555", ...attrs }); t.textContent = content; s.append(t); return t; };
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e5e5e5" }));
    text({ x: L - 5, y: y(v) + 4, "text-anchor": "end" }, `${v * 100}%`);
  }
  // x ticks: a tick per event, a number every few so the numbers never run together
  const step = [1, 2, 5, 10, 20, 50, 100].find((k) => (x(k) - x(0)) >= 30) || 100;
  for (let k = 0; k <= last; k++) {
    const major = k % step === 0;
    s.append(svg("line", { class: "tick", x1: x(k), x2: x(k), y1: H - B, y2: H - B + (major ? 6 : 3), stroke: "#888" }));
    if (major) text({ x: x(k), y: H - B + 18, "text-anchor": "middle", class: "ticklabel" }, String(k));
  }
  text({ x: (W + L) / 2, y: H - 4, "text-anchor": "middle" }, "events");
  // one line per side; the chosen seat's side thick, the others thin
  const teams = teamsOf();
  const sides = teams || Array.from({ length: n }, (_, seat) => [seat]);
  const mine = viewSeat === null || viewSeat === undefined ? null : sides.findIndex((t) => t.includes(viewSeat));
  sides.forEach((seats, i) => {
    const seat = seats[0];
    const pts = chances.map((c, k) => `${x(k)},${y(c[String(seat)])}`).join(" ");
    s.append(svg("polyline", { class: "seatline", points: pts, fill: "none", stroke: COLOURS[seat % 6],
      "stroke-width": i === mine ? 3.5 : 1.6, opacity: mine === null || i === mine ? 0.95 : 0.55 }));
  });
  // the position shown: a dashed line that follows the slider and the move list
  s.append(svg("line", { class: "now", x1: x(app.pos), x2: x(app.pos), y1: T - 6, y2: H - B, stroke: "#333",
    "stroke-dasharray": "4 3", "stroke-width": 1.5 }));
  // a point's size follows the room between two events, so that neighbours never overlap in a long game on a
  // phone; every tap area lies under every point, and reaches at most halfway to the next event, so a tap on a
  // point opens that point's position
  const gap = (W - L - R) / last;
  const r0 = Math.min(phone ? 7 : 5, gap * 0.36);
  const grow = Math.min(2, gap * 0.06), ring = Math.min(3, Math.max(1, gap * 0.12));
  const hits = svg("g", { class: "hits" }), marks = svg("g", { class: "marks" }), labels = svg("g", { class: "labels" });
  s.append(hits, marks, labels);
  const shown = [];  // the boxes of the labels drawn: a label that would touch one is left out (the ring stays)
  const point = (k, seat, label, desc, big, stroke) => {
    const cx = x(k), cy = y(chances[k][String(seat)]);
    const open = () => openFromAnalysis(k);
    const hit = svg("circle", { class: "hit", cx, cy, r: Math.max(r0 + (big ? grow : 0), Math.min(phone ? 16 : 11, gap / 2)),
      fill: "transparent", "data-after": k });
    hit.addEventListener("click", open);
    const c = svg("circle", { cx, cy, r: big ? r0 + grow : r0, fill: COLOURS[seat % 6], class: "pt",
      tabindex: 0, role: "button", "data-after": k, "aria-label": desc });
    if (stroke) { c.setAttribute("stroke", stroke); c.setAttribute("stroke-width", ring); }
    const tip = svg("title");
    tip.textContent = desc;
    c.append(tip);
    c.addEventListener("click", open);
    c.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(); } });
    hits.append(hit);
    marks.append(c);
    if (!label) return;
    const box = { x: cx - 5 * label.length - 2, y: cy - r0 - 19, w: 10 * label.length + 4, h: 16 };
    if (shown.some((b) => b.x < box.x + box.w && box.x < b.x + b.w && b.y < box.y + box.h && box.y < b.y + b.h)) return;
    shown.push(box);
    const t = svg("text", { x: cx, y: cy - r0 - 6, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#222",
      class: "mark", "pointer-events": "none" });
    t.textContent = label;
    labels.append(t);
  };
  // the decisions of event k (numbered from 1, as in the move list) are marked at tick k, the position after
  // that event, on the mover's line: the worst of the event's reveals, all of them in its text
  const marked = new Map();
  for (const d of ds) {
    const k = d.event + 1;
    if (!marked.has(k)) marked.set(k, []);
    marked.get(k).push(d);
  }
  const rank = { blunder: 3, mistake: 2, inaccuracy: 1 };
  for (const [k, list] of marked) {
    const d = list.reduce((a, b) => ((rank[b.label] || 0) > (rank[a.label] || 0) ? b : a));
    const sym = { blunder: "??", mistake: "?", inaccuracy: "?!" }[d.label] || null;
    const stroke = { blunder: "#b3261e", mistake: "#d2691e", inaccuracy: "#b07d00" }[d.label] || null;
    // no better reveal is named for a loss not told apart from 0, as in the analysis's own tables
    const desc = list.map((x) => decisionText(x) + (!x.scored ? ""
      : x.verdict === "within noise" ? `; ${lossText(x)}` : `; best ${shortReveal(x.best)}, ${lossText(x)}`))
      .join(". ")
      + `. After it, ${seatName(d.seat)}'s chance to win: ${pct(chances[k][String(d.seat)])}`;
    point(k, d.seat, sym, desc, Boolean(d.label), stroke);
  }
  if (!ds.length) chances.forEach((c, k) => point(k, sides[0][0], null, `position after ${k} events`, false, null));
  // whose chances the lines are: the analysis's curve is a spectator's (or the keeper's of a record that knows
  // one hand), whatever seat the board shows; the curve judged by the turn is the shown seat's
  const seenBy = data.curve && data.curve.length ? data.viewer : viewSeat;
  const who = seenBy === null || seenBy === undefined ? "a spectator" : seatName(seenBy);
  const legend = el("p", { class: "hint" }, `Chances as ${who} sees them. `,
    sides.map((seats) => el("span", { style: `color:${COLOURS[seats[0] % 6]};margin-right:1rem;display:inline-block;max-width:100%;overflow-wrap:anywhere` },
      `●\u00a0${teams ? sideName(seats[0]) : seatName(seats[0])}`)));
  $("#chart").replaceChildren(el("div", { class: "chart-scroll" }, s), legend);
  markChart();
  const summary = data.seats.map((x) => `${seatName(x.seat)}: accuracy ${x.accuracy === null ? "-" : pct(x.accuracy)}, ${x.inaccuracies}/${x.mistakes}/${x.blunders} inaccuracies/mistakes/blunders`);
  const labelled = ds.filter((d) => d.label);
  $("#decisions").replaceChildren(
    ...summary.map((t) => el("li", { text: t })),
    el("li", { class: "hint", text: `Accuracy: ${data.accuracy_rule}. A label goes by the likely range of the loss.` }),
    ...labelled.map((d) => el("li", {}, el("button", { type: "button", class: `label-${d.label}`, onclick: () => openFromAnalysis(d.event + 1) },
      `${decisionText(d)}; best ${shortReveal(d.best)}, ${lossText(d)}`))),
    ...data.moments.map((m) => el("li", { class: "moment" }, el("button", { type: "button", onclick: () => openFromAnalysis(m.event + 1) }, isolateNames(m.text)))));
}

// a position opened from the analysis (a point of the chart, a decision, a key moment); on a phone, where the
// table lies far above the analysis, the table is scrolled into view to show it
function openFromAnalysis(k) {
  go(k);
  if (window.innerWidth < 760) $("#board").scrollIntoView({ block: "start" });
}

function markChart() {
  const line = document.querySelector("#chart line.now");
  if (!line || !app.chances) return;
  const first = document.querySelector("#chart .tick");
  const lastTick = document.querySelectorAll("#chart .tick");
  const x0 = Number(first.getAttribute("x1")), x1 = Number(lastTick[lastTick.length - 1].getAttribute("x1"));
  const x = x0 + (app.pos / Math.max(1, app.chances.length - 1)) * (x1 - x0);
  line.setAttribute("x1", x);
  line.setAttribute("x2", x);
  // a chart wider than its box keeps the position shown in view
  const box = document.querySelector("#chart .chart-scroll");
  if (box && box.scrollWidth > box.clientWidth && (x < box.scrollLeft + 20 || x > box.scrollLeft + box.clientWidth - 20)) {
    box.scrollLeft = Math.max(0, x - box.clientWidth / 2);
  }
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
  if (!mayReplaceSaved()) return;
  app.me = seat;
  await loadRecord(doc, { seat });
  $("#resume-box").hidden = true;  // the saved game is this one from now on
  $("#entry").hidden = false;
}

let entryTarget = null;

async function updateModeControls(fr, token) {
  const last = app.pos === app.frames.length - 1;
  if (app.mode === "table" && app.record) await fillEntry(fr, last, token);
  if (app.mode === "play" && app.record) await fillPlay(fr, last, token);
  if (token === app.token) markPlayable();
}

// the cards on the table that can be played (or entered) now answer a click or a tap, like the buttons
function tableButton(r) {
  if (app.mode === "play") return document.querySelector(`#play-legal button[data-reveal='${r}']`);
  if (app.mode === "table") return document.querySelector(`#entry-targets button[data-target='${r}']`);
  return null;
}

function markPlayable() {
  for (const c of document.querySelectorAll("#table .card[data-reveal]")) {
    const ok = Boolean(tableButton(c.dataset.reveal));
    c.classList.toggle("playable", ok);
    if (ok) { c.setAttribute("role", "button"); c.setAttribute("tabindex", "0"); }
  }
}

function tableClick(ev) {
  const c = ev.target.closest(".card.playable[data-reveal]");
  if (!c || (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ")) return;
  ev.preventDefault();
  const b = tableButton(c.dataset.reveal);
  if (b) b.click();
}

async function legalNow() {
  const st = await api("state", { record: app.record, seat: app.seat });
  return st.legal;
}

async function fillEntry(fr, last, token) {
  const targets = $("#entry-targets"), values = $("#entry-values");
  // beside the buttons, on a phone far from the table: whose turn it is and what is face up
  const mover = `${seatName(fr.to_move)}${fr.to_move === app.me ? " (you)" : ""} to move · `;
  const swaps = fr.swap_open.length && !fr.turn.length
    ? ` (before it, a swap of ${fr.swap_open.map((t) => `seats ${t.join(" and ")}`).join(" or ")} may come)` : "";
  $("#entry-now").replaceChildren(...(!last || fr.winner !== null ? []
    : fr.turn.length ? [`${mover}face up this turn: `, el("code", { text: fr.turn.join(" ") })] : [`${mover}a new turn${swaps}`]));
  if (!last || fr.winner !== null) {
    targets.replaceChildren(el("p", { class: "hint", text: fr.winner !== null ? "The game is over." : "Go to the last position to enter the next reveal." }));
    values.replaceChildren();
    return;
  }
  const legal = await legalNow();
  if (token !== app.token) return;  // another position is drawn by now
  entryTarget = null;
  targets.replaceChildren(...legal.map((r) => el("button", { type: "button", "data-target": r, text: r,
    "aria-label": describeTarget(r), title: describeTarget(r), onclick: (ev) => chooseTarget(r, ev.currentTarget) })));
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
  if (mine !== null) {  // the status says why no value was asked for
    guarded(async () => { await enterValue(mine); setStatus(`${$("#status").textContent} (your own card: its value is entered for you)`); });
    return;
  }
  const first = document.querySelector("#entry-values button");
  if (first) first.focus();
}

function enterValue(v) {
  if (!entryTarget) throw new ApiError("First choose where the card came from (a hand end or a centre slot).");
  const move = `${entryTarget}=${v}`;
  // entered by buttons: a typed entry left in the field (refused before) is not sent again by a later Enter
  return oneMove(async () => { await addMove(move); $("#entry-text").value = ""; });
}

// the text field's entry: a swap (`swap 0 2 9 12`), or one or more reveals in order (`l0=3 c3=9`), entered one
// by one; a refused one stays in the field with those after it, the ones before it entered
async function addTyped(text) {
  if (app.pos !== app.frames.length - 1) throw new ApiError("Go to the last position to enter the next reveal.");
  const moves = /^swap\b/i.test(text) ? [text] : text.split(/[\s,;]+/).filter(Boolean);
  if (!moves.length) throw new ApiError("Type a reveal such as l0=3 (the lowest card of seat 0 showed a 3), c3=9 or h2=12.");
  for (let k = 0; k < moves.length; k++) {
    $("#entry-text").value = moves.slice(k).join(" ");
    await addMove(moves[k]);
  }
  $("#entry-text").value = "";
}

function parseEntry(text) {
  const m = /^swap\s+(\d)\s+(\d)(?:\s+(\d+)\s+(\d+))?$/i.exec(text.trim());
  if (!m) return text;
  return { swap: [Number(m[1]), Number(m[2])], cards: m[3] === undefined ? null : [Number(m[3]), Number(m[4])] };
}

async function addMove(text, game = app.game) {
  const move = parseEntry(text);
  if (typeof move !== "string") return addSwap(move.swap, move.cards, game, `${text}: swap recorded.`);
  const res = await api("move", { record: app.record, reveal: move });
  if (app.game !== game) throw new Dropped();
  app.record = res.record;
  app.hint = false;
  const outcome = { trio: "a trio!", failed: "no match: the turn passes.", won: "the game is won!", continue: "the turn goes on." }[res.status] || res.status;
  setStatus(`${text.includes("=") ? text : `${text}=${res.value}`}: ${outcome}`);
  await replay("last");
  return res;
}

async function undoLast() {
  const evs = app.record.events;
  if (!evs.length) throw new ApiError("Nothing to undo.");
  const lastEv = evs[evs.length - 1];
  const row = evs.length;  // the move list's row of the event
  let gone;  // the reveal undone, or the swap
  if (lastEv.reveals && lastEv.reveals.length > 1) gone = lastEv.reveals.pop();
  else { evs.pop(); gone = lastEv.reveals ? lastEv.reveals[lastEv.reveals.length - 1] : lastEv; }
  await replay("last");
  const { value, ...place } = gone;
  setStatus(gone.swap ? `Undone: the swap of seats ${gone.swap[0]} and ${gone.swap[1]} (row ${row}).`
    : `Undone: ${shortReveal(place)}=${value} (row ${row}).`);
}

// -- play against the bots ------------------------------------------------------------------------------

function startPlay() {
  const players = Number($("#p-players").value);
  const seat = Number($("#p-seat").value);
  if (!(seat >= 0 && seat < players)) throw new ApiError(`Your seat must be 0 to ${players - 1}.`);
  const seed = Number($("#p-seed").value) || 0;
  const teams = $("#p-teams").value === "yes";
  if (teams && players !== 4 && players !== 6) throw new ApiError("Team play needs 4 or 6 players.");
  if (!mayReplaceSaved()) return Promise.resolve();
  const game = newGame();  // the game under way is dropped: its requests aborted, its answers ignored
  return moving(async () => {
    let res;
    try {
      res = await api("new_game", { rules: { players, mode: $("#p-mode").value, teams }, seed });
    } catch (e) {
      if (!(e instanceof Dropped) && app.game === game) keepShown(game);  // refused: the game under way goes on
      throw e;
    }
    still(game);
    app.me = seat;
    app.playBot = $("#p-bot").value;
    app.seed = seed;
    app.hint = false;
    await loadRecord(res.record, { seat, game });
    $("#resume-box").hidden = true;  // the saved game is this one from now on
    $("#play-moves").hidden = false;
    await botsMove();
  });
}

async function botsMove(game = app.game, news = []) {
  // the bots play until it is my turn, my team's swap or the end; the status then tells what happened since
  // my move, in the order it happened: the swap decisions (``news``, see swapNews) and every turn, whole (the
  // move list has them all)
  let guard = 0;
  const since = app.record.events.length;
  while (app.mode === "play" && app.game === game && guard++ < 200) {
    const asked = await swapsNow(game, news);
    const fr = app.frames[app.frames.length - 1];
    if (asked || fr.winner !== null || fr.to_move === app.me) break;
    await new Promise((r) => setTimeout(r, 350));
    const seed = (app.seed || 0) * 1000 + app.record.events.length;  // the game's own seed, a resumed one too
    const choice = await api("bot", { record: app.record, bot: app.playBot, seed });
    if (app.game !== game) throw new Dropped();
    const res = await addMove(choice.reveal, game);
    setStatus(`${seatName(choice.seat)} reveals ${choice.reveal}=${res.value}…`);  // while the bots play
  }
  const turns = app.frames.map((fr, at) => ({ at, text: fr.move && "seat" in fr.move ? moveText(fr) : null }))
    .slice(since).filter((t) => t.text !== null);
  // a stable sort: a swap decided at a position comes after the turn that led to it
  const told = [...news, ...turns].sort((a, b) => a.at - b.at).map((t) => t.text);
  if (told.length) setStatus(told.join(" · "));
}

// a swap decision for the status line, placed by the position it was made at: a swap made at the frame of its
// event, a swap not made just after the position it was decided at
function swapNews(text, made) {
  const n = app.record.events.length;
  return { at: made ? n : n + 0.5, text };
}

// an event in words, as the board says it: a turn by moveText, a swap as the service tells it
function eventText(fr) {
  if (fr.move && "seat" in fr.move) return moveText(fr);
  const d = fr.description || "";
  return d.charAt(0).toUpperCase() + d.slice(1);
}

// a turn in words: "Seat 2: l0=5 c3=5 h1=7 — no match"
function moveText(fr) {
  const m = fr.move;
  const value = m.reveals.length ? m.reveals[0].split("=")[1] : "";
  const out = fr.winner !== null && m.outcome === "trio" ? `a trio of ${value}s, and the game`
    : { failure: "no match", trio: `a trio of ${value}s`, "in progress": "the turn goes on" }[m.outcome] || m.outcome;
  return `${seatName(m.seat)}: ${m.reveals.join(" ")} — ${out}`;
}

// a swap moment of a team game (its start, and after another team's trio, until the next reveal): the key
// of a team's decision at it, which swaps made meanwhile do not change
function swapKey(team) {
  return `${turnsSoFar()}:${team.join(",")}`;
}

// the turns of the game so far (its swaps left out)
function turnsSoFar() {
  return app.record.events.filter((e) => "turn" in e).length;
}

// my team's swap still to decide at the live position (null when none)
function mySwapTeam() {
  const fr = app.frames[app.frames.length - 1];
  if (app.mode !== "play" || !fr || fr.winner !== null || !fr.swap_open) return null;
  return fr.swap_open.find((t) => t.includes(app.me) && !app.swapDecided.has(swapKey(t))) || null;
}

// the bots' teams decide their swaps at a swap moment, each partner from its own view (the swap is made when
// both give a card; its cards stay secret to me); true when my team's decision is still to come
async function swapsNow(game, news) {
  const fr = app.frames[app.frames.length - 1];
  if (!fr || fr.winner !== null || !fr.swap_open) return false;
  for (const team of fr.swap_open) {
    const key = swapKey(team);
    if (team.includes(app.me) || app.swapDecided.has(key)) continue;
    const cards = await Promise.all(team.map((s) => botSwap(s, game)));
    app.swapDecided.add(key);
    if (cards.every((c) => c !== null)) {
      await addSwap(team, cards, game);
      news.push(swapNews(`${sideName(team[0])} swap a card secretly`, true));
    } else news.push(swapNews(`${sideName(team[0])} do not swap`, false));
    setStatus(news.map((t) => t.text).join(" · "));
  }
  return mySwapTeam() !== null;
}

async function botSwap(seat, game) {
  const seed = (app.seed || 0) * 1000 + turnsSoFar() * 10 + seat;  // the game's own seed, as the bots' reveals
  const res = await api("bot", { record: app.record, bot: app.playBot, seed, swap_seat: seat });
  if (app.game !== game) throw new Dropped();
  return res.card;
}

// a swap added to the record (``status``: what the status line says of it, when it may show the cards)
async function addSwap(team, cards, game, status = null) {
  const res = await api("move", { record: app.record, reveal: { swap: team, cards } });
  if (app.game !== game) throw new Dropped();
  app.record = res.record;
  if (status !== null) setStatus(status);
  await replay("last");
  return res;
}

// my card at my team's swap moment (null: pass); my partner, a bot, gives its own; then the bots play on
function playSwap(card) {
  return oneMove(async () => {
    const team = mySwapTeam();
    if (!team) throw new ApiError("There is no swap to decide now.");
    const game = app.game;
    const partner = team.find((s) => s !== app.me);
    const theirs = card === null ? null : await botSwap(partner, game);
    app.swapDecided.add(swapKey(team));
    let note;
    if (card !== null && theirs !== null) {
      await addSwap(team, team.map((s) => (s === app.me ? card : theirs)), game);
      note = swapNews(`Your team swaps: you give ${card}, ${seatName(partner)} gives ${theirs}`, true);
    } else {
      note = swapNews(card === null ? "You pass: your team does not swap"
        : `${seatName(partner)} keeps its cards: your team does not swap (both partners must give one)`, false);
      await replay("last");
    }
    setStatus(note.text);
    await botsMove(game, [note]);
  });
}

// one move at a time: a tap while a move (or the bots' answer to it) is under way is ignored, so a
// double tap cannot play twice or start a second round of bot moves
async function oneMove(fn) {
  if (app.moving) return;
  await moving(fn);
}

// taps are ignored while fn runs (a new game's setup and first bot moves run so even if an old game's
// bots are still waiting for an answer: that answer is dropped)
async function moving(fn) {
  app.moving++;
  try { await fn(); } finally { app.moving--; }
}

// my reveal in a game against the bots: only at the live position, on my turn
function playMove(r) {
  return oneMove(async () => {
    const fr = app.frames[app.frames.length - 1];
    if (app.mode !== "play" || !fr || fr.winner !== null) throw new ApiError("The game is over.");
    if (app.pos !== app.frames.length - 1) throw new ApiError("Go to the last position to play.");
    if (fr.to_move !== app.me) throw new ApiError(`It is ${seatName(fr.to_move)}'s turn, not yours.`);
    if (mySwapTeam()) throw new ApiError("First the swap: give a card, or pass.");
    const game = app.game;
    await addMove(r, game);
    await botsMove(game);
  });
}

async function fillPlay(fr, last, token) {
  const box = $("#play-legal");
  const end = app.frames[app.frames.length - 1];
  // a hint and the way to play only on my move at the live position (not while the bots move, nor after the end)
  $("#hint").hidden = end.winner !== null || !last || fr.to_move !== app.me;
  $("#play-how").hidden = $("#hint").hidden;
  if (end.winner !== null) {
    // in team play the side wins: my partner's winning trio is my win too
    const partnerWon = teamsOf() !== null && teamOf(end.winner) === teamOf(app.me);
    $("#play-prompt").textContent = (end.winner === app.me ? "You won!"
      : partnerWon ? `Your team won! (${seatName(end.winner)} took the winning trio)`
        : `${sideName(end.winner)} won.`)
      + (last ? "" : " Step through the game, or analyse it below.");
    box.replaceChildren();
    $("#analysis-panel").hidden = false;
    return;
  }
  const team = last ? mySwapTeam() : null;
  if (team) {
    // the swap comes before the next reveal: a card of my hand for my partner, or pass
    const partner = team.find((s) => s !== app.me);
    const hand = [...new Set(end.hands[app.me].cards)].sort((a, b) => a - b);
    $("#play-prompt").textContent = `Swap moment: give ${seatName(partner)} one of your cards, or pass `
      + "(the swap is made only if you both give one)";
    $("#play-how").hidden = true;
    $("#hint").hidden = true;
    box.replaceChildren(...hand.map((v) => el("button", { type: "button", "data-give": v, text: `give ${v}`,
      onclick: () => guarded(() => playSwap(v)) })),
    el("button", { type: "button", "data-give": "pass", text: "pass", onclick: () => guarded(() => playSwap(null)) }));
    return;
  }
  if (!last || fr.to_move !== app.me) {
    $("#play-prompt").textContent = last ? `${seatName(fr.to_move)} is playing…` : "Go to the last position to play.";
    box.replaceChildren();
    return;
  }
  $("#play-prompt").textContent = fr.turn.length ? `Your turn goes on (face up: ${fr.turn.join(" ")})` : "Your move";
  const legal = await legalNow();
  if (token !== app.token) return;  // another position is drawn by now
  box.replaceChildren(...legal.map((r) => el("button", { type: "button", "data-reveal": r, text: r,
    "aria-label": `reveal ${describeTarget(r)}`, title: describeTarget(r), onclick: () => guarded(() => playMove(r)) })));
}

// -- wiring ---------------------------------------------------------------------------------------------

function setMode(mode) {
  app.mode = mode;
  newGame();
  app.token++;  // answers still on their way belong to the record this mode drops
  document.querySelectorAll("button.mode").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
  for (const m of ["record", "table", "play"]) $(`#panel-${m}`).hidden = m !== mode;
  for (const id of ["#board", "#beliefs-panel", "#advice-panel", "#analysis-panel"]) $(id).hidden = true;
  app.record = null; app.frames = []; app.analysis = null; app.hint = false;
  $("#entry").hidden = true; $("#play-moves").hidden = true;
  showError("");
  setStatus("");
  offerResume();  // the game just left can be taken up again
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
  // a tap on the mode already shown keeps the game on the board
  document.querySelectorAll("button.mode").forEach((b) => b.addEventListener("click", () => {
    if (b.dataset.mode !== app.mode || !app.record) setMode(b.dataset.mode);
  }));
  $("#example").addEventListener("change", (ev) => {
    const name = ev.target.value;
    if (!name) return;
    guarded(async () => {
      const game = newGame();
      const resp = await fetch(`/static/examples/${name}`);
      if (!resp.ok) throw new ApiError(`Example ${name} not found.`);
      const text = await resp.text();
      still(game);
      await loadRecord(text, { game });
    });
  });
  $("#file").addEventListener("change", (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    $("#example").value = "";
    guarded(async () => {
      if (f.size > 8 * 1024 * 1024) throw new ApiError("This file is larger than 8 MB; a game record is a few kB.");
      const game = newGame();
      const text = await f.text();
      still(game);
      await loadRecord(text, { game });
    });
  });
  $("#load-paste").addEventListener("click", () => { $("#example").value = ""; guarded(() => loadRecord($("#paste").value)); });
  $("#hindsight").addEventListener("change", () => guarded(() => replay("keep")));
  $("#table").addEventListener("click", tableClick);
  $("#table").addEventListener("keydown", tableClick);
  window.addEventListener("resize", () => { if (app.analysis && app.chances) drawChart(app.analysis, app.chances, app.chartSeat); markChart(); });
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
    guarded(() => oneMove(async () => { await addTyped(text); $("#entry-text").focus(); }));
  });
  $("#entry-undo").addEventListener("click", () => guarded(() => oneMove(undoLast)));
  $("#play-form").addEventListener("submit", (ev) => { ev.preventDefault(); guarded(startPlay); });
  $("#hint").addEventListener("click", () => guarded(async () => {
    app.hint = true;
    await showPosition();
    // on a narrow screen the advice lies far below the buttons: bring it into sight
    if (window.innerWidth < 760) $("#advice-panel").scrollIntoView({ block: "start" });
  }));
  $("#resume").addEventListener("click", () => guarded(resume));
  $("#error-close").addEventListener("click", () => showError(""));
  $("#forget").addEventListener("click", () => {
    // a game at the table with events entered is given up only when the player says so, as for a new game
    const g = savedGame();
    const entered = g && g.mode === "table" && g.record && Array.isArray(g.record.events) ? g.record.events.length : 0;
    if (entered && !window.confirm(`Discard the game at the table kept in this browser (${plural(entered, "event")} `
      + "entered)? It cannot be dealt again.")) return;
    localStorage.removeItem(SAVE_KEY);
    offerResume();
  });
  offerResume();
  document.body.dataset.ready = "1";
}

init();
