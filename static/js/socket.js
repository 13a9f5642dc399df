// The one websocket client of every page (docs/protocol.md, "The client: static/js/socket.js").
// It connects while the page is visible, reconnects by itself after a pause that grows
// with each failure (with jitter, so that a restarted server is not met by every page at
// once), asks the page to resync when a versioned message skips a version, pings and
// measures the lag where the server answers pings, and reads the close codes the servers
// send in one place. The browser's WebSocket, timers, clock, randomness and document can
// be replaced (`env`), which is how tests/js/ drives it.

/** The close codes the servers send (config/ws_guard.py, games/consumers.py). */
export const CLOSE = Object.freeze({
  ABUSE: 1008, // too many refused messages in a row: back off as for TOO_MANY
  SIGNED_OUT: 4401, // not signed in, or the credentials were revoked: stop
  FORBIDDEN: 4403, // a private table without its invite code: stop
  NOT_FOUND: 4404, // no such table: stop
  TOO_MANY: 4429, // too many sockets of this kind open: come back much later
  DEAD: 4000, // closed by this client: a ping went unanswered
});

export const BACKOFF = Object.freeze({ first: 500, max: 15000 });
/** After 4429 or 1008: the pause starts here and grows to `max`. */
export const BACKOFF_CROWDED = Object.freeze({ first: 30000, max: 120000 });
/** How long a hidden page keeps its socket before closing it. */
export const HIDDEN_GRACE = 30000;

/** What to do after a close with this code: "stop", "slow" (back off longer) or "retry". */
export function closeAction(code) {
  if (code === CLOSE.SIGNED_OUT || code === CLOSE.FORBIDDEN || code === CLOSE.NOT_FOUND) return "stop";
  if (code === CLOSE.TOO_MANY || code === CLOSE.ABUSE) return "slow";
  return "retry";
}

/** The pause before reconnect number `attempt` (0 for the first): `first` doubled per
 * attempt up to `max`, then moved at random by up to a quarter either way. */
export function backoff(attempt, { first, max } = BACKOFF, random = Math.random) {
  return Math.min(max, first * 2 ** attempt) * (0.75 + random() / 2);
}

