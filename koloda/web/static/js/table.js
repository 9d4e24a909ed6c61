// The table page: one websocket to the server, which holds the game; this page only
// shows what it is sent and sends the moves clicked, with the version it saw.
import {
  account, actionName, api, botName, h, isCard, langSwitch, loadMe, loadTexts, pick, seatName, t,
  tokenKey, url, wsUrl,
} from "./common.js";
import { markdown } from "./markdown.js";
import {
  chosen, dealLabel, display, NO_MOVES, renderCenter, renderHand, renderMoves, renderPanel,
  renderSeats, resultView, sheetView,
} from "./render.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const S = {
  tableId, seat: null, seats: [], table: null, state: null, legal: [], moves: NO_MOVES,
  selection: new Set(), target: null, lastDeal: null, shownResult: false,
  ws: null, retry: 0, msgId: 0, pending: false, closedByUs: false,
  // the hint asked at a version, and the answer (the server's strongest computer player)
  hintAsked: null, hint: null, wantRematch: false, reliable: {},
  // the table's chat: its latest lines, and the seats this browser does not show
  chat: [], muted: new Set(JSON.parse(localStorage.getItem(`koloda.mute.${tableId}`) || "[]")),
  // the latest message sent (a move, the hello), sent again if the server was too busy
  // with this address to read it; the timer of that resend
  lastSent: null, resend: null,
};

// a link with the token (from "use on another device") puts the seat in this browser
if (location.hash.startsWith("#token=")) {
  localStorage.setItem(tokenKey(tableId), decodeURIComponent(location.hash.slice(7)));
  history.replaceState(null, "", location.pathname);
}
const token = () => localStorage.getItem(tokenKey(tableId));
// a private table's invite key: from its invite link (#invite=…), kept for this table
const inviteKey = (id) => `koloda.invite.${id}`;
if (location.hash.startsWith("#invite=")) {
  localStorage.setItem(inviteKey(tableId), decodeURIComponent(location.hash.slice(8)));
  history.replaceState(null, "", location.pathname);
}
const invite = () => localStorage.getItem(inviteKey(tableId));
const inviteQuery = () => (invite() ? `?invite=${encodeURIComponent(invite())}` : "");

function say(text, bad = true) {
  const el = document.getElementById("msg");
  el.textContent = text || "";
  el.className = bad ? "msg bad" : "msg";
}

// ------------------------------------------------------------- connection
function connect() {
  const ws = new WebSocket(wsUrl(`/ws/tables/${encodeURIComponent(tableId)}`));
  S.ws = ws;
  ws.addEventListener("open", () => {
    S.retry = 0;
    send({ type: "hello", token: token() || null, invite: invite() || undefined });
    setConn(true);
  });
  ws.addEventListener("message", (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    handle(msg);
  });
  ws.addEventListener("close", () => {
    setConn(false);
    if (S.ws !== ws || S.closedByUs) return;
    const wait = Math.min(5000, 300 * 2 ** S.retry++);
    setTimeout(connect, wait);
  });
}

function reconnect() {
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  connect();
}

function setConn(on) {
  const el = document.getElementById("conn");
  el.className = `conn ${on ? "on" : "off"}`;
  el.title = on ? t("connected") : t("reconnecting");
  if (!on) document.getElementById("status").textContent = t("reconnecting");
}

function send(data) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) { say(t("reconnecting")); return; }
  clearTimeout(S.resend);
  S.resend = null;
  S.lastSent = data;
  S.ws.send(JSON.stringify(data));
  document.body.dataset.resending = "0";
}

// the server did not read the latest message (too many from this address): it is sent
// again after the wait the server gave, unless the game moved on meanwhile
function resendLater(msg) {
  const data = S.lastSent;
  if (!data) return;
  const wait = Math.max(0.05, Number(msg.retry_after) || 1);
  S.pending = data.type === "act";
  say(t("resending", { s: wait < 1 ? wait.toFixed(1) : Math.ceil(wait) }), false);
  document.body.dataset.resending = "1";
  clearTimeout(S.resend);
  S.resend = setTimeout(() => {
    S.resend = null;
    const moved = data.type === "act" && (!S.state || S.state.version !== data.version);
    if (moved) { S.pending = false; document.body.dataset.resending = "0"; say(""); return; }
    send(data);
  }, wait * 1000);
}

