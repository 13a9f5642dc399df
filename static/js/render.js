// Draws a table from the engine's view (games/engine/views.py) and the server's table
// data. It decides nothing about the rules: the only actions it offers are the view's
// `legal` list, each one exactly as the server sent it.
//
// createTable(root, ctx) builds the page's skeleton once and returns update(model);
// model = {view, table, sheet, pending, online, clock, events, hands (replay: every
// seat's cards), result}. ctx = {t, send(action), replay}.

import { cardName, cardSvg, cardText, icon, sortHand, suitOf, suitSpan } from "./cards.js";
import { h, replace } from "./dom.js";
import { renderSheet } from "./sheet.js";

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

function lastDealSummary(row, { t, name }) {
  let text;
  if (row.outcome === "redeal") text = t("summary_redeal");
  else if (row.outcome === "written_off") text = t("summary_written_off", { name: name(row.declarer), value: row.contract ?? row.bid });
  else {
    // What the declarer took: his card points and marriages (docs/spec.md §2.8).
    const line = (row.lines || []).find((l) => l.seat === row.declarer);
    const took = line ? line.card_points + line.marriages : null;
    const key = row.outcome === "made" ? "summary_made" : "summary_failed";
    text = t(took === null ? key : `${key}_took`, { name: name(row.declarer), value: row.contract, took });
  }
  return h("p", { class: `deal-summary ${row.outcome}` }, text);
}

function matchOver({ model, view, t, name }) {
  const order = [...Array(view.players).keys()].sort((a, b) => view.scores[b] - view.scores[a]);
  const link = model.table?.replay_url;
  return h(
    "div",
    { class: "match-over" },
    h("h2", {}, t("match_over")),
    h("p", {}, t("winner_is", { name: name(view.winner) })),
    h("ol", {}, order.map((s) => h("li", {}, `${name(s)}: ${view.scores[s]}`))),
    h("div", { class: "row-actions" },
      rematchButton(model),
      link ? h("a", { class: "button secondary", href: link }, t("watch_replay")) : null),
  );
}

/** "Play again": the page's own rematch form (it carries the CSRF token) or its link. */
function rematchButton(model) {
  const offer = model.rematch;
  if (!offer) return null;
  if (offer.url) return h("a", { class: "button rematch-button", href: offer.url }, offer.label);
  return h("button", { type: "button", class: "primary rematch-button", dataset: { key: "rematch" },
    onclick: () => document.getElementById("rematch-form")?.requestSubmit() }, offer.label);
}

// ---------------------------------------------------------------- prompt, actions, hand

function promptText({ view, legal, t, name, model, me, ctx }) {
  if (ctx.replay) return "";
  if (view.winner !== null && view.winner !== undefined) return "";
  if (model.table?.status === "finished" || model.table?.status === "abandoned") return "";
  if (model.pending) return t("sending");
  if (view.to_act === null || view.to_act === undefined) return view.phase ? t("waiting_deal") : "";
  if (view.to_act !== me || !legal.length) return t("waiting_for", { name: name(view.to_act) });
  const types = new Set(legal.map((a) => a.type));
  if (types.has("dark")) return t("prompt_dark");
  if (types.has("bid")) return t("prompt_bid");
  if (types.has("pass") && view.phase === "bidding") {
    // Only Pass is offered: say why rather than "raise or pass" (§2.2: a bid above 120
    // needs a marriage in the bidder's hand, and nobody can raise past his cap).
    return t((view.bid ?? 0) >= 120 ? "prompt_pass_only_marriage" : "prompt_pass_only");
  }
  if (types.has("choose_talon")) return t("prompt_talon");
  if (types.has("give")) {
    const left = new Set(legal.filter((a) => a.type === "give").map((a) => a.to));
    return t(left.size > 1 ? "prompt_give" : "prompt_give_one", { name: name([...left][0]) });
  }
  if (types.has("contract")) return t("prompt_contract");
  if (types.has("play")) return view.trick?.length ? t("prompt_follow") : t("prompt_lead");
  return t("your_turn");
}

function button(label, action, ctx, extra = {}) {
  return h("button", { type: "button", dataset: { key: extra.key || `act-${JSON.stringify(action)}`, action: JSON.stringify(action) }, onclick: () => ctx.send(action), ...extra.attrs }, label);
}

