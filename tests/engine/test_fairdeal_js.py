"""``static/js/fairdeal.js``, the browser's check of a deal, run under Node.js on vectors
from the Python reference (``games.engine.fair``): both must give the same deck, the same
verdict and the same reason.

Without ``node`` on the PATH these tests skip with a message, unless the variable CI is
set: then they fail (as the integration tests do for a missing service).
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games.engine.cards import CARD_NAMES, card_index
from games.engine.fair import check_deal, commitment, deal_from_seeds, verify_record
from games.engine.record import dealt_cards
from tests.engine.fair_records import seeded_record, swap_cards
from tests.engine.test_fair_dealing import VECTORS
from tests.services import ci

MODULE = Path(__file__).resolve().parents[2] / "static" / "js" / "fairdeal.js"

# Reads a JSON list of cases on stdin; for each prints verifyDeal's answer and, when the
# seed is revealed and well formed, the commitment and the deal the seeds give.
RUNNER = """
import { readFileSync } from "node:fs";
const fd = await import("./fairdeal.mjs");
const out = [];
for (const input of JSON.parse(readFileSync(0, "utf8"))) {
  const answer = { verify: await fd.verifyDeal(input) };
  try {
    answer.commitment = await fd.commitmentOf(input.serverSeed);
    answer.deal = await fd.dealFromSeeds(input);
  } catch (error) {
    answer.error = String(error);
  }
  out.push(answer);
}
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        message = (
            "Node.js (`node`) is not on the PATH; install Node.js 18 or newer to run these tests."
        )
        if ci():
            pytest.fail(f"CI is set, so this is a failure: {message}", pytrace=False)
        pytest.skip(f"{message} They fail instead of skipping when CI is set.")
    return found


NODE_CRYPTO = (
    "if (!globalThis.crypto) globalThis.crypto = (await import('node:crypto')).webcrypto;\n"
)


