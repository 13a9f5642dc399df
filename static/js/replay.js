// The replay page: a finished match step by step with every hand shown, the score sheet
// beside it, and each deal's fair-dealing check run here, in the browser.

import { cardText, loadSprite } from "./cards.js";
import { loadStrings } from "./i18n.js";
import { createTable } from "./render.js";

const config = JSON.parse(document.getElementById("replay-config").textContent);
const t = loadStrings();
loadSprite(config.sprite_url);

const root = document.getElementById("replay-root");
const stepLabel = document.getElementById("replay-step");
const actionLabel = document.getElementById("replay-action");
const range = document.getElementById("replay-range");
const dealSelect = document.getElementById("replay-deal");
const board = createTable(root, { t, replay: true, send() {} });
const table = { seats: config.names.map((name, number) => ({ number, name })), rules: config.rules };
const name = (seat) => config.names[seat] || t("seat_n", { n: seat + 1 });

const cache = new Map();
let deal = 0;
let step = 0;
let frames = [];

async function load(number) {
  if (!cache.has(number)) {
    const response = await fetch(`${config.deal_url}${number}/${config.query || ""}`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`deal ${number}: ${response.status}`);
    cache.set(number, await response.json());
  }
  return cache.get(number);
}

function describe(action, seat) {
  if (!action) return t("replay_deal_start");
  const who = name(seat ?? action.seat);
  const params = { name: who, value: action.value, card: action.card ? cardText(action.card) : "", to: action.to !== undefined ? name(action.to) : "", n: (action.index ?? 0) + 1 };
  return t(`action_${action.type}`, params);
}

function draw() {
  const data = cache.get(deal);
  if (!data) return;
  frames = data.frames;
  const frame = frames[step];
  const last = step === frames.length - 1;
  const sheet = config.sheet.slice(0, deal + (last ? 1 : 0));
  board.update({ view: { ...frame, seat: null, legal: [] }, table, sheet, hands: frame.hands, talons: data.talons, online: true });
  range.max = String(frames.length - 1);
  range.value = String(step);
  stepLabel.textContent = t("replay_step", { deal: deal + 1, step, steps: frames.length - 1 });
  actionLabel.textContent = describe(frame.action);
  root.dataset.deal = String(deal);
  root.dataset.step = String(step);
  // The analysis panel (static/js/analysis.js) marks the decision shown here.
  document.dispatchEvent(new CustomEvent("replay:step", { detail: { deal, step } }));
}

async function go(nextDeal, nextStep) {
  nextDeal = Math.max(0, Math.min(config.deals - 1, nextDeal));
  await load(nextDeal);
  deal = nextDeal;
  const count = cache.get(deal).frames.length;
  step = nextStep === "end" ? count - 1 : Math.max(0, Math.min(count - 1, nextStep));
  dealSelect.value = String(deal);
  draw();
  // Fetch the next deal ahead so that stepping on does not wait.
  if (deal + 1 < config.deals) load(deal + 1).catch(() => {});
}

function forward() {
  if (step < frames.length - 1) go(deal, step + 1);
  else if (deal + 1 < config.deals) go(deal + 1, 0);
}

function back() {
  if (step > 0) go(deal, step - 1);
  else if (deal > 0) go(deal - 1, "end");
}

for (let i = 0; i < config.deals; i++) {
  const option = document.createElement("option");
  option.value = String(i);
  option.textContent = t("deal_n", { n: i + 1 });
  dealSelect.append(option);
}
dealSelect.addEventListener("change", () => go(Number(dealSelect.value), 0));
range.addEventListener("input", () => go(deal, Number(range.value)));
document.querySelector(".replay-controls").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-step]");
  if (!button) return;
  ({ back, forward, "deal-prev": () => go(deal - 1, 0), "deal-next": () => go(deal + 1, 0) })[button.dataset.step]();
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowRight") { forward(); event.preventDefault(); }
  if (event.key === "ArrowLeft") { back(); event.preventDefault(); }
});

document.addEventListener("replay:go", (event) => go(event.detail.deal, event.detail.step));

if (config.deals) go(0, 0);

// ---------------------------------------------------------------- fair dealing

async function checkFairness() {
  const summary = document.getElementById("fair-summary");
  const list = document.getElementById("fair-list");
  // HOOK: static/js/fairdeal.js (written separately) exports verifyDeal(); until it is
  // shipped the server says so (config.fairdeal_available) and the page says so too.
  if (!config.fairdeal_available) {
    summary.textContent = t("fair_unavailable");
    summary.dataset.result = "unavailable";
    return;
  }
  const { verifyDeal } = await import(config.fairdeal_url);
  let ok = 0;
  let failed = 0;
  for (const d of config.dealings) {
    const item = document.createElement("li");
    item.dataset.deal = String(d.deal);
    const label = `${t("deal_n", { n: d.deal + 1 })}: `;
    if (!d.dealing) {
      item.textContent = label + t("fair_no_data");
      list.append(item);
      continue;
    }
    let result;
    try {
      result = await verifyDeal({
        commitment: d.dealing.commitment,
        serverSeed: d.dealing.server_seed,
        clientSeeds: d.dealing.client_seeds,
        players: config.players,
        dealer: d.dealer,
        hands: d.hands,
        talons: d.talons,
        duplicate: d.dealing.duplicate, // a duplicate round's dealing (docs/fair-dealing.md)
      });
    } catch (error) {
      result = { ok: false, reason: String(error) };
    }
    if (result.ok) ok += 1;
    else failed += 1;
    item.className = `fair-result ${result.ok ? "ok" : "failed"}`;
    item.dataset.ok = String(Boolean(result.ok));
    item.textContent = result.ok ? `${t("deal_n", { n: d.deal + 1 })} ✓` : label + t("fair_failed", { reason: result.reason });
    if (result.ok) item.title = t("fair_ok");
    list.append(item);
  }
  summary.className = `fair-result ${failed ? "failed" : "ok"}`;
  summary.dataset.result = failed ? "failed" : ok ? "ok" : "none";
  summary.textContent = failed
    ? t("fair_some_failed", { failed, n: ok + failed })
    : ok ? t("fair_all_ok", { n: ok }) : t("fair_no_data");
}

checkFairness();
