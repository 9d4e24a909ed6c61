// The lobby's "Play now": a game, a player count, computers (a level, or people only) and
// how long to wait for people; one button. The request waits in the server's queue
// (koloda/web/playnow.py); the server tells this page its state over /ws/playnow/<ticket>
// the moment it changes (seated: the table opens). Only while that connection is down
// does the page ask (GET /api/playnow/<ticket>, once a second) and try to connect again.
import { api, botName, csrf, h, lang, pick, t, tokenKey, url, wsUrl } from "./common.js";

const WAITS = [15, 30, 60, 120];
const TICKET_KEY = "koloda.playnow";
const choice = { game: null, players: null, bot: "heuristic", wait: 30 };
// the request followed: its ticket, the push connection, the fallback's timer
const F = { ticket: null, ws: null, poll: null, retry: null, clock: null, last: null, at: 0,
  title: null };
// the games (for the queues' names) and how to draw the panel again (a queue chosen)
let QUEUE_GAMES = null;
let QUEUE_RENDER = null;
let QUEUE_TIMER = null;

function gameOf(games) { return games.find((g) => g.name === choice.game) || games[0]; }

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function renderPlayNow(el, games, name, say) {
  const g = gameOf(games);
  choice.game = g.name;
  if (!g.players.includes(choice.players)) choice.players = g.default_players;
  if (choice.bot && !g.bots.includes(choice.bot)) choice.bot = g.bots.includes("heuristic") ? "heuristic" : g.bots[0];
  const game = h("select", { id: "pn-game" }, games.map((x) => h("option", { value: x.name }, pick(x.title))));
  game.value = g.name;
  game.addEventListener("change", () => { choice.game = game.value; renderPlayNow(el, games, name, say); });
  const players = h("select", { id: "pn-players" }, g.players.map((n) => h("option", { value: String(n) }, String(n))));
  players.value = String(choice.players);
  const bot = h("select", { id: "pn-bot" }, h("option", { value: "" }, t("people_only")),
    g.bots.map((b) => h("option", { value: b }, botName(b))));
  bot.value = choice.bot || "";
  const wait = h("select", { id: "pn-wait" }, WAITS.map((s) => h("option", { value: String(s) }, t("wait_s", { n: s }))),
    h("option", { value: "never" }, t("wait_never")));
  wait.value = choice.wait == null ? "never" : String(choice.wait);
  const note = h("p", { id: "pn-note", class: "help" });
  const queued = h("p", { id: "pn-queued", class: "help" });
  const status = h("p", { id: "pn-status", class: "help", role: "status", "aria-live": "polite" }, t("play_now_help"));
  const go = h("button", { id: "play-now", class: "button primary" }, t("play_now_go"));
  const cancel = h("button", { id: "pn-cancel", class: "button", disabled: true }, t("cancel"));
  const ui = { status, go, cancel, queued };
  const explain = () => {
    wait.disabled = !choice.bot;
    const never = !choice.bot || choice.wait == null;
    note.textContent = never ? t("never_note") : "";
    showQueue(queued);
  };
  players.addEventListener("change", () => { choice.players = Number(players.value); explain(); });
  bot.addEventListener("change", () => { choice.bot = bot.value || null; explain(); });
  wait.addEventListener("change", () => { choice.wait = wait.value === "never" ? null : Number(wait.value); explain(); });
  go.addEventListener("click", async () => {
    try {
      const res = await api("/api/playnow", { game: choice.game, players: choice.players,
        bot: choice.bot, wait: choice.bot ? choice.wait : null, name: name() || null });
      startFollowing(res.ticket, res, ui);
    } catch (e) { say(e.message); }
  });
  cancel.addEventListener("click", async () => {
    const ticket = F.ticket;
    stopFollowing();
    const headers = csrf() ? { "X-CSRF-Token": csrf() } : {};
    if (ticket) await fetch(url(`/api/playnow/${ticket}`), { method: "DELETE", headers }).catch(() => null);
    status.textContent = t("playnow_cancelled");
    go.disabled = false; cancel.disabled = true;
  });
  QUEUE_GAMES = games;
  QUEUE_RENDER = () => renderPlayNow(el, games, name, say);
  clearInterval(QUEUE_TIMER);
  QUEUE_TIMER = setInterval(() => { if (!F.ticket) showQueue(queued); }, 10000);
  el.replaceChildren(h("h2", {}, t("play_now")),
    h("div", { class: "field" }, h("label", { for: "pn-game" }, t("game")), " ", game, " ",
      h("label", { for: "pn-players" }, t("players")), " ", players),
    h("div", { class: "field" }, h("label", { for: "pn-bot" }, t("computers")), " ", bot, " ",
      h("label", { for: "pn-wait" }, t("wait_for_people")), " ", wait),
    note, h("div", { class: "field" }, go, " ", cancel), status, queued,
    h("ul", { id: "pn-queues", class: "tables" }));
  explain();
  // a request made before this page was (re)loaded is followed on
  const kept = sessionStorage.getItem(TICKET_KEY);
  if (kept && !F.ticket) startFollowing(kept, null, ui);
  else if (F.ticket) { F.ui = ui; go.disabled = true; cancel.disabled = false; if (F.last) show(F.last); }
}