/** A socket URL for a path on this page's host (ws: or wss: as the page is served). */
export function socketUrl(path, where = globalThis.location) {
  const scheme = where.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${where.host}${path}`;
}

function browser() {
  return {
    WebSocket: globalThis.WebSocket,
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (id) => globalThis.clearTimeout(id),
    setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
    clearInterval: (id) => globalThis.clearInterval(id),
    now: () => Date.now(),
    random: Math.random,
    document: globalThis.document,
  };
}

const OPEN = 1;

/**
 * new Socket(url, options), then start(). Options (all optional):
 * - onMessage(message): each message, parsed (frames that are not JSON are dropped);
 * - onStatus(online, again): the connection opened (again: not the first time) or closed;
 * - onStop(code): the server closed for good (signed out, forbidden, not found); no retry;
 * - versionOf(message) → number | null: the version a message of the versioned stream
 *   carries; version() → the version the page holds (negative: none yet); onGap(message):
 *   a message skipped versions (the page asks for the whole state);
 * - ping: ms between pings (0: none; only for servers that answer `ping` with `pong`);
 *   a ping unanswered when the next is due closes the socket (it reconnects); onLag(ms);
 * - hiddenGrace: ms a hidden page keeps its socket (then it closes, and opens again when
 *   the page is visible);
 * - backoff: { first, max } of the pause between attempts;
 * - env: replacements for the browser's WebSocket, timers, now(), random() and document.
 */
export class Socket {
  constructor(url, options = {}) {
    this.url = url;
    this.onMessage = options.onMessage || (() => {});
    this.onStatus = options.onStatus || (() => {});
    this.onStop = options.onStop || (() => {});
    this.versionOf = options.versionOf || (() => null);
    this.version = options.version || (() => -1);
    this.onGap = options.onGap || (() => {});
    this.onLag = options.onLag || (() => {});
    this.ping = options.ping || 0;
    this.hiddenGrace = options.hiddenGrace ?? HIDDEN_GRACE;
    this.pauses = options.backoff || BACKOFF;
    this.env = { ...browser(), ...(options.env || {}) };
    this.attempt = 0;
    this.everOpen = false;
    this.stopped = false;
    this.started = false;
    this.ws = null;
    this.timer = null; // the pending reconnect
    this.hideTimer = null;
    this.pinger = null;
    this.pingSent = null; // { id, at } of the ping awaiting its pong
    this.pings = 0;
    this.lag = null;
    this.onVisibility = () => this.visibilityChanged();
  }

  get hidden() {
    return Boolean(this.env.document?.hidden);
  }

  get online() {
    return Boolean(this.ws && this.ws.readyState === OPEN);
  }

  /** Connect now if the page is visible, else as soon as it is. */
  start() {
    if (this.started || this.stopped) return this;
    this.started = true;
    this.env.document?.addEventListener?.("visibilitychange", this.onVisibility);
    if (!this.hidden) this.connect();
    return this;
  }

  /** Close for good (the page is leaving, or needs the socket no more). */
  stop() {
    this.stopped = true;
    this.env.document?.removeEventListener?.("visibilitychange", this.onVisibility);
    this.env.clearTimeout(this.timer);
    this.env.clearTimeout(this.hideTimer);
    this.quiet();
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  send(message) {
    if (this.ws && this.ws.readyState === OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  connect() {
    if (this.stopped) return;
    this.env.clearTimeout(this.timer);
    this.timer = null;
    const { WebSocket } = this.env;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => this.opened(ws));
    ws.addEventListener("message", (event) => this.received(ws, event));
    ws.addEventListener("close", (event) => this.closed(ws, event));
  }

  opened(ws) {
    if (this.ws !== ws) return;
    const again = this.everOpen;
    this.everOpen = true;
    this.attempt = 0;
    this.onStatus(true, again);
    this.quiet();
    if (this.ping) this.pinger = this.env.setInterval(() => this.sendPing(ws), this.ping);
  }

  received(ws, event) {
    if (this.ws !== ws) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message === null || typeof message !== "object") return;
    if (message.type === "pong" && this.pingSent && message.id === this.pingSent.id) {
      this.lag = this.env.now() - this.pingSent.at;
      this.pingSent = null;
      this.onLag(this.lag);
    }
    const version = this.versionOf(message);
    if (typeof version === "number") {
      const held = this.version();
      if (held >= 0 && version > held + 1) this.onGap(message);
    }
    this.onMessage(message);
  }

  closed(ws, event) {
    if (this.ws !== ws) return; // one this client replaced or stopped
    this.quiet();
    this.ws = null;
    this.onStatus(false, this.everOpen);
    if (this.stopped) return;
    const action = closeAction(event.code);
    if (action === "stop") {
      this.stop();
      this.onStop(event.code);
      return;
    }
    if (this.hidden) return; // back when the page is visible again
    this.retry(action === "slow" ? BACKOFF_CROWDED : this.pauses);
  }

  retry(pauses) {
    const pause = backoff(this.attempt, pauses, this.env.random);
    this.attempt += 1;
    this.timer = this.env.setTimeout(() => this.connect(), pause);
    return pause;
  }

  sendPing(ws) {
    if (this.pingSent) {
      // The last ping is still unanswered: the connection is dead without knowing it.
      ws.close(CLOSE.DEAD);
      this.closed(ws, { code: CLOSE.DEAD }); // its own close event may come much later
      return;
    }
    this.pings += 1;
    const id = `ping-${this.pings}`;
    if (this.send({ type: "ping", id })) this.pingSent = { id, at: this.env.now() };
  }

  /** No pings while there is no open connection. */
  quiet() {
    this.env.clearInterval(this.pinger);
    this.pinger = null;
    this.pingSent = null;
  }

  visibilityChanged() {
    if (this.stopped) return;
    if (this.hidden) {
      this.env.clearTimeout(this.hideTimer);
      this.hideTimer = this.env.setTimeout(() => this.sleep(), this.hiddenGrace);
      return;
    }
    this.env.clearTimeout(this.hideTimer);
    this.hideTimer = null;
    if (!this.ws) {
      // Visible again: connect now rather than after the pause a failure set.
      this.attempt = 0;
      this.connect();
    }
  }

  /** Hidden long enough: close, without giving up. */
  sleep() {
    this.hideTimer = null;
    if (!this.hidden || this.stopped) return;
    this.env.clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    if (!ws) return;
    this.quiet();
    this.ws = null;
    this.onStatus(false, this.everOpen);
    ws.close();
  }
}