function valuePicker(env, type, quickCount = 4) {
  const { legal, ui, ctx, t } = env;
  const values = legal.filter((a) => a.type === type).map((a) => a.value).sort((a, b) => a - b);
  if (!values.length) return null;
  const quick = values.slice(0, quickCount).map((v) =>
    button(String(v), { type, value: v }, ctx, { attrs: { class: "value", "aria-label": t(type === "bid" ? "bid_value" : "contract_value", { value: v }) } }),
  );
  const rest = values.slice(quickCount);
  let picker = null;
  if (rest.length) {
    if (!rest.includes(ui.bidValue)) ui.bidValue = rest[0];
    const select = h(
      "select",
      { id: `more-${type}`, dataset: { key: `more-${type}` }, onchange: (e) => (ui.bidValue = Number(e.target.value)) },
      rest.map((v) => h("option", { value: v, selected: v === ui.bidValue }, v)),
    );
    picker = h(
      "span",
      { class: "more" },
      h("label", { for: `more-${type}`, class: "visually-hidden" }, t(type === "bid" ? "other_bid" : "other_contract")),
      select,
      h("button", { type: "button", dataset: { key: `go-${type}` }, onclick: () => {
        const action = legal.find((a) => a.type === type && a.value === ui.bidValue);
        if (action) ctx.send(action);
      } }, t(type === "bid" ? "bid" : "contract")),
    );
  }
  return h("div", { class: `values ${type}` }, quick, picker);
}

function actions(env) {
  const { legal, ctx, t, ui, name, view, model, me } = env;
  if (view.winner !== null && view.winner !== undefined && !ctx.replay) return [matchOver(env)];
  // A match cut short (the time limit, an organiser): nothing more to do at this table.
  if (model.table?.status === "finished" && !ctx.replay) return [];
  const mine = me !== null && me !== undefined ? model.table?.seats?.find((s) => s?.number === me) : null;
  if (mine?.away && !mine.resigned && ctx.back) {
    // The clock ran out twice: a bot plays this seat until its player says so.
    return [h("p", { class: "away-note" }, t("away_note")),
      h("button", { type: "button", class: "primary", dataset: { key: "back" }, onclick: () => ctx.back() }, t("back_to_play"))];
  }
  if (!legal.length) return [];
  const out = [];
  const find = (type) => legal.find((a) => a.type === type);
  if (find("dark")) out.push(button(t("play_dark"), find("dark"), ctx, { attrs: { class: "primary" } }));
  if (find("look")) out.push(button(t("look"), find("look"), ctx));
  const bids = valuePicker(env, "bid");
  if (bids) out.push(bids);
  const contracts = valuePicker(env, "contract");
  if (contracts) out.push(contracts);
  if (find("pass")) out.push(button(t("pass"), find("pass"), ctx, { attrs: { class: "secondary" } }));
  if (find("write_off")) out.push(button(t("write_off"), find("write_off"), ctx, { attrs: { class: "secondary", title: t("write_off_help") } }));
  if (find("redeal")) out.push(button(t("ask_redeal"), find("redeal"), ctx, { attrs: { class: "secondary", title: t("redeal_help") } }));
  if (ui.selected) {
    const gives = legal.filter((a) => a.type === "give" && a.card === ui.selected);
    out.push(
      h("div", { class: "gives" }, gives.map((a) =>
        button(t("give_to", { card: cardText(a.card), name: name(a.to) }), a, ctx, { key: `give-${a.to}`, attrs: { class: "primary" } }),
      )),
    );
  }
  return out;
}

