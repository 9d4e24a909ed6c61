// Drawing a table from the state the server sent: generic for every game's observation,
// with a few per-game touches (the Durak table of pairs, Kopilka's face-down offers).
import {
  HIDDEN, actionName, botName, cardImg, cardName, h, isCard, label, parseAction, pick,
  seatName, suitName, t,
} from "./common.js";

// fields drawn in their own place, not in the generic lists
const PLACED = new Set([
  "game", "players", "seat", "deal_number", "dealer", "to_move", "match_over", "sheet",
  "hand", "hand_sizes", "pile_sizes", "trick", "table", "last_trick", "last_round",
  "tricks_played", "options", "known_cards", "exchange", "offers", "discard", "my_discards",
  "in_play", "in_game", "passed", "out", "skipped", "teams", "variant", "leader", "attacker",
  "defender", "trump_drawn_by", "starter", "first_dealer_draw", "deck_size",
]);
// table facts shown beside the cards in the middle, in this order
const SIDE = ["trump_card", "trump", "trump_suit", "trumps", "stock", "stock_size", "talon",
  "widow_size", "pot", "discard_count", "limit", "set_aside", "round", "phase"];
const SUIT_KEYS = new Set(["trump", "trump_suit", "led", "banned_lead", "next_trump", "suit",
  "voids"]);
const SUIT_WORDS = new Set(["spades", "clubs", "diamonds", "hearts", "S", "C", "D", "H"]);

const scalar = (v) => v == null || ["string", "number", "boolean"].includes(typeof v);
const isObj = (v) => v != null && typeof v === "object" && !Array.isArray(v);

/** A value in words: cards with suit signs, suits by name, actions translated. */
export function fmt(v, key = "") {
  if (v == null) return "—";
  if (typeof v === "boolean") return v ? t("yes") : t("no");
  if (typeof v === "number") return String(v);
  if (typeof v === "string") {
    if (isCard(v) || v === HIDDEN) return cardName(v);
    if (SUIT_KEYS.has(key) || (SUIT_WORDS.has(v) && v.length > 1)) return suitName(v);
    if (key === "phase" && t(`ph_${v}`) !== `ph_${v}`) return t(`ph_${v}`);
    const verb = v.split(" ")[0];
    if (t(`v_${verb}`) !== `v_${verb}`) return actionName(v);
    if (t(`w_${v}`) !== `w_${v}`) return t(`w_${v}`);
    return v;
  }
  if (Array.isArray(v)) {
    if (v.length && v.every(isObj)) return String(v.length);
    return v.length ? v.map((x) => fmt(x, key)).join(" ") : "—";
  }
  const entries = Object.entries(v);
  if (!entries.length) return "—";
  return entries.map(([k, x]) => `${SUIT_WORDS.has(k) ? suitName(k) : label(k)}: ${fmt(x, k)}`).join(", ");
}

function perSeatFields(view) {
  const n = view.players;
  return Object.entries(view).filter(([k, v]) => !PLACED.has(k) && !SIDE.includes(k)
    && Array.isArray(v) && v.length === n);
}

// ------------------------------------------------------------------ seats
function seatStatus(S, i) {
  const s = S.seats[i] || {};
  if (s.kind === "computer") return h("span", { class: "tag computer" }, botName(s.bot));
  if (!s.taken) return h("span", { class: "tag open" }, t("open_seat"));
  if (s.computer_plays) return h("span", { class: "tag away" }, t("computer_plays"));
  return h("span", { class: `tag ${s.connected ? "online" : "away"}` },
    s.connected ? t("online") : t("away"));
}

