// "What would strong do?" at a practice table (issue 30): the strong bot's choice for the
// person's current decision, from the server (POST /api/v1/tables/<id>/hint/).

import { cardText } from "./cards.js";

const config = JSON.parse(document.getElementById("hint-config").textContent);
const strings = JSON.parse(document.getElementById("hint-strings").textContent);
const t = (key, params = {}) =>
  (strings[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
const button = document.getElementById("hint-ask");
const answer = document.getElementById("hint-answer");

function words(action) {
  return t(`do_${action.type}`, {
    value: action.value,
    card: action.card ? cardText(action.card) : "",
    to: action.to !== undefined ? `#${action.to + 1}` : "",
    n: (action.index ?? 0) + 1,
  });
}

function csrf() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

button.addEventListener("click", async () => {
  button.disabled = true;
  try {
    const response = await fetch(config.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
    });
    const data = await response.json().catch(() => ({}));
    answer.dataset.ok = String(response.ok);
    answer.textContent = response.ok
      ? `${t("hint_answer", { action: words(data.action) })} ${t("hint_used", { n: data.hints })}`
      : data?.error?.message || t("error");
  } finally {
    button.disabled = false;
  }
});
