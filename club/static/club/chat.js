// The chat panel (docs/social.md) over the page's club socket (window.Club, club.js).
// Every text from the server is set as text, never as HTML; a link is made clickable
// only in a message of someone the reader follows (or the staff, or himself).
(function () {
  "use strict";
  const panel = document.getElementById("chat");
  if (!panel || !window.Club) return;
  const text = panel.dataset;
  const lines = panel.querySelector(".chat-lines");
  const form = panel.querySelector(".chat-form");
  const input = panel.querySelector("#chat-text");
  const note = panel.querySelector(".chat-note");
  const off = panel.querySelector(".chat-off");
  const tableOff = panel.querySelector(".table-chat-off");
  const URL = /\bhttps?:\/\/[^\s<>"']+/g;
  let state = { follows: [], moderator: false, writes: false };
  let me = null;
  let counter = 0;

  function say(message) {
    message.id = "c" + ++counter;
    return window.Club.send(message);
  }

  function showNote(message) {
    note.textContent = message;
    note.hidden = !message;
  }

  function body(message) {
    // Plain text, with http(s) links made clickable only from people the reader trusts.
    const span = document.createElement("span");
    span.className = "chat-text";
    const author = message.author;
    const trusted = author.staff || author.id === me || state.follows.includes(author.id);
    if (!trusted) {
      span.textContent = message.text;
      return span;
    }
    let last = 0;
    for (const match of message.text.matchAll(URL)) {
      span.append(message.text.slice(last, match.index));
      const link = document.createElement("a");
      link.href = match[0];
      link.rel = "nofollow noopener noreferrer";
      link.target = "_blank";
      link.textContent = match[0];
      span.append(link);
      last = match.index + match[0].length;
    }
    span.append(message.text.slice(last));
    return span;
  }

  function button(label, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function add(message) {
    if (lines.querySelector('[data-id="' + message.id + '"]')) return;
    const item = document.createElement("li");
    item.dataset.id = message.id;
    item.dataset.room = message.room;
    if (message.announcement) item.classList.add("announcement");
    const who = document.createElement("a");
    who.className = "chat-author";
    who.href = "/players/" + encodeURIComponent(message.author.username) + "/";
    who.textContent = message.author.name;
    const room = document.createElement("span");
    room.className = "chat-room";
    room.textContent = message.announcement ? text.announcement : text[message.room] || "";
    item.append(who, " ", room, " ", body(message));
    if (me !== null && message.author.id !== me) {
      const tools = document.createElement("span");
      tools.className = "chat-tools";
      tools.append(
        button(text.mute, () => {
          if (say({ type: "mute", user: message.author.id })) showNote(text.muted);
        }),
        button(text.report, () => {
          if (window.confirm(text.confirmReport) && say({ type: "report", message: message.id }))
            showNote(text.reported);
        })
      );
      if (state.moderator) {
        tools.append(button(text.hide, () => say({ type: "hide", message: message.id })));
      }
      item.append(" ", tools);
    }
    lines.append(item);
    lines.scrollTop = lines.scrollHeight;
  }

  window.Club.on("chat.state", (message) => {
    state = message;
    me = state.me;
    panel.hidden = false;
    lines.replaceChildren();
    message.messages.forEach(add);
    off.checked = message.chat_off;
    off.parentElement.hidden = me === null;
    tableOff.checked = message.table_chat_off;
    tableOff.parentElement.hidden = !message.switches_table;
    form.hidden = !message.writes;
    input.maxLength = message.max_length;
    input.placeholder = message.room ? text["write" + message.room[0].toUpperCase() + message.room.slice(1)] : "";
    if (message.closed) showNote(text.closed);
    else if (message.table_chat_off) showNote(text.tableOff);
    else if (message.chat_off) showNote(text.off);
    else if (me === null) showNote(text.signIn);
    else showNote("");
  });
  window.Club.on("chat", add);
  window.Club.on("chat.hidden", (message) => {
    const item = lines.querySelector('[data-id="' + message.id + '"]');
    if (item) item.remove();
  });
  window.Club.on("chat.switched", (message) => {
    state.writes = !message.off && !state.chat_off && me !== null;
    tableOff.checked = message.off;
    form.hidden = !state.writes;
    showNote(message.off ? text.tableOff : "");
  });
  window.Club.on("error", (message) => {
    if (message.message) showNote(message.message);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (value && say({ type: "say", text: value })) input.value = "";
  });
  off.addEventListener("change", () => say({ type: "chat", off: off.checked }));
  tableOff.addEventListener("change", () => say({ type: "table_chat", off: tableOff.checked }));
})();