function seatBox(S, view, i, mine) {
  const counts = view.hand_sizes || view.pile_sizes || [];
  const n = counts[i];
  const marks = [];
  if (view.dealer === i) marks.push(h("span", { class: "mark dealer", title: t("dealer") }, t("dealer_short")));
  if (view.attacker === i) marks.push(h("span", { class: "mark" }, t("attacks")));
  if (view.defender === i) marks.push(h("span", { class: "mark" }, t("defends")));
  if (view.leader === i) marks.push(h("span", { class: "mark" }, t("leads")));
  const active = view.in_play || view.in_game;
  if (Array.isArray(active) && active.length && !active.includes(i)) marks.push(h("span", { class: "mark out" }, t("out")));
  if (Array.isArray(view.out) && view.out.includes(i)) marks.push(h("span", { class: "mark out" }, t("out")));
  if (Array.isArray(view.passed) && view.passed.includes(i)) marks.push(h("span", { class: "mark" }, t("passed")));
  if (Array.isArray(view.skipped) && view.skipped.includes(i)) marks.push(h("span", { class: "mark" }, t("skipped")));
  const backs = !mine && n ? h("div", { class: "backs" },
    Array.from({ length: Math.min(n, 8) }, () => cardImg(HIDDEN, { small: true, extra: "back" }))) : null;
  const known = view.known_cards && view.known_cards[i] && view.known_cards[i].length && !mine
    ? h("div", { class: "known" }, h("span", { class: "muted" }, t("known"), " "),
      view.known_cards[i].map((c) => cardImg(c, { small: true }))) : null;
  const stats = perSeatFields(view).map(([k, v]) => h("div", { class: "stat" },
    h("span", { class: "muted" }, `${label(k)}: `), fmt(v[i], k)));
  const open = S.seat == null && S.seats[i] && S.seats[i].kind === "person" && !S.seats[i].taken;
  return h("div", {
    class: `seat-box${view.to_move === i ? " to-move" : ""}${mine ? " mine" : ""}`,
    dataset: { seat: String(i) },
  },
  h("div", { class: "seat-head" }, h("strong", {}, seatName(S.seats, i)), " ",
    mine ? h("span", { class: "tag you" }, t("you")) : seatStatus(S, i)),
  h("div", { class: "marks" }, marks),
  n != null ? h("div", { class: "count" }, backs, h("span", {}, t("cards_n", { n }))) : null,
  known, stats,
  open ? h("button", { class: "button small", dataset: { sit: String(i) },
                       onclick: () => S.onSit(i) }, t("sit_here", { n: i + 1 })) : null);
}

export function renderSeats(S) {
  const view = S.state.view;
  const n = view.players;
  const me = S.seat;
  const order = [];
  for (let k = 1; k <= n; k++) order.push(((me ?? -1) + k + n) % n);
  const others = me == null ? order : order.filter((i) => i !== me);
  document.getElementById("opponents").replaceChildren(...others.map((i) => seatBox(S, view, i, false)));
  document.getElementById("my-seat").replaceChildren(me == null ? "" : seatBox(S, view, me, true));
}

// ---------------------------------------------------------------- middle
function played(cards, S, opts = {}) {
  // [[seat, card, mode?], ...] → cards with the player's name under each
  return h("div", { class: "played" }, cards.map((e) => h("figure", { class: "played-card" },
    cardImg(e[1]), h("figcaption", {}, seatName(S.seats, e[0]), e[2] ? ` (${fmt(e[2])})` : ""))),
  opts.empty && !cards.length ? h("span", { class: "muted" }, opts.empty) : null);
}

function durakTable(S, pairs) {
  const beatable = new Set(S.legal.filter((a) => a.startsWith("beat ")).map((a) => a.split(" ")[1]));
  return h("div", { class: "durak-table" }, pairs.length ? pairs.map(([a, b]) => h("div", {
    class: `pair${b ? " covered" : ""}${S.target === a ? " target" : ""}`,
  },
  h("span", { class: `attack${!b && beatable.has(a) ? " beatable" : ""}`, dataset: { attack: a },
              onclick: () => !b && S.onTarget(a) }, cardImg(a)),
  b ? h("span", { class: "cover" }, cardImg(b)) : null)) : h("span", { class: "muted" }, t("empty_table")));
}

function offers(S, view) {
  const ex = view.exchange;
  const out = [];
  if (ex) {
    const picks = new Set(S.legal.filter((a) => a.startsWith("pick ")).map((a) => Number(a.split(" ")[1])));
    out.push(h("div", { class: "offer" }, h("div", { class: "muted" },
      t("offer_of", { who: seatName(S.seats, ex.offerer), n: ex.count })),
    h("div", { class: "played" }, Array.from({ length: ex.count }, (_, k) => {
      const taken = ex.taken && ex.taken[k] != null;
      const face = ex.cards ? ex.cards[k] : HIDDEN;
      return h("figure", { class: `played-card${picks.has(k) ? " pickable" : ""}`,
                           dataset: { pick: String(k) },
                           onclick: () => picks.has(k) && S.onAction(`pick ${k}`) },
      cardImg(face), h("figcaption", {}, taken ? t("taken_by", { who: seatName(S.seats, ex.taken[k]) })
        : t("pick_n", { n: k + 1 })));
    }))));
  }
  return out;
}

