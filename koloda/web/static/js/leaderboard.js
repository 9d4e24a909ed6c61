// A game's leaderboard (/leaderboard/<game>): accounts by rating, mu − 3·sigma (OpenSkill).
import { api, h, here, langSwitch, loadMe, loadTexts, pick, t, url } from "./common.js";

const PAGE = 50;
let GAMES = [];
let offset = Number(new URLSearchParams(location.search).get("offset") || 0);
// the server sends /leaderboard on to the first game's page, so the path names a game
const gameName = decodeURIComponent(here().split("/")[2] || "");

const fmt = (x) => Number(x).toFixed(1);

async function render() {
  const g = GAMES.find((x) => x.name === gameName) || { name: gameName, title: { en: gameName } };
  document.title = `koloda — ${t("leaderboard_of", { game: pick(g.title) })}`;
  document.getElementById("subtitle").textContent = t("leaderboard");
  document.getElementById("lang-slot").replaceChildren(langSwitch(render));
  const app = document.getElementById("app");
  let page;
  try { page = await api(`/api/leaderboard/${encodeURIComponent(gameName)}?offset=${offset}&limit=${PAGE}`); }
  catch (e) { app.replaceChildren(h("p", { class: "msg bad" }, e.message)); return; }
  const chips = h("nav", { class: "chips" }, GAMES.map((x) => x.name === gameName
    ? h("span", { class: "on" }, pick(x.title))
    : h("a", { href: url(`/leaderboard/${x.name}`) }, pick(x.title))));
  const rows = page.rows.map((r) => h("tr", { dataset: { name: r.name } },
    h("td", { class: "num" }, String(r.place)),
    h("td", {}, h("a", { href: url(`/player/${encodeURIComponent(r.name)}`) }, r.name)),
    h("td", { class: "num" }, fmt(r.ordinal)),
    h("td", { class: "num extra" }, fmt(r.mu)),
    h("td", { class: "num extra" }, fmt(r.sigma)),
    h("td", { class: "num" }, String(r.games))));
  const table = page.rows.length ? h("table", { class: "board", id: "leaderboard" },
    h("thead", {}, h("tr", {}, h("th", { class: "num" }, t("place")), h("th", {}, t("player")),
      h("th", { class: "num" }, t("rating")), h("th", { class: "num extra" }, t("skill")),
      h("th", { class: "num extra" }, t("uncertainty")), h("th", { class: "num" }, t("games_n")))),
    h("tbody", {}, rows)) : h("p", { class: "help" }, t("no_ratings"));
  const pager = h("div", { class: "pager" },
    offset > 0 ? h("a", { href: `?offset=${Math.max(0, offset - PAGE)}` }, t("prev_page")) : null, " ",
    offset + PAGE < page.total ? h("a", { href: `?offset=${offset + PAGE}` }, t("next_page")) : null);
  app.replaceChildren(h("section", { class: "panel" },
    h("h2", {}, t("leaderboard_of", { game: pick(g.title) })), chips, table, pager,
    h("p", { class: "help" }, t("rating_help"))));
}

async function main() {
  await Promise.all([loadTexts(), loadMe()]);
  GAMES = await api("/api/games");
  render();
}

main();
