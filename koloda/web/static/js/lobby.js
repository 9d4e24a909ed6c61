// The lobby: open tables (sit, watch, share a link) and a form for a new table.
import {
  account, api, botName, h, langSwitch, lang, loadMe, loadTexts, pick, setMe, t, term,
  tokenKey, url, wsUrl,
} from "./common.js";
import { markdown } from "./markdown.js";
import { renderPlayNow } from "./playnow.js";

let GAMES = [];
let TABLES = [];
const form = { game: null, players: null, options: {}, seats: [], sit: 0,
               away_policy: "computer", away_timeout: 120, away_bot: null, private: false,
               spectators: "live" };

function myName() {
  const me = account();
  return me ? me.name : localStorage.getItem("koloda.name") || "";
}

function nameField() {
  const input = h("input", { id: "my-name", value: myName(), maxlength: "40",
                             placeholder: t("name_placeholder") });
  input.addEventListener("input", () => localStorage.setItem("koloda.name", input.value.trim()));
  return h("label", { class: "name-field" }, t("your_name"), " ", input);
}

// ---------------------------------------------------------------- account
function accountPanel() {
  const me = account();
  if (me) {
    return h("div", { class: "account", id: "account", dataset: { account: me.name } },
      h("span", {}, t("signed_in_as", { name: me.name })), " ",
      h("span", { class: "muted", id: "my-rank" },
        me.rank ? t("rank_is", { rank: pick(me.rank) }) : t("no_rank")), " ",
      h("button", { id: "sign-out", class: "button small", onclick: signOut }, t("sign_out")));
  }
  const name = h("input", { id: "account-name", maxlength: "40", autocomplete: "username",
                            value: localStorage.getItem("koloda.name") || "" });
  const password = h("input", { id: "account-password", type: "password", maxlength: "1024",
                                autocomplete: "current-password" });
  return h("details", { class: "account", id: "account" },
    h("summary", {}, t("sign_in_or_register")),
    h("p", { class: "help" }, t("account_help")),
    h("div", { class: "field" }, h("label", { for: "account-name" }, t("account_name")), " ", name),
    h("div", { class: "field" }, h("label", { for: "account-password" }, t("password")), " ",
      password),
    h("div", { class: "field" },
      h("button", { id: "sign-in", class: "button primary", onclick: () => signIn("/api/login") },
        t("sign_in")), " ",
      h("button", { id: "register", class: "button", onclick: () => signIn("/api/register") },
        t("register"))));
}

async function signIn(path) {
  try {
    const name = document.getElementById("account-name").value;
    const password = document.getElementById("account-password").value;
    setMe(await api(path, { name, password }));
    say(t("signed_in_as", { name: account().name }), false);
    render();
  } catch (e) { say(e.message); }
}

async function signOut() {
  try { setMe(await api("/api/logout", {})); render(); } catch (e) { say(e.message); }
}

function needName() {
  const name = myName();
  if (!name) {
    const input = document.getElementById("my-name");
    input.focus();
    input.classList.add("want");
    throw new Error(t("need_name"));
  }
  return name;
}

function say(text, bad = true) {
  const el = document.getElementById("lobby-msg");
  el.textContent = text;
  el.className = bad ? "msg bad" : "msg";
}

// ------------------------------------------------------------------ tables
function seatChip(table, s) {
  const mine = localStorage.getItem(tokenKey(table.id));
  if (s.kind === "computer") {
    return h("span", { class: "chip computer" }, botName(s.bot));
  }
  if (!s.taken) {
    return h("button", { class: "chip open", dataset: { sit: `${table.id}:${s.seat}` },
                         onclick: () => sit(table.id, s.seat) }, t("sit_here", { n: s.seat + 1 }));
  }
  const cls = `chip person ${s.connected ? "on" : "off"}`;
  return h("span", { class: cls, title: s.connected ? t("online") : t("away") },
    s.connected ? "● " : "○ ", s.name || t("seat_n", { n: s.seat + 1 }),
    s.registered ? h("span", { class: "registered", title: t("registered") }, " ✓") : null);
}

