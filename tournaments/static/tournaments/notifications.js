// The notification area of the site header: an unread count, kept live over the player's
// own socket (ws/notifications/ says "changed" whenever a notification for him is written,
// whatever tournaments he had when the page was loaded: fetch the area again). Opening it
// marks everything read.
import { Socket, socketUrl } from "../js/socket.js";

let area = document.getElementById("notifications");
let pending = null;
let stale = false; // a change came while the list was open: fetch it when it closes

function bind(el) {
  el.addEventListener("toggle", () => {
    if (!el.open) {
      if (stale) { stale = false; refresh(); }
      return;
    }
    const unread = el.querySelector("#notifications-unread");
    if (!unread || unread.hidden) return;
    fetch(el.dataset.readUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": el.dataset.csrf, "X-Requested-With": "fetch" },
    }).then((r) => { if (r.ok) unread.hidden = true; }).catch(() => {});
  });
}

function refresh() {
  // The list the person is reading is never drawn again under his eyes (opening it
  // marks it read, which is itself a change).
  if (area.open) { stale = true; return; }
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    fetch(area.dataset.url, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        if (html === null) return;
        if (area.open) { stale = true; return; }
        const fresh = document.createElement("template");
        fresh.innerHTML = html;
        const next = fresh.content.getElementById("notifications");
        // Unchanged (the usual case after a page load): keep the area as it is.
        if (!next || next.innerHTML === area.innerHTML) return;
        area.replaceWith(next);
        area = next;
        bind(area);
      })
      .catch(() => {});
  }, 300);
}

if (area) {
  bind(area);
  if (window.WebSocket && area.dataset.wsPath) {
    new Socket(socketUrl(area.dataset.wsPath), {
      onStatus: (online) => { if (online) refresh(); },
      onMessage: (message) => { if (message.type === "changed") refresh(); },
    }).start();
  }
}
