// The live table: a websocket client for ws/tables/<id>/ (docs/protocol.md) and the
// glue to render.js. It connects, reconnects by itself with a growing pause, shows an
// "offline" banner meanwhile, asks for a full `sync` after every reconnect, and sends an
// action only if it is one of the view's `legal` actions, exactly as the server sent it.

import { setSpriteUrl } from "./cards.js";
import { loadStrings } from "./i18n.js";
import { createTable } from "./render.js";

const PING_EVERY = 25000;
const BACKOFF_FIRST = 500;
const BACKOFF_MAX = 15000;

let counter = 0;
/** A message id unique for this page (crypto.randomUUID needs a secure context). */
export function messageId() {
  counter += 1;
  const random = Math.floor(Math.random() * 0x7fffffff).toString(36);
  return `${Date.now().toString(36)}-${counter}-${random}`;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The websocket and its reconnection; knows nothing about the page. */
export class TableSocket {
  constructor(url, { onMessage, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.everOpen = false;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
  }

  connect() {
    clearTimeout(this.timer);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const again = this.everOpen;
      this.everOpen = true;
      this.attempt = 0;
      this.onStatus(true, again);
      // After a reconnect the server's full state replaces whatever we missed.
      if (again) this.send({ type: "sync" });
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
    });
    ws.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(data);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.onStatus(false, this.everOpen);
      if (!this.closed) this.retry();
    });
  }

  retry() {
    const pause = Math.min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), pause);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.ws?.close();
  }
}

/** The clock as a local deadline in ms, from the server's table data. */
export function clockFrom(table, receivedAt = Date.now()) {
  const clock = table?.clock;
  if (!clock) return null;
  if (typeof clock.seconds_left === "number") return { seat: clock.seat, deadline: receivedAt + clock.seconds_left * 1000 };
  if (clock.deadline) {
    // Server time may differ from ours: prefer the server's "now" when it sends it.
    const deadline = Date.parse(clock.deadline);
    const skew = clock.now ? receivedAt - Date.parse(clock.now) : 0;
    return { seat: clock.seat, deadline: deadline + skew };
  }
  return null;
}

export function startTable(root) {
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const t = loadStrings();
  setSpriteUrl(config.sprite_url);
  const banner = document.getElementById("offline-banner");
  const notice = document.getElementById("table-notice");

  const state = { view: null, table: config.table || null, sheet: config.sheet || [], version: -1, pending: null, online: false, clock: null, events: [] };
  let socket = null;

  function say(text, kind = "info") {
    if (!notice) return;
    notice.textContent = text;
    notice.dataset.kind = kind;
    notice.hidden = !text;
    clearTimeout(say.timer);
    if (text) say.timer = setTimeout(() => (notice.hidden = true), 6000);
  }

  const board = createTable(root, {
    t,
    send(action) {
      // Only an action the server listed as legal, sent back exactly as it came.
      if (!state.view || state.pending || !state.online) return;
      const legal = (state.view.legal || []).find((a) => same(a, action));
      if (!legal) return;
      const id = messageId();
      if (socket.send({ type: "action", id, version: state.version, action: legal })) {
        state.pending = id;
        draw();
      }
    },
  });

  function draw() {
    board.update({ ...state, pending: Boolean(state.pending) });
    root.dataset.version = String(state.version);
    root.dataset.phase = state.view?.phase ?? "";
    root.dataset.toAct = state.view?.to_act ?? "";
    root.dataset.myTurn = String(Boolean(state.view && state.view.to_act === state.view.seat && state.view.legal?.length));
  }

  function take(message) {
    if (message.table) {
      state.table = { ...state.table, ...message.table };
      state.clock = clockFrom(message.table);
    }
    if (message.sheet) state.sheet = message.sheet;
    if (message.view) state.view = message.view;
    if (typeof message.version === "number") state.version = message.version;
  }

  function onMessage(message) {
    switch (message.type) {
      case "state":
        take(message);
        state.pending = null;
        break;
      case "update":
        // An update older than what we hold is stale; a gap means we missed one.
        if (typeof message.version === "number" && message.version <= state.version && state.view) return;
        if (typeof message.version === "number" && state.version >= 0 && message.version > state.version + 1) {
          socket.send({ type: "sync" });
        }
        take(message);
        state.events = message.events || [];
        if (state.pending && message.ack === state.pending) state.pending = null;
        // Our action applied, or someone else's changed the table: either way the
        // pending action is settled (the server answers each one with ack or error).
        break;
      case "ack":
        if (message.id === state.pending) state.pending = null;
        break;
      case "error":
        if (!message.id || message.id === state.pending) state.pending = null;
        if (message.code === "stale" || message.code === "stale_version") {
          say(t("stale"));
          socket.send({ type: "sync" });
        } else {
          say(t("error", { message: message.message || message.code }), "error");
        }
        break;
      case "seed_request":
      case "dealing":
        sendSeed(message);
        return;
      case "pong":
        return;
      default:
        if (message.view || message.table) take(message);
    }
    draw();
  }

  function sendSeed(message) {
    // Fair dealing: this browser's own random contribution to the next shuffle.
    if (message.dealing === undefined || state.view?.seat === null || state.view?.seat === undefined) return;
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    const seed = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    socket.send({ type: "seed", dealing: message.dealing, seed });
  }

  function onStatus(online, again) {
    state.online = online;
    if (banner) banner.hidden = online;
    document.body.classList.toggle("offline", !online);
    if (online && again) say(t("reconnected"));
    if (!online) state.pending = null;
    if (state.view) draw();
  }

  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new TableSocket(`${scheme}://${location.host}${config.ws_path}`, { onMessage, onStatus });
  socket.connect();
  setInterval(() => board.tick(), 500);
  window.addEventListener("pagehide", () => socket.close());
  // For tests and for people debugging: the current state, read-only.
  window.thousandTable = { state, socket };
  return { state, socket, board };
}

const root = document.getElementById("table-root");
if (root && document.getElementById("table-config")) startTable(root);
