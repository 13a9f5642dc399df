// A tournament's page: when the server says the tournament changed, fetch the page's
// live parts (status and your entry, schedule, standings, rounds, entrants) again and put
// each in place of the one with the same data-live-part. Reconnects with a growing delay.
(function () {
  "use strict";
  var root = document.getElementById("tournament");
  if (!root) return;
  var delay = 1000;
  var pending = null;

  // What the person has typed or ticked in a part (an entrant's seed, a withdrawal's
  // reason) and where the caret was go into the part drawn again, so another player's
  // registration never wipes a half-typed field.
  function keepTyping(old, part, active) {
    old.querySelectorAll("input, textarea, select").forEach(function (field) {
      if (field.type === "hidden" || field.type === "submit") return;
      var key = field.id ? "#" + CSS.escape(field.id) :
        field.name ? '[name="' + CSS.escape(field.name) + '"]' : null;
      var twin = key ? part.querySelector(key) : null;
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
    var fresh = document.createElement("template");
    fresh.innerHTML = html;
    fresh.content.querySelectorAll("[data-live-part]").forEach(function (part) {
      var name = part.getAttribute("data-live-part");
      var old = root.querySelector('[data-live-part="' + name + '"]');
      if (!old) return;
      var active = document.activeElement; // lost once the old part leaves the page
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

  // A step that cannot be undone asks first (withdrawing from a running tournament).
  root.addEventListener("submit", function (event) {
    var question = event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  if (!window.WebSocket) return;

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + root.dataset.wsPath);
    ws.onopen = function () {
      delay = 1000;
      // What changed before this connection listened: while the connection was down,
      // and, on the first one, between the page's rendering and now (a round seated
      // in that second was missed until the next change).
      refresh();
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
