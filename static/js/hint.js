// "What would strong do?" at a practice table: the strong bot's choice for the
// person's current decision, from the server (POST /api/v1/tables/<id>/hint/), and why.
// The answer is for the decision it was asked at: it goes once the table moves on (its
// version changes) and the whole section once the match is over.

import { cardText } from "./cards.js";

const config = JSON.parse(document.getElementById("hint-config").textContent);
const strings = JSON.parse(document.getElementById("hint-strings").textContent);
const t = (key, params = {}) =>
  (strings[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
const section = document.getElementById("hint");
const button = document.getElementById("hint-ask");
const answer = document.getElementById("hint-answer");
const root = document.getElementById("table-root");

// The seats as the table's buttons name them ("Bot 2"), not by number.
const seatName = (seat) => config.names?.[seat] ?? `#${seat + 1}`;

function words(action) {
  return t(`do_${action.type}`, {
    value: action.value,
    card: action.card ? cardText(action.card) : "",
    to: action.to !== undefined ? seatName(action.to) : "",
    n: (action.index ?? 0) + 1,
  });
}

function reason(data) {
  const why = data.reason;
  if (!why) return t("hint_no_reason");
  if (why.other) return t("hint_reason_other", { gain: why.gain.toFixed(1), other: words(why.other) });
  return t("hint_reason", { value: why.value.toFixed(1) });
}

function csrf() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// The version the answer was given at (null: no answer on screen).
let answeredAt = null;

function clear() {
  answeredAt = null;
  answer.textContent = "";
  delete answer.dataset.ok;
  answer.hidden = true;
}

function follow() {
  if (!root) return;
  if (root.dataset.over === "true") {
    clear();
    section.hidden = true;
    return;
  }
  if (answeredAt !== null && root.dataset.version !== answeredAt) clear();
}

if (root) new MutationObserver(follow).observe(root, { attributes: true, attributeFilter: ["data-version", "data-over"] });
clear();

button.addEventListener("click", async () => {
  button.disabled = true;
  const asked = root?.dataset.version ?? null;
  try {
    const response = await fetch(config.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
    });
    const data = await response.json().catch(() => ({}));
    // The table moved on while the search ran: this answer is for a decision gone.
    if (root && root.dataset.version !== asked) return;
    answer.dataset.ok = String(response.ok);
    answer.textContent = response.ok
      ? `${t("hint_answer", { action: words(data.action) })} ${reason(data)} ${t("hint_used", { n: data.hints })}`
      : data?.error?.message || t("error");
    answeredAt = asked;
    answer.hidden = false;
  } finally {
    button.disabled = false;
  }
});
