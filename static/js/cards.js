// Cards as the engine writes them: rank 9 T J Q K A + suit S C D H ("TH" is 10♥).
// Drawn from the sprite static/cards/cards.svg, or cards-cyrillic.svg whose courts read
// Т К Д В (made by scripts/make_cards.py; the page's config names the one to load).

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
export const SUITS = ["S", "H", "C", "D"]; // hand order: colours alternate
export const RANK_ORDER = ["A", "T", "K", "Q", "J", "9"]; // high to low (docs/spec.md §1)
export const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0 };
export const SUIT_SIGN = { S: "♠", C: "♣", D: "♦", H: "♥" };
export const RED = new Set(["D", "H"]);

let spriteUrl = "";

/** Put the sprite into the page once, so that every card refers to it by a local id
 * (an external <use href="file.svg#id"> is fetched again for each card drawn). Cards
 * drawn before it arrives appear as soon as it does. */
export async function loadSprite(url) {
  if (document.getElementById("card-sprite")) return;
  const holder = document.createElement("div");
  holder.id = "card-sprite";
  holder.setAttribute("aria-hidden", "true");
  // Not display:none: patterns inside a hidden SVG do not paint in every browser.
  holder.style.cssText = "position:absolute;width:0;height:0;overflow:hidden";
  document.body.prepend(holder);
  const response = await fetch(url, { credentials: "same-origin" });
  holder.innerHTML = await response.text();
}

export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];

/** Sort a hand by suit (♠ ♥ ♣ ♦, colours alternating), high to low inside a suit. */
export function sortHand(cards) {
  return [...cards].sort(
    (a, b) =>
      SUITS.indexOf(suitOf(a)) - SUITS.indexOf(suitOf(b)) ||
      RANK_ORDER.indexOf(rankOf(a)) - RANK_ORDER.indexOf(rankOf(b)),
  );
}

/** "Queen of hearts" in the page's language (strings come from the server). */
export function cardName(card, t) {
  return t("card_name", { rank: t(`rank_${rankOf(card)}`), suit: t(`suit_${suitOf(card)}`) });
}

/** A short text form: "10♥", "Q♠" ("Д♠" in Russian: the letters are the page's strings). */
export function cardText(card) {
  const r = rankOf(card);
  const rank = r === "T" ? "10" : r === "9" ? "9" : t(`rank_letter_${r}`);
  return rank + SUIT_SIGN[suitOf(card)];
}

/** The picture of one card (or of its back when card is null), an <svg> element. */
export function cardSvg(card, { small = false } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("class", small ? "card-svg small" : "card-svg");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `${spriteUrl}#${card || "back"}`);
  svg.append(use);
  return svg;
}

/** A small inline suit sign as text with its colour class. */
export function suitSpan(suit) {
  const span = document.createElement("span");
  span.className = RED.has(suit) ? "suit red" : "suit black";
  span.textContent = SUIT_SIGN[suit];
  return span;
}

/** An icon of the sprite ("barrel"), inline-sized by CSS. */
export function icon(id, label) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 20 24");
  svg.setAttribute("class", `icon icon-${id}`);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    const title = document.createElementNS(SVG, "title");
    title.textContent = label;
    svg.append(title);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `${spriteUrl}#${id}`);
  svg.append(use);
  return svg;
}
