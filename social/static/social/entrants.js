// A tournament page's entrants list: the green dot before each entrant online now, read
// again every few seconds (GET /api/v1/social/tournaments/<id>/online/, docs/social.md),
// so the dots follow people coming and going between the list's redraws.
(function () {
  "use strict";
  const script = document.currentScript;
  if (!script) return;
  const url = script.dataset.url;
  const title = script.dataset.online;

  function dotOf(item) {
    const first = item.firstElementChild;
    return first && first.classList.contains("online-dot") ? first : null;
  }

  function show(item, online) {
    const dot = dotOf(item);
    if (online && !dot) {
      const span = document.createElement("span");
      span.className = "online-dot";
      span.title = title;
      span.textContent = "\u25cf";
      item.prepend(span, document.createTextNode(" "));
    } else if (!online && dot) {
      const after = dot.nextSibling;
      if (after && after.nodeType === Node.TEXT_NODE && after.textContent === " ") after.remove();
      dot.remove();
    }
  }

  async function refresh() {
    const items = document.querySelectorAll(".entrants li[data-user]");
    if (!items.length || document.hidden) return;
    try {
      const answer = await fetch(url, { credentials: "same-origin" });
      if (!answer.ok) return;
      const online = new Set((await answer.json()).online.map(String));
      items.forEach((item) => show(item, online.has(item.dataset.user)));
    } catch (error) {
      // Offline for a moment: the next round tries again.
    }
  }

  setInterval(refresh, 10000);
})();
