// Draws a table from the engine's view (games/engine/views.py) and the server's table
// data. It decides nothing about the rules: the only actions it offers are the view's
// `legal` list, each one exactly as the server sent it.
//
// createTable(root, ctx) builds the page's skeleton once and returns update(model);
// model = {view, table, sheet, pending, online, clock, events, hands (replay: every
// seat's cards), result}. ctx = {t, send(action), replay}.

import { cardName, cardSvg, cardText, icon, sortHand, suitSpan } from "./cards.js";
import { h, replace } from "./dom.js";
import { renderSheet } from "./sheet.js";
import { actions, hand, info, lastDealSummary, promptText } from "./table_controls.js";

const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };
const BARREL_ATTEMPTS = 3;

/** Where a seat sits on screen, seen from `me` (seat 0 at the bottom for spectators). */
export function position(seat, me, players) {
  const base = me ?? 0;
  return POSITIONS[players][(seat - base + players) % players];
}

export function seatName(model, seat, t) {
  const seats = model.table?.seats || [];
  const info = seats.find((s) => s?.number === seat);
  if (info?.bot || info?.bot_level) return t("bot_n", { n: seat + 1 });
  if (!info?.name) return t("seat_n", { n: seat + 1 });
  // Two bots of one level have one name: tell them apart by their seat.
  const twins = seats.filter((s) => s?.name === info.name).length > 1;
  return twins ? `${info.name} ${seat + 1}` : info.name;
}

export function createTable(root, ctx) {
  const { t } = ctx;
  const ui = { selected: null, sheetOpen: new Set(), bidValue: null, sheetKey: null, prompt: "" };
  const parts = {
    bar: h("div", { class: "table-bar" }),
    felt: h("div", { class: "felt" }),
    prompt: h("p", { class: "prompt", role: "status", "aria-live": "polite" }),
    actions: h("div", { class: "actions" }),
    hand: h("div", { class: "hand", role: "group", "aria-label": t("your_hand") }),
    sheet: h("div", { class: "sheet-wrap" }),
    info: h("div", { class: "table-info" }),
  };
  const main = h("section", { class: "table-main", "aria-label": t("table") }, parts.bar, parts.felt, parts.prompt, parts.actions, parts.hand);
  const side = h(
    "aside",
    { class: "table-side" },
    h("h2", { class: "side-title" }, t("score_sheet")),
    parts.sheet,
    parts.info,
  );
  root.replaceChildren(h("div", { class: "table-layout" }, main, side));
  // Arrow keys move between the cards of the hand (one tab stop for the hand).
  parts.hand.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const cards = [...parts.hand.querySelectorAll("button.card:not([disabled])")];
    const at = cards.indexOf(document.activeElement);
    if (!cards.length) return;
    let next = 0;
    if (event.key === "ArrowLeft") next = at <= 0 ? cards.length - 1 : at - 1;
    else if (event.key === "ArrowRight") next = at < 0 || at === cards.length - 1 ? 0 : at + 1;
    else if (event.key === "End") next = cards.length - 1;
    for (const card of cards) card.tabIndex = -1;
    cards[next].tabIndex = 0;
    cards[next].focus();
    event.preventDefault();
  });

  let model = null;
  function update(next) {
    model = next;
    const view = model.view;
    if (!view) return;
    const me = ctx.replay ? null : view.seat;
    const legal = model.pending || model.online === false ? [] : view.legal || [];
    if (ui.selected && !legal.some((a) => a.type === "give" && a.card === ui.selected)) ui.selected = null;
    const env = { model, view, me, legal, ui, t, ctx, name: (s) => seatName(model, s, t), rerender: () => update(model) };
    replace(parts.bar, bar(env));
    replace(parts.felt, felt(env));
    const prompt = promptText(env);
    if (prompt !== ui.prompt) {
      parts.prompt.textContent = prompt;
      ui.prompt = prompt;
    }
    parts.prompt.classList.toggle("my-turn", legal.length > 0);
    replace(parts.actions, actions(env));
    parts.actions.hidden = !parts.actions.childElementCount;
    replace(parts.hand, hand(env));
    // One tab stop for the hand; the arrow keys move between its cards.
    const playable = [...parts.hand.querySelectorAll("button.card")];
    const current = playable.find((c) => c === document.activeElement) || playable[0];
    for (const card of playable) card.tabIndex = card === current ? 0 : -1;
    parts.hand.classList.toggle("has-legal", legal.some((a) => a.type === "play" || a.type === "give"));
    parts.hand.hidden = ctx.replay || view.seat === null || view.seat === view.resting;
    const sheetKey = JSON.stringify([model.sheet?.length ?? 0, model.table?.seats?.map((s) => s?.name)]);
    if (sheetKey !== ui.sheetKey) {
      ui.sheetKey = sheetKey;
      replace(parts.sheet, renderSheet(model.sheet, { players: view.players, name: env.name, t, open: ui.sheetOpen }));
      parts.sheet.scrollTop = parts.sheet.scrollHeight;
    }
    replace(parts.info, info(env));
  }
  return { update, ui, parts, tick: () => model && tickClock(parts.felt, model) };
}

