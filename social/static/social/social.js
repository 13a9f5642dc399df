// The page's one social socket (ws/social/, docs/social.md): presence, the person's own
// notices (challenges, shown in a notification area of their own), and the chat room
// of the page's table or tournament. Other scripts use it through window.Social:
// Social.on(type, fn) for the messages of a type, Social.send(obj). The socket is
// socket.js's; the server answers its pings.
import { Socket, socketUrl } from "../js/socket.js";

const PING_EVERY = 25000;

function start(script) {
  const strings = JSON.parse(script.dataset.strings || "{}");
  const handlers = {};
  let socket = null;
  let counter = 0;
  let reader = null; // this socket's person (the server's "challenges" message names him)

  function on(type, fn) {
    (handlers[type] = handlers[type] || []).push(fn);
  }

  function send(message) {
    return socket ? socket.send(message) : false;
  }

  // -- challenges: a small notification area, live -------------------------------------

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  }

  function area() {
    let box = document.getElementById("social-notices");
    if (!box) {
      box = document.createElement("section");
      box.id = "social-notices";
      box.className = "social-notices";
      box.setAttribute("aria-label", strings.notices || "");
      box.setAttribute("aria-live", "polite");
      document.body.append(box);
    }
    return box;
  }

  function button(label, className, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function valueWords(name, value) {
    const labels = (strings.values || {})[name];
    const key = JSON.stringify(value);
    if (labels && key in labels) return labels[key];
    if (value === true) return strings.on;
    if (value === false) return strings.off;
    return String(value);
  }

  function changes(c) {
    // The options that differ from the preset's, in the page's language.
    return (c.changes || []).map(
      ([name, value]) => ((strings.options || {})[name] || name) + ": " + valueWords(name, value)
    );
  }

  function describe(c) {
    return [
      fill(strings.players || "", { n: c.players }),
      (strings.presets || {})[c.preset] || c.preset,
      fill(strings.seconds || "", { s: c.move_seconds }),
      c.rated ? strings.rated : strings.unrated,
    ].join(", ");
  }

  function answer(type, c, extra) {
    send(Object.assign({ type: type, id: "n" + ++counter, challenge: c.id }, extra || {}));
  }

  function show(c) {
    const box = area();
    let item = box.querySelector('[data-challenge="' + c.id + '"]');
    if (!item) {
      item = document.createElement("div");
      item.className = "social-notice";
      item.dataset.challenge = c.id;
      box.append(item);
    }
    const mine = c.invited.every((i) => i.id !== reader);
    const names = c.invited.map((i) => i.name).join(", ");
    const text = document.createElement("p");
    const actions = document.createElement("div");
    actions.className = "social-notice-actions";
    if (c.status === "accepted" && c.table_id) {
      location.href = "/tables/" + c.table_id + "/";
      return;
    }
    if (c.status === "pending") {
      if (mine) {
        text.textContent = fill(strings.waiting || "", { names: names });
        actions.append(button(strings.cancel, "link", () => answer("cancel", c)));
      } else {
        const invite = c.invited.find((i) => i.id === reader);
        text.textContent = fill(strings.challenged || "", { name: c.from.name, what: describe(c) });
        if (invite && invite.answer === "waiting") {
          actions.append(
            button(strings.accept, "", () => answer("answer", c, { accept: true })),
            button(strings.decline, "secondary", () => answer("answer", c, { accept: false }))
          );
        }
      }
    } else {
      const key = c.status === "declined" ? "declined" : c.status;
      text.textContent = fill(strings[key] || c.status, { names: names });
      actions.append(button(strings.close, "link", () => item.remove()));
    }
    const changed = changes(c);
    if (c.status === "pending" && changed.length) {
      const list = document.createElement("span");
      list.className = "changes";
      list.textContent = fill(strings.changed || "%(changes)s", { changes: changed.join("; ") });
      text.append(list);
    }
    item.replaceChildren(text, actions);
  }

  on("challenges", (message) => {
    reader = message.me;
    message.items.forEach(show);
  });
  on("challenge", show);

  window.Social = { on: on, send: send };
  socket = new Socket(socketUrl(script.dataset.ws), {
    ping: PING_EVERY,
    onMessage: (message) => (handlers[message.type] || []).forEach((fn) => fn(message)),
  }).start();
}

const script = document.getElementById("social-socket");
if (script && !window.Social) start(script);
