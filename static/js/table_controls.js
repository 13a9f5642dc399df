// The parts of a table under the player's hand: the prompt, the buttons of the legal
// actions, the hand itself and the side information (bidding so far, the last deal).
// Like render.js it decides nothing about the rules: it offers the view's `legal` list.

import { cardName, cardSvg, cardText, sortHand, suitOf } from "./cards.js";
import { h } from "./dom.js";

export function lastDealSummary(row, { t, name }) {
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

export function promptText({ view, legal, t, name, model, me, ctx }) {
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

export function actions(env) {
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

export function hand(env) {
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

export function info(env) {
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