function tableRow(table) {
  const mine = localStorage.getItem(tokenKey(table.id));
  const link = `${location.origin}${url(`/t/${table.id}`)}`;
  return h("li", { class: "table-row", dataset: { table: table.id } },
    h("div", { class: "row-head" },
      h("strong", {}, pick(table.title)),
      h("span", { class: "muted" }, ` · ${t("players_n", { n: table.players })} · `,
        table.version === 1 ? t("actions_1") : t("actions_n", { n: table.version })),
      Object.keys(table.options).length
        ? h("span", { class: "muted" }, " · ", Object.entries(table.options)
          .map(([k, v]) => `${optionTitle(table.game, k)}: ${optionValue(v)}`).join(", ")) : null),
    h("div", { class: "seats" }, table.seats.map((s) => seatChip(table, s))),
    h("div", { class: "row-actions" },
      mine ? h("a", { class: "button primary", href: url(`/t/${table.id}`) }, t("continue_seat"))
        : null,
      h("a", { class: "button", href: url(`/t/${table.id}`), dataset: { watch: table.id } },
        t("watch")),
      h("button", { class: "linkish", onclick: () => copy(link) }, t("copy_link")),
      h("span", { class: "muted small" }, table.spectators ? t("spectators_n", { n: table.spectators }) : "")));
}

/** An option of a table in the lobby's words (the games list names every option). */
function optionTitle(gameName, name) {
  const g = GAMES.find((x) => x.name === gameName);
  const o = g && g.options.find((x) => x.name === name);
  return (o && pick(o.title)) || name.replaceAll("_", " ");
}

function optionValue(v) {
  if (typeof v === "boolean") return term("term", v ? "yes" : "no") ?? String(v);
  return typeof v === "string" ? v : JSON.stringify(v);
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); say(t("copied", { link: text }), false); }
  catch { say(text, false); }
}

async function sit(tableId, seat) {
  try {
    const name = needName();
    const res = await api(`/api/tables/${tableId}/sit`, { seat, name });
    localStorage.setItem(tokenKey(tableId), res.token);
    location.href = url(`/t/${tableId}`);
  } catch (e) { say(e.message); }
}

// the lobby is pushed by the server (/ws/lobby), a page at a time; a poll of
// /api/lobby stands in while the feed is down
const PAGE = 50;
let PAGE_AT = 0;
let TOTAL = 0;
let FEED = null;

function showTables(page) {
  TABLES = page.tables;
  TOTAL = page.total;
  const list = document.getElementById("tables");
  if (!list) return;
  list.replaceChildren(...(TABLES.length ? TABLES.map(tableRow)
    : [h("li", { class: "muted" }, t("no_tables"))]));
  const pager = document.getElementById("pager");
  if (!pager) return;
  const last = Math.max(0, Math.ceil(TOTAL / PAGE) - 1);
  const at = Math.floor(PAGE_AT / PAGE);
  pager.replaceChildren(...(TOTAL > PAGE ? [
    h("button", { disabled: at === 0 ? "" : null, onclick: () => turnPage(-1) }, "‹"),
    h("span", { class: "muted" }, t("page_of", { n: at + 1, of: last + 1, total: TOTAL })),
    h("button", { disabled: at >= last ? "" : null, onclick: () => turnPage(1) }, "›"),
  ] : []));
}

function turnPage(step) {
  PAGE_AT = Math.max(0, PAGE_AT + step * PAGE);
  openFeed();
}

async function refreshTables() {
  try { showTables(await api(`/api/lobby?offset=${PAGE_AT}&limit=${PAGE}`)); } catch { /* */ }
}

function openFeed() {
  if (FEED) { FEED.onclose = null; FEED.close(); }
  const ws = new WebSocket(wsUrl(`/ws/lobby?offset=${PAGE_AT}&limit=${PAGE}`));
  FEED = ws;
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg.type === "lobby") showTables(msg);
  };
  ws.onclose = () => { if (FEED === ws) { FEED = null; setTimeout(openFeed, 3000); } };
}

// -------------------------------------------------------------------- form
function game() { return GAMES.find((g) => g.name === form.game); }

function defaultBot(g) {
  for (const b of ["heuristic", "search:easy", "random"]) if (g.bots.includes(b)) return b;
  return g.bots[0] || "random";
}

function chooseGame(name) {
  form.game = name;
  const g = game();
  form.players = g.default_players;
  form.options = {};
  form.away_bot = defaultBot(g);
  resetSeats();
}

function resetSeats() {
  const g = game();
  form.seats = Array.from({ length: form.players }, (_, i) => (i === 0
    ? { kind: "person" } : { kind: "computer", bot: defaultBot(g) }));
  form.sit = 0;
}