// ---------------------------------------------------------------- the bar above the table

function bar({ model, view, t, name }) {
  const items = [];
  const dealNo = dealNumber(model.sheet, view);
  const of = view.options?.deals;
  if (dealNo) items.push(h("span", { class: "bar-item deal-no" }, of ? t("deal_n_of", { n: dealNo, of }) : t("deal_n", { n: dealNo })));
  if (view.golden) items.push(h("span", { class: "badge golden" }, "★ ", t("golden")));
  else if (view.dark) items.push(h("span", { class: "badge dark" }, "◐ ", t("dark")));
  if (view.declarer !== null && view.declarer !== undefined) {
    const value = view.contract ?? view.bid;
    items.push(
      h(
        "span",
        { class: "bar-item contract" },
        t(view.contract ? "contract_by" : "bid_by", { value, name: name(view.declarer) }),
      ),
    );
  } else if (view.phase === "bidding" && view.bid) {
    items.push(h("span", { class: "bar-item" }, t("current_bid", { value: view.bid })));
  }
  if (view.phase === "play" || view.trump) {
    items.push(
      h(
        "span",
        { class: "bar-item trump" },
        view.trump ? [t("trump"), " ", suitSpan(view.trump)] : t("no_trump"),
      ),
    );
  }
  return items;
}

/** The deal's number as the players count them: a redeal is not a deal of its own
 * (docs/spec.md §2.9, §3.7), so the deal dealt again keeps the number it had. 0: none. */
export function dealNumber(sheet, view) {
  if (!view.phase) return 0;
  const rows = sheet || [];
  // A complete deal is the sheet's last row already: count only the rows before it.
  const before = view.phase === "complete" ? rows.slice(0, -1) : rows;
  return before.filter((row) => row.outcome !== "redeal").length + 1;
}

// ---------------------------------------------------------------- seats and the middle

function felt(env) {
  const { view, me } = env;
  const slots = [];
  for (let seat = 0; seat < view.players; seat++) {
    slots.push(seatPanel(env, seat, position(seat, me, view.players)));
  }
  return [h("div", { class: `felt-grid players-${view.players}` }, slots, h("div", { class: "center" }, center(env)))];
}

