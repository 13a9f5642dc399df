// The Friends page: who is online and where, read again every few seconds
// (GET /api/v1/social/friends/, docs/social.md). Names come from the server as text and
// are only ever set as text.
(function () {
  "use strict";
  const script = document.currentScript;
  const list = document.querySelector(".friends");
  if (!script || !list) return;
  const text = script.dataset;

  function where(friend) {
    const cell = document.createElement("span");
    if (!friend.online) {
      cell.textContent = text.offline;
      return cell;
    }
    if (friend.table_id === null) {
      // A private table is no page for the reader: where, without the link.
      if (friend.private_table) cell.textContent = friend.playing ? text.privatePlaying : text.private;
      else cell.textContent = text.online;
      return cell;
    }
    const link = document.createElement("a");
    link.href = "/tables/" + friend.table_id + "/";
    link.textContent = (friend.playing ? text.playing : text.watching).replace(
      "{id}",
      String(friend.table_id)
    );
    cell.appendChild(link);
    if (friend.playing) {
      const watch = document.createElement("a");
      watch.className = "button watch";
      watch.href = link.href;
      watch.textContent = text.watch;
      cell.append(" ", watch);
    }
    return cell;
  }

  async function refresh() {
    try {
      const answer = await fetch(list.dataset.friendsUrl, { credentials: "same-origin" });
      if (!answer.ok) return;
      const rows = await answer.json();
      rows.forEach((friend) => {
        const item = list.querySelector('[data-user="' + friend.user_id + '"]');
        if (!item) return;
        item.classList.toggle("online", friend.online);
        const cell = item.querySelector("[data-where]");
        cell.replaceChildren(where(friend));
      });
    } catch (error) {
      // Offline for a moment: the next round tries again.
    }
  }

  setInterval(refresh, 5000);
})();