function hand(env) {
  const { view, legal, ui, ctx, t, name, me, rerender } = env;
  if (view.seat === null || view.seat === undefined) return [];
  if (!view.hand) {
    const n = view.hand_sizes[view.seat] || 0;
    if (!n) return [];
    const note = view.phase === "dark_decision" ? t("cards_unseen") : t("playing_blind");
    return [h("p", { class: "muted" }, note), h("div", { class: "cards" }, [...Array(n)].map(() => h("span", { class: "card back" }, cardSvg(null))))];
  }
  const plays = new Map(legal.filter((a) => a.type === "play").map((a) => [a.card, a]));
  const giveCards = new Set(legal.filter((a) => a.type === "give").map((a) => a.card));
  const marriage = marriageLeads(view);
  const cards = sortHand(view.hand).map((card) => {
    const label = cardName(card, t);
    const classes = ["card", `suit-${suitOf(card)}`];
    if (card === view.given_to_me) classes.push("received");
    const badge = marriage.get(card);
    const extra = [];
    if (badge) extra.push(h("span", { class: "marriage-badge", "aria-hidden": "true" }, `+${badge}`));
    if (card === view.given_to_me) extra.push(h("span", { class: "received-badge", "aria-hidden": "true" }, "↓"));
    const title = card === view.given_to_me ? `${label} — ${t("given_by", { name: name(view.declarer) })}` : label;
    if (plays.has(card)) {
      return h("button", {
        type: "button",
        class: classes.concat("playable").join(" "),
        dataset: { card, key: `card-${card}` },
        "aria-label": badge ? `${label} (${t("declares_marriage", { n: badge })})` : label,
        title,
        onclick: () => ctx.send(plays.get(card)),
      }, cardSvg(card), extra);
    }
    if (giveCards.has(card)) {
      const selected = ui.selected === card;
      return h("button", {
        type: "button",
        class: classes.concat("playable", selected ? "selected" : "").join(" "),
        dataset: { card, key: `card-${card}` },
        "aria-pressed": selected ? "true" : "false",
        "aria-label": label,
        title,
        onclick: () => {
          ui.selected = selected ? null : card;
          const gives = legal.filter((a) => a.type === "give" && a.card === card);
          rerender();
          // One receiver left: the give buttons are the next stop; focus the first.
          if (ui.selected && gives.length) document.querySelector(".actions .gives button")?.focus();
        },
      }, cardSvg(card), extra);
    }
    return h("span", { class: classes.join(" "), role: "img", "aria-label": label, title, dataset: { card } }, cardSvg(card), extra);
  });
  // On a phone the hand lies in two rows of cards side by side (none covers another),
  // so a tap lands on the card it looks like it lands on; `--per-row` sets the rows.
  const perRow = cards.length <= 6 ? cards.length : Math.ceil(cards.length / 2);
  const out = [h("div", { class: `cards n-${cards.length}`, style: `--per-row: ${perRow}` }, cards)];
  if (me !== null && view.phase === "play" && !view.trick?.length && legal.some((a) => a.type === "play") && marriage.size) {
    out.push(h("p", { class: "hint" }, t("marriage_hint")));
  }
  return out;
}

/** Cards whose lead would declare a marriage now (§2.7): information for the player,
 * not a rule the page applies — the server scores it. */
function marriageLeads(view) {
  const out = new Map();
  if (view.phase !== "play" || view.trick?.length || !view.played_tricks?.length || !view.hand) return out;
  const values = { H: 100, D: 80, C: 60, S: 40 };
  const held = new Set(view.hand);
  for (const suit of "SCDH") {
    if (held.has(`K${suit}`) && held.has(`Q${suit}`)) {
      out.set(`K${suit}`, values[suit]);
      out.set(`Q${suit}`, values[suit]);
    }
  }
  if (view.options?.ace_marriage && ["AS", "AC", "AD", "AH"].every((c) => held.has(c))) {
    for (const c of ["AS", "AC", "AD", "AH"]) out.set(c, 200);
  }
  return out;
}

// ---------------------------------------------------------------- side panel, clock

/** The deal's bidding so far, call by call in order (a pass is a call of null). */
function biddingHistory({ view, t, name }) {
  const calls = view.bids || [];
  if (!view.phase || !calls.length) return null;
  return h("div", { class: "bidding-history" },
    h("h3", {}, t("bidding")),
    h("ol", {}, calls.map(([seat, value]) =>
      h("li", { class: value === null ? "pass" : "bid" }, `${name(seat)}: ${value === null ? t("pass") : value}`))));
}

function info(env) {
  const { model, view, t, name } = env;
  const out = [];
  const bidding = biddingHistory(env);
  if (bidding) out.push(bidding);
  if (view.last_trick?.length && view.trick?.length) {
    out.push(
      h("div", { class: "last-trick" }, h("h3", {}, t("last_trick")),
        h("div", { class: "cards-row" }, view.last_trick.map(([seat, c]) => h("span", { class: "mini", title: `${name(seat)}: ${cardName(c, t)}` }, cardSvg(c, { small: true }))))),
    );
  }
  if (model.table?.rules?.length) {
    out.push(h("details", { class: "rules" }, h("summary", {}, t("table_rules")), h("ul", {}, model.table.rules.map((r) => h("li", {}, r)))));
  }
  return out;
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