export function renderCenter(S) {
  const view = S.state.view;
  const parts = [];
  if (view.game && view.game.startsWith("durak")) {
    parts.push(durakTable(S, view.table || []));
  } else {
    const trick = Array.isArray(view.trick) ? view.trick : view.trick && view.trick.cards;
    const table = Array.isArray(view.table) ? view.table : null;
    if (trick) {
      const led = view.trick && view.trick.led ? ` · ${t("led")}: ${suitName(view.trick.led)}` : "";
      parts.push(h("div", { class: "zone-title" }, t("trick"), led));
      parts.push(played(trick, S, { empty: t("empty_table") }));
    }
    if (table) {
      parts.push(h("div", { class: "zone-title" }, t("table")));
      parts.push(played(table, S, { empty: t("empty_table") }));
    }
    parts.push(...offers(S, view));
  }
  document.getElementById("center").replaceChildren(...parts);
  const side = [];
  for (const k of SIDE) {
    if (!(k in view) || view[k] == null) continue;
    const v = view[k];
    if (k === "trump_card" && isCard(v)) {
      side.push(h("div", { class: "fact trump" }, h("div", { class: "muted" }, label(k)), cardImg(v)));
    } else if ((k === "stock" || k === "stock_size" || k === "talon" || k === "widow_size") && typeof v === "number") {
      side.push(h("div", { class: "fact" }, h("div", { class: "muted" }, label(k)),
        v ? cardImg(HIDDEN, { small: true }) : null, h("strong", {}, ` ${v}`)));
    } else if (scalar(v)) {
      side.push(h("div", { class: "fact" }, h("span", { class: "muted" }, `${label(k)}: `),
        h("strong", {}, fmt(v, k))));
    }
  }
  document.getElementById("side-info").replaceChildren(...side);
}

// ------------------------------------------------------------- hand, moves
export function renderHand(S) {
  const view = S.state.view;
  const hand = view.hand || [];
  const playable = new Set();
  for (const a of S.legal) for (const c of parseAction(a).cards) if (hand.includes(c)) playable.add(c);
  const el = document.getElementById("hand");
  if (S.seat == null) { el.replaceChildren(); return; }
  el.replaceChildren(...(hand.length ? hand.map((c) => {
    const img = cardImg(c, { extra: `${playable.has(c) ? "playable" : ""}${S.selection.has(c) ? " selected" : ""}` });
    img.addEventListener("click", () => S.onCard(c));
    return img;
  }) : [h("span", { class: "muted" }, t("no_hand"))]));
  if (view.my_discards && view.my_discards.length) {
    el.append(h("span", { class: "discards muted" }, ` ${t("my_discards")}: `,
      view.my_discards.map((c) => cardImg(c, { small: true }))));
  }
}

export function renderMoves(S) {
  const el = document.getElementById("moves");
  if (S.seat == null || !S.legal.length) { el.replaceChildren(); return; }
  const hand = new Set(S.state.view.hand || []);
  const handCards = (a) => parseAction(a).cards.filter((c) => hand.has(c));
  const plain = S.legal.filter((a) => !handCards(a).length && !a.startsWith("pick "));
  const sel = [...S.selection].sort();
  const same = (a) => { const c = handCards(a).sort(); return c.length === sel.length && c.every((x, k) => x === sel[k]); };
  const cands = sel.length ? S.legal.filter(same) : [];
  const more = sel.length ? S.legal.some((a) => { const c = handCards(a); return c.length > sel.length && sel.every((x) => c.includes(x)); }) : false;
  const button = (a, cls = "") => h("button", { class: `button move ${cls}`, dataset: { action: a },
                                                onclick: () => S.onAction(a) }, actionName(a));
  const rows = [];
  if (plain.length) rows.push(h("div", { class: "move-row" }, plain.map((a) => button(a))));
  if (sel.length) {
    rows.push(h("div", { class: "move-row" },
      h("span", { class: "muted" }, t("selected", { cards: sel.map(cardName).join(" ") }), " "),
      cands.map((a) => button(a, "primary")),
      more ? h("span", { class: "muted" }, t("select_more")) : null,
      !cands.length && !more ? h("span", { class: "muted" }, t("no_move_with")) : null,
      h("button", { class: "button small", onclick: () => S.onClear() }, t("clear"))));
  } else if (S.legal.some((a) => handCards(a).length)) {
    rows.push(h("div", { class: "hint muted" }, S.target ? t("now_pick_cover", { card: cardName(S.target) })
      : t("click_card")));
  }
  rows.push(h("details", { class: "all-moves" }, h("summary", {}, t("all_moves", { n: S.legal.length })),
    h("div", { class: "move-row" }, S.legal.map((a) => button(a, "small")))));
  el.replaceChildren(...rows);
}

