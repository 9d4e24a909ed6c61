// The rules texts (koloda/rules/*.md) drawn as DOM: headings, paragraphs, lists, tables,
// **bold**, *italics* and `code`. Text nodes only: nothing is parsed as HTML.
import { h } from "./common.js";

function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const s = m[0];
    if (s.startsWith("**")) out.push(h("strong", {}, s.slice(2, -2)));
    else if (s.startsWith("`")) out.push(h("code", {}, s.slice(1, -1)));
    else out.push(h("em", {}, s.slice(1, -1)));
    last = m.index + s.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function markdown(text) {
  const blocks = [];
  let para = [];
  let list = null;
  let table = null;
  const flush = () => {
    if (para.length) blocks.push(h("p", {}, inline(para.join(" "))));
    para = [];
    list = null;
    table = null;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (!line.trim()) { flush(); continue; }
    if (heading) { flush(); blocks.push(h(`h${Math.min(6, heading[1].length + 2)}`, {}, inline(heading[2]))); continue; }
    if (line.startsWith("|")) {
      if (para.length || list) flush();
      const cells = line.split("|").slice(1, -1).map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
      if (!table) { table = h("table", { class: "sheet" }); blocks.push(table); }
      table.append(h("tr", {}, cells.map((c) => h(table.rows.length ? "td" : "th", {}, inline(c)))));
      continue;
    }
    const item = line.match(/^\s*(?:[-*]|\d+\.)\s+(.*)$/);
    if (item) {
      if (para.length) { blocks.push(h("p", {}, inline(para.join(" ")))); para = []; }
      if (!list) { list = h("ul", {}); blocks.push(list); }
      list.append(h("li", {}, inline(item[1])));
      continue;
    }
    if (list && /^\s+/.test(raw)) {  // a list item's continuation line
      list.lastChild.append(" ", ...inline(line.trim()));
      continue;
    }
    table = null;
    list = null;
    para.push(line.trim());
  }
  flush();
  return blocks;
}