function handle(msg) {
  switch (msg.type) {
    case "welcome":
      S.seat = msg.seat;
      S.table = msg.table;
      S.seats = msg.table.seats;
      lookUpReliability();
      break;
    case "seats":
      S.seats = msg.seats;
      lookUpReliability();
      if (S.state) render();
      break;
    case "state": {
      const changed = !S.state || S.state.version !== msg.version;
      const prevDeal = S.state ? S.state.view.deal_number : null;
      S.state = msg;
      S.legal = msg.legal || [];
      // what the server's move chooser (koloda/moves.py) computed for these moves and hand
      S.moves = msg.moves || NO_MOVES;
      S.pending = false;
      if (changed) { S.selection.clear(); S.target = null; }
      if (prevDeal != null && msg.view.deal_number > prevDeal && !msg.view.match_over) {
        showSheet(t("deal_over", { n: display(S).deal.n - 1 }));
      }
      if (msg.view.match_over && !S.shownResult) { S.shownResult = true; showResult(); }
      render();
      // the server says why (e.g. overloaded: a computer played at random), in both languages
      if (msg.notice) say(msg.notice[document.documentElement.lang === "ru" ? "ru" : "en"]
        || t("overloaded"));
      if (msg.closed === "abandoned") say(t("abandoned"));
      break;
    }
    case "closed":
      S.closedByUs = true;
      say((document.documentElement.lang === "ru" ? msg.text_ru : msg.text) || t("abandoned"));
      break;
    case "ok":
      say("");
      break;
    case "hint":
      S.hint = msg;
      render();
      break;
    case "rematch":
      onRematch(msg);
      break;
    case "chat_history":
      S.chat = msg.lines;
      renderChat();
      break;
    case "chat":
      S.chat.push(msg.line);
      if (S.chat.length > 100) S.chat.shift();
      renderChat();
      break;
    case "refused":
      S.pending = false;
      if (msg.code === "rate_limited") { resendLater(msg); return; }
      if (msg.code === "bad_token") {
        localStorage.removeItem(tokenKey(tableId));
        say(t("token_gone"));
        send({ type: "hello", token: null, invite: invite() || undefined });
        return;
      }
      if (msg.code !== "stale") say(`${t("refused")}: ${reasonText(msg)}`);
      if (S.hintAsked != null && !S.hint) { S.hintAsked = null; render(); }
      break;
    default:
      break;
  }
}

function reasonText(msg) {
  return document.documentElement.lang === "ru" && msg.reason_ru ? msg.reason_ru : msg.reason;
}

// ---------------------------------------------------------------- moving
// this browser's seat was given up (away time after time, koloda.web.table.LEAVER_STRIKES):
// the computer plays it to the end of the match, so the page offers no move of it
function givenUp() {
  return S.seat != null && Boolean(S.seats[S.seat] && S.seats[S.seat].left);
}

function myTurn() {
  return S.state && S.seat != null && S.state.view.to_move === S.seat && !S.state.view.match_over
    && !givenUp();
}

function act(action) {
  if (!myTurn()) { say(t("not_your_turn")); return; }
  if (S.pending) return;
  S.pending = true;
  say("");
  send({ type: "act", version: S.state.version, action, id: ++S.msgId });
}

function onCard(card) {
  if (!myTurn()) { say(t("not_your_turn")); return; }
  const M = S.moves;
  if (S.target) {  // Durak: an attack card was chosen, this card covers it
    const a = (M.aims[S.target] || {})[card];
    S.target = null;
    if (a) act(a); else render();
    return;
  }
  if (!S.selection.size && !M.playable.includes(card)) {
    // not playable: send the move anyway, so the engine says which rule forbids it
    const attempt = M.attempts[card];
    if (attempt) act(attempt); else say(t("no_card_move"));
    return;
  }
  if (!S.selection.size) {
    const one = chosen(S, new Set([card]));
    if (one.actions.length === 1 && !one.more) { act(one.actions[0]); return; }
  }
  if (S.selection.has(card)) S.selection.delete(card); else S.selection.add(card);
  const now = chosen(S, S.selection);
  if (now.actions.length === 1 && !now.more) { act(now.actions[0]); return; }
  render();
}

function onTarget(attack) {
  if (!myTurn()) { say(t("not_your_turn")); return; }
  const aims = S.moves.aims[attack];
  if (!aims) return;
  if (S.selection.size === 1) {
    act(aims[[...S.selection][0]]);
    return;
  }
  S.target = S.target === attack ? null : attack;
  render();
}

