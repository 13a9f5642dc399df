// static/js/socket.js under node's test runner (`node --test tests/js/`), with a fake
// WebSocket, fake timers and a fake document injected through its `env` option.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

// The static files have no package.json saying they are ES modules: load the source as one.
const source = readFileSync(new URL("../../static/js/socket.js", import.meta.url), "utf8");
const { Socket, CLOSE, BACKOFF, BACKOFF_CROWDED, backoff, closeAction, socketUrl } = await import(
  `data:text/javascript;base64,${Buffer.from(source).toString("base64")}`
);

class FakeClock {
  constructor() {
    this.time = 0;
    this.tasks = new Map();
    this.nextId = 1;
  }
  setTimeout(fn, ms) {
    const id = this.nextId++;
    this.tasks.set(id, { fn, at: this.time + ms, every: null });
    return id;
  }
  setInterval(fn, ms) {
    const id = this.nextId++;
    this.tasks.set(id, { fn, at: this.time + ms, every: ms });
    return id;
  }
  clear(id) {
    this.tasks.delete(id);
  }
  /** The delays of the timeouts waiting now, from the current time. */
  pending() {
    return [...this.tasks.values()].filter((t) => t.every === null).map((t) => t.at - this.time);
  }
  advance(ms) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, task] = due;
      this.time = task.at;
      if (task.every === null) this.tasks.delete(id);
      else task.at += task.every;
      task.fn();
    }
    this.time = end;
  }
}

class FakeDocument {
  constructor(hidden = false) {
    this.hidden = hidden;
    this.listeners = [];
  }
  addEventListener(type, fn) {
    if (type === "visibilitychange") this.listeners.push(fn);
  }
  removeEventListener(type, fn) {
    this.listeners = this.listeners.filter((f) => f !== fn);
  }
  show(visible) {
    this.hidden = !visible;
    for (const fn of this.listeners) fn();
  }
}

function fakeWebSocketClass() {
  const made = [];
  class FakeWebSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      this.listeners = {};
      this.closedWith = null;
      made.push(this);
    }
    addEventListener(type, fn) {
      (this.listeners[type] ||= []).push(fn);
    }
    emit(type, event = {}) {
      for (const fn of this.listeners[type] || []) fn(event);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close(code) {
      this.closedWith = code ?? 1000;
      this.readyState = 3;
    }
    // What the server does:
    open() {
      this.readyState = 1;
      this.emit("open");
    }
    receive(message) {
      this.emit("message", { data: JSON.stringify(message) });
    }
    drop(code = 1006) {
      this.readyState = 3;
      this.emit("close", { code });
    }
  }
  return { FakeWebSocket, made };
}

function setUp({ hidden = false, random = () => 0.5, ...options } = {}) {
  const clock = new FakeClock();
  const document = new FakeDocument(hidden);
  const { FakeWebSocket, made } = fakeWebSocketClass();
  const seen = { messages: [], statuses: [], stops: [], gaps: [], lags: [] };
  const socket = new Socket("ws://host/ws/x/", {
    onMessage: (m) => seen.messages.push(m),
    onStatus: (online, again) => seen.statuses.push([online, again]),
    onStop: (code) => seen.stops.push(code),
    onGap: (m) => seen.gaps.push(m),
    onLag: (ms) => seen.lags.push(ms),
    ...options,
    env: {
      WebSocket: FakeWebSocket,
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (id) => clock.clear(id),
      setInterval: (fn, ms) => clock.setInterval(fn, ms),
      clearInterval: (id) => clock.clear(id),
      now: () => clock.time,
      random,
      document,
    },
  });
  return { socket, clock, document, made, seen, last: () => made[made.length - 1] };
}

test("the pause doubles with each failed attempt up to its maximum", () => {
  const middle = () => 0.5; // no jitter
  const pauses = [0, 1, 2, 3, 10, 20].map((n) => backoff(n, BACKOFF, middle));
  assert.deepEqual(pauses, [500, 1000, 2000, 4000, 15000, 15000]);
});

