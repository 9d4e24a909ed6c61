// Shared by the lobby and the table: texts in two languages, DOM helpers, cards, actions.

const SUIT_SIGN = { S: "♠", C: "♣", D: "♦", H: "♥" };
const CARD_RE = /^[2-9TJQKA][SCDH]$/;
export const HIDDEN = "??";

// The path prefix the server is served under behind a proxy ("" for none; koloda serve
// --root-path puts it in each page's <meta name="koloda-root">): every address the pages
// fetch, link to or open a websocket on goes through url() / wsUrl(), and here() is the
// page's path without it.
export const ROOT = document.querySelector('meta[name="koloda-root"]')?.content || "";

/** "/api/games" → "/koloda/api/games" under a prefix, as it is without one. */
export function url(path) { return ROOT + path; }

/** The websocket address of "/ws/…" on this page's server (ws: or wss: as the page). */
export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${ROOT}${path}`;
}

/** The page's path as the server's routes name it ("/t/abc", without the prefix). */
export function here() {
  const path = location.pathname;
  return ROOT && path.startsWith(`${ROOT}/`) ? path.slice(ROOT.length) : path;
}

let TEXTS = { en: {}, ru: {} };
let LANG = localStorage.getItem("koloda.lang")
  || ((navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en");

export async function loadTexts() {
  TEXTS = await (await fetch(url("/api/texts"))).json();
  document.documentElement.lang = LANG;
}

export function lang() { return LANG; }

export function setLang(value) {
  LANG = value;
  localStorage.setItem("koloda.lang", value);
  document.documentElement.lang = value;
}

/** A text of the catalogue, with {name} placeholders filled in. */
export function t(key, vars = {}) {
  let s = (TEXTS[LANG] && TEXTS[LANG][key]) ?? (TEXTS.en && TEXTS.en[key]) ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** A term of the one vocabulary (koloda/engine/terms.py, served in /api/texts): a label or
 * value word (`term.`), a verb (`verb.`), a suit (`suit.`), a computer's kind (`bot.`);
 * null when the vocabulary has no such term. */
export function term(kind, key) {
  const k = `${kind}.${key}`;
  return (TEXTS[LANG] && TEXTS[LANG][k]) ?? (TEXTS.en && TEXTS.en[k]) ?? null;
}

/** The label of a field (the field's name if the vocabulary has none). */
export function label(field) {
  return term("term", field) ?? field.replaceAll("_", " ");
}

/** Pick the language's side of an {en, ru} object. */
export function pick(obj) {
  if (obj == null || typeof obj !== "object") return obj ?? "";
  return obj[LANG] || obj.en || "";
}

/** Build an element: h("div", {class: "x", onclick: f}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function isCard(word) { return typeof word === "string" && CARD_RE.test(word); }

/** A card as people write it: 10♥, Д♠ (Russian) or Q♠. */
export function cardName(text) {
  if (text === HIDDEN) return "🂠";
  if (!isCard(text)) return String(text);
  return (term("rank", text[0]) ?? text[0]) + SUIT_SIGN[text[1]];
}

export function suitName(s) {
  if (s == null) return "—";
  const word = term("suit", s);
  return word ? `${SUIT_SIGN[s]} ${word}` : String(s);
}

/** An <img> of a card (face down for "??"). */
export function cardImg(text, opts = {}) {
  const src = url(text === HIDDEN || text == null ? "/static/cards/back.svg"
    : `/static/cards/${LANG}/${text}.svg`);
  const cls = ["card", opts.small ? "small" : "", opts.extra || ""].join(" ").trim();
  return h("img", { class: cls, src, alt: cardName(text ?? HIDDEN), title: cardName(text ?? HIDDEN),
                    draggable: "false", dataset: text && text !== HIDDEN ? { card: text } : {} });
}

/** "beat 9H KH" → {verb: "beat", cards: ["9H", "KH"], words: []}. */
export function parseAction(text) {
  const [verb, ...rest] = text.split(" ");
  return { verb, cards: rest.filter(isCard), words: rest.filter((w) => !isCard(w)), text };
}

/** An action in words of the chosen language, cards drawn with suit signs; with `done`, as a
 * log says a seat did it («ходит 9♥», "plays 9♥") instead of the button's «сыграть 9♥». */
export function actionName(text, done = false) {
  const a = parseAction(text);
  const cards = text.split(" ").slice(1).filter((w) => isCard(w) || w === HIDDEN).map(cardName);
  const words = a.words.filter((w) => w !== HIDDEN);
  const verb = (done && term("done", a.verb)) || (term("verb", a.verb) ?? a.verb);
  if (a.verb === "beat" && cards.length === 2) {
    return `${verb} ${cards[0]} ${term("verb", "with") ?? "with"} ${cards[1]}`;
  }
  if (a.verb === "pick" && words.length) return `${verb} ${t("pick_n", { n: Number(words[0]) + 1 })}`;
  const extra = words.map((w) => term("term", w) ?? term("verb", w) ?? w);
  const down = text.split(" ").filter((w) => w === HIDDEN).length;
  if (down) {  // another player's private cards: how many, never which
    const open = cards.filter((c) => c !== cardName(HIDDEN));
    return [verb, ...open, t("face_down_n", { n: down }), ...extra].join(" ");
  }
  return [verb, ...cards, ...extra].join(" ");
}

export function seatName(seats, i) {
  if (i == null) return "—";
  const s = seats && seats[i];
  if (s && s.kind === "computer") return t("computer_n", { n: i + 1 });
  return s && s.name ? s.name : t("seat_n", { n: i + 1 });
}

export function botName(spec) {
  if (!spec) return "";
  return spec.split(":").map((w) => term("bot", w) ?? w).join(", ");
}

// who this browser is signed in as (null: a guest), and the session's CSRF token that
// every state-changing request sends in X-CSRF-Token (GET /api/me; koloda/web/accounts.py)
let ME = { account: null, csrf: null };

export async function loadMe() {
  try { ME = await (await fetch(url("/api/me"))).json(); } catch { ME = { account: null, csrf: null }; }
  return ME.account;
}

export function account() { return ME.account; }

export function csrf() { return ME.csrf; }

export function setMe(me) { ME = me || { account: null, csrf: null }; }

export async function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (ME.csrf) headers["X-CSRF-Token"] = ME.csrf;
  const opts = body === undefined ? {} : { method: "POST", headers, body: JSON.stringify(body) };
  const res = await fetch(url(path), opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    // the server says its own errors in English (``error``) and Russian (``error_ru``)
    let msg = (LANG === "ru" && data.error_ru) || data.error || data.detail || res.statusText;
    if (Array.isArray(msg)) msg = msg.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    throw new Error(msg);
  }
  return data;
}

export function tokenKey(tableId) { return `koloda.seat.${tableId}`; }

export function langSwitch(onChange) {
  const sel = h("select", { id: "lang", "aria-label": "language" },
    h("option", { value: "ru" }, "Русский"), h("option", { value: "en" }, "English"));
  sel.value = LANG;
  sel.addEventListener("change", () => { setLang(sel.value); onChange(); });
  return sel;
}