async function onSit(seat) {
  const input = document.getElementById("sit-name");
  const me = account();   // signed in: the server seats the account under its own name
  const name = me ? me.name
    : (input && input.value.trim()) || localStorage.getItem("koloda.name") || "";
  if (!name) { say(t("need_name")); if (input) input.focus(); return; }
  localStorage.setItem("koloda.name", name);
  try {
    const res = await api(`/api/tables/${tableId}/sit`, { seat, name, invite: invite() || undefined });
    localStorage.setItem(tokenKey(tableId), res.token);
    reconnect();
  } catch (e) { say(e.message); }
}

Object.assign(S, {
  onCard, onTarget, onSit, onAction: act,
  onClear: () => { S.selection.clear(); S.target = null; render(); },
});

// ------------------------------------------------------------------ hints
// where every other seat is a computer, the server names the bot a hint asks
// (table.hint_bot); the answer is for this seat and this version only
function askHint() {
  if (!myTurn() || S.hintAsked === S.state.version) return;
  S.hintAsked = S.state.version;
  S.hint = null;
  send({ type: "hint", version: S.state.version, id: ++S.msgId });
  render();
}

const signed = (x) => (Math.abs(x) < 0.005 ? "0.00" : `${x > 0 ? "+" : ""}${x.toFixed(2)}`);

// a takeback (at such a table too): the seat's last move in this deal and the computers'
// since; the server sends the state as it was
function takeBack() {
  if (S.pending || !S.state) return;
  S.pending = true;
  send({ type: "takeback", version: S.state.version, id: ++S.msgId });
}

function movedThisDeal() {
  return (S.state.log || []).some(([seat]) => seat === S.seat);
}

function hintRow() {
  const el = document.getElementById("hint-row");
  const playing = S.table && S.seat != null && !S.state.view.match_over && !givenUp();
  if (!playing) { el.replaceChildren(); return; }
  const parts = [];
  if (S.table.takebacks) {
    parts.push(h("button", { class: "button small", id: "takeback-button", title: t("takeback_title"),
                             disabled: !movedThisDeal() || S.pending, onclick: takeBack }, t("takeback")));
  }
  if (!S.table.hint_bot || !myTurn()) { el.replaceChildren(...parts); return; }
  const v = S.state.version;
  parts.push(h("button", { class: "button small", id: "hint-button", title: t("hint_title"),
                           disabled: S.hintAsked === v, onclick: askHint }, t("hint")));
  const answer = S.hint && S.hint.version === v ? S.hint : null;
  if (answer) {
    parts.push(h("span", { class: "hint-text", id: "hint-text" },
      t("hint_is", { bot: botName(answer.bot), move: actionName(answer.action) })));
    if (answer.values.length) {
      parts.push(h("span", { class: "muted small hint-values" }, ` — ${t("hint_values")}: `,
        answer.values.map(([a, x]) => `${actionName(a)} ${signed(x)}`).join(", ")));
    }
  } else if (S.hintAsked === v) {
    parts.push(h("span", { class: "muted" }, t("hint_thinking")));
  }
  el.replaceChildren(...parts);
}

// ------------------------------------------------------------ reliability
// how often each registered player at the table played a match to the end (their page's
// figure over the last 20 matches), asked once per name
function lookUpReliability() {
  for (const s of S.seats) {
    if (!s.registered || !s.name || s.name in S.reliable) continue;
    S.reliable[s.name] = null;
    fetch(url(`/api/players/${encodeURIComponent(s.name)}?recent=1`))
      .then((r) => (r.ok ? r.json() : null))
      .then((p) => { if (p && p.reliability) { S.reliable[s.name] = p.reliability; if (S.state) render(); } })
      .catch(() => {});
  }
}

// ------------------------------------------------------------------- chat
// lines are drawn as text (h() sets textContent), never as HTML; a person may mute a seat
function toggleMute(seat) {
  if (S.muted.has(seat)) S.muted.delete(seat); else S.muted.add(seat);
  localStorage.setItem(`koloda.mute.${tableId}`, JSON.stringify([...S.muted]));
  renderChat();
}