def run_node(node: str, directory: Path, script: str, payload: Any) -> Any:
    """Run ``script`` as an ES module in ``directory`` with ``payload`` as JSON on stdin;
    return what it prints, parsed."""
    (directory / "script.mjs").write_text(NODE_CRYPTO + script)
    p = subprocess.run(
        [node, "script.mjs"],
        cwd=directory,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def run_js(node: str, directory: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    shutil.copy(MODULE, directory / "fairdeal.mjs")  # .mjs: an ES module whatever package.json says
    return run_node(node, directory, RUNNER, cases)


def deal_cases(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One verifyDeal input per deal of a record, with the dealer the engine names."""
    players = record["options"]["players"]
    cases = []
    for check, deal in zip(verify_record(record), record["deals"]):
        dealing = deal["dealing"]
        cases.append(
            {
                "commitment": dealing["commitment"],
                "serverSeed": dealing["server_seed"],
                "clientSeeds": dealing["client_seeds"],
                "players": players,
                "dealer": check.dealer,
                "hands": deal["hands"],
                "talons": deal["talons"] if players == 2 else [deal["talon"]],
            }
        )
    return cases


def vector_case(v: dict[str, Any]) -> dict[str, Any]:
    return {
        "commitment": v["commitment"],
        "serverSeed": v["server_seed"],
        "clientSeeds": v["client_seeds"],
        "players": v["players"],
        "dealer": v["dealer"],
        "hands": v["hands"],
        "talons": v["talons"],
    }


def tampered(case: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(case), **changes}


def all_cases() -> list[dict[str, Any]]:
    cases = [vector_case(v) for v in VECTORS]
    for players in (2, 3, 4):
        cases += deal_cases(
            seeded_record(players, deals=3, seed=40 + players, prefer_redeal=players == 4)
        )
    cases += deal_cases(
        seeded_record(3, deals=1, seed=50, unfinished=True)
    )  # the last not revealed
    honest = vector_case(VECTORS[1])
    cases += [
        deal_cases(swap_cards(seeded_record(3, deals=1, seed=51), 0, (0, 1), (2, 4)))[0],
        deal_cases(
            swap_cards(seeded_record(4, deals=1, seed=52, first_dealer=1), 0, (0, 1), (3, 0))
        )[0],
        tampered(honest, serverSeed="11" * 32),
        tampered(honest, commitment="ab" * 32),
        tampered(honest, commitment=honest["commitment"].upper()),
        tampered(honest, clientSeeds={**honest["clientSeeds"], "1": "late seed"}),
        tampered(honest, clientSeeds={"1": "bad\nseed"}),
        tampered(honest, clientSeeds={"3": "x"}),
        tampered(honest, clientSeeds={"0": "x" * 129}),
        tampered(honest, dealer=1),
        tampered(honest, serverSeed=None),
        tampered(honest, talons=honest["talons"][0]),  # one talon given flat
    ]
    return cases


def python_answer(case: dict[str, Any]) -> dict[str, Any]:
    players = case["players"]
    data = {"hands": case["hands"]}
    if players == 2:
        data["talons"] = case["talons"]
    else:
        data["talon"] = case["talons"] if isinstance(case["talons"][0], str) else case["talons"][0]
    hands, talons = dealt_cards(data, players, 0)
    dealing = {
        "commitment": case["commitment"],
        "server_seed": case["serverSeed"],
        "client_seeds": case["clientSeeds"],
    }
    check = check_deal(
        dealing, players=players, dealer=case["dealer"], hands=hands, talons=talons, complete=False
    )
    return {"ok": check.ok, "status": check.verdict.value, "reason": check.reason}


def seeds_deal(case: dict[str, Any]) -> dict[str, Any]:
    """Python's commitment and deal for a case, card names in index order."""
    server_seed = bytes.fromhex(case["serverSeed"])
    seeds = {int(k): s for k, s in case["clientSeeds"].items()}
    hands, talons = deal_from_seeds(server_seed, seeds, case["players"], case["dealer"])
    return {
        "commitment": commitment(server_seed),
        "deal": {
            "hands": [mask_names(m) for m in hands],
            "talons": [mask_names(m) for m in talons],
        },
    }


def mask_names(mask: int) -> list[str]:
    return [CARD_NAMES[i] for i in range(24) if mask >> i & 1]


def by_index(piles: list[list[str]]) -> list[list[str]]:
    return [sorted(pile, key=card_index) for pile in piles]


@pytest.fixture(scope="module")
def answers(
    node: str, tmp_path_factory: pytest.TempPathFactory
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    cases = all_cases()
    return list(zip(cases, run_js(node, tmp_path_factory.mktemp("fairdeal"), cases), strict=True))


def test_js_gives_the_python_verdict_and_reason_for_every_case(answers):
    mismatches = [
        (case, js["verify"]) for case, js in answers if js["verify"] != python_answer(case)
    ]
    assert mismatches == []


def test_js_cases_cover_every_verdict(answers):
    assert {js["verify"]["status"] for _case, js in answers} == {
        "verified",
        "failed",
        "not_revealed",
    }


def test_js_commitment_and_deal_from_seeds_equal_pythons(answers):
    valid = [(case, js) for case, js in answers if "error" not in js]
    got = [
        {"commitment": js["commitment"], "deal": {k: by_index(v) for k, v in js["deal"].items()}}
        for _c, js in valid
    ]
    assert (len(valid) > 20, got) == (True, [seeds_deal(case) for case, _js in valid])


# Runs the short reference implementation printed in docs/fair-dealing.md on the vectors.
REFERENCE_HARNESS = """
import { readFileSync } from "node:fs";
const hex = (text) => Uint8Array.from(text.match(/../g) || [], (b) => parseInt(b, 16));
const out = [];
for (const v of JSON.parse(readFileSync(0, "utf8"))) {
  const seeds = Object.fromEntries(Object.entries(v.client_seeds).map(([k, s]) => [Number(k), s]));
  const deck = await shuffle(await deckSeed(hex(v.server_seed), seeds));
  const [hands, talons] = await deal(hex(v.server_seed), seeds, v.players, v.dealer);
  out.push({ deck: deck.join(" "), hands, talons });
}
process.stdout.write(JSON.stringify(out));
"""


def test_docs_js_reference_implementation_deals_every_vector(node, tmp_path):
    from tests.engine.test_fair_dealing import docs_block

    dealt = run_node(node, tmp_path, docs_block("reference-js", "js") + REFERENCE_HARNESS, VECTORS)
    got = [(d["deck"], by_index(d["hands"] + d["talons"])) for d in dealt]
    assert got == [(v["deck"], v["hands"] + v["talons"]) for v in VECTORS]
