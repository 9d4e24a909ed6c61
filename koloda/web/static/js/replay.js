// A finished game's replay (/g/<id>, /g/<id>#42 for move 42): the server steps its record
// and sends each step as the table page's state (the presenter's display), with every
// seat's hand — the game is over. ← → step, Home and End go to the start and the end.
import { actionName, api, cardImg, h, langSwitch, loadTexts, pick, seatName, t } from "./common.js";
import { dealLabel, renderCenter, renderPanel, renderSeats, resultView, sheetView } from "./render.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const S = {
  replay: true, seat: null, seats: [], state: null, legal: [], selection: new Set(),
  target: null, onTarget: () => {}, onSit: () => {}, onAction: () => {}, onClear: () => {},
};
let asked = 0;
let wanted = null;   // the step asked for last: keys pressed quickly step on from there

function say(text) {
  const el = document.getElementById("msg");
  el.textContent = text || "";
  el.className = text ? "msg bad" : "msg";
}

const INVITE = new URLSearchParams(location.search).get("invite");

function hashStep() {
  const n = Number(location.hash.slice(1));
  return location.hash.length > 1 && Number.isInteger(n) ? n : null;
}

async function go(n) {
  const mine = ++asked;
  wanted = n;
  try {
    const query = new URLSearchParams();
    if (n != null) query.set("at", String(Math.max(0, n)));
    if (INVITE) query.set("invite", INVITE);       // a private table's game
    const step = await api(`/api/replays/${encodeURIComponent(gameId)}${query.size ? `?${query}` : ""}`);
    if (mine !== asked) return;     // a later step was asked for meanwhile
    wanted = step.at;
    S.state = step;
    S.seats = step.seats;
    if (hashStep() !== step.at) history.replaceState(null, "", `#${step.at}`);
    say("");
    render();
  } catch (e) { say(e.message); }
}

function move(by) {
  if (!S.state) return;
  const from = wanted ?? S.state.at;
  go(Math.min(S.state.total, Math.max(0, from + by)));
}

function handsView() {
  return S.state.hands.map(({ seat, cards }) => h("div", { class: "seat-hand", dataset: { seat: String(seat) } },
    h("strong", {}, seatName(S.seats, seat)), " ",
    cards.length ? h("span", { class: "cards" }, cards.map((c) => cardImg(c, { small: true })))
      : h("span", { class: "muted" }, t("no_hand"))));
}

function render() {
  const st = S.state;
  const v = st.view;
  const title = pick(st.title);
  document.title = `${title} — ${t("replay")} — koloda`;
  document.getElementById("title").textContent = `${title} — ${t("replay")}`;
  document.getElementById("deal-info").textContent = v.match_over ? ` · ${t("match_over")}`
    : ` · ${t("deal_n", { n: dealLabel(S) })} · ${t("term.dealer")}: ${seatName(S.seats, v.dealer)}`;
  Object.assign(document.body.dataset, {
    at: String(st.at), total: String(st.total), over: v.match_over ? "1" : "0",
  });
  document.getElementById("step").textContent = t("move_of", { n: st.at, of: st.total });
  const a = st.action;
  document.getElementById("action").textContent = a
    ? `${st.at}. ${seatName(S.seats, a.seat)} ${actionName(a.action, true)}` : t("replay_start");
  for (const [id, label, off] of [["first", "replay_first", st.at === 0], ["prev", "replay_prev", st.at === 0],
    ["next", "replay_next", st.at === st.total], ["last", "replay_last", st.at === st.total]]) {
    const b = document.getElementById(id);
    b.title = t(label);
    b.setAttribute("aria-label", t(label));
    b.disabled = off;
  }
  renderSeats(S);
  renderCenter(S);
  renderPanel(S);
  document.getElementById("hands-title").textContent = t("hands");
  document.getElementById("hands").replaceChildren(...handsView());
  document.getElementById("sheet-title").textContent = t("sheet_title");
  document.getElementById("sheet").replaceChildren(...sheetView(S));
  document.getElementById("result").replaceChildren(...(st.result
    ? [h("h3", {}, t("match_over")), ...resultView(S)] : []));
  document.getElementById("join").replaceChildren(h("p", { class: "muted small" }, t("replay_keys")));
}

async function main() {
  await loadTexts();
  document.getElementById("lang-slot").replaceChildren(langSwitch(() => S.state && render()));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => move(-1));
  document.getElementById("next").addEventListener("click", () => move(1));
  document.getElementById("last").addEventListener("click", () => S.state && go(S.state.total));
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    const keys = { ArrowLeft: () => move(-1), ArrowRight: () => move(1),
                   Home: () => go(0), End: () => S.state && go(S.state.total) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  window.addEventListener("hashchange", () => {
    const n = hashStep();
    if (n != null && (!S.state || n !== S.state.at)) go(n);
  });
  const start = hashStep();
  go(start == null ? 0 : start);
}

main();