// ------------------------------------------------------------ panel, log
export function renderPanel(S) {
  const view = S.state.view;
  const last = view.last_trick || view.last_round;
  document.getElementById("last-trick").replaceChildren(...(last && last.cards ? [
    h("h3", {}, view.last_round ? t("last_round") : t("last_trick")),
    played(last.cards, S),
    last.winner != null ? h("div", { class: "muted" }, t("taken_by", { who: seatName(S.seats, last.winner) })) : null,
  ] : []));
  const info = Object.entries(view).filter(([k, v]) => !PLACED.has(k) && !SIDE.includes(k)
    && !(Array.isArray(v) && v.length === view.players));
  document.getElementById("info").replaceChildren(...(info.length ? [h("dl", { class: "facts" },
    info.map(([k, v]) => [h("dt", {}, label(k)), h("dd", {}, fmt(v, k))]))] : []));
  document.getElementById("log-title").textContent = t("log_deal", { n: view.deal_number + 1 });
  const log = document.getElementById("log");
  log.replaceChildren(...S.state.log.map(([seat, a]) => h("li", {},
    h("span", { class: "who" }, seatName(S.seats, seat)), " ", actionName(a))));
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------- the sheet
/** A score sheet (any game's): per-seat rows, a table of deals, other facts. */
export function sheetView(sheet, seats, players) {
  const perSeat = [];
  const tables = [];
  const facts = [];
  for (const [k, v] of Object.entries(sheet || {})) {
    if (Array.isArray(v) && v.length === players && v.every(scalar)) perSeat.push([k, v]);
    else if (Array.isArray(v) && v.length && v.every(isObj)) tables.push([k, v]);
    else if (scalar(v) || (Array.isArray(v) && v.every(scalar))) facts.push([k, v]);
  }
  const names = Array.from({ length: players }, (_, i) => seatName(seats, i));
  const out = [];
  if (perSeat.length) {
    out.push(h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("th", {}), names.map((n) => h("th", {}, n)))),
      h("tbody", {}, perSeat.map(([k, v]) => h("tr", {}, h("th", {}, label(k)),
        v.map((x) => h("td", {}, fmt(x, k))))))));
  }
  for (const [k, rows] of tables) {
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const seatKeys = keys.filter((x) => rows.some((r) => Array.isArray(r[x]) && r[x].length === players));
    const plainKeys = keys.filter((x) => !seatKeys.includes(x) && rows.every((r) => scalar(r[x])));
    out.push(h("div", { class: "zone-title" }, label(k),
      seatKeys.length ? h("span", { class: "muted" }, ` (${seatKeys.map(label).join(" · ")})`) : ""));
    out.push(h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, plainKeys.map((x) => h("th", {}, label(x))), names.map((n) => h("th", {}, n)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, plainKeys.map((x) => h("td", {}, x === "dealer" ? seatName(seats, r[x]) : fmt(r[x], x))),
        names.map((_, i) => h("td", {}, seatKeys.map((x) => (Array.isArray(r[x]) ? fmt(r[x][i], x) : "")).join(" · "))))))));
  }
  if (facts.length) {
    out.push(h("dl", { class: "facts" }, facts.map(([k, v]) => [h("dt", {}, label(k)), h("dd", {}, fmt(v, k))])));
  }
  return out.length ? out : [h("p", { class: "muted" }, t("empty_sheet"))];
}

export function resultView(result, seats, players) {
  const names = (list) => list.map((i) => seatName(seats, i)).join(", ");
  const out = [];
  if (result.winners.length) out.push(h("p", { class: "big" }, t(result.winners.length > 1 ? "winners_are" : "winner_is", { who: names(result.winners) })));
  else out.push(h("p", { class: "big" }, t("draw")));
  if (result.details && result.details.durak != null) out.push(h("p", {}, t("durak_is", { who: seatName(seats, result.details.durak) })));
  out.push(h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, Array.from({ length: players }, (_, i) => h("th", {}, seatName(seats, i))))),
    h("tbody", {}, h("tr", {}, result.scores.map((s) => h("td", {}, fmt(s)))))));
  if (result.capped) out.push(h("p", { class: "muted" }, t("capped")));
  return out;
}

export { pick };
