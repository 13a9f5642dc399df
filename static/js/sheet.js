// The score sheet (запись): one row per completed deal, as the online clubs keep it —
// each player's running score, what the deal gave him, bolts as strokes, the barrel;
// a row opens to the full count: bid, contract, card points and their rounding,
// marriages, bolts, barrel attempts, samosval.

import { icon } from "./cards.js";
import { h, signed } from "./dom.js";

export const round5 = (x) => 5 * Math.floor((x + 2) / 5);

const BARREL_ATTEMPTS = 3;
const BARREL_SCORE = 880;
const OUTCOME_MARK = { made: "✓", failed: "✗", written_off: "✎", redeal: "↺" };

/**
 * @param {Array} sheet rows from the server
 * @param {{players: number, name: (seat) => string, t: Function, open?: Set<number>}} ctx
 */
export function renderSheet(sheet, ctx) {
  const { players, name, t } = ctx;
  const open = ctx.open || new Set();
  if (!sheet || !sheet.length) {
    return h("p", { class: "muted sheet-empty" }, t("sheet_empty"));
  }
  const seats = [...Array(players).keys()];
  const table = h(
    "table",
    { class: "sheet" },
    h("caption", { class: "visually-hidden" }, t("score_sheet")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col", class: "deal-col" }, t("deal_short")),
        h("th", { scope: "col", class: "contract-col" }, t("contract_short")),
        seats.map((s) => h("th", { scope: "col", class: "seat-col", title: name(s) }, name(s))),
      ),
    ),
  );
  // Deals as the players count them: a redeal is no deal of its own (docs/spec.md §2.9),
  // so its row and the deal dealt again after it carry the same number.
  let counted = 0;
  sheet.forEach((row, index) => {
    const number = counted + 1;
    if (row.outcome !== "redeal") counted += 1;
    const body = h("tbody", { class: `deal-row outcome-${row.outcome}`, dataset: { deal: row.deal } });
    const expanded = open.has(index);
    const toggle = h(
      "button",
      {
        type: "button",
        class: "sheet-toggle",
        "aria-expanded": expanded ? "true" : "false",
        "aria-label": t("sheet_details", { n: number }),
        dataset: { key: `sheet-${index}` },
        onclick: (event) => {
          if (open.has(index)) open.delete(index);
          else open.add(index);
          const details = body.querySelector(".sheet-details");
          const now = open.has(index);
          details.hidden = !now;
          event.currentTarget.setAttribute("aria-expanded", now ? "true" : "false");
        },
      },
      String(number),
      row.golden ? h("span", { class: "badge golden", title: t("golden") }, "★") : null,
      row.dark && !row.golden ? h("span", { class: "badge dark", title: t("dark") }, "◐") : null,
    );
    const lineBySeat = new Map((row.lines || []).map((l) => [l.seat, l]));
    body.append(
      h(
        "tr",
        {},
        h("th", { scope: "row", class: "deal-col" }, toggle),
        h("td", { class: "contract-col" }, contractCell(row, name, t)),
        seats.map((s) => scoreCell(row, s, lineBySeat.get(s), t)),
      ),
    );
    const details = h(
      "tr",
      { class: "sheet-details", hidden: !expanded },
      h("td", { colspan: players + 2 }, detailList(row, name, t)),
    );
    body.append(details);
    table.append(body);
  });
  return table;
}

function contractCell(row, name, t) {
  if (row.outcome === "redeal") return h("span", { class: "outcome" }, OUTCOME_MARK.redeal, " ", t("outcome_redeal"));
  const value = row.contract ?? row.bid;
  return h(
    "span",
    { class: `outcome ${row.outcome}`, title: t(`outcome_${row.outcome}`) },
    row.declarer !== null && row.declarer !== undefined ? h("span", { class: "who" }, name(row.declarer)) : null,
    " ",
    h("b", {}, value ?? "—"),
    " ",
    h("span", { class: "mark", "aria-label": t(`outcome_${row.outcome}`) }, OUTCOME_MARK[row.outcome] || ""),
  );
}

/** What the rules did with a seat's deal on the barrel (§3.2): the attempt it used
 * (its points are not counted) and the fall, if this deal ended the sitter's stay. */
export function barrelFate(row, seat) {
  const notes = (row.notes || []).filter((n) => n.seat === seat);
  const attempt = notes.find((n) => n.type === "barrel_attempt") || null;
  const fell = notes.find((n) => n.type === "barrel_fell" && n.reason !== "simultaneous") || null;
  return { attempt, fell };
}

