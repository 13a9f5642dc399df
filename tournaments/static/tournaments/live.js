// A tournament's page: when the server says the tournament changed, fetch the live
// part (standings, rounds, entrants) again. Reconnects with a growing delay.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !window.WebSocket) return;
  var delay = 1000;
  var pending = null;

  function refresh() {
    if (pending) return;
    pending = setTimeout(function () {
      pending = null;
      fetch(box.dataset.liveUrl, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html !== null) box.innerHTML = html; })
        .catch(function () {});
    }, 300);
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + box.dataset.wsPath);
    ws.onopen = function () { delay = 1000; };
    ws.onmessage = function (event) {
      try {
        if (JSON.parse(event.data).type === "changed") refresh();
      } catch (e) { /* not ours */ }
    };
    ws.onclose = function () {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