test("the jitter moves a pause by at most a quarter either way", () => {
  for (const attempt of [0, 3, 30]) {
    const base = Math.min(BACKOFF.max, BACKOFF.first * 2 ** attempt);
    assert.equal(backoff(attempt, BACKOFF, () => 0), base * 0.75);
    assert.equal(backoff(attempt, BACKOFF, () => 0.999999), base * (0.75 + 0.999999 / 2));
    for (let i = 0; i < 200; i += 1) {
      const pause = backoff(attempt, BACKOFF);
      assert.ok(pause >= base * 0.75 && pause < base * 1.25, `${pause} out of bounds for ${base}`);
    }
  }
});

test("a dropped connection is retried after a pause that grows", () => {
  const { socket, clock, made, last } = setUp();
  socket.start();
  assert.equal(made.length, 1);
  last().drop();
  assert.deepEqual(clock.pending(), [500]);
  clock.advance(500);
  assert.equal(made.length, 2);
  last().drop();
  assert.deepEqual(clock.pending(), [1000]);
  clock.advance(1000);
  last().drop();
  assert.deepEqual(clock.pending(), [2000]);
});

test("an opened connection starts the pauses again from the first", () => {
  const { socket, clock, last } = setUp();
  socket.start();
  last().drop();
  clock.advance(500);
  last().drop();
  clock.advance(1000);
  last().open();
  last().drop();
  assert.deepEqual(clock.pending(), [500]);
});

test("the page hears when the connection opens, closes and opens again", () => {
  const { socket, clock, last, seen } = setUp();
  socket.start();
  last().open();
  last().drop();
  clock.advance(500);
  last().open();
  assert.deepEqual(seen.statuses, [[true, false], [false, true], [true, true]]);
});

test("a versioned message that skips a version asks the page to resync", () => {
  let held = 4;
  const { socket, last, seen } = setUp({
    versionOf: (m) => (m.type === "update" ? m.version : null),
    version: () => held,
  });
  socket.start();
  last().open();
  last().receive({ type: "update", version: 5 });
  held = 5;
  assert.equal(seen.gaps.length, 0);
  last().receive({ type: "update", version: 7 });
  assert.deepEqual(seen.gaps, [{ type: "update", version: 7 }]);
  assert.equal(seen.messages.length, 2); // the message still reaches the page
});

test("no resync is asked before the page holds a version, nor for unversioned messages", () => {
  let held = -1;
  const { socket, last, seen } = setUp({
    versionOf: (m) => (m.type === "update" ? m.version : null),
    version: () => held,
  });
  socket.start();
  last().open();
  last().receive({ type: "update", version: 9 });
  held = 9;
  last().receive({ type: "ack", version: 20 });
  assert.equal(seen.gaps.length, 0);
});

test("a close for signed out stops reconnecting and tells the page", () => {
  const { socket, clock, made, last, seen } = setUp();
  socket.start();
  last().open();
  last().drop(CLOSE.SIGNED_OUT);
  assert.deepEqual(seen.stops, [4401]);
  assert.deepEqual(clock.pending(), []);
  clock.advance(10 * 60 * 1000);
  assert.equal(made.length, 1);
});

test("a page made visible again after a signed-out close does not reconnect", () => {
  const { socket, document, made, last } = setUp();
  socket.start();
  last().drop(CLOSE.SIGNED_OUT);
  document.show(false);
  document.show(true);
  assert.equal(made.length, 1);
});

test("no such table and forbidden stop reconnecting too", () => {
  for (const code of [CLOSE.NOT_FOUND, CLOSE.FORBIDDEN]) {
    const { socket, clock, made, last, seen } = setUp();
    socket.start();
    last().drop(code);
    clock.advance(60000);
    assert.equal(made.length, 1);
    assert.deepEqual(seen.stops, [code]);
  }
});

test("too many connections backs off far longer than a drop", () => {
  const { socket, clock, made, last } = setUp({ random: () => 0 });
  socket.start();
  last().drop(CLOSE.TOO_MANY);
  const [pause] = clock.pending();
  assert.ok(pause >= BACKOFF_CROWDED.first * 0.75, `${pause}`);
  assert.ok(pause > BACKOFF.max * 1.25, `${pause} is no longer than a drop's longest pause`);
  clock.advance(pause - 1);
  assert.equal(made.length, 1);
  clock.advance(1);
  assert.equal(made.length, 2);
});

