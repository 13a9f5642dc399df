// The page's strings, translated by Django and put in the page as JSON
// (<script type="application/json" id="ui-strings">). t("key", {name: "Olga"}) fills
// {name}; a plural string is an object {one, few, many, other} chosen by {n}.

let strings = {};
let plural = new Intl.PluralRules("en");

export function loadStrings(id = "ui-strings") {
  const node = document.getElementById(id);
  strings = node ? JSON.parse(node.textContent) : {};
  plural = new Intl.PluralRules(document.documentElement.lang || "en");
  return t;
}

export function t(key, params = {}) {
  let text = strings[key];
  if (text === undefined) {
    console.warn(`missing string ${key}`);
    text = key;
  }
  if (typeof text === "object") {
    text = text[plural.select(params.n ?? 0)] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
