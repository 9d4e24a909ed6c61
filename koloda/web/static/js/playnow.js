// The lobby's "Play now": a game, a player count, computers (a level, or people only) and
// how long to wait for people; one button. The request waits in the server's queue
// (koloda/web/playnow.py); this page polls it and opens the table once seated.
import { api, botName, csrf, h, pick, t, tokenKey } from "./common.js";

const WAITS = [15, 30, 60, 120];
const choice = { game: null, players: null, bot: "heuristic", wait: 30 };
let TICKET = null;
let TIMER = null;

function gameOf(games) { return games.find((g) => g.name === choice.game) || games[0]; }

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
  players.addEventListener("change", () => { choice.players = Number(players.value); });
  const bot = h("select", { id: "pn-bot" }, h("option", { value: "" }, t("people_only")),
    g.bots.map((b) => h("option", { value: b }, botName(b))));
  bot.value = choice.bot || "";
  const wait = h("select", { id: "pn-wait" }, WAITS.map((s) => h("option", { value: String(s) }, t("wait_s", { n: s }))),
    h("option", { value: "never" }, t("wait_never")));
  wait.value = choice.wait == null ? "never" : String(choice.wait);
  wait.disabled = !choice.bot;
  bot.addEventListener("change", () => { choice.bot = bot.value || null; wait.disabled = !choice.bot; });
  wait.addEventListener("change", () => { choice.wait = wait.value === "never" ? null : Number(wait.value); });
  const status = h("p", { id: "pn-status", class: "help" }, t("play_now_help"));
  const go = h("button", { id: "play-now", class: "button primary" }, t("play_now_go"));
  const cancel = h("button", { id: "pn-cancel", class: "button", disabled: true }, t("cancel"));
  go.addEventListener("click", async () => {
    try {
      const res = await api("/api/playnow", { game: choice.game, players: choice.players,
        bot: choice.bot, wait: choice.bot ? choice.wait : null, name: name() || null });
      TICKET = res.ticket;
      go.disabled = true; cancel.disabled = false;
      follow(res, status, () => { go.disabled = false; cancel.disabled = true; });
    } catch (e) { say(e.message); }
  });
  cancel.addEventListener("click", async () => {
    clearTimeout(TIMER);
    const headers = csrf() ? { "X-CSRF-Token": csrf() } : {};
    if (TICKET) await fetch(`/api/playnow/${TICKET}`, { method: "DELETE", headers });
    TICKET = null;
    status.textContent = t("playnow_cancelled");
    go.disabled = false; cancel.disabled = true;
  });
  el.replaceChildren(h("h2", {}, t("play_now")),
    h("div", { class: "field" }, h("label", { for: "pn-game" }, t("game")), " ", game, " ",
      h("label", { for: "pn-players" }, t("players")), " ", players),
    h("div", { class: "field" }, h("label", { for: "pn-bot" }, t("computers")), " ", bot, " ",
      h("label", { for: "pn-wait" }, t("wait_for_people")), " ", wait),
    h("div", { class: "field" }, go, " ", cancel), status);
}

function follow(res, status, ended) {
  if (res.state === "seated") {
    localStorage.setItem(tokenKey(res.table), res.token);
    location.href = res.url;
    return;
  }
  if (res.state !== "waiting" && res.state !== "claimed") {
    status.textContent = t(res.state === "cancelled" ? "playnow_cancelled" : "playnow_gone");
    ended();
    return;
  }
  let text = t("waiting_n", { n: res.waiting ?? 1, of: res.players });
  if (res.computers_in != null) text += ` · ${t("computers_in", { n: res.computers_in })}`;
  status.textContent = text;
  TIMER = setTimeout(async () => {
    if (!TICKET) return;
    try { follow(await api(`/api/playnow/${TICKET}`), status, ended); } catch (e) { status.textContent = e.message; ended(); }
  }, 1000);
}
