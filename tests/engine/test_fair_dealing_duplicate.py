"""docs/fair-dealing.md, "Duplicate rounds": one committed round seed (and the entrants'
seeds) gives the round's one sequence of dealings; every table deals its k-th dealing from
the k-th seed, so tables receive the same cards board by board; the check of a deal proves
its seed is the round's k-th. ``static/js/fairdeal.js`` must give the same verdicts."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from games.engine.cards import mask_cards
from games.engine.fair import (
    InvalidSeed,
    Verdict,
    check_deal,
    commitment,
    dealing_entry,
    duplicate_deal,
    duplicate_server_seed,
)
from tests.engine.test_fairdeal_js import MODULE, node, run_node  # noqa: F401 (node: fixture)

ROUND_SEED = bytes(range(32))
ENTRANTS = {7: "bob", 3: "alice"}


def dealt(index: int, *, dealer: int = 0, players: int = 3) -> dict[str, Any]:
    """A record deal dealt from the round's ``index``-th dealing, with its ``dealing``."""
    seed = duplicate_server_seed(ROUND_SEED, ENTRANTS, index)
    hands, talons = duplicate_deal(seed, players, dealer)
    dealing = dealing_entry(seed, {})
    dealing["duplicate"] = {
        "round_commitment": commitment(ROUND_SEED),
        "round_seed": ROUND_SEED.hex(),
        "entrant_seeds": {str(k): v for k, v in ENTRANTS.items()},
        "index": index,
    }
    return {
        "hands": [[str(c) for c in mask_cards(h)] for h in hands],
        "talons": [[str(c) for c in mask_cards(t)] for t in talons],
        "masks": (hands, talons),
        "players": players,
        "dealer": dealer,
        "dealing": dealing,
    }


def check(deal: dict[str, Any], *, complete: bool = True) -> Any:
    hands, talons = deal["masks"]
    return check_deal(
        deal["dealing"],
        players=deal["players"],
        dealer=deal["dealer"],
        hands=hands,
        talons=talons,
        complete=complete,
    )


# --------------------------------------------------------------------------- the sequence


def test_the_same_round_seed_and_index_deal_the_same_cards_at_every_table():
    assert dealt(2)["hands"] == dealt(2)["hands"]
    assert dealt(2)["hands"] != dealt(3)["hands"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_position_from_the_dealer_gets_the_same_cards_whoever_deals(players):
    at_0 = dealt(1, players=players, dealer=0)["hands"]
    at_1 = dealt(1, players=players, dealer=1)["hands"]
    assert [at_1[(p + 1) % players] for p in range(players)] == at_0
    if players == 4:
        assert at_1[1] == []  # the dealer rests (§5)


def test_every_entrants_seed_changes_the_sequence_and_their_order_does_not():
    base = duplicate_server_seed(ROUND_SEED, ENTRANTS, 0)
    assert duplicate_server_seed(ROUND_SEED, {3: "alice", 7: "bob"}, 0) == base
    assert duplicate_server_seed(ROUND_SEED, {3: "alice"}, 0) != base
    assert duplicate_server_seed(ROUND_SEED, {3: "alice", 7: "bob!"}, 0) != base
    assert duplicate_server_seed(ROUND_SEED, {}, 0) != duplicate_server_seed(bytes(32), {}, 0)


def test_the_sequence_matches_its_published_vector():
    # The vector of docs/fair-dealing.md ("Duplicate rounds"): round seed 00 01 … 1f,
    # entrants 3 "alice" and 7 "bob", dealing 0.
    assert duplicate_server_seed(ROUND_SEED, ENTRANTS, 0).hex() == VECTOR_SEED_0


@pytest.mark.parametrize(
    ("round_seed", "entrants", "index"),
    [(b"short", {}, 0), (ROUND_SEED, {-1: "x"}, 0), (ROUND_SEED, {1: ""}, 0), (ROUND_SEED, {}, -1)],
)
def test_bad_duplicate_seeds_are_refused(round_seed, entrants, index):
    with pytest.raises(InvalidSeed):
        duplicate_server_seed(round_seed, entrants, index)


# --------------------------------------------------------------------------- the check


@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (3, 2), (2, 1), (4, 3)])
def test_a_duplicate_deal_verifies_against_its_round(players, dealer):
    assert check(dealt(4, players=players, dealer=dealer)).verdict is Verdict.VERIFIED


