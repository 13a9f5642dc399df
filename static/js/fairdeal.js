// Fair dealing, checked in the browser: the deck of one dealing from its seeds, compared
// with the cards a match record says were dealt. The specification is
// docs/fair-dealing.md; games/engine/fair.py is the server's reference implementation and
// a test runs this file under Node.js on vectors from it, so the two agree.
//
//   import { verifyDeal } from "/static/js/fairdeal.js";
//   const { ok, status, reason } = await verifyDeal({
//     commitment, serverSeed, clientSeeds: { "0": "…" }, players: 3, dealer: 0,
//     hands: [["9S", …], …], talons: [["AH", "TD", "9C"]],
//   });
//
// A plain ES module: no build step, no dependencies. It needs the Web Crypto API
// (crypto.subtle), which browsers offer only on secure pages (HTTPS or localhost).

const SUITS = "SCDH";
const RANKS = "9JQKTA";
const DECK_SIZE = 24;
const SERVER_SEED_BYTES = 32;
const CLIENT_SEED_MAX = 128;
const DOMAIN = new TextEncoder().encode("thousand/deck/1");
const DUPLICATE_DOMAIN = new TextEncoder().encode("thousand/duplicate/1");
const TWO_32 = 2 ** 32;

/** The 24 cards in canonical order (index = suit * 6 + rank): 9S JS QS KS TS AS 9C … AH. */
export const CARD_NAMES = Object.freeze(
  Array.from(SUITS, (s) => Array.from(RANKS, (r) => r + s)).flat(),
);

const CARD_INDEX = new Map(CARD_NAMES.map((name, i) => [name, i]));
CARD_NAMES.forEach((name, i) => {
  if (name[0] === "T") CARD_INDEX.set("10" + name[1], i);
});

function subtle() {
  const api = globalThis.crypto && globalThis.crypto.subtle;
  if (!api) {
    throw new Error("crypto.subtle is not available: serve the page over HTTPS or from localhost");
  }
  return api;
}