function renderChat() {
  const el = document.getElementById("chat");
  if (!el) return;
  const shown = S.chat.filter((l) => !S.muted.has(l.seat));
  const lines = h("ol", { class: "chat-lines", id: "chat-lines" }, shown.map((l) => h("li", {},
    h("button", { class: "chat-name", title: t("chat_mute", { name: l.name }), dataset: { seat: String(l.seat) },
                  onclick: () => toggleMute(l.seat) }, l.name), " ", h("span", { class: "chat-text" }, l.text))));
  const parts = [h("h3", {}, t("chat")), lines];
  if (S.muted.size) {
    const names = [...S.muted].map((s) => seatName(S.seats, s));
    parts.push(h("p", { class: "muted small" }, t("chat_muted", { names: names.join(", ") }), " ",
      ...[...S.muted].map((s) => h("button", { class: "button small unmute", onclick: () => toggleMute(s) },
        t("chat_unmute", { name: seatName(S.seats, s) })))));
  }
  if (S.seat != null) {
    const input = h("input", { id: "chat-input", maxlength: "200", placeholder: t("chat_placeholder"),
                               autocomplete: "off" });
    parts.push(h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      send({ type: "chat", text, id: ++S.msgId });
      input.value = "";
    } }, input, h("button", { class: "button small", type: "submit" }, t("chat_send"))));
  } else {
    parts.push(h("p", { class: "muted small" }, t("chat_watchers")));
  }
  // drawn again on every line: what is being typed stays
  const typing = document.getElementById("chat-input");
  const draft = typing ? typing.value : "";
  const focused = typing && document.activeElement === typing;
  el.replaceChildren(...parts);
  const again = document.getElementById("chat-input");
  if (again) { again.value = draft; if (focused) again.focus(); }
  lines.scrollTop = lines.scrollHeight;
}

// ---------------------------------------------------------------- drawing
function statusText() {
  const v = S.state.view;
  if (v.match_over) return t("match_over");
  const who = v.to_move;
  if (who == null) return "";
  if (who === S.seat) return givenUp() ? t("computer_plays_you") : t("your_move");
  const s = S.seats[who] || {};
  const name = seatName(S.seats, who);
  if (s.kind === "computer") return t("thinking", { who: name });
  if (!s.taken) return t("waiting_open", { n: who + 1 });
  if (s.left) return t("plays_left", { who: name });
  if (s.computer_plays) return t("plays_for", { who: name });
  if (!s.connected) return t("waiting_away", { who: name });
  return t("turn_of", { who: name });
}

// ---------------------------------------------------------------- rematch
// the same seats again: this browser's seat token and invite work at the new table
function askRematch() {
  S.wantRematch = true;
  send({ type: "rematch", id: ++S.msgId });
}

function goTo(next) {
  if (token()) localStorage.setItem(tokenKey(next), token());
  if (invite()) localStorage.setItem(inviteKey(next), invite());
  location.assign(url(`/t/${encodeURIComponent(next)}`));
}

function onRematch(msg) {
  if (S.table) S.table.rematch = msg.next;
  if (S.wantRematch) { goTo(msg.next); return; }
  render();
}

function joinPanel() {
  const el = document.getElementById("join");
  const link = `${location.origin}${url(`/t/${tableId}`)}${invite() ? `#invite=${encodeURIComponent(invite())}` : ""}`;
  const parts = [h("h3", {}, t(S.table && S.table.private ? "share_private" : "share")),
    h("input", { class: "wide", readonly: true, value: link, onclick: (e) => e.target.select() })];
  if (S.seat == null) {
    const open = S.seats.filter((s) => s.kind === "person" && !s.taken);
    if (open.length) {
      parts.push(account() ? h("p", { class: "muted" }, t("signed_in_as", { name: account().name }))
        : h("label", {}, t("your_name"), " ",
          h("input", { id: "sit-name", maxlength: "40", value: localStorage.getItem("koloda.name") || "" })));
      parts.push(h("div", {}, open.map((s) => h("button", { class: "button", dataset: { sit: String(s.seat) },
                                                            onclick: () => onSit(s.seat) }, t("sit_here", { n: s.seat + 1 })))));
    } else {
      parts.push(h("p", { class: "muted" }, t("watching")));
    }
    if (S.table && S.table.settings.spectators === "trick") {
      parts.push(h("p", { class: "muted small", id: "watching-behind" }, t("watching_behind")));
    }
  } else if (token()) {
    if (givenUp() && !S.state.view.match_over) {
      parts.push(h("p", { class: "msg bad", id: "seat-given-up" }, t("seat_given_up")));
    }
    parts.push(h("details", {}, h("summary", {}, t("other_device")),
      h("p", { class: "muted small" }, t("other_device_help")),
      h("input", { class: "wide", readonly: true, value: `${link}#token=${encodeURIComponent(token())}`,
                   onclick: (e) => e.target.select() })));
  }
  if (S.state && S.state.game_id != null) {   // finished and stored: its replay
    parts.push(h("p", {}, h("a", { href: url(`/g/${S.state.game_id}${inviteQuery()}`), class: "replay-link" },
      t("replay_link"))));
  }
  if (S.table && S.table.rematch) {           // the next match, same seats
    parts.push(h("p", {}, h("button", { class: "button primary", id: "to-rematch",
                                        onclick: () => goTo(S.table.rematch) }, t("rematch_go"))));
  } else if (S.state && S.state.view.match_over && S.seat != null) {
    parts.push(h("p", {}, h("button", { class: "button", id: "rematch-button", onclick: askRematch },
      t("rematch"))));
  }
  el.replaceChildren(...parts);
}

