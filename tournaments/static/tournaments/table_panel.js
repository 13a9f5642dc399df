// The tournament panel on a tournament table's page: when the tournament says it changed
// (ws/tournaments/<id>/), fetch the panel again and put it in place, so that a player
// whose table ended sees his place and the link to his next table without a reload.
import { Socket, socketUrl } from "../js/socket.js";

let panel = document.getElementById("tournament-panel");
let pending = null;

function refresh() {
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    fetch(panel.dataset.panelUrl, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        if (html === null) return;
        const fresh = document.createElement("template");
        fresh.innerHTML = html;
        const next = fresh.content.getElementById("tournament-panel");
        if (!next) return;
        panel.replaceWith(next);
        panel = next;
      })
      .catch(() => {});
  }, 300);
}

if (panel && window.WebSocket) {
  new Socket(socketUrl(panel.dataset.wsPath), {
    // On every connection: what changed before it listened (tournaments/live.js).
    onStatus: (online) => { if (online) refresh(); },
    onMessage: (message) => { if (message.type === "changed") refresh(); },
  }).start();
}
