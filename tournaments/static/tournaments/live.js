// A tournament's page: when the server says the tournament changed, fetch the page's
// live parts (status and your entry, schedule, standings, rounds, entrants) again and put
// each in place of the one with the same data-live-part. The socket is socket.js's.
import { Socket, socketUrl } from "../js/socket.js";

const root = document.getElementById("tournament");
let pending = null;

// What the person has typed or ticked in a part (an entrant's seed, a withdrawal's
// reason) and where the caret was go into the part drawn again, so another player's
// registration never wipes a half-typed field.
function keepTyping(old, part, active) {
  old.querySelectorAll("input, textarea, select").forEach(function (field) {
    if (field.type === "hidden" || field.type === "submit") return;
    const key = field.id ? "#" + CSS.escape(field.id) :
      field.name ? '[name="' + CSS.escape(field.name) + '"]' : null;
    const twin = key ? part.querySelector(key) : null;
    if (!twin || twin.type !== field.type) return;
    if (field.type === "checkbox" || field.type === "radio") {
      if (field.checked !== field.defaultChecked) twin.checked = field.checked;
    } else if (field.value !== field.defaultValue) {
      twin.value = field.value;
    }
    if (field === active) {
      twin.focus();
      try { twin.setSelectionRange(field.selectionStart, field.selectionEnd); } catch (e) { /* not text */ }
    }
  });
}

function apply(html) {
  const fresh = document.createElement("template");
  fresh.innerHTML = html;
  fresh.content.querySelectorAll("[data-live-part]").forEach(function (part) {
    const name = part.getAttribute("data-live-part");
    const old = root.querySelector('[data-live-part="' + name + '"]');
    if (!old) return;
    const active = document.activeElement; // lost once the old part leaves the page
    old.replaceWith(part);
    keepTyping(old, part, active);
  });
}

function refresh() {
  if (pending) return;
  pending = setTimeout(function () {
    pending = null;
    fetch(root.dataset.liveUrl, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) apply(html); })
      .catch(function () {});
  }, 300);
}

if (root) {
  // A step that cannot be undone asks first (withdrawing from a running tournament).
  root.addEventListener("submit", (event) => {
    const question = event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
  if (window.WebSocket) {
    new Socket(socketUrl(root.dataset.wsPath), {
      // On every connection, what changed before it listened: while the connection was
      // down, and, on the first one, between the page's rendering and now (a round
      // seated in that second was missed until the next change).
      onStatus: (online) => { if (online) refresh(); },
      onMessage: (message) => { if (message.type === "changed") refresh(); },
    }).start();
  }
}