function render() {
  if (!S.state) return;
  const v = S.state.view;
  const title = S.table ? pick(S.table.title) : v.game;
  document.title = `${title} — koloda`;
  document.getElementById("title").textContent = title;
  document.getElementById("deal-info").textContent = ` · ${t("deal_n", { n: dealLabel(S) })} · ${t("term.dealer")}: ${seatName(S.seats, v.dealer)}`;
  // for tests and scripts: what the page shows, in attributes
  Object.assign(document.body.dataset, {
    version: String(S.state.version), seat: S.seat == null ? "" : String(S.seat),
    myTurn: myTurn() ? "1" : "0", over: v.match_over ? "1" : "0",
  });
  if (givenUp()) { S.legal = []; S.moves = NO_MOVES; }   // the computer's moves, not ours
  const status = document.getElementById("status");
  // a seat given up says so at the top whoever is to move (the note below says why)
  const said = statusText();
  status.textContent = givenUp() && !v.match_over && said !== t("computer_plays_you")
    ? `${t("computer_plays_you")} · ${said}` : said;
  status.className = `status${myTurn() ? " mine" : ""}`;
  document.getElementById("sheet-button").textContent = t("sheet_title");
  document.getElementById("rules-button").textContent = t("rules");
  renderSeats(S);
  renderCenter(S);
  renderHand(S);
  renderMoves(S);
  hintRow();
  renderPanel(S);
  joinPanel();
  renderChat();
}

// ----------------------------------------------------------------- modals
function modal(children, buttonText) {
  const box = document.getElementById("modal-box");
  const close = () => document.getElementById("modal").classList.add("hidden");
  box.replaceChildren(...children, h("div", { class: "modal-actions" },
    h("button", { class: "button primary continue", onclick: close }, buttonText || t("continue"))));
  document.getElementById("modal").classList.remove("hidden");
}

function showSheet(heading) {
  modal([h("h2", {}, heading || t("sheet_title")), ...sheetView(S)]);
}

async function showRules() {
  const game = S.table ? S.table.game : S.state && S.state.view.game;
  if (!game) return;
  try {
    const res = await api(`/api/rules/${game}?lang=${document.documentElement.lang}`);
    modal([h("div", { class: "rules" }, markdown(res.text))], t("close"));
  } catch (e) { say(e.message); }
}

function showResult() {
  const r = S.state.result;
  const parts = [h("h2", {}, t("match_over"))];
  if (r) parts.push(...resultView(S));
  parts.push(...sheetView(S));
  parts.push(h("p", {}, h("a", { href: url(`/api/tables/${tableId}/record${inviteQuery()}`), target: "_blank" }, t("record_link")),
    S.state.game_id != null ? [" · ", h("a", { href: url(`/g/${S.state.game_id}${inviteQuery()}`), class: "replay-link" }, t("replay_link"))] : null,
    " · ", h("a", { href: url("/") }, t("back_lobby"))));
  if (S.seat != null) {
    parts.push(h("p", {}, h("button", { class: "button", id: "modal-rematch", onclick: askRematch }, t("rematch"))));
  }
  modal(parts, t("close"));
}

async function main() {
  await Promise.all([loadTexts(), loadMe()]);
  document.getElementById("lang-slot").replaceChildren(langSwitch(() => render()));
  document.getElementById("sheet-button").addEventListener("click", () => S.state && showSheet());
  document.getElementById("rules-button").addEventListener("click", showRules);
  const notes = sessionStorage.getItem("koloda.notes");
  if (notes) { sessionStorage.removeItem("koloda.notes"); say(notes, false); }
  connect();
  void isCard;
}

main();
