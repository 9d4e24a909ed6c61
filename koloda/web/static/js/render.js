// Drawing a table from the state the server sent. What a person sees of the game — the
// seats' rows, the trick or Durak's table, the facts, the last trick, the score sheet —
// comes ready in the state's `display` (koloda/present.py: labels from the one vocabulary,
// values formatted by their declared kind, in both languages). This file only draws it:
// it never interprets the raw observation, so the browser and the terminal say the same.
import {
  HIDDEN, actionName, botName, cardImg, cardName, h, lang, pick, seatName, t,
} from "./common.js";

/** The move chooser's data before the server sends any (no move to choose). */
export const NO_MOVES = Object.freeze({
  hand: [], playable: [], plain: [], exact: {}, more: [], attempts: {}, aims: {}, beatable: [],
});

/** What a set of chosen hand cards means, as the server's move chooser (koloda/moves.py,
 * the terminal's) computed it: the legal actions that use exactly these cards, and whether
 * some legal action uses them with more. The page reads no action's text for this. */
export function chosen(S, cards) {
  const M = S.moves || NO_MOVES;
  const key = M.hand.filter((c) => cards.has(c)).join(" ");
  return { actions: (M.exact[key] || []).map((i) => S.legal[i]), more: M.more.includes(key) };
}

/** The display in the page's language (null before the server sends one). */
export function display(S) {
  const d = S.state && S.state.display;
  if (!d) return null;
  return d[lang()] || d.en || null;
}

/** The deal's number as the header says it ("12/25"): the display's, counted from 1 as
 * the terminal and the score sheet count it (else the view's index, from 0, plus one). */
export function dealLabel(S) {
  const d = display(S);
  const deal = d && d.deal;
  if (deal && deal.n != null) return deal.of ? `${deal.n}/${deal.of}` : String(deal.n);
  return String(S.state.view.deal_number + 1);
}

const heading = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");

/** A display cell: its cards as small pictures, or its text. */
function cell(c, opts = {}) {
  if (c == null) return "·";
  if (opts.images && c.cards && c.cards.length) {
    // the pictures, and the same cards in words for where there is no room for pictures
    // (the others' boxes on a phone: style.css shows one of the two)
    return [h("span", { class: "cards" }, c.cards.map((x) => cardImg(x, { small: true }))),
      h("span", { class: "cards-text" }, c.text)];
  }
  return c.text;
}

function fact(item, opts = {}) {
  return h("div", { class: `fact${item.cards && item.cards.length === 1 ? " trump" : ""}`,
                    dataset: { field: item.name } },
  h("span", { class: "muted" }, `${item.label}: `),
  opts.images && item.cards && item.cards.length === 1 ? cardImg(item.cards[0]) : h("strong", {}, item.text));
}

// ------------------------------------------------------------------ seats
function seatStatus(S, i) {
  const s = S.seats[i] || {};
  if (s.kind === "computer") return h("span", { class: "tag computer" }, botName(s.bot));
  if (S.replay) return null;    // a replay: nobody is here or away
  if (!s.taken) return h("span", { class: "tag open" }, t("open_seat"));
  if (s.left) return h("span", { class: "tag away", dataset: { left: "1" } }, t("seat_left"));
  if (s.computer_plays) return h("span", { class: "tag away" }, t("computer_plays"));
  return h("span", { class: `tag ${s.connected ? "online" : "away"}` },
    s.connected ? t("online") : t("away"));
}

function seatBox(S, D, i, mine) {
  const row = D.players.rows[i];
  const marks = [];
  if (row.dealer) marks.push(h("span", { class: "mark dealer", title: t("term.dealer") }, t("term.dealer")));
  for (const m of row.marks) marks.push(h("span", { class: "mark" }, m));
  const stats = D.players.columns.map((col, k) => h("div", { class: "stat", dataset: { field: col.name } },
    h("span", { class: "muted" }, `${col.label}: `), cell(row.cells[k], { images: true })));
  const open = S.seat == null && S.seats[i] && S.seats[i].kind === "person" && !S.seats[i].taken;
  return h("div", {
    class: `seat-box${row.to_move ? " to-move" : ""}${mine ? " mine" : ""}`,
    dataset: { seat: String(i) },
  },
  h("div", { class: "seat-head" }, h("strong", {}, row.name),
    S.seats[i] && S.seats[i].registered
      ? h("span", { class: "registered", title: t("registered") }, " ✓") : null, " ",
    // a registered player's record of finishing (the table page asks for it)
    S.seats[i] && S.reliable && S.reliable[S.seats[i].name] && S.reliable[S.seats[i].name].matches
      ? h("span", { class: "tag reliable", title: t("reliability", S.reliable[S.seats[i].name]) },
        t("reliability_short", S.reliable[S.seats[i].name])) : null, " ",
    mine ? h("span", { class: "tag you" }, t("term.you")) : seatStatus(S, i)),
  h("div", { class: "marks" }, marks),
  stats,
  open ? h("button", { class: "button small", dataset: { sit: String(i) },
                       onclick: () => S.onSit(i) }, t("sit_here", { n: i + 1 })) : null);
}

