// The tournament panel on a tournament table's page: when the tournament says it changed
// (ws/tournaments/<id>/), fetch the panel again and put it in place, so that a player
// whose table ended sees his place and the link to his next table without a reload.
(function () {
  "use strict";
  var panel = document.getElementById("tournament-panel");
  if (!panel || !window.WebSocket) return;
  var url = panel.dataset.panelUrl;
  var wsPath = panel.dataset.wsPath;
  var delay = 1000;
  var pending = null;

  function refresh() {
    if (pending) return;
    pending = setTimeout(function () {
      pending = null;
      fetch(url, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) return;
          var fresh = document.createElement("template");
          fresh.innerHTML = html;
          var next = fresh.content.getElementById("tournament-panel");
          if (!next) return;
          panel.replaceWith(next);
          panel = next;
        })
        .catch(function () {});
    }, 300);
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + wsPath);
    ws.onopen = function () {
      delay = 1000;
      refresh(); // what changed before this connection listened (tournaments/live.js)
    };
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