function optionInput(o) {
  const def = o.defaults[String(form.players)];
  const cur = o.name in form.options ? form.options[o.name] : def;
  let input;
  const set = (v) => {
    if (JSON.stringify(v) === JSON.stringify(def)) delete form.options[o.name];
    else form.options[o.name] = v;
  };
  if (o.choices) {
    input = h("select", { name: o.name }, o.choices.map((c) => h("option", { value: JSON.stringify(c) }, String(c))));
    input.value = JSON.stringify(cur);
    input.addEventListener("change", () => set(JSON.parse(input.value)));
  } else if (o.kind === "bool") {
    input = h("input", { type: "checkbox", name: o.name });
    input.checked = !!cur;
    input.addEventListener("change", () => set(input.checked));
  } else if (o.kind === "int") {
    input = h("input", { type: "number", name: o.name, value: String(cur), step: "1" });
    input.addEventListener("change", () => set(input.value === "" ? def : Number(input.value)));
  } else if (o.kind === "dict") {
    input = h("input", { type: "text", name: o.name, value: JSON.stringify(cur), class: "wide" });
    input.addEventListener("change", () => {
      try { set(JSON.parse(input.value)); input.classList.remove("want"); }
      catch { input.classList.add("want"); }
    });
  } else {
    input = h("input", { type: "text", name: o.name, value: String(cur) });
    input.addEventListener("change", () => set(input.value));
  }
  // the option's name in words; its identifier (what the API and `-o` take) on hover only
  const title = pick(o.title) || o.name.replaceAll("_", " ");
  return h("div", { class: "option" },
    h("label", { title: o.name }, `${title} `, input),
    h("div", { class: "help" }, pick(o.help),
      h("span", { class: "muted" }, ` (${pick(o.allowed_text) || o.allowed})`)));
}

function seatRow(i) {
  const g = game();
  const s = form.seats[i];
  const kind = h("select", { name: `seat-${i}-kind` },
    h("option", { value: "person" }, t("person")),
    h("option", { value: "computer" }, t("computer")));
  kind.value = s.kind;
  kind.addEventListener("change", () => {
    form.seats[i] = kind.value === "person" ? { kind: "person" }
      : { kind: "computer", bot: defaultBot(g) };
    if (kind.value === "computer" && form.sit === i) form.sit = null;
    renderForm();
  });
  const bot = s.kind === "computer" ? h("select", { name: `seat-${i}-bot` },
    g.bots.map((b) => h("option", { value: b }, botName(b)))) : null;
  if (bot) {
    bot.value = s.bot;
    bot.addEventListener("change", () => { form.seats[i].bot = bot.value; renderForm(); });
  }
  const me = s.kind === "person" ? h("label", { class: "muted" },
    h("input", { type: "radio", name: "sit", value: String(i), checked: form.sit === i,
                 onchange: () => { form.sit = i; } }), " ", t("i_sit_here")) : null;
  const level = s.kind === "computer" && g.levels ? g.levels[s.bot] : null;
  const note = level ? h("p", { class: "help level-note" }, pick(level.note),
    level.rating != null ? ` · ${t("level_rating", { mu: Math.round(level.rating) })}` : "") : null;
  return h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, t("seat_n", { n: i + 1 })),
    kind, bot, me, note);
}

function rulesBox(name) {
  const body = h("div", { class: "rules" });
  const box = h("details", { class: "rules-box" }, h("summary", {}, t("rules")), body);
  box.addEventListener("toggle", async () => {
    if (!box.open || body.childNodes.length) return;
    try {
      const res = await api(`/api/rules/${name}?lang=${lang()}`);
      body.replaceChildren(...markdown(res.text));
    } catch (e) { body.replaceChildren(e.message); }
  });
  return box;
}