test("the close codes fall in three kinds", () => {
  assert.equal(closeAction(4401), "stop");
  assert.equal(closeAction(4403), "stop");
  assert.equal(closeAction(4404), "stop");
  assert.equal(closeAction(4429), "slow");
  assert.equal(closeAction(1008), "slow");
  assert.equal(closeAction(1006), "retry");
  assert.equal(closeAction(1001), "retry");
});

test("a hidden page does not connect until it is visible", () => {
  const { socket, document, made } = setUp({ hidden: true });
  socket.start();
  assert.equal(made.length, 0);
  document.show(true);
  assert.equal(made.length, 1);
});

test("a page hidden past the grace closes its socket and opens one when visible again", () => {
  const { socket, clock, document, made, last, seen } = setUp({ hiddenGrace: 1000 });
  socket.start();
  last().open();
  document.show(false);
  clock.advance(999);
  assert.equal(last().closedWith, null);
  clock.advance(1);
  assert.notEqual(last().closedWith, null);
  assert.deepEqual(seen.statuses.at(-1), [false, true]);
  clock.advance(60000);
  assert.equal(made.length, 1); // no reconnect while hidden
  document.show(true);
  assert.equal(made.length, 2);
});

test("a page that comes back within the grace keeps its socket", () => {
  const { socket, clock, document, made, last } = setUp({ hiddenGrace: 1000 });
  socket.start();
  last().open();
  document.show(false);
  clock.advance(500);
  document.show(true);
  clock.advance(5000);
  assert.equal(last().closedWith, null);
  assert.equal(made.length, 1);
});

test("a connection dropped while hidden waits for the page to be visible", () => {
  const { socket, clock, document, made, last } = setUp();
  socket.start();
  last().open();
  document.hidden = true;
  last().drop();
  clock.advance(60000);
  assert.equal(made.length, 1);
  document.show(true);
  assert.equal(made.length, 2);
});

test("pings measure the lag from the matching pong", () => {
  const { socket, clock, last, seen } = setUp({ ping: 1000 });
  socket.start();
  last().open();
  clock.advance(1000);
  const [ping] = last().sent;
  assert.equal(ping.type, "ping");
  clock.advance(40);
  last().receive({ type: "pong", id: ping.id });
  assert.deepEqual(seen.lags, [40]);
  assert.equal(socket.lag, 40);
});

test("a ping unanswered when the next is due closes the socket and reconnects", () => {
  const { socket, clock, made, last, seen } = setUp({ ping: 1000 });
  socket.start();
  last().open();
  clock.advance(2000);
  assert.equal(made[0].closedWith, CLOSE.DEAD);
  assert.deepEqual(seen.statuses.at(-1), [false, true]);
  clock.advance(500);
  assert.equal(made.length, 2);
});

test("no pings are sent without the ping option", () => {
  const { socket, clock, last } = setUp();
  socket.start();
  last().open();
  clock.advance(120000);
  assert.deepEqual(last().sent, []);
});

test("a stopped socket closes and never reconnects", () => {
  const { socket, clock, made, last, seen } = setUp();
  socket.start();
  last().open();
  socket.stop();
  last().drop(1000);
  clock.advance(60000);
  assert.equal(made.length, 1);
  assert.deepEqual(seen.stops, []);
  assert.equal(socket.send({ type: "x" }), false);
});

test("frames that are not JSON objects are dropped", () => {
  const { socket, last, seen } = setUp();
  socket.start();
  last().open();
  last().emit("message", { data: "not json" });
  last().emit("message", { data: "3" });
  last().receive({ type: "ok" });
  assert.deepEqual(seen.messages, [{ type: "ok" }]);
});

test("the socket address follows the page's scheme", () => {
  assert.equal(socketUrl("/ws/lobby/", { protocol: "https:", host: "a.b" }), "wss://a.b/ws/lobby/");
  assert.equal(socketUrl("/ws/lobby/", { protocol: "http:", host: "a.b:8000" }), "ws://a.b:8000/ws/lobby/");
});