function seatPanel(env, seat, pos) {
  const { model, view, t, name, me, ctx } = env;
  const info = model.table?.seats?.find((s) => s?.number === seat) || {};
  const bot = info.bot || info.bot_level;
  const toAct = view.to_act === seat && view.winner === null;
  const classes = ["seat", `pos-${pos}`];
  if (toAct) classes.push("to-act");
  if (seat === me) classes.push("me");
  if (seat === view.declarer) classes.push("declarer");
  if (seat === view.resting) classes.push("resting");
  const chips = [];
  if (seat === view.dealer) chips.push(h("abbr", { class: "chip dealer", title: t("dealer") }, t("dealer_short")));
  if (seat === view.resting) chips.push(h("span", { class: "chip" }, t("resting")));
  if (bot) chips.push(h("span", { class: "chip bot", title: t(`bot_${bot}`) }, t(`level_${bot}`)));
  if (info.away) chips.push(h("span", { class: "chip away" }, t("away")));
  if (info.resigned) chips.push(h("span", { class: "chip away" }, t("resigned")));
  if (info.connected === false && !bot) chips.push(h("span", { class: "chip away" }, t("offline_short")));

  const score = view.scores[seat];
  const bolts = view.bolts[seat];
  const scoreRow = [h("span", { class: "score", title: t("score") }, score)];
  if (bolts) {
    scoreRow.push(h("span", { class: "bolts", title: t("bolts_n", { n: bolts }), "aria-label": t("bolts_n", { n: bolts }) }, "|".repeat(bolts)));
  }
  if (view.barrel === seat) {
    scoreRow.push(
      h(
        "span",
        { class: "barrel", title: t("barrel_attempts", { n: view.barrel_attempts, of: BARREL_ATTEMPTS }) },
        icon("barrel", t("on_barrel")),
        h("span", {}, `${view.barrel_attempts}/${BARREL_ATTEMPTS}`),
      ),
    );
  }
  const dealLine = [];
  const call = lastCall(view, seat);
  if (view.phase === "dark_decision" && seat === view.forced) dealLine.push(h("span", { class: "call" }, t("deciding_dark")));
  if (view.phase === "bidding" || view.phase === "dark_decision") {
    if (call === null) dealLine.push(h("span", { class: "call pass" }, t("pass")));
    else if (call !== undefined) dealLine.push(h("span", { class: "call" }, call));
  } else if (view.phase && view.phase !== "dark_decision" && seat !== view.resting) {
    if (seat === view.declarer) {
      dealLine.push(h("span", { class: "call declarer-mark" }, view.contract ?? view.bid));
    }
    if (view.phase === "play" || view.phase === "complete") {
      dealLine.push(h("span", { class: "tricks", title: t("tricks_taken") }, t("tricks_n", { n: view.tricks[seat] })));
    }
    if (view.marriages[seat]) {
      dealLine.push(h("span", { class: "marriages", title: t("marriages") }, t("marriages_points", { n: view.marriages[seat] })));
    }
  }
  let cards = null;
  if (ctx.replay && model.hands) {
    cards = h("div", { class: "open-hand" }, sortHand(model.hands[seat] || []).map((c) => h("span", { class: "mini", title: cardName(c, t) }, cardSvg(c, { small: true }))));
  } else if (seat !== me && view.hand_sizes[seat]) {
    cards = h("div", { class: "backs", role: "img", "aria-label": t("cards_n", { n: view.hand_sizes[seat] }) },
      h("span", { class: "mini" }, cardSvg(null, { small: true })),
      h("span", { class: "count" }, `×${view.hand_sizes[seat]}`));
  }
  return h(
    "div",
    { class: classes.join(" "), dataset: { seat } },
    h("div", { class: "seat-head" }, h("span", { class: "name" }, name(seat), seat === me ? h("span", { class: "you" }, ` (${t("you")})`) : null), chips),
    h("div", { class: "seat-score" }, scoreRow),
    dealLine.length ? h("div", { class: "seat-deal" }, dealLine) : null,
    toAct ? seatClock(model, seat, bot || info.away, t) : null,
    cards,
  );
}

/** A person's seat shows his move clock; a bot (or a bot playing for someone who is
 * away) shows "thinking…": its clock is only the server's safety net, not a time limit
 * anyone plays against. */
function seatClock(model, seat, bot, t) {
  if (bot) return h("div", { class: "clock thinking", dataset: { seat } }, t("thinking"));
  return h("div", { class: "clock", dataset: { seat } }, clockText(model));
}

/** The seat's last call this deal: a number, null for a pass, undefined for none. */
function lastCall(view, seat) {
  let call;
  for (const [s, value] of view.bids || []) if (s === seat) call = value;
  if (view.passed?.includes(seat)) return null;
  return call;
}

