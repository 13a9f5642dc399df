// The lobby: the create form follows the chosen preset (a rated table locks it), and the
// list of open tables refreshes itself — on each `refresh` from ws/lobby/, and by
// polling every few seconds while that websocket is down.

import { Socket, socketUrl } from "./socket.js";

const form = document.getElementById("create-form");
const presetsNode = document.getElementById("presets");

if (form && presetsNode) {
  const presets = JSON.parse(presetsNode.textContent);
  const optionBox = document.getElementById("option-fields");
  const lockedNote = document.getElementById("locked-note");
  const rated = form.elements.namedItem("rated");

  function applyPreset(name) {
    for (const [field, value] of Object.entries(presets[name] || {})) {
      const input = form.elements.namedItem(field);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = value === null ? "" : String(value);
    }
  }

  function lock() {
    const on = Boolean(rated?.checked);
    // Disabled fields are not sent: the server then uses the preset's options.
    optionBox.disabled = on;
    lockedNote.hidden = !on;
    if (on) applyPreset(form.elements.namedItem("preset").value);
  }

  form.addEventListener("change", (event) => {
    if (event.target.name === "preset") applyPreset(event.target.value);
    if (event.target.name === "preset" || event.target.name === "rated") lock();
  });
  lock();
}

const list = document.getElementById("lobby-tables");
if (list) {
  const url = list.dataset.url;
  const pollMs = Number(list.dataset.poll || 5) * 1000;
  let last = list.innerHTML;
  let busy = false;

  async function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const response = await fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" });
      if (response.ok) {
        const html = await response.text();
        if (html !== last) {
          // Keep focus where it was if that element is drawn again.
          const focused = document.activeElement?.closest?.("[data-table]")?.dataset.table;
          list.innerHTML = html;
          last = html;
          if (focused) list.querySelector(`[data-table="${focused}"] a, [data-table="${focused}"] button`)?.focus();
        }
      }
    } catch {
      // Offline for a moment: the next poll tries again.
    } finally {
      busy = false;
    }
  }

  let poller = null;
  const startPolling = () => { if (!poller) poller = setInterval(refresh, pollMs); };
  const stopPolling = () => { clearInterval(poller); poller = null; };

  const socket = new Socket(socketUrl("/ws/lobby/"), {
    onMessage: () => refresh(),
    onStatus(online) {
      if (online) {
        stopPolling();
        refresh();
      } else {
        startPolling();
      }
    },
  });
  startPolling();
  socket.start();
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}