export function renderSeats(S) {
  const D = display(S);
  const opp = document.getElementById("opponents");
  const mySeat = document.getElementById("my-seat");
  if (!D) { opp.replaceChildren(); mySeat.replaceChildren(); return; }
  const n = D.players.rows.length;
  const me = S.seat;
  const order = [];
  for (let k = 1; k <= n; k++) order.push(((me ?? -1) + k + n) % n);
  const others = me == null ? order : order.filter((i) => i !== me);
  opp.replaceChildren(...others.map((i) => seatBox(S, D, i, false)));
  mySeat.replaceChildren(me == null ? "" : seatBox(S, D, me, true));
}

// ---------------------------------------------------------------- middle
function played(plays, opts = {}) {
  return h("div", { class: "played" }, plays.map((p) => h("figure", { class: "played-card" },
    cardImg(p.card === HIDDEN ? HIDDEN : p.card),
    h("figcaption", {}, p.name, p.note ? ` (${p.note})` : ""))),
  opts.empty && !plays.length ? h("span", { class: "muted" }, opts.empty) : null);
}

function durakTable(S, pairs) {
  const beatable = new Set((S.moves || NO_MOVES).beatable);
  return h("div", { class: "durak-table" }, pairs.length ? pairs.map((p) => {
    const a = p.attack.cards ? p.attack.cards[0] : null;
    const b = p.cover && p.cover.cards ? p.cover.cards[0] : null;
    return h("div", { class: `pair${b ? " covered" : ""}${S.target === a ? " target" : ""}` },
      h("span", { class: `attack${!b && beatable.has(a) ? " beatable" : ""}`, dataset: { attack: a },
                  onclick: () => !b && S.onTarget(a) }, cardImg(a)),
      b ? h("span", { class: "cover" }, cardImg(b)) : null);
  }) : h("span", { class: "muted" }, t("empty_table")));
}

function part(S, P, opts = {}) {
  const out = [h("div", { class: "zone-title" }, heading(P.label),
    P.items.length ? h("span", { class: "muted" }, ` · ${P.items.map((i) => `${i.label}: ${i.text}`).join(" · ")}`) : "")];
  if (P.pairs.length || P.kind === "table") out.push(durakTable(S, P.pairs));
  else out.push(played(P.plays, opts));
  return out;
}

function groups(S, D) {
  // nested parts (an offer of cards face down …): a title and its facts; positions to pick
  const picks = new Set(S.legal.filter((a) => a.startsWith("pick ")).map((a) => Number(a.split(" ")[1])));
  const out = D.groups.map((g) => h("div", { class: "offer", dataset: { group: g.name } },
    h("div", { class: "zone-title" }, heading(g.label)),
    h("div", { class: "muted" }, g.items.map((i) => `${i.label}: ${i.text}`).join(" · "))));
  if (picks.size) {
    out.push(h("div", { class: "played" }, [...picks].sort((a, b) => a - b).map((k) => h("figure", {
      class: "played-card pickable", dataset: { pick: String(k) }, onclick: () => S.onAction(`pick ${k}`),
    }, cardImg(HIDDEN), h("figcaption", {}, t("pick_n", { n: k + 1 }))))));
  }
  return out;
}

export function renderCenter(S) {
  const D = display(S);
  const center = document.getElementById("center");
  const side = document.getElementById("side-info");
  if (!D) { center.replaceChildren(); side.replaceChildren(); return; }
  const parts = [];
  if (D.centre) parts.push(...part(S, D.centre, { empty: t("empty_table") }));
  else parts.push(h("span", { class: "muted" }, t("empty_table")));
  parts.push(...groups(S, D));
  center.replaceChildren(...parts);
  side.replaceChildren(...D.info.map((i) => fact(i, { images: true })));
}

// ------------------------------------------------------------- hand, moves
export function renderHand(S) {
  const D = display(S);
  const hand = (D && D.hand && D.hand.cards) || S.state.view.hand || [];
  const playable = new Set(S.moves.playable);
  const el = document.getElementById("hand");
  if (S.seat == null) { el.replaceChildren(); return; }
  el.replaceChildren(...(hand.length ? hand.map((c) => {
    const img = cardImg(c, { extra: `${playable.has(c) ? "playable" : ""}${S.selection.has(c) ? " selected" : ""}` });
    img.addEventListener("click", () => S.onCard(c));
    return img;
  }) : [h("span", { class: "muted" }, t("no_hand"))]));
}