def tamper(deal: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(deal)
    out["dealing"]["duplicate"].update(changes)
    return out


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"index": 5}, "not dealing 5 of the round's sequence"),
        ({"round_seed": "11" * 32}, "not the round's commitment"),
        ({"entrant_seeds": {"3": "alice"}}, "not dealing 4"),
        ({"round_commitment": "zz"}, "'round_commitment' must be 64 hex digits"),
    ],
)
def test_a_duplicate_deal_from_another_seed_fails(changes, reason):
    result = check(tamper(dealt(4), **changes))
    assert result.verdict is Verdict.FAILED and reason in (result.reason or "")


def test_a_duplicate_deal_takes_no_client_seeds():
    deal = dealt(1)
    deal["dealing"]["client_seeds"] = {"0": "mine"}
    result = check(deal)
    assert result.verdict is Verdict.FAILED


def test_a_complete_duplicate_deal_is_not_revealed_until_the_round_ends():
    deal = dealt(1)
    deal["dealing"]["server_seed"] = None
    deal["dealing"]["duplicate"]["round_seed"] = None
    assert check(deal, complete=True).verdict is Verdict.NOT_REVEALED


# --------------------------------------------------------------------------- the browser


JS_RUNNER = """
import { readFileSync } from "node:fs";
const fd = await import("./fairdeal.mjs");
const input = JSON.parse(readFileSync(0, "utf8"));
const out = { seed: await fd.duplicateServerSeed(input.roundSeed, input.entrants, 0), verdicts: [] };
for (const c of input.cases) out.verdicts.push(await fd.verifyDeal(c));
process.stdout.write(JSON.stringify(out));
"""


def js_case(deal: dict[str, Any]) -> dict[str, Any]:
    d = deal["dealing"]
    return {
        "commitment": d["commitment"],
        "serverSeed": d["server_seed"],
        "clientSeeds": d["client_seeds"],
        "players": deal["players"],
        "dealer": deal["dealer"],
        "hands": deal["hands"],
        "talons": deal["talons"],
        "duplicate": d["duplicate"],
    }


def test_the_browser_check_agrees_on_duplicate_deals(node, tmp_path: Path):  # noqa: F811
    deals = [
        dealt(4),
        dealt(2, players=4, dealer=3),
        dealt(6, players=2, dealer=1),
        tamper(dealt(4), index=5),
        tamper(dealt(4), round_seed="11" * 32),
        tamper(dealt(4), entrant_seeds={"3": "alice"}),
    ]
    (tmp_path / "fairdeal.mjs").write_bytes(MODULE.read_bytes())
    payload = {
        "roundSeed": ROUND_SEED.hex(),
        "entrants": {str(k): v for k, v in ENTRANTS.items()},
        "cases": [js_case(d) for d in deals],
    }
    out = run_node(node, tmp_path, JS_RUNNER, payload)
    assert out["seed"] == VECTOR_SEED_0
    python = [check(d) for d in deals]
    assert [(v["ok"], v["reason"]) for v in out["verdicts"]] == [
        (p.verdict is Verdict.VERIFIED if p.verdict is not Verdict.NOT_REVEALED else None, p.reason)
        for p in python
    ]


# SHA-256("thousand/duplicate/1" ‖ 00 01 … 1f ‖ 00000003 ‖ SHA-256("alice") ‖ 00000007 ‖
# SHA-256("bob") ‖ 00000000), worked out apart from fair.py (hashlib by hand).
VECTOR_SEED_0 = "f60e43dc85c5fda919081d66b13e37eec25559172443446f8841acbfb63a0b2c"
