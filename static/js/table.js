// The live table: ws/tables/<id>/ (docs/protocol.md) over the pages' one socket client
// (socket.js), and the glue to render.js. It shows an "offline" banner while the socket
// is down, asks for a full `sync` after every reconnect and on a version gap, and sends
// an action only if it is one of the view's `legal` actions, exactly as the server sent it.

import { SUIT_SIGN, loadSprite } from "./cards.js";
import { loadStrings } from "./i18n.js";
import { createTable, seatName } from "./render.js";
import { Socket, socketUrl } from "./socket.js";

const PING_EVERY = 25000;

let counter = 0;
/** A message id unique for this page (crypto.randomUUID needs a secure context). */
export function messageId() {
  counter += 1;
  const random = Math.floor(Math.random() * 0x7fffffff).toString(36);
  return `${Date.now().toString(36)}-${counter}-${random}`;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The clock as a local deadline in ms: the table's deadline (server time) moved by
 * how far this browser's clock is from the server's (`skew`, measured at page load). */
export function clockFrom(table, view, skew = 0) {
  if (!table?.deadline || !view || view.to_act === null || view.to_act === undefined) return null;
  const deadline = Date.parse(table.deadline);
  if (Number.isNaN(deadline)) return null;
  return { seat: view.to_act, deadline: deadline + skew };
}

export function startTable(root) {
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const t = loadStrings();
  loadSprite(config.sprite_url);
  const banner = document.getElementById("offline-banner");
  const notice = document.getElementById("table-notice");

  const state = {
    view: null, table: config.table || null, sheet: [], version: -1, seat: config.seat,
    pending: null, awaiting: null, sentAt: 0, online: false, clock: null, events: [],
  };
  const skew = config.now ? Date.now() - Date.parse(config.now) : 0;
  const seeded = new Set();
  let socket = null;

  function say(text, kind = "info") {
    if (!notice) return;
    notice.textContent = text;
    notice.dataset.kind = kind;
    notice.hidden = !text;
    clearTimeout(say.timer);
    if (text) say.timer = setTimeout(() => (notice.hidden = true), 6000);
  }

  let board = null;
  const ctx = {
    t,
    back() {
      socket.send({ type: "back", id: messageId() });
    },
    send(action) {
      // Only an action the server listed as legal, sent back exactly as it came.
      if (!state.view || state.pending || !state.online) return;
      const legal = (state.view.legal || []).find((a) => same(a, action));
      if (!legal) return;
      const id = messageId();
      if (socket.send({ type: "action", id, version: state.version, action: legal })) {
        state.pending = id;
        state.sentAt = Date.now();
        draw();
      }
    },
  };

  function settle() {
    state.pending = null;
    state.awaiting = null;
  }

  function draw() {
    // Before the start there is no view: the server draws the waiting room.
    if (!state.view) return;
    board ??= createTable(root, ctx);
    board.update({ ...state, pending: Boolean(state.pending), rematch: config.rematch });
    root.dataset.version = String(state.version);
    root.dataset.phase = state.view?.phase ?? "";
    root.dataset.toAct = state.view?.to_act ?? "";
    root.dataset.myTurn = String(Boolean(state.view?.legal?.length && !state.pending && state.online));
    root.dataset.rows = String(state.sheet.length);
    // Over: won, or (a match of N deals) ended after its last deal, maybe with the top
    // score shared and no winner (docs/spec.md §3.7).
    const over = state.view?.winner != null || state.view?.finished_by != null;
    root.dataset.over = String(over);
    // Resigned (or put out by an organiser) while the page was open, or the match is
    // over: no Resign button.
    const resign = document.querySelector("form.resign");
    const mine = state.table?.seats?.find((s) => s?.number === state.seat);
    if (resign && (mine?.resigned || over || state.table?.status === "finished")) resign.hidden = true;
  }

  function take(message) {
    if (message.table) {
      const before = state.table;
      state.table = { ...state.table, ...message.table, rules: config.table?.rules, replay_url: config.replay_url };
      // Seats or status changed before the match (the waiting room is drawn by the
      // server): load the page again.
      if (before && (message.table.status !== config.status ||
          (config.status === "open" && JSON.stringify(before.seats) !== JSON.stringify(message.table.seats)))) {
        // A match that was won ends on the board; one cut short (the time limit,
        // resignations, an organiser) has no winner to draw: the page says how it ended.
        const won = (message.view ?? state.view)?.winner != null;
        if (!(config.status === "playing" && message.table.status === "finished" && won)) location.reload();
      }
    }
    if ("seat" in message) state.seat = message.seat;
    if (Array.isArray(message.sheet)) state.sheet = message.sheet;
    for (const row of message.sheet_rows || []) {
      if (!state.sheet.some((r) => r.deal === row.deal)) state.sheet = [...state.sheet, row];
    }
    if (message.view) state.view = message.view;
    if (typeof message.version === "number") state.version = message.version;
    // Our action is settled once the update it caused is here (its ack comes first).
    if (state.awaiting !== null && state.version >= state.awaiting) settle();
    state.clock = clockFrom(state.table, state.view, skew);
    if (message.dealing) sendSeed(message.dealing);
  }

  function onMessage(message) {
    switch (message.type) {
      case "state":
        take(message);
        settle();
        break;
      case "update":
        // An update older than what we hold is stale; a gap means we missed one.
        // (The socket asks for a `sync` on a gap: onGap below.)
        if (typeof message.version === "number" && message.version <= state.version && state.view) return;
        take(message);
        state.events = message.events || [];
        announce(state.events);
        break;
      case "ack":
        if (message.id !== state.pending) return;
        // The view that follows our action is on its way: until it arrives the old
        // view's legal actions are stale, so nothing is offered.
        if (typeof message.version === "number" && message.version > state.version) state.awaiting = message.version;
        else settle();
        break;
      case "error":
        if (message.code === "invalid_seed") return; // another tab of ours sent it first
        if (!message.id || message.id === state.pending) settle();
        if (message.code === "stale_version") {
          say(t("stale"));
          socket.send({ type: "sync" });
        } else {
          say(t("error", { message: message.message || message.code }), "error");
        }
        break;
      case "pong":
      case "refresh":
        return;
      default:
        if (message.view || message.table) take(message);
    }
    draw();
  }

  function announce(events) {
    const names = (seat) => seatName(state, seat, t);
    for (const event of events) {
      if (event.type === "deal_started") say("");
      if (event.type === "marriage_declared") {
        say(event.suit
          ? t("marriage_declared", { name: names(event.seat), suit: SUIT_SIGN[event.suit] || "", value: event.value })
          : t("ace_marriage_declared", { name: names(event.seat), value: event.value }));
      }
    }
  }

  function sendSeed(dealing) {
    // Fair dealing: this browser's own random contribution to the next shuffle, once
    // per dealing, from a seated player only (docs/fair-dealing.md).
    if (state.seat === null || state.seat === undefined || typeof dealing.number !== "number") return;
    if (seeded.has(dealing.number)) return;
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    const seed = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    if (socket.send({ type: "seed", id: messageId(), dealing: dealing.number, seed })) seeded.add(dealing.number);
  }

  // The banner waits a moment: a connection that is back at once is not news.
  let bannerTimer = null;
  function onStatus(online, again) {
    state.online = online;
    // After a reconnect the server's full state replaces whatever we missed.
    if (online && again) socket.send({ type: "sync" });
    clearTimeout(bannerTimer);
    if (online) {
      if (banner && !banner.hidden) say(t("reconnected"));
      if (banner) banner.hidden = true;
    } else {
      bannerTimer = setTimeout(() => { if (banner) banner.hidden = false; }, 1500);
      settle();
    }
    document.body.classList.toggle("offline", !online);
    if (state.view) draw();
  }

  socket = new Socket(socketUrl(config.ws_path), {
    onMessage,
    onStatus,
    ping: PING_EVERY,
    versionOf: (message) => (message.type === "update" && typeof message.version === "number" ? message.version : null),
    version: () => state.version,
    onGap: () => socket.send({ type: "sync" }),
  });
  socket.start();
  setInterval(() => {
    board?.tick();
    // A message lost on the way: ask for the whole state rather than wait forever.
    if (state.pending && Date.now() - state.sentAt > 10000) {
      settle();
      socket.send({ type: "sync" });
    }
  }, 500);
  window.addEventListener("pagehide", () => socket.stop());
  const resign = document.querySelector("form.resign");
  resign?.addEventListener("submit", (event) => {
    if (!window.confirm(resign.dataset.confirm)) event.preventDefault();
  });
  // For tests and for people debugging: the current state, read-only.
  window.thousandTable = { state, socket };
  return { state, socket };
}

/** The waiting room's invite link: Copy puts it on the clipboard (or, where the browser
 * keeps the clipboard from the page, selects it for the player to copy) and says so. */
export function wireInviteCopy() {
  const button = document.getElementById("copy-invite");
  const input = document.getElementById("invite-url");
  const done = document.getElementById("invite-copied");
  button?.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      document.execCommand("copy");
    }
    if (done) done.hidden = false;
  });
}

wireInviteCopy();
const root = document.getElementById("table-root");
if (root && document.getElementById("table-config")) startTable(root);