function center(env) {
  const { model, view, t, name, me } = env;
  const out = [];
  if (view.phase === "bidding" || view.phase === "dark_decision" || view.phase === "talon") {
    out.push(talonBacks(env));
    if (view.phase === "bidding") {
      out.push(h("div", { class: "center-big" }, view.bid ?? ""));
      const last = model.sheet?.[model.sheet.length - 1];
      if (last && (view.bids?.length ?? 0) <= 1) out.push(lastDealSummary(last, env));
    }
  } else if (view.phase === "giving" || view.phase === "contract") {
    const talon = view.talon || (env.ctx.replay && model.talons ? model.talons[view.talon_taken ?? 0] : null);
    if (talon) {
      out.push(h("div", { class: "talon-shown" }, h("div", { class: "label" }, t("talon_of", { name: name(view.declarer) })),
        h("div", { class: "cards-row" }, talon.map((c) => h("span", { class: "played", title: cardName(c, t) }, cardSvg(c))))));
    } else {
      out.push(h("div", { class: "label muted" }, t("talon_closed", { name: name(view.declarer) })));
    }
    if (view.given_by_me?.length) {
      out.push(h("ul", { class: "given" }, view.given_by_me.map(([to, c]) => h("li", {}, t("gave_to", { card: cardText(c), name: name(to) })))));
    }
  } else if (view.phase === "play") {
    out.push(trickView(env));
  } else if (view.phase === "complete") {
    out.push(trickView(env));
    const last = model.sheet?.[model.sheet.length - 1];
    if (last) out.push(lastDealSummary(last, env));
  }
  if (view.phase === "dark_decision" && view.forced !== me) {
    out.push(h("p", { class: "label" }, t("waiting_dark", { name: name(view.forced) })));
  }
  return out;
}

function talonBacks({ model, view, t, legal, ctx }) {
  const groups = view.players === 2 ? [2, 2] : [3];
  if (ctx.replay && model.talons) {
    // A replay shows the talon face up from the start.
    return h("div", { class: "talons", "aria-label": t("talon") }, model.talons.map((cards, index) =>
      h("div", { class: "talon-group" }, cards.map((c) => h("span", { class: "played", title: cardName(c, t) }, cardSvg(c))),
        view.players === 2 ? h("span", { class: "label" }, t("talon_n", { n: index + 1 })) : null)));
  }
  return h(
    "div",
    { class: "talons", "aria-label": t("talon") },
    groups.map((size, index) => {
      const choose = legal.find((a) => a.type === "choose_talon" && a.index === index);
      const backs = [...Array(size)].map(() => h("span", { class: "played back" }, cardSvg(null)));
      if (choose) {
        return h("button", { type: "button", class: "talon-choice", dataset: { key: `talon-${index}` }, onclick: () => ctx.send(choose) }, backs, h("span", { class: "label" }, t("take_talon_n", { n: index + 1 })));
      }
      return h("div", { class: "talon-group" }, backs, view.players === 2 ? h("span", { class: "label" }, t("talon_n", { n: index + 1 })) : null);
    }),
  );
}

function trickView(env) {
  const { view, t, name, me } = env;
  let cards = view.trick || [];
  let caption = null;
  if (!cards.length && view.last_trick?.length) {
    // Between tricks the last one stays on the table until the next card is played.
    cards = view.last_trick;
    const winner = view.phase === "play" ? view.to_act : null;
    caption = winner !== null && winner !== undefined ? t("took_trick", { name: name(winner) }) : t("last_trick");
  }
  return h(
    "div",
    { class: `trick players-${view.players}${caption ? " finished" : ""}`, "aria-label": t("trick") },
    cards.map(([seat, card]) =>
      h("span", { class: `played pos-${position(seat, me, view.players)}`, title: `${name(seat)}: ${cardName(card, t)}`, dataset: { card } }, cardSvg(card)),
    ),
    caption ? h("span", { class: "trick-caption" }, caption) : null,
  );
}

export function clockText(model) {
  const clock = model.clock;
  if (!clock || clock.deadline === null || clock.deadline === undefined) return "";
  let left = Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
  if (model.table?.move_seconds) left = Math.min(left, model.table.move_seconds);
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  return `${m}:${s}`;
}

function tickClock(container, model) {
  for (const el of container.querySelectorAll(".clock:not(.thinking)")) {
    el.textContent = clockText(model);
    const left = model.clock?.deadline ? (model.clock.deadline - Date.now()) / 1000 : 99;
    el.classList.toggle("low", left < 10);
  }
}

