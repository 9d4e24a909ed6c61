// A player's page (/player/<name>): ratings per game with their history drawn as an SVG
// plot (no library: drawn here), wins by game, the Opendaum-33 rank, recent games.
import { api, h, here, lang, langSwitch, loadMe, loadTexts, pick, t, url } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
let GAMES = [];
let DATA = null;
let FAILED = null;
let shown = null;
const who = decodeURIComponent(here().split("/")[2] || "");

function s(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of kids) el.append(c);
  return el;
}

const title = (name) => { const g = GAMES.find((x) => x.name === name); return g ? pick(g.title) : name; };
const fmt = (x) => Number(x).toFixed(1);

/** mu with its ±sigma band, and the rating (mu − 3 sigma), after each rated game. */
export function plot(points) {
  const W = 760, H = 300, L = 44, R = 12, T = 14, B = 34;
  const all = [{ mu: 25, sigma: 25 / 3, ordinal: 0 }, ...points];   // a new player's start
  const lo = Math.floor(Math.min(...all.map((p) => Math.min(p.mu - p.sigma, p.ordinal))) / 5) * 5;
  const hi = Math.ceil(Math.max(...all.map((p) => p.mu + p.sigma)) / 5) * 5;
  const x = (i) => L + (all.length === 1 ? 0 : (i * (W - L - R)) / (all.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / Math.max(1, hi - lo);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "plot", id: "plot", role: "img",
                         "aria-label": t("rating_history") });
  for (let v = lo; v <= hi; v += 5) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)));
  }
  svg.append(s("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }),
    s("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }));
  const step = Math.max(1, Math.ceil(all.length / 10));
  all.forEach((_, i) => { if (i % step === 0 || i === all.length - 1) svg.append(s("text", { x: x(i), y: H - B + 18, "text-anchor": "middle" }, String(i))); });
  const up = all.map((p, i) => `${x(i)},${y(p.mu + p.sigma)}`);
  const down = all.map((p, i) => `${x(i)},${y(p.mu - p.sigma)}`).reverse();
  svg.append(s("polygon", { points: [...up, ...down].join(" "), class: "band" }),
    s("polyline", { points: all.map((p, i) => `${x(i)},${y(p.mu)}`).join(" "), class: "mu" }),
    s("polyline", { points: all.map((p, i) => `${x(i)},${y(p.ordinal)}`).join(" "), class: "ord" }));
  all.forEach((p, i) => {
    const dot = s("circle", { cx: x(i), cy: y(p.mu), r: 3, class: "dot" });
    dot.append(s("title", {}, `${i ? t("after_game_n", { n: i }) : ""} mu ${fmt(p.mu)} ± ${fmt(p.sigma)}`));
    svg.append(dot);
  });
  return svg;
}

/** The others at a game's table, as a table names them: a person by name, a computer
 * as «Компьютер 2» / "Computer 2" (the record says only "Computer 2"). */
function othersOf(g) {
  const me = g.names.indexOf(DATA.name);
  return g.names.flatMap((n, i) => (i === me ? []
    : [["bot", "computer"].includes(g.kinds[i]) ? t("computer_n", { n: i + 1 }) : n]));
}

function outcomeOf(g) {
  const seat = g.names.indexOf(DATA.name);
  if (!g.winners.length) return t("result_draw");
  return g.winners.includes(seat) ? t("result_won") : t("result_lost");
}

function render() {
  document.title = `koloda — ${DATA ? DATA.name : who}`;
  document.getElementById("subtitle").textContent = t("player");
  document.getElementById("lang-slot").replaceChildren(
    h("a", { href: url(shown ? `/leaderboard/${shown}` : "/leaderboard") }, t("leaderboard")), " ", langSwitch(render));
  const app = document.getElementById("app");
  if (!DATA) {   // no such account (404): the server's sentence names whom it did not find
    if (FAILED) {
      app.replaceChildren(h("section", { class: "panel", id: "not-found" },
        h("h2", {}, t("no_such_player")), h("p", { class: "msg bad" }, (lang() === "ru" && FAILED.error_ru) || FAILED.error),
        h("p", {}, h("a", { href: url("/") }, t("back_lobby")))));
    }
    return;
  }
  const rated = DATA.ratings;
  if (!shown && rated.length) shown = rated[0].game;
  const chips = h("nav", { class: "chips", id: "rating-games" }, rated.map((r) => r.game === shown
    ? h("span", { class: "on" }, title(r.game))
    : h("a", { href: "#", onclick: (e) => { e.preventDefault(); shown = r.game; render(); } }, title(r.game))));
  const cur = rated.find((r) => r.game === shown);
  const ratingsTable = h("table", { class: "board", id: "ratings" },
    h("thead", {}, h("tr", {}, h("th", {}, t("game")), h("th", { class: "num" }, t("rating")),
      h("th", { class: "num extra" }, t("skill")), h("th", { class: "num extra" }, t("uncertainty")),
      h("th", { class: "num" }, t("games_n")))),
    h("tbody", {}, rated.map((r) => h("tr", {}, h("td", {}, h("a", { href: url(`/leaderboard/${r.game}`) }, title(r.game))),
      h("td", { class: "num" }, fmt(r.ordinal)), h("td", { class: "num extra" }, fmt(r.mu)),
      h("td", { class: "num extra" }, fmt(r.sigma)), h("td", { class: "num" }, String(r.games))))));
  const wins = h("table", { class: "board", id: "wins" },
    h("thead", {}, h("tr", {}, h("th", {}, t("game")), h("th", { class: "num" }, t("games_n")),
      h("th", { class: "num" }, t("won")), h("th", { class: "num" }, t("lost")), h("th", { class: "num extra" }, t("drawn")))),
    h("tbody", {}, DATA.games.map((g) => h("tr", {}, h("td", {}, title(g.game)), h("td", { class: "num" }, String(g.played)),
      h("td", { class: "num" }, String(g.won)), h("td", { class: "num" }, String(g.lost)), h("td", { class: "num extra" }, String(g.drawn))))));
  const recent = DATA.recent.length ? h("ul", { class: "games-list", id: "recent" }, DATA.recent.map((g) => h("li", {},
    h("a", { href: url(`/g/${g.id}`) }, `${title(g.game)} · ${outcomeOf(g)}`), " ",
    h("span", { class: "muted" }, `${g.finished.slice(0, 16).replace("T", " ")} · ${t("with_players", { who: othersOf(g).join(", ") })}`))))
    : h("p", { class: "help" }, t("no_games"));
  const rank = DATA.rank ? pick(DATA.rank) : t("rank_none");
  app.replaceChildren(
    h("section", { class: "panel" }, h("h2", { id: "player-name" }, DATA.name),
      h("p", { class: "help" }, t("registered_since", { date: DATA.created.slice(0, 10) })),
      h("p", {}, `${t("rank_33")}: `, h("b", { id: "rank" }, rank)),
      DATA.reliability && DATA.reliability.matches
        ? h("p", { id: "reliability" }, t("reliability", DATA.reliability)) : null),
    h("section", { class: "panel" }, h("h2", {}, t("rating_history")), chips,
      cur ? plot(DATA.history[shown] || []) : h("p", { class: "help" }, t("no_ratings")),
      h("p", { class: "legend" }, h("span", { class: "k-mu" }, `— ${t("skill")} ± sigma`),
        h("span", { class: "k-ord" }, `- - ${t("rating")}`)),
      h("p", { class: "help" }, t("rating_help"))),
    h("section", { class: "panel" }, h("h2", {}, t("ratings")), h("div", { class: "scroll" }, ratingsTable)),
    h("section", { class: "panel" }, h("h2", {}, t("wins_by_game")), h("div", { class: "scroll" }, wins)),
    h("section", { class: "panel" }, h("h2", {}, t("recent_games")), recent));
}

async function main() {
  await Promise.all([loadTexts(), loadMe()]);
  GAMES = await api("/api/games");
  // kept as sent: the page says the server's sentence in whichever language is chosen
  const res = await fetch(url(`/api/players/${encodeURIComponent(who)}`));
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (res.ok) DATA = data; else FAILED = data;
  render();
}

main();
