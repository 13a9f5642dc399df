"""``python -m games.engine verify FILE|-``: one JSON object; exit 0 when every revealed
deal verifies, 1 when one fails, 2 for a record that cannot be read (docs/fair-dealing.md)."""

from __future__ import annotations

import json

import pytest

from tests.engine.fair_records import seeded_record, swap_cards
from tests.engine.records import cli


def verify(record: object) -> tuple[int, dict]:
    p = cli(["verify", "-"], stdin=json.dumps(record))
    return p.returncode, json.loads(p.stdout)


def test_verify_of_an_honest_record_prints_every_deal_verified_and_exits_0():
    code, out = verify(seeded_record(3, deals=2, seed=21, unfinished=True))
    assert (code, out) == (
        0,
        {
            "deals": [
                {"deal": 0, "ok": True, "status": "verified", "dealer": 0, "reason": None},
                {"deal": 1, "ok": True, "status": "verified", "dealer": 1, "reason": None},
                {
                    "deal": 2,
                    "ok": None,
                    "status": "not_revealed",
                    "dealer": 2,
                    "reason": "not revealed yet",
                },
            ],
            "ok": True,
        },
    )


def test_verify_of_a_record_with_one_card_swapped_exits_1_and_says_where():
    record = swap_cards(seeded_record(3, deals=2, seed=22), 0, (0, 0), (1, 0))
    code, out = verify(record)
    assert (
        code,
        out["ok"],
        out["deals"][0]["ok"],
        [d["place"] for d in out["deals"][0]["differences"]],
    ) == (
        1,
        False,
        False,
        ["seat 0's hand", "seat 1's hand"],
    )


def test_verify_reads_a_file(tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(seeded_record(2, deals=1, seed=23)))
    p = cli(["verify", str(path)])
    assert (p.returncode, json.loads(p.stdout)["ok"]) == (0, True)


@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "thousand/1", "first_dealer": 0, "deals": {}}', "'deals' must be a list"),
        ("[]", "a match record must be a JSON object"),
    ],
)
def test_verify_of_an_unreadable_record_exits_2_with_the_error(stdin, reason):
    p = cli(["verify", "-"], stdin=stdin)
    assert (p.returncode, json.loads(p.stdout)) == (
        2,
        {"ok": False, "error": {"deal": None, "action": None, "reason": reason}},
    )


def test_verify_of_a_missing_file_exits_2(tmp_path):
    p = cli(["verify", str(tmp_path / "absent.json")])
    assert (p.returncode, json.loads(p.stdout)["error"]["reason"].startswith("cannot read")) == (
        2,
        True,
    )


def test_replay_still_replays_a_record_that_carries_dealing_data():
    p = cli(["replay", "-"], stdin=json.dumps(seeded_record(3, deals=1, seed=24)))
    out = json.loads(p.stdout)
    assert (p.returncode, len(out["deals"])) == (0, 1)


@pytest.mark.parametrize("args", [[], ["check", "-"], ["verify"], ["verify", "a", "b"]])
def test_unknown_command_or_arguments_print_usage_and_exit_2(args):
    p = cli(args)
    assert (p.returncode, p.stdout, p.stderr) == (
        2,
        "",
        "usage: python -m games.engine replay|verify FILE|-\n",
    )
