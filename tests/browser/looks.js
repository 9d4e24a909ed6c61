// The measures of tests/browser/looks.py, run in the page (each returns its problems).
({
  /** Content wider than its box; a .scroll box may scroll but stays in its own. */
  overflow() {
    const out = [];
    const name = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}${
      el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""}`;
    const path = (el) => { const p = []; for (let e = el; e && e !== document.body && p.length < 4; e = e.parentElement) p.unshift(name(e)); return p.join(" > "); };
    const doc = document.documentElement;
    if (doc.scrollWidth > innerWidth + 1) out.push(`the page is ${doc.scrollWidth} px wide in a ${innerWidth} px window`);
    for (const el of document.body.querySelectorAll("*")) {
      if (!el.getClientRects().length) continue;                   // not shown
      const cs = getComputedStyle(el);
      if (cs.display === "inline" || el.tagName === "svg" || el.closest("svg")) continue;
      if (el.closest(".scroll") || el.matches(".log, select, input, textarea, option")) continue;
      if (cs.textOverflow === "ellipsis") continue;                // cut on purpose, with …
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        out.push(`${path(el)}: ${el.scrollWidth} px of content in a ${el.clientWidth} px box`);
      }
    }
    for (const el of document.body.querySelectorAll(".scroll")) {
      if (!el.getClientRects().length) continue;
      const r = el.getBoundingClientRect(), p = el.parentElement.getBoundingClientRect();
      if (r.right > p.right + 1 || r.left < p.left - 1) out.push(`${path(el)} sticks out of its box`);
    }
    return out;
  },

  /** Header cells not over the first row's cells. */
  columns() {
    const out = [];
    for (const table of document.querySelectorAll("table")) {
      if (!table.getClientRects().length) continue;
      const head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
      const body = table.tBodies[0] && table.tBodies[0].rows[0];
      if (!head || !body || head.cells.length !== body.cells.length) continue;
      const label = table.id ? `#${table.id}` : `table.${table.className}`;
      const hr = head.getBoundingClientRect(), br = body.getBoundingClientRect();
      if (br.top < hr.bottom - 1) out.push(`${label}: its rows are beside its header, not under it`);
      for (let i = 0; i < head.cells.length; i++) {
        const a = head.cells[i].getBoundingClientRect(), b = body.cells[i].getBoundingClientRect();
        if (Math.abs(a.left - b.left) > 1.5 || Math.abs(a.right - b.right) > 1.5) {
          out.push(`${label}: column ${i + 1} "${head.cells[i].innerText}" is at x ${Math.round(a.left)}-${Math.round(a.right)}, its cells at ${Math.round(b.left)}-${Math.round(b.right)}`);
        }
      }
    }
    return out;
  },

  /** What the player must act on, below the first screen. */
  firstScreen() {
    const out = [];
    const y = scrollY;
    const act = [...document.querySelectorAll("#hand img.card, #moves > .move-row button.move, #moves .pickable, #center .pickable, #center .attack.beatable")];
    for (const el of act) {
      const r = el.getBoundingClientRect();
      if (!r.height) continue;
      if (r.bottom + y > innerHeight + 1) {
        out.push(`${el.tagName.toLowerCase()} "${el.innerText || el.getAttribute("alt") || ""}" ends at ${Math.round(r.bottom + y)} px, below the first screen (${innerHeight} px)`);
      }
    }
    if (!act.length) out.push("nothing to act on is shown");
    return out;
  },
})
