// The page's one club socket (ws/club/, docs/social.md): presence, the person's own
// notices, and the chat room of the page's table or tournament. Other scripts use it
// through window.Club: Club.on(type, fn) for the messages of a type, Club.send(obj).
(function () {
  "use strict";
  const script = document.currentScript;
  if (!script || window.Club) return;
  const handlers = {};
  let ws = null;
  let delay = 1000;

  function on(type, fn) {
    (handlers[type] = handlers[type] || []).push(fn);
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(scheme + "//" + location.host + script.dataset.ws);
    ws.addEventListener("open", () => {
      delay = 1000;
      (handlers.open || []).forEach((fn) => fn());
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      (handlers[message.type] || []).forEach((fn) => fn(message));
    });
    ws.addEventListener("close", () => {
      // Back again with a growing pause (a restart of the server, a phone asleep).
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }

  window.Club = { on: on, send: send };
  connect();
})();