async function sha256(bytes) {
  return new Uint8Array(await subtle().digest("SHA-256", bytes));
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Bytes as lower-case hex. */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Hex (either case) of exactly `size` bytes, or null. */
function fromHex(text, size) {
  if (typeof text !== "string" || text.length !== 2 * size || !/^[0-9a-fA-F]*$/.test(text)) {
    return null;
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Why `text` is not a valid client seed, or null when it is (same rule as the server). */
export function clientSeedProblem(text) {
  if (typeof text !== "string") return "a client seed must be a string";
  const points = Array.from(text);
  if (points.length < 1 || points.length > CLIENT_SEED_MAX) {
    return `a client seed must be 1 to ${CLIENT_SEED_MAX} characters long`;
  }
  for (const ch of points) {
    const code = ch.codePointAt(0);
    const name = "U+" + code.toString(16).toUpperCase().padStart(4, "0");
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      return `a client seed must not contain control characters (${name})`;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      return `a client seed must not contain a lone surrogate (${name})`;
    }
  }
  return null;
}

/** SHA-256 of the server seed (hex), as lower-case hex: the commitment. */
export async function commitmentOf(serverSeedHex) {
  const seed = fromHex(serverSeedHex, SERVER_SEED_BYTES);
  if (!seed) throw new Error(`a server seed is ${2 * SERVER_SEED_BYTES} hex digits`);
  return toHex(await sha256(seed));
}

/**
 * The deck seed: SHA-256("thousand/deck/1" ‖ server seed ‖ for each seat that gave a
 * client seed, in increasing seat order: seat as one byte ‖ SHA-256(UTF-8 of its seed)).
 * `clientSeeds` maps seat numbers (or their decimal strings) to seeds.
 */
export async function deckSeed(serverSeed, clientSeeds = {}) {
  const parts = [DOMAIN, serverSeed];
  const seats = Object.keys(clientSeeds || {})
    .map(Number)
    .sort((a, b) => a - b);
  for (const seat of seats) {
    const seed = clientSeeds[seat];
    const problem = clientSeedProblem(seed);
    if (problem) throw new Error(`seat ${seat}'s client seed: ${problem}`);
    parts.push(Uint8Array.of(seat), await sha256(new TextEncoder().encode(seed)));
  }
  return sha256(concat(...parts));
}

function uint32(n) {
  return Uint8Array.of((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
}

/**
 * A duplicate round's dealing `index` (0, 1, …): its server seed, as hex. SHA-256(
 * "thousand/duplicate/1" ‖ round seed ‖ for each entrant that gave a seed, in increasing
 * number: number (4 bytes) ‖ SHA-256(UTF-8 of its seed) ‖ index (4 bytes)), big-endian.
 * `entrantSeeds` maps entrant numbers (or their decimal strings) to seeds.
 */
export async function duplicateServerSeed(roundSeedHex, entrantSeeds, index) {
  const roundSeed = fromHex(roundSeedHex, SERVER_SEED_BYTES);
  if (!roundSeed) throw new Error(`'round_seed' must be ${2 * SERVER_SEED_BYTES} hex digits`);
  const parts = [DUPLICATE_DOMAIN, roundSeed];
  const numbers = Object.keys(entrantSeeds || {}).sort((a, b) => Number(a) - Number(b));
  for (const key of numbers) {
    const problem = clientSeedProblem(entrantSeeds[key]);
    if (problem) throw new Error(`an entrant's seed: ${problem}`);
    parts.push(uint32(Number(key)), await sha256(new TextEncoder().encode(entrantSeeds[key])));
  }
  parts.push(uint32(index));
  return toHex(await sha256(concat(...parts)));
}

/**
 * A duplicate dealing's cards: dealt with seat 0 as the dealer and no client seeds, then
 * turned round the table so that the dealer gets seat 0's cards, the seat on his left
 * seat 1's, and so on (as fair.py's duplicate_deal).
 */
export async function duplicateDeal({ serverSeed, players, dealer }) {
  const dealt = await dealFromSeeds({ serverSeed, clientSeeds: {}, players, dealer: 0 });
  const hands = [];
  for (let seat = 0; seat < players; seat++) hands.push(dealt.hands[(seat - dealer + players) % players]);
  return { hands, talons: dealt.talons };
}

/** Why a duplicate dealing's seed is not its round's `index`-th, or null (as fair.py). */
async function duplicateProblem(duplicate, serverSeed, clientSeeds) {
  if (typeof duplicate !== "object" || duplicate === null || Array.isArray(duplicate)) {
    return "'duplicate' must be an object";
  }
  const { round_commitment: roundCommitment, round_seed: roundSeed, index } = duplicate;
  if (!fromHex(roundCommitment, 32)) return "'round_commitment' must be 64 hex digits";
  if (!fromHex(roundSeed, SERVER_SEED_BYTES)) {
    return `'round_seed' must be ${2 * SERVER_SEED_BYTES} hex digits`;
  }
  if (!Number.isInteger(index) || index < 0) {
    return "'index' must be the dealing's place in the round's sequence (0, 1, …)";
  }
  const actual = await commitmentOf(roundSeed);
  if (actual !== roundCommitment.toLowerCase()) {
    return `SHA-256 of the round seed is ${actual}, not the round's commitment`;
  }
  if (Object.keys(clientSeeds).length) return "a duplicate dealing takes no client seeds";
  const given = duplicate.entrant_seeds || {};
  if (typeof given !== "object" || Array.isArray(given) || !Object.keys(given).every((k) => /^[0-9]+$/.test(k))) {
    return "'entrant_seeds' must map entrant numbers to seeds";
  }
  let want;
  try {
    want = await duplicateServerSeed(roundSeed, given, index);
  } catch (error) {
    return error.message;
  }
  if (want !== serverSeed.toLowerCase()) {
    return `the server seed is not dealing ${index} of the round's sequence`;
  }
  return null;
}

/** The words SHA-256(seed ‖ 0) ‖ SHA-256(seed ‖ 1) ‖ … as 32-bit big-endian numbers. */
export function seedWords(seed) {
  let block = 0;
  let words = [];
  let next = 0;
  return async function word() {
    if (next === words.length) {
      const counter = new Uint8Array(4);
      new DataView(counter.buffer).setUint32(0, block++);
      const digest = await sha256(concat(seed, counter));
      const view = new DataView(digest.buffer);
      words = Array.from({ length: 8 }, (_, k) => view.getUint32(4 * k));
      next = 0;
    }
    return words[next++];
  };
}

/** Uniform in 0 .. bound-1: reject words u ≥ 2³² − 2³² mod bound, then u mod bound. */
export async function uniformBelow(bound, word) {
  const limit = TWO_32 - (TWO_32 % bound);
  for (;;) {
    const u = await word();
    if (u < limit) return u % bound;
  }
}

/** Fisher–Yates from position 23 down to 1 over the canonical deck: card indices, top first. */
export async function shuffledOrder(seed) {
  const word = seedWords(seed);
  const deck = Array.from({ length: DECK_SIZE }, (_, i) => i);
  for (let i = DECK_SIZE - 1; i >= 1; i--) {
    const j = await uniformBelow(i + 1, word);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Cards per hand in seat order, then per talon. */
export function dealLayout(players, dealer) {
  if (players === 2) return [10, 10, 2, 2];
  if (players === 4) return [0, 1, 2, 3].map((s) => (s === dealer ? 0 : 7)).concat([3]);
  return [7, 7, 7, 3];
}

/**
 * The cards the seeds deal: `{hands, talons}`, card names in deck order (hands in seat
 * order; four players: the dealer's hand is empty; two talons with two players).
 */
export async function dealFromSeeds({ serverSeed, clientSeeds = {}, players, dealer }) {
  const seed = fromHex(serverSeed, SERVER_SEED_BYTES);
  if (!seed) throw new Error(`a server seed is ${2 * SERVER_SEED_BYTES} hex digits`);
  for (const key of Object.keys(clientSeeds || {})) {
    if (!/^[0-3]$/.test(key) || Number(key) >= players) {
      throw new Error(`seat ${key} is not at a table of ${players}`);
    }
  }
  const order = await shuffledOrder(await deckSeed(seed, clientSeeds));
  const piles = [];
  let at = 0;
  for (const size of dealLayout(players, dealer)) {
    piles.push(order.slice(at, at + size).map((i) => CARD_NAMES[i]));
    at += size;
  }
  return { hands: piles.slice(0, players), talons: piles.slice(players) };
}

function cardSet(cards) {
  if (!Array.isArray(cards)) return null;
  const set = new Set();
  for (const text of cards) {
    const index = CARD_INDEX.get(text);
    if (index === undefined || set.has(index)) return null;
    set.add(index);
  }
  return set;
}

function names(indices) {
  return indices
    .sort((a, b) => a - b)
    .map((i) => CARD_NAMES[i])
    .join(" ");
}

function difference(place, have, want) {
  const extra = [...have].filter((c) => !want.has(c));
  const missing = [...want].filter((c) => !have.has(c));
  if (!extra.length && !missing.length) return null;
  if (extra.length && missing.length) {
    return `${place} has ${names(extra)} where the seeds deal ${names(missing)}`;
  }
  if (extra.length) return `${place} has ${names(extra)}, which the seeds do not deal there`;
  return `${place} lacks ${names(missing)}, which the seeds deal there`;
}

const failed = (reason) => ({ ok: false, status: "failed", reason });

/**
 * Check one dealing. `serverSeed` null or undefined means not revealed yet:
 * `{ok: null, status: "not_revealed"}`. Otherwise `{ok: true, status: "verified",
 * reason: null}` or `{ok: false, status: "failed", reason}` where the reason says which
 * seat's hand or talon holds which cards. `hands` and `talons` are card names as the
 * match record writes them; `talons` is a list of talons (one, or two with two players).
 */
export async function verifyDeal({
  commitment,
  serverSeed,
  clientSeeds,
  players,
  dealer,
  hands,
  talons,
  duplicate,
}) {
  if (![2, 3, 4].includes(players)) return failed("players must be 2, 3 or 4");
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= players) {
    return failed(`dealer must be a seat 0..${players - 1}`);
  }
  if (!fromHex(commitment, 32)) return failed("'commitment' must be 64 hex digits");
  if (serverSeed === null || serverSeed === undefined) {
    // A duplicate round reveals its seeds when every table has played.
    return { ok: null, status: "not_revealed", reason: "not revealed yet" };
  }
  if (!fromHex(serverSeed, SERVER_SEED_BYTES)) {
    return failed(`'server_seed' must be ${2 * SERVER_SEED_BYTES} hex digits`);
  }
  const seeds = {};
  if (clientSeeds !== null && clientSeeds !== undefined) {
    if (typeof clientSeeds !== "object" || Array.isArray(clientSeeds)) {
      return failed("'client_seeds' must be an object");
    }
    for (const [key, seed] of Object.entries(clientSeeds)) {
      if (!/^[0-3]$/.test(key) || Number(key) >= players) {
        return failed(`client seed key '${key}' is not a seat 0..${players - 1}`);
      }
      const problem = clientSeedProblem(seed);
      if (problem) return failed(`seat ${key}'s client seed: ${problem}`);
      seeds[key] = seed;
    }
  }
  const actual = await commitmentOf(serverSeed);
  if (actual !== commitment.toLowerCase()) {
    return failed(`SHA-256 of the server seed is ${actual}, not the commitment ${commitment}`);
  }
  if (duplicate !== null && duplicate !== undefined) {
    const problem = await duplicateProblem(duplicate, serverSeed, seeds);
    if (problem) return failed(problem);
  }
  const talonList =
    Array.isArray(talons) && talons.length && typeof talons[0] === "string" ? [talons] : talons;
  const want = duplicate
    ? await duplicateDeal({ serverSeed, players, dealer })
    : await dealFromSeeds({ serverSeed, clientSeeds: seeds, players, dealer });
  if (!Array.isArray(hands) || hands.length !== players) {
    return failed(`'hands' must list ${players} hands`);
  }
  if (!Array.isArray(talonList) || talonList.length !== want.talons.length) {
    return failed(`need ${want.talons.length} talon(s)`);
  }
  const places = [
    ...hands.map((hand, seat) => [`seat ${seat}'s hand`, hand, want.hands[seat]]),
    ...talonList.map((talon, k) => [
      players === 2 ? `talon ${k}` : "the talon",
      talon,
      want.talons[k],
    ]),
  ];
  const problems = [];
  for (const [place, given, dealt] of places) {
    const have = cardSet(given);
    if (!have) return failed(`${place} is not a list of distinct cards`);
    const found = difference(place, have, cardSet(dealt));
    if (found) problems.push(found);
  }
  if (problems.length) {
    return failed("the dealt cards differ from the seeds': " + problems.join("; "));
  }
  return { ok: true, status: "verified", reason: null };
}