function scoreCell(row, seat, line, t) {
  const cell = h("td", { class: "seat-col" });
  const total = row.scores ? row.scores[seat] : null;
  const { attempt, fell } = barrelFate(row, seat);
  if (line && row.outcome !== "redeal") {
    if (attempt) {
      // On the barrel the deal's own points do not count: shown in brackets, struck.
      const why = t("sheet_not_counted", { n: attempt.attempts, of: BARREL_ATTEMPTS });
      cell.append(h("span", { class: "delta not-counted", title: why },
        h("s", {}, `(${signed(line.delta)})`), h("span", { class: "visually-hidden" }, ` ${why}`)));
    } else {
      cell.append(h("span", { class: `delta ${line.delta < 0 ? "neg" : ""}` }, signed(line.delta)));
    }
  }
  if (fell) {
    // The fall is its own line: what the score really lost.
    // A sitter's score is 880 until he falls (to 760, or to 0 on a third fall).
    const penalty = fell.score - BARREL_SCORE;
    cell.append(h("span", { class: "delta neg fall", title: t("sheet_fell_help", { score: fell.score }) },
      t("sheet_fell", { delta: signed(penalty) })));
  }
  cell.append(h("span", { class: "total" }, total ?? ""));
  if (line && line.bolts > 0) {
    // A bolt is written as a stroke (палка) on the sheet.
    cell.append(h("span", { class: "bolt", title: t("bolt"), "aria-label": t("bolt") }, "|".repeat(line.bolts)));
  }
  if (row.barrel === seat) {
    cell.append(icon("barrel", t("on_barrel")));
  }
  for (const note of row.notes || []) {
    if (note.seat === seat && note.type === "samosval") {
      cell.append(h("span", { class: "samosval-mark", title: t("samosval") }, "↯"));
    }
  }
  return cell;
}

function detailList(row, name, t) {
  const items = [];
  if (row.outcome === "redeal") {
    items.push(row.declarer !== null && row.declarer !== undefined
      ? t("line_redeal_talon", { name: name(row.declarer) })
      : t("line_redeal"));
  } else {
    items.push(t("line_dealer", { name: name(row.dealer) }));
    if (row.bid !== null && row.bid !== undefined && row.declarer !== null) {
      items.push(t("line_bid", { name: name(row.declarer), bid: row.bid }));
    }
    for (const line of row.lines || []) items.push(lineText(row, line, name, t));
  }
  for (const note of row.notes || []) items.push(noteText(note, name, t));
  return h("ul", { class: "sheet-lines" }, items.map((text) => h("li", {}, text)));
}

function lineText(row, line, name, t) {
  const who = name(line.seat);
  const bolt = line.bolts > 0 ? " " + t(line.bolts > 1 ? "line_bolts" : "line_bolt", { n: line.bolts }) : "";
  const params = {
    name: who,
    points: line.card_points,
    rounded: round5(line.card_points),
    marriages: line.marriages,
    total: line.card_points + line.marriages,
    contract: row.contract,
    delta: signed(line.delta),
  };
  const plus = line.marriages ? "_marriages" : "";
  if (line.role === "resting") return t(`line_resting${plus}`, params);
  if (row.outcome === "written_off") {
    return t(line.role === "declarer" ? "line_written_off" : "line_written_off_defender", params) + bolt;
  }
  if (line.role === "declarer") {
    return t(`line_declarer_${row.outcome === "made" ? "made" : "failed"}${plus}`, params) + bolt;
  }
  if (!line.tricks && !line.marriages) return t("line_no_tricks", params) + bolt;
  return t(`line_defender${plus}`, params) + bolt;
}

export function noteText(note, name, t) {
  const who = note.seat !== undefined && note.seat !== null ? name(note.seat) : "";
  switch (note.type) {
    case "barrel_attempt":
      return t("note_barrel_attempt", { name: who, n: note.attempts });
    case "barrel_arrived":
      return t("note_barrel_arrived", { name: who });
    case "barrel_fell":
      return t(`note_barrel_fell_${note.reason}`, { name: who, score: note.score });
    case "bolt_penalty":
      return t("note_bolt_penalty", { name: who, score: note.score });
    case "samosval":
      return t("note_samosval", { name: who, was: note.was });
    case "golden_reset":
      return t("note_golden_reset");
    case "match_won":
      return t("note_match_won", { name: who, score: note.score });
    case "match_finished":
      return who ? t("note_match_finished", { name: who, n: note.deals }) : t("note_match_finished_shared", { n: note.deals });
    default:
      return note.type;
  }
}
