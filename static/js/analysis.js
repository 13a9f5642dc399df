// The analysis panel of the replay page: ask for a finished match's computer
// analysis, follow its progress over the table's socket, then mark every analysed
// decision as the replay steps through it, with the best alternative in words, the loss
// chart, each deal's hindsight line and keyboard navigation to the next mistake.

import { cardText } from "./cards.js";
import { Socket, socketUrl } from "./socket.js";

const config = JSON.parse(document.getElementById("analysis-config").textContent);
const strings = JSON.parse(document.getElementById("analysis-strings").textContent);
const replay = JSON.parse(document.getElementById("replay-config").textContent);
const t = (key, params = {}) =>
  (strings[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
const $ = (id) => document.getElementById(id);

const panel = $("analysis");
const status = $("analysis-status");
const progress = $("analysis-progress");
const ask = $("analysis-ask");
const cancel = $("analysis-cancel");
const query = config.invite ? `?invite=${encodeURIComponent(config.invite)}` : "";
const MISTAKES = new Set(["mistake", "blunder"]);

let decisions = [];
let hindsight = new Map();
let here = { deal: 0, step: 0 };
let socket = null;
let poll = null;

const seatName = (seat) => replay.names[seat] || `#${seat + 1}`;

function csrf() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function words(action) {
  const params = {
    value: action.value,
    card: action.card ? cardText(action.card) : "",
    to: action.to !== undefined ? seatName(action.to) : "",
    n: (action.index ?? 0) + 1,
  };
  return t(`do_${action.type}`, params);
}

async function api(method) {
  const response = await fetch(config.api_url + query, {
    method,
    credentials: "same-origin",
    headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
  });
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, data };
}

function show(state) {
  panel.dataset.status = state.status;
  const running = state.status === "queued" || state.status === "running";
  progress.hidden = !running;
  progress.max = Math.max(1, state.total || 1);
  progress.value = state.done || 0;
  status.textContent = t(state.status, { done: state.done ?? 0, total: state.total ?? 0 });
  // The worker seems gone (the API says so after a quiet spell; docs/analysis.md).
  const stalled = state.status === "running" && Boolean(state.stalled);
  if (stalled) status.textContent += `. ${t("stalled")}`;
  panel.dataset.stalled = String(stalled);
  ask.hidden = !(config.player && ["none", "failed", "cancelled"].includes(state.status));
  cancel.hidden = !(config.player && running);
  if (!config.signed_in && state.status === "none") status.textContent = `${t("none")} ${t("sign_in")}`;
  // Every viewer listens while the analysis is not done, so that one asked for by
  // another player (or the organiser) shows its progress here too; only a visible page
  // holds a socket (sockets are counted per person).
  if (state.status !== "done" && document.visibilityState === "visible") follow(running);
  else stopFollowing();
  if (state.status === "done" && state.result) render(state.result);
}

async function refresh() {
  const answer = await api("GET");
  if (answer.ok) show(answer.data);
  else status.textContent = answer.data?.error?.message || t("error");
}

function follow(running) {
  if (!socket) {
    const opened = new Socket(socketUrl(`${config.ws_path}${query}`), {
      onMessage(message) {
        if (message.type !== "analysis") return;
        if (message.status === "done") refresh();
        else show(message);
      },
      // Closed for good (forbidden, gone): the slow poll goes on.
      onStop: () => { if (socket === opened) socket = null; },
    });
    socket = opened.start();
  }
  // The socket is the fast path; while it runs, a slow poll covers a lost message.
  if (running && !poll) poll = setInterval(refresh, 15000);
  if (!running && poll) { clearInterval(poll); poll = null; }
}

function stopFollowing() {
  if (socket) { socket.stop(); socket = null; }
  if (poll) { clearInterval(poll); poll = null; }
}

// ---------------------------------------------------------------- the result

function render(result) {
  decisions = result.decisions;
  hindsight = new Map(result.hindsight.map((h) => [h.deal, h]));
  $("analysis-result").hidden = false;
  chart();
  summary(result.summary);
  mark();
}

function at(deal, step) {
  // Step s of a deal shows the position after its action s - 1.
  return decisions.find((d) => d.deal === deal && d.action === step - 1);
}

function mark() {
  const node = $("analysis-mark");
  const d = at(here.deal, here.step);
  if (!d) {
    node.textContent = t("no_mark");
    node.dataset.label = "";
  } else {
    const params = { name: seatName(d.seat), label: t(`label_${d.label}`) };
    node.textContent = d.loss > 0 && d.label !== "good"
      ? t("mark_loss", { ...params, best: words(d.best), gain: d.loss.toFixed(1) })
      : t("mark_good", params);
    node.dataset.label = d.label;
  }
  const h = hindsight.get(here.deal);
  $("analysis-hindsight").textContent = h
    ? t("hindsight", { name: seatName(h.declarer), could: h.could, took: h.took, contract: h.contract })
    : "";
  for (const bar of document.querySelectorAll("#analysis-chart rect")) {
    bar.classList.toggle("here", d !== undefined && bar.dataset.index === String(decisions.indexOf(d)));
  }
}

function chart() {
  const svg = $("analysis-chart");
  svg.replaceChildren();
  const width = Math.max(decisions.length, 1);
  const top = Math.max(10, ...decisions.map((d) => Math.min(d.loss, 150)));
  svg.setAttribute("viewBox", `0 0 ${width} 40`);
  decisions.forEach((d, i) => {
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    const h = Math.max(0.6, (Math.min(d.loss, 150) / top) * 38);
    rect.setAttribute("x", String(i + 0.1));
    rect.setAttribute("width", "0.8");
    rect.setAttribute("y", String(40 - h));
    rect.setAttribute("height", String(h));
    rect.setAttribute("class", d.label);
    rect.dataset.index = String(i);
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = `${seatName(d.seat)}: ${words(d.taken)} (−${d.loss.toFixed(1)})`;
    rect.append(title);
    rect.addEventListener("click", () => goTo(d));
    svg.append(rect);
  });
}

function summary(rows) {
  const root = $("analysis-summary");
  root.replaceChildren();
  const title = document.createElement("h3");
  title.textContent = t("summary_title");
  root.append(title);
  const fmt = (v) => (v === null || v === undefined ? t("dash") : v.toFixed(1));
  for (const row of rows) {
    const p = document.createElement("p");
    p.className = "analysis-seat";
    p.dataset.seat = String(row.seat);
    p.textContent = t("summary_row", {
      name: seatName(row.seat), mean: fmt(row.mean_loss), n: row.decisions,
      bidding: fmt(row.by_stage.bidding), contract: fmt(row.by_stage.contract), play: fmt(row.by_stage.play),
    });
    root.append(p);
    if (!row.worst.length) continue;
    const list = document.createElement("ol");
    list.className = "analysis-worst";
    list.setAttribute("aria-label", t("worst"));
    for (const w of row.worst) {
      const d = decisions.find((x) => x.deal === w.deal && x.action === w.action);
      if (!d) continue;
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#analysis";
      link.textContent = t("worst_item", { deal: d.deal + 1, what: words(d.taken), loss: d.loss.toFixed(1) });
      link.addEventListener("click", (event) => { event.preventDefault(); goTo(d); });
      item.append(link);
      list.append(item);
    }
    root.append(list);
  }
}

function goTo(d) {
  document.dispatchEvent(new CustomEvent("replay:go", { detail: { deal: d.deal, step: d.action + 1 } }));
}

function nextMistake(direction) {
  const order = (d) => d.deal * 10000 + d.action + 1;
  const now = here.deal * 10000 + here.step;
  const mistakes = decisions.filter((d) => MISTAKES.has(d.label));
  const target = direction > 0
    ? mistakes.find((d) => order(d) > now)
    : [...mistakes].reverse().find((d) => order(d) < now);
  if (target) goTo(target);
  else $("analysis-mark").textContent = t("no_more");
}

document.addEventListener("replay:step", (event) => {
  here = event.detail;
  if (decisions.length) mark();
});
$("analysis-next").addEventListener("click", () => nextMistake(1));
$("analysis-prev").addEventListener("click", () => nextMistake(-1));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!decisions.length) return;
  if (event.key === "n") { nextMistake(1); event.preventDefault(); }
  if (event.key === "p") { nextMistake(-1); event.preventDefault(); }
});
ask.addEventListener("click", async () => {
  ask.disabled = true;
  const answer = await api("POST");
  ask.disabled = false;
  if (answer.ok) show(answer.data);
  else status.textContent = answer.data?.error?.message || t("error");
});
cancel.addEventListener("click", async () => {
  const answer = await api("DELETE");
  if (answer.ok) show(answer.data);
  else status.textContent = answer.data?.error?.message || t("error");
});

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refresh();
  else stopFollowing();
});

refresh();
