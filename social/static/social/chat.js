// The chat panel (docs/social.md) over the page's social socket (window.Social, social.js).
// Every text from the server is set as text, never as HTML; a link is made clickable
// only in a message of someone the reader follows (or the staff, or himself).
(function () {
  "use strict";
  const panel = document.getElementById("chat");
  if (!panel || !window.Social) return;
  const text = panel.dataset;
  const lines = panel.querySelector(".chat-lines");
  const form = panel.querySelector(".chat-form");
  const input = panel.querySelector("#chat-text");
  const note = panel.querySelector(".chat-note");
  const off = panel.querySelector(".chat-off");
  const tableOff = panel.querySelector(".table-chat-off");
  const sound = panel.querySelector(".chat-sound");
  const URL = /\bhttps?:\/\/[^\s<>"']+/g;
  let state = { follows: [], moderator: false, writes: false };
  let me = null;
  let counter = 0;
  const undo = {}; // message id -> what to put back if the server refuses it

  function say(message, onRefused) {
    message.id = "c" + ++counter;
    const sent = window.Social.send(message);
    if (onRefused) {
      if (sent) undo[message.id] = onRefused;
      else onRefused();
    }
    return sent;
  }

  // -- "Chat" with the unread count, while the chat is out of view ----------------------
  const jump = document.createElement("button");
  jump.type = "button";
  jump.className = "chat-jump";
  jump.hidden = true;
  const jumpLabel = document.createElement("span");
  jumpLabel.textContent = text.jump;
  const badge = document.createElement("span");
  badge.className = "chat-unread";
  badge.hidden = true;
  jump.append(jumpLabel, badge);
  document.body.append(jump);
  let unread = 0;
  let inView = false;
  let ready = false; // the first chat.state came: the jump may show

  function showUnread() {
    badge.textContent = String(unread);
    badge.hidden = unread === 0;
    jump.setAttribute("aria-label", unread ? text.unread.replace("{n}", String(unread)) : text.jump);
    jump.hidden = !ready || inView;
  }

  function seen() {
    unread = 0;
    showUnread();
  }

  function panelInView() {
    // Most of the chat on the screen (an edge of it at the bottom is not in view).
    const box = panel.getBoundingClientRect();
    const shown = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
    return box.height > 0 && shown >= 0.6 * Math.min(box.height, window.innerHeight);
  }

  function look() {
    inView = panelInView();
    if (inView && !document.hidden) seen();
    else showUnread();
  }

  window.addEventListener("scroll", look, { passive: true });
  window.addEventListener("resize", look);
  // The page's own drawing moves the chat too (the table's felt, the score sheet).
  if ("ResizeObserver" in window) new ResizeObserver(look).observe(document.body);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && inView) seen();
  });
  jump.addEventListener("click", () => {
    panel.scrollIntoView({ block: "end" });
    if (!form.hidden) input.focus({ preventScroll: true });
    seen();
  });

  // An optional short tone for a new line (the person's choice, kept in this browser).
  let audio = null;
  const SOUND_KEY = "social.chat.sound";
  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "on";
    } catch (error) {
      return false;
    }
  }
  function beep() {
    if (!sound || !sound.checked) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch (error) {
      // No sound in this browser: the badge says it.
    }
  }
  if (sound) {
    sound.checked = soundOn();
    sound.addEventListener("change", () => {
      try {
        window.localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
      } catch (error) {
        // Private mode: on for this page only.
      }
    });
  }

  function heard(message) {
    // A new line from someone else: counted while the chat is out of sight.
    if (me !== null && message.author.id === me) return;
    inView = panelInView();
    if (!inView || document.hidden) {
      unread += 1;
      showUnread();
    }
    beep();
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

  window.Social.on("chat.state", (message) => {
    state = message;
    me = state.me;
    panel.hidden = false;
    ready = true;
    look();
    lines.replaceChildren();
    message.messages.forEach(add);
    off.checked = message.chat_off;
    off.parentElement.hidden = me === null;
    if (sound) sound.parentElement.hidden = me === null || message.chat_off;
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
  window.Social.on("chat", (message) => {
    const fresh = !lines.querySelector('[data-id="' + message.id + '"]');
    add(message);
    if (fresh) heard(message);
  });
  window.Social.on("chat.hidden", (message) => {
    const item = lines.querySelector('[data-id="' + message.id + '"]');
    if (item) item.remove();
  });
  window.Social.on("chat.switched", (message) => {
    state.writes = !message.off && !state.chat_off && me !== null;
    tableOff.checked = message.off;
    form.hidden = !state.writes;
    showNote(message.off ? text.tableOff : "");
  });
  window.Social.on("ack", (message) => {
    delete undo[message.id];
  });
  window.Social.on("error", (message) => {
    const putBack = undo[message.id];
    if (putBack) {
      // A refused switch does not stay ticked.
      delete undo[message.id];
      putBack();
    }
    if (message.message) showNote(message.message);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (value && say({ type: "say", text: value })) input.value = "";
  });
  off.addEventListener("change", () => {
    const was = !off.checked;
    say({ type: "chat", off: off.checked }, () => (off.checked = was));
  });
  tableOff.addEventListener("change", () => {
    const was = !tableOff.checked;
    say({ type: "table_chat", off: tableOff.checked }, () => (tableOff.checked = was));
  });
})();
