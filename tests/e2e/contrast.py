"""What a person can read: the WCAG 2.1 contrast of every visible text of a page part,
measured in the browser from the computed colours.

The text's colour (with its opacity) is laid over the background it is drawn on: the
background colours of its ancestors, each blended over the one below it, up to the page's
own. A gradient (the felt of a table) counts with each of its colour stops: the text must
be readable on the darkest and on the lightest of them. Large text (24 px, or 18.66 px
bold) needs 3:1, the rest 4.5:1 (WCAG 2.1, 1.4.3).
"""

from __future__ import annotations

from typing import Any

CONTRAST = r"""(scope) => {
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a] = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [r, g, b, a === undefined ? 1 : a];
  };
  const over = (top, below) => {  // top (with alpha) over an opaque colour
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat([1]);
  };
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  // The backgrounds an element is drawn on: one, or one per colour stop of a gradient.
  const backgrounds = (el) => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      const stops = (style.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(parse);
      const colour = parse(style.backgroundColor);
      if (stops.length) layers.push(stops);
      if (colour && colour[3] > 0) layers.push([colour]);
      if (colour && colour[3] === 1) break;
    }
    let result = [[255, 255, 255, 1]];  // the canvas
    for (const layer of layers.reverse()) {
      result = result.flatMap((below) => layer.map((top) => over(top, below)));
    }
    return result;
  };
  const opacity = (el) => {
    let o = 1;
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      o *= Number(getComputedStyle(node).opacity);
    }
    return o;
  };
  const root = typeof scope === "string" ? document.querySelector(scope) : document.body;
  if (!root) return [{ text: `no ${scope} on the page`, ratio: 0, need: 4.5 }];
  const seen = new Set();
  const failures = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || seen.has(el) || el.closest("svg, script, style, title, option")) continue;
    seen.add(el);
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility !== "visible") continue;
    if (el.closest(".visually-hidden")) continue;
    const fg = parse(style.color);
    fg[3] *= opacity(el);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const worst = Math.min(...backgrounds(el).map((bg) => ratio(over(fg, bg), bg)));
    if (worst < need) {
      failures.push({
        text: text.slice(0, 40),
        where: `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`,
        ratio: Math.round(worst * 100) / 100,
        need,
      });
    }
  }
  return failures;
}"""


def low_contrast(page: Any, scope: str | None = None) -> list[dict[str, Any]]:
    """The texts under ``scope`` (a CSS selector; the whole body when None) that are
    shown below WCAG AA contrast: text, element, measured ratio and the ratio needed."""
    return list(page.evaluate(CONTRAST, scope))