/** How many wait now for the table chosen (before one asks), and every table someone
 * waits for: a click chooses it. */
async function showQueue(el) {
  let queues = [];
  try { queues = await api("/api/playnow"); } catch (e) { queues = []; }
  const list = document.getElementById("pn-queues");
  if (F.ticket) { el.textContent = ""; if (list) list.replaceChildren(); return; }
  const mine = queues.find((q) => q.game === choice.game && q.players === choice.players
    && (q.bot || null) === (choice.bot || null));
  el.textContent = mine ? t("playnow_queue_n", { n: mine.waiting }) : "";
  if (!list || !QUEUE_GAMES) return;
  list.replaceChildren(...queues.map((q) => {
    const g = QUEUE_GAMES.find((x) => x.name === q.game);
    const text = `${g ? pick(g.title) : q.game} · ${t("players_n", { n: q.players })} · `
      + `${q.bot ? botName(q.bot) : t("people_only")} — ${t("waiting_people", { n: q.waiting, t: clock(q.longest) })}`;
    return h("li", {}, h("a", { href: "#", class: "pn-queue", onclick: (ev) => {
      ev.preventDefault();
      Object.assign(choice, { game: q.game, players: q.players, bot: q.bot || null });
      if (QUEUE_RENDER) QUEUE_RENDER();
    } }, text));
  }));
}

function startFollowing(ticket, first, ui) {
  stopFollowing();
  F.ticket = ticket;
  F.ui = ui;
  sessionStorage.setItem(TICKET_KEY, ticket);
  ui.go.disabled = true; ui.cancel.disabled = false;
  ui.queued.textContent = "";       // the status line counts them now
  if (first) show(first);
  connect();
  F.clock = setInterval(() => { if (F.last) show(F.last, true); }, 1000);
}

function stopFollowing() {
  F.ticket = null;
  if (F.title != null) { document.title = F.title; F.title = null; }
  sessionStorage.removeItem(TICKET_KEY);
  for (const timer of [F.poll, F.retry]) clearTimeout(timer);
  clearInterval(F.clock);
  F.poll = F.retry = F.clock = null;
  F.last = null;
  if (F.ws) { const ws = F.ws; F.ws = null; ws.onclose = null; ws.close(); }
}

/** The push: the server's word on every change; on a drop, poll and reconnect. */
function connect() {
  const ticket = F.ticket;
  if (!ticket) return;
  const ws = new WebSocket(wsUrl(`/ws/playnow/${ticket}`));
  F.ws = ws;
  ws.onopen = () => { clearTimeout(F.poll); F.poll = null; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "playnow") show(msg);
    else if (msg.type === "refused") ended((lang() === "ru" && msg.error_ru) || msg.error);
  };
  ws.onclose = () => {
    if (F.ws !== ws || F.ticket !== ticket) return;     // ended, or replaced
    F.ws = null;
    poll();
    F.retry = setTimeout(connect, 3000);
  };
}

async function poll() {
  clearTimeout(F.poll);
  if (!F.ticket || F.ws) return;
  try { show(await api(`/api/playnow/${F.ticket}`)); } catch (e) {
    // the server's answer (no such request) ends it; no answer at all (a network blip,
    // a server restarting) is asked again
    if (!(e instanceof TypeError)) { ended(e.message); return; }
  }
  if (F.ticket && !F.ws) F.poll = setTimeout(poll, 1000);
}

function ended(text) {
  const ui = F.ui;
  stopFollowing();
  if (!ui) return;
  ui.status.textContent = text;
  ui.go.disabled = false; ui.cancel.disabled = true;
}

/** A request's state on the page; ``ticking``: only the clock moved. */
function show(res, ticking = false) {
  const ui = F.ui;
  if (!ticking) { F.last = res; F.at = performance.now(); }
  if (res.state === "seated") {
    localStorage.setItem(tokenKey(res.table), res.token);
    const seated = res.url;     // the server's, with the root path in front
    stopFollowing();
    location.href = seated;
    return;
  }
  if (res.state !== "waiting" && res.state !== "claimed") {
    const key = { cancelled: "playnow_cancelled", expired: "playnow_expired", failed: "playnow_failed" }[res.state] || "playnow_gone";
    ended(t(key, { m: Math.round((res.waited || 900) / 60) }));
    return;
  }
  if (!ui) return;
  const gone = (performance.now() - F.at) / 1000;
  let text = t("waiting_n", { n: res.waiting ?? 1, of: res.players });
  text += ` · ${t("waited", { t: clock((res.waited || 0) + gone) })}`;
  if (res.computers_in != null) text += ` · ${t("computers_in", { n: Math.max(0, Math.round(res.computers_in - gone)) })}`;
  if (res.expires_in != null) text += ` · ${t("expires_in", { t: clock(res.expires_in - gone) })}`;
  ui.status.textContent = text;
  // seen from another tab too
  if (F.title == null) F.title = document.title;
  document.title = `(${res.waiting ?? 1}/${res.players}) ${t("play_now")} — koloda`;
}