export function renderMoves(S) {
  const el = document.getElementById("moves");
  if (S.seat == null || !S.legal.length) { el.replaceChildren(); return; }
  // the positions to pick are drawn with the offer (groups), not as buttons here
  const plain = S.moves.plain.filter((a) => !a.startsWith("pick "));
  const sel = [...S.selection].sort();
  const { actions: cands, more } = sel.length ? chosen(S, S.selection) : { actions: [], more: false };
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
      h("button", { class: "button small clear", onclick: () => S.onClear() }, t("clear"))));
  } else if (S.moves.playable.length) {
    rows.push(h("div", { class: "hint muted" }, S.target ? t("now_pick_cover", { card: cardName(S.target) })
      : t("click_card")));
  }
  // drawn again at the same move (a seat's news, the language), the list stays open if it was
  const wasOpen = el.dataset.version === String(S.state.version)
    && Boolean(el.querySelector("details.all-moves[open]"));
  el.dataset.version = String(S.state.version);
  rows.push(h("details", { class: "all-moves", open: wasOpen }, h("summary", {}, t("all_moves", { n: S.legal.length })),
    h("div", { class: "move-row" }, S.legal.map((a) => button(a, "small")))));
  el.replaceChildren(...rows);
}

// ------------------------------------------------------------ panel, log
export function renderPanel(S) {
  const D = display(S);
  const L = D && D.last;
  // (replaceChildren writes a null as the text "null": the parts a trick lacks are left out)
  document.getElementById("last-trick").replaceChildren(...(L ? [
    h("h3", {}, heading(L.label)),
    ...(L.pairs.length ? [durakTable({ ...S, moves: NO_MOVES, target: null, onTarget: () => {} }, L.pairs)]
      : [played(L.plays)]),
    // what became of it, in the display's words ("beaten off", "taken by Anna")
    L.result ? h("div", { class: "muted" }, L.result)
      : L.winner != null ? h("div", { class: "muted" }, t("taken_by", { who: L.winner })) : null,
    L.items.length ? h("div", { class: "muted" }, L.items.map((i) => `${i.label}: ${i.text}`).join(" · ")) : null,
  ].filter((x) => x != null) : []));
  document.getElementById("info").replaceChildren();
  document.getElementById("log-title").textContent = t("log_deal", { n: dealLabel(S).split("/")[0] });
  const log = document.getElementById("log");
  log.replaceChildren(...S.state.log.map(([seat, a]) => h("li", {},
    h("span", { class: "who" }, seatName(S.seats, seat)), " ", actionName(a, true))));
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------- the sheet
/** A table in a box of its own that scrolls sideways when the table is wider than the
 * dialog or panel it is in (a deal-by-deal sheet on a phone): the rest stays put. */
function scroll(table) { return h("div", { class: "scroll" }, table); }

/** The score sheet of the display: per-seat rows, its tables (the deals), other facts. */
export function sheetView(S) {
  const D = display(S);
  const sheet = D && D.sheet;
  if (!sheet) return [h("p", { class: "muted" }, t("empty_sheet"))];
  const out = [];
  if (sheet.columns.length) {
    out.push(scroll(h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("th", {}), sheet.rows.map((r) => h("th", {}, r.name)))),
      h("tbody", {}, sheet.columns.map((col, k) => h("tr", {}, h("th", {}, col.label),
        sheet.rows.map((r) => h("td", {}, cell(r.cells[k])))))))));
  }
  for (const tab of sheet.tables) {
    out.push(h("div", { class: "zone-title" }, heading(tab.label),
      tab.legend ? h("span", { class: "muted" }, ` (${tab.legend})`) : ""));
    out.push(scroll(h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, tab.columns.map((c) => h("th", {}, c)))),
      h("tbody", {}, tab.rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, cell(c)))))))));
  }
  if (sheet.info.length) {
    out.push(h("dl", { class: "facts" }, sheet.info.map((i) => [h("dt", {}, i.label), h("dd", {}, i.text)])));
  }
  return out.length ? out : [h("p", { class: "muted" }, t("empty_sheet"))];
}

/** The end of the match as the display's ``result`` lays it out (koloda.present.present_result,
 * the terminal draws the same): who won, every seat's score and what the game adds (the durak,
 * ranks, the pot), and the cap's note. */
export function resultView(S) {
  const D = display(S);
  const R = D && D.result;
  if (!R) return [];
  const head = R.headline;
  const out = [h("p", { class: "big" }, heading(head.label) + (head.text ? `: ${head.text}` : ""))];
  out.push(scroll(h("table", { class: "sheet result" },
    h("thead", {}, h("tr", {}, h("th", {}, R.seat_label), R.columns.map((c) => h("th", {}, c.label)))),
    h("tbody", {}, R.rows.map((r) => h("tr", { class: r.winner ? "winner" : "" },
      h("th", {}, r.name, r.marks.length ? h("span", { class: "muted" }, ` (${r.marks.join(", ")})`) : ""),
      r.cells.map((c) => h("td", {}, cell(c)))))))));
  for (const it of R.info) out.push(h("p", {}, heading(it.label) + (it.text ? `: ${it.text}` : "")));
  if (R.capped) out.push(h("p", { class: "muted" }, R.capped));
  return out;
}

export { pick };