function renderForm() {
  const g = game();
  const el = document.getElementById("new-table");
  const games = h("select", { id: "game", name: "game" }, GAMES.map((x) => h("option", { value: x.name },
    pick(x.title))));
  games.value = form.game;
  games.addEventListener("change", () => { chooseGame(games.value); renderForm(); });
  const players = h("select", { id: "players", name: "players" },
    g.players.map((n) => h("option", { value: String(n) }, String(n))));
  players.value = String(form.players);
  players.addEventListener("change", () => {
    form.players = Number(players.value); form.options = {}; resetSeats(); renderForm();
  });
  const policy = h("select", { name: "away_policy" },
    h("option", { value: "computer" }, t("away_computer")), h("option", { value: "wait" }, t("away_wait")));
  policy.value = form.away_policy;
  policy.addEventListener("change", () => { form.away_policy = policy.value; });
  const timeout = h("input", { type: "number", name: "away_timeout", min: "1", max: "86400",
                               value: String(form.away_timeout) });
  timeout.addEventListener("change", () => { form.away_timeout = Number(timeout.value); });
  const awayBot = h("select", { name: "away_bot" }, g.bots.map((b) => h("option", { value: b }, botName(b))));
  awayBot.value = form.away_bot;
  awayBot.addEventListener("change", () => { form.away_bot = awayBot.value; });
  const secret = h("input", { type: "checkbox", id: "private", name: "private", checked: form.private });
  secret.addEventListener("change", () => { form.private = secret.checked; });
  const watchers = h("select", { id: "spectators", name: "spectators" },
    h("option", { value: "live" }, t("spectators_live")),
    h("option", { value: "trick" }, t("spectators_trick")));
  watchers.value = form.spectators;
  watchers.addEventListener("change", () => { form.spectators = watchers.value; });
  el.replaceChildren(
    h("h2", {}, t("new_table")),
    h("div", { class: "field" }, h("label", { for: "game" }, t("game")), " ", games),
    h("p", { class: "help" }, pick(g.summary)),
    rulesBox(g.name),
    h("div", { class: "field" }, h("label", { for: "players" }, t("players")), " ", players),
    h("fieldset", {}, h("legend", {}, t("seats")), form.seats.map((_, i) => seatRow(i))),
    h("fieldset", {}, h("legend", {}, t("options")), g.options.map(optionInput)),
    h("fieldset", {}, h("legend", {}, t("away_title")),
      h("div", { class: "field" }, t("away_after"), " ", timeout, " ", t("seconds"), " ", policy),
      h("div", { class: "field" }, t("away_bot"), " ", awayBot)),
    h("fieldset", {}, h("legend", {}, t("who_comes")),
      h("div", { class: "field" }, secret, " ", h("label", { for: "private" }, t("private_table"))),
      h("div", { class: "field" }, h("label", { for: "spectators" }, t("spectators_see")), " ", watchers)),
    h("button", { id: "create", class: "button primary", onclick: create }, t("create")));
}

async function create() {
  try {
    const sit = form.seats[form.sit] && form.seats[form.sit].kind === "person" ? form.sit : null;
    const name = sit != null ? needName() : myName() || null;
    const res = await api("/api/tables", {
      game: form.game, players: form.players, options: form.options, seats: form.seats,
      name, sit,
      settings: { away_policy: form.away_policy, away_timeout: form.away_timeout,
                  away_bot: form.away_bot, private: form.private, spectators: form.spectators },
    });
    if (res.token) localStorage.setItem(tokenKey(res.id), res.token);
    if (res.notes && res.notes.length) sessionStorage.setItem("koloda.notes", res.notes.join("\n"));
    location.href = res.url;
  } catch (e) { say(e.message); }
}

function render() {
  document.title = `koloda — ${t("lobby")}`;
  document.getElementById("subtitle").textContent = t("lobby");
  document.getElementById("lang-slot").replaceChildren(
    h("a", { href: url(`/leaderboard/${form.game}`), id: "leaderboard-link" }, t("leaderboard")), " ",
    langSwitch(render));
  document.getElementById("app").replaceChildren(
    h("section", { class: "panel" }, account() ? null : nameField(), accountPanel(),
      h("p", { id: "lobby-msg", class: "msg" })),
    h("section", { class: "panel", id: "play-now-panel" }),
    h("section", { class: "panel" }, h("h2", {}, t("open_tables")),
      h("ul", { id: "tables", class: "tables" }), h("div", { id: "pager", class: "pager" })),
    h("section", { class: "panel", id: "new-table" }));
  renderForm();
  renderPlayNow(document.getElementById("play-now-panel"), GAMES, myName, say);
  refreshTables();
}

async function main() {
  await Promise.all([loadTexts(), loadMe()]);
  GAMES = await api("/api/games");
  const first = GAMES[0];   // the games come in the books' order (GameSpec.order)
  chooseGame(first.name);
  render();
  openFeed();
  // a slow poll only while the pushed feed is down
  setInterval(() => { if (!FEED || FEED.readyState !== WebSocket.OPEN) refreshTables(); }, 10000);
}

main();
