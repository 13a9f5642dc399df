// The notification area of the site header: an unread count, kept live over the player's
// own socket (ws/notifications/ says "changed" whenever a notification for him is written,
// whatever tournaments he had when the page was loaded: fetch the area again). Opening it
// marks everything read.
(function () {
  "use strict";
  var area = document.getElementById("notifications");
  if (!area) return;
  var pending = null;
  var stale = false;  // a change came while the list was open: fetch it when it closes

  function bind(el) {
    el.addEventListener("toggle", function () {
      if (!el.open) {
        if (stale) { stale = false; refresh(); }
        return;
      }
      var unread = el.querySelector("#notifications-unread");
      if (!unread || unread.hidden) return;
      fetch(el.dataset.readUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": el.dataset.csrf, "X-Requested-With": "fetch" },
      }).then(function (r) { if (r.ok) unread.hidden = true; }).catch(function () {});
    });
  }

  function refresh() {
    // The list the person is reading is never drawn again under his eyes (opening it
    // marks it read, which is itself a change).
    if (area.open) { stale = true; return; }
    if (pending) return;
    pending = setTimeout(function () {
      pending = null;
      fetch(area.dataset.url, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) return;
          if (area.open) { stale = true; return; }
          var fresh = document.createElement("template");
          fresh.innerHTML = html;
          var next = fresh.content.getElementById("notifications");
          // Unchanged (the usual case after a page load): keep the area as it is.
          if (!next || next.innerHTML === area.innerHTML) return;
          area.replaceWith(next);
          area = next;
          bind(area);
        })
        .catch(function () {});
    }, 300);
  }

  function connect(path, delay) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + path);
    ws.onopen = function () { delay = 1000; refresh(); };
    ws.onmessage = function (event) {
      try {
        if (JSON.parse(event.data).type === "changed") refresh();
      } catch (e) { /* not ours */ }
    };
    ws.onclose = function () {
      setTimeout(function () { connect(path, Math.min(delay * 2, 30000)); }, delay);
    };
  }

  bind(area);
  if (!window.WebSocket || !area.dataset.wsPath) return;
  connect(area.dataset.wsPath, 1000);
})();
