"""Fair dealing (docs/fair-dealing.md): seeds, the shuffle, the deal, and the check of a
match record against its commitments."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Match, Options, RecordError
from games.engine.cards import CARD_NAMES, FULL_DECK, card_index
from games.engine.dealing import deal_layout
from games.engine.fair import (
    DOMAIN,
    InvalidSeed,
    Verdict,
    commitment,
    deal_from_seeds,
    deck_order,
    deck_seed,
    new_server_seed,
    seed_words,
    shuffled_deck,
    uniform_below,
    validate_client_seed,
    verify_record,
)
from tests.engine.fair_records import seeded_record, swap_cards

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fair-dealing.md"

# --------------------------------------------------------------------------- vectors

# The known-answer vectors of docs/fair-dealing.md ("Test vectors"), written out here too
# so that the specification is pinned twice: a change to the shuffle breaks both.
VECTORS: list[dict[str, Any]] = [
    {
        "name": "no-client-seeds",
        "server_seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "client_seeds": {},
        "players": 3,
        "dealer": 0,
        "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "deck_seed": "39d1d4772e459ad2ba82f4c6419f299195914cf664d70a2833d04ddf6f8317ff",
        "deck": "AD JC AS QH 9S TC JH JS QD QC KD QS 9C 9H AH TD KS KC TH 9D TS KH JD AC",
        "hands": [
            ["9S", "AS", "JC", "TC", "AD", "JH", "QH"],
            ["JS", "QS", "9C", "QC", "QD", "KD", "9H"],
            ["KS", "TS", "KC", "9D", "TD", "TH", "AH"],
        ],
        "talons": [["AC", "JD", "KH"]],
    },
    {
        "name": "three-players",
        "server_seed": "b12db14fe48518465946628e10688d46a59000656d339833e178b19df00888c8",
        "client_seeds": {
            "0": "alice",
            "2": "5f1e0a9c0b7d4e3f8a2b6c1d9e0f7a3b4c5d6e7f8091a2b3c4d5e6f708192a3b",
        },
        "players": 3,
        "dealer": 2,
        "commitment": "454c131af97aa6d3276f2b8a32fd01df1d21c95208386708cf2fbe5c05a26aed",
        "deck_seed": "ab9388a084d47ce94ebe3c1331a30226a4d9b293f190988cd6113e80319d10d1",
        "deck": "QD 9D TS AC AD AS QH JD QC JS JH 9C 9S TC AH QS KS TD JC KH KC 9H KD TH",
        "hands": [
            ["TS", "AS", "AC", "9D", "QD", "AD", "QH"],
            ["9S", "JS", "9C", "QC", "TC", "JD", "JH"],
            ["QS", "KS", "JC", "KC", "TD", "KH", "AH"],
        ],
        "talons": [["KD", "9H", "TH"]],
    },
    {
        "name": "two-players",
        "server_seed": "3f7c4def9badf848ce2578b7543acfd14bf8bb1fa0597a0c06b555a4da28a904",
        "client_seeds": {"1": "Тысяча ♠ 1000"},
        "players": 2,
        "dealer": 1,
        "commitment": "59a6989755b91040f6101e7ce41d439799b1ce77fb8a7058bde1d81ca499a80f",
        "deck_seed": "715967d0c528283271bb4339483f1d87bf49d9edc90450795fae492b090f4329",
        "deck": "TS AS AD 9D 9C KH QC QS TD JD JC 9S KD TH AH QH KS AC JH KC JS TC 9H QD",
        "hands": [
            ["QS", "TS", "AS", "9C", "QC", "9D", "JD", "TD", "AD", "KH"],
            ["9S", "KS", "JC", "KC", "AC", "KD", "JH", "QH", "TH", "AH"],
        ],
        "talons": [["JS", "TC"], ["QD", "9H"]],
    },
    {
        "name": "four-players",
        "server_seed": "8abc4e6cb529f5e5c60ab6be974947ad46efb18557967904712d73d2cc36cffd",
        "client_seeds": {"0": "a", "1": "b", "3": "c"},
        "players": 4,
        "dealer": 1,
        "commitment": "eae2377a73cec6b0047e3682f51c03f1d9899e6c5943f55747edfd64442551a7",
        "deck_seed": "7a11d9018304366ce881141f83226c9bb0b0f52a879f09a709c9aba32f26c48e",
        "deck": "QC JD AD AS 9H JH 9D KC TS TC TD 9C JS KH AC AH KD TH KS QD QH 9S JC QS",
        "hands": [
            ["AS", "QC", "9D", "JD", "AD", "9H", "JH"],
            [],
            ["JS", "TS", "9C", "KC", "TC", "TD", "KH"],
            ["KS", "AC", "QD", "KD", "QH", "TH", "AH"],
        ],
        "talons": [["9S", "QS", "JC"]],
    },
    {
        "name": "rejection",
        "server_seed": "00000000000000000000000000000000000000000000000000000000044906cd",
        "client_seeds": {},
        "players": 3,
        "dealer": 0,
        "commitment": "7cae2a92b27169e9962e8a5fa0ebc11dd77cea8ba9717707441cccfefe56512d",
        "deck_seed": "4af00bb8404ef3648d68bd524196a3990823562f71cda5797747492c430c767a",
        "deck": "AD JC TS TC 9D JH TH QD QS 9S KD TD JS AS QH AC KC KH 9C AH JD KS 9H QC",
        "hands": [
            ["TS", "JC", "TC", "9D", "AD", "JH", "TH"],
            ["9S", "JS", "QS", "AS", "QD", "KD", "TD"],
            ["9C", "KC", "AC", "JD", "QH", "KH", "AH"],
        ],
        "talons": [["KS", "QC", "9H"]],
    },
]


def names(mask: int) -> list[str]:
    return [CARD_NAMES[i] for i in range(24) if mask >> i & 1]


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["name"])
def test_known_answer_vector_gives_its_commitment_deck_seed_deck_and_deal(v):
    server_seed = bytes.fromhex(v["server_seed"])
    client_seeds = {int(k): s for k, s in v["client_seeds"].items()}
    hands, talons = deal_from_seeds(server_seed, client_seeds, v["players"], v["dealer"])
    got = {
        "commitment": commitment(server_seed),
        "deck_seed": deck_seed(server_seed, client_seeds).hex(),
        "deck": " ".join(str(c) for c in shuffled_deck(deck_seed(server_seed, client_seeds))),
        "hands": [names(h) for h in hands],
        "talons": [names(t) for t in talons],
    }
    assert got == {k: v[k] for k in got}


def docs_block(marker: str, language: str) -> str:
    found = re.search(rf"<!-- {marker} -->\s*```{language}\n(.*?)```", DOCS.read_text(), re.S)
    assert found is not None, f"docs/fair-dealing.md lost its {marker} block"
    return found.group(1)


def test_docs_carry_exactly_the_known_answer_vectors_of_this_test():
    assert json.loads(docs_block("vectors", "json")) == VECTORS


def test_docs_python_reference_implementation_deals_every_vector():
    reference: dict[str, Any] = {}
    exec(docs_block("reference-python", "python"), reference)

    def dealt(v: dict[str, Any]) -> tuple[str, list[list[str]]]:
        server_seed = bytes.fromhex(v["server_seed"])
        seeds = {int(k): s for k, s in v["client_seeds"].items()}
        deck = " ".join(reference["shuffle"](reference["deck_seed"](server_seed, seeds)))
        hands, talons = reference["deal"](server_seed, seeds, v["players"], v["dealer"])
        return deck, [sorted(pile, key=card_index) for pile in (*hands, *talons)]

    assert [dealt(v) for v in VECTORS] == [
        (v["deck"], [*v["hands"], *v["talons"]]) for v in VECTORS
    ]


def test_docs_worked_example_shows_the_three_players_vector_step_by_step():
    v = next(v for v in VECTORS if v["name"] == "three-players")
    seed = bytes.fromhex(v["deck_seed"])
    words = seed_words(seed)
    shown = [
        v["server_seed"],
        v["commitment"],
        *(hashlib.sha256(s.encode()).hexdigest() for s in v["client_seeds"].values()),
        v["deck_seed"],
        " ".join(f"{next(words):08x}" for _ in range(8)),
        " | ".join(" ".join(v["deck"].split()[k : k + 7]) for k in (0, 7, 14))
        + " | "
        + " ".join(v["deck"].split()[21:]),
    ]
    text = DOCS.read_text()
    assert [s for s in shown if s not in text] == []


def test_rejection_vector_rejects_exactly_one_word_of_its_stream():
    """The docs' "rejection" vector draws 24 words for 23 swaps: one is rejected."""
    v = next(v for v in VECTORS if v["name"] == "rejection")
    seed = bytes.fromhex(v["deck_seed"])
    used = 0

    def counted():
        nonlocal used
        for word in seed_words(seed):
            used += 1
            yield word

    deck_order(counted())
    assert used == 24


# --------------------------------------------------------------------------- the sampler


def test_uniform_below_rejects_words_at_or_above_the_largest_multiple_of_the_bound():
    # 2**32 mod 24 = 16: words 0xFFFFFFF0..0xFFFFFFFF are rejected for a bound of 24.
    words = iter([0xFFFFFFF0, 0xFFFFFFFF, 29, 99])
    assert (uniform_below(24, words), next(words)) == (29 % 24, 99)


def test_uniform_below_accepts_the_last_word_below_the_limit():
    assert uniform_below(24, iter([0xFFFFFFEF])) == 23


def test_uniform_below_rejects_nothing_for_a_power_of_two():
    assert uniform_below(16, iter([0xFFFFFFFF])) == 15


def test_deck_order_with_all_zero_words_swaps_every_position_with_the_first():
    assert deck_order(iter([0] * 23)) == [*range(1, 24), 0]


def test_canonical_deck_is_the_engine_card_order_spades_clubs_diamonds_hearts():
    assert " ".join(CARD_NAMES) == (
        "9S JS QS KS TS AS 9C JC QC KC TC AC 9D JD QD KD TD AD 9H JH QH KH TH AH"
    )


def test_seed_words_are_the_big_endian_words_of_sha256_of_seed_and_block_counter():
    seed = bytes(32)
    first_blocks = (
        hashlib.sha256(seed + bytes(4)).digest() + hashlib.sha256(seed + b"\0\0\0\x01").digest()
    )
    words = seed_words(seed)
    got = [next(words) for _ in range(16)]
    assert got == [int.from_bytes(first_blocks[4 * k : 4 * k + 4], "big") for k in range(16)]


# --------------------------------------------------------------------------- seeds

server_seed_st = st.binary(min_size=32, max_size=32)
client_seed_st = st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=128)


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, int, dict[int, str]]:
    players = draw(st.sampled_from([2, 3, 4]))
    dealer = draw(st.integers(0, players - 1))
    seeds = draw(st.dictionaries(st.integers(0, players - 1), client_seed_st, max_size=players))
    return players, dealer, seeds


def test_commitment_is_lower_case_hex_sha256_of_the_server_seed():
    seed = bytes(range(32))
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_new_server_seeds_are_32_fresh_bytes():
    a, b = new_server_seed(), new_server_seed()
    assert (len(a), len(b), a != b) == (32, 32, True)


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33), "00" * 32, None])
def test_server_seed_of_other_than_32_bytes_is_invalid(seed):
    with pytest.raises(InvalidSeed):
        commitment(seed)


def test_deck_seed_without_client_seeds_is_not_the_commitment():
    seed = bytes(range(32))
    assert (
        deck_seed(seed, {})
        == hashlib.sha256(DOMAIN + seed).digest()
        != bytes.fromhex(commitment(seed))
    )


@pytest.mark.parametrize(
    "text", ["a", "x" * 128, "5f" * 32, "Тысяча ♠ 1000", "🂡" * 128, "tab-free but spaced out "]
)
def test_client_seed_of_1_to_128_characters_is_accepted_unchanged(text):
    assert validate_client_seed(text) is text


@pytest.mark.parametrize(
    "text",
    ["", "x" * 129, "a\nb", "\x00", "del\x7f", "nel\x85", "\ud800", 5, None, b"bytes", ["a"]],
)
def test_bad_client_seed_raises_invalid_seed_a_value_error(text):
    with pytest.raises(InvalidSeed) as caught:
        validate_client_seed(text)
    assert isinstance(caught.value, ValueError)


def test_client_seed_from_a_seat_not_at_the_table_is_invalid():
    with pytest.raises(InvalidSeed, match="seat 3"):
        deal_from_seeds(bytes(32), {3: "abc"}, 3, 0)


# --------------------------------------------------------------------------- the deal


@given(server_seed_st, tables())
def test_every_deal_is_the_24_cards_in_the_rules_layout(server_seed, table):
    players, dealer, seeds = table
    hands, talons = deal_from_seeds(server_seed, seeds, players, dealer)
    sizes = [m.bit_count() for m in (*hands, *talons)]
    union = 0
    for m in (*hands, *talons):
        union |= m
    match = Match.empty(Options(players=players), first_dealer=dealer)
    match.start_deal(hands, talons)  # the engine's own check of the layout
    assert (sizes, union, sum(sizes)) == (deal_layout(players, dealer), FULL_DECK, 24)


@given(server_seed_st, tables())
def test_same_seeds_give_the_same_deal_in_whatever_order_the_seats_are_given(server_seed, table):
    players, dealer, seeds = table
    reordered = dict(reversed(list(seeds.items())))
    assert deal_from_seeds(server_seed, seeds, players, dealer) == deal_from_seeds(
        server_seed, reordered, players, dealer
    )


@given(server_seed_st, tables(), st.data())
def test_a_changed_client_seed_changes_the_deck(server_seed, table, data):
    players, _dealer, seeds = table
    seat = data.draw(st.integers(0, players - 1))
    other = data.draw(client_seed_st.filter(lambda s: s != seeds.get(seat)))
    changed = {**seeds, seat: other}
    assert shuffled_deck(deck_seed(server_seed, seeds)) != shuffled_deck(
        deck_seed(server_seed, changed)
    )


@given(server_seed_st, server_seed_st, tables())
def test_a_changed_server_seed_changes_the_deck(one, other, table):
    seeds = table[2]
    assert (one == other) or shuffled_deck(deck_seed(one, seeds)) != shuffled_deck(
        deck_seed(other, seeds)
    )


def test_the_same_client_seed_from_another_seat_gives_another_deck():
    seed = bytes(range(32))
    assert shuffled_deck(deck_seed(seed, {0: "same"})) != shuffled_deck(
        deck_seed(seed, {1: "same"})
    )


# chi2.isf(1e-6, 23 * 23) from scipy.stats, written out: importing scipy.stats takes seconds.
CHI_SQUARE_BOUND = 698.25


def position_chi_square(shuffle: Callable[[Iterator[int]], list[int]], runs: int = 20_000) -> float:
    """Chi-square of the 24×24 table of card-by-position counts over ``runs`` shuffles
    from fixed seeds against the uniform ``runs / 24``; (24−1)² degrees of freedom."""
    counts = [[0] * 24 for _ in range(24)]
    for k in range(runs):
        for position, card in enumerate(
            shuffle(seed_words(hashlib.sha256(b"chi/%d" % k).digest()))
        ):
            counts[card][position] += 1
    expected = runs / 24
    return sum((c - expected) ** 2 / expected for row in counts for c in row)


def test_card_positions_over_20000_seeded_shuffles_are_not_grossly_biased():
    """A deterministic smoke test (fixed seeds, so it cannot flake), bound at a
    one-in-a-million tail. (It gives about 514; the mean of the distribution is 529.)"""
    assert position_chi_square(deck_order) < CHI_SQUARE_BOUND


def test_the_bias_smoke_test_catches_a_known_biased_shuffle():
    """Swapping each position with any of the 24 (not one of 0..i) is the classic biased
    shuffle: the same statistic is far above the bound (about 66,900)."""

    def naive(words: Iterator[int]) -> list[int]:
        deck = list(range(24))
        for i in range(23, 0, -1):
            j = next(words) % 24
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    assert position_chi_square(naive) > 10 * CHI_SQUARE_BOUND


# --------------------------------------------------------------------------- records


def verdicts(record: dict[str, Any]) -> list[str]:
    return [c.verdict.value for c in verify_record(record)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_dealt_from_seeds_verifies_every_deal(players):
    record = seeded_record(players, deals=6, first_dealer=players - 1, seed=players)
    assert verdicts(record) == ["verified"] * 6


def test_redeals_are_fresh_dealings_by_the_same_dealer_and_verify():
    record = seeded_record(4, deals=6, seed=3, prefer_redeal=True)
    results = Match.from_record(record).results
    assert [r.outcome.value for r in results][:3] == ["redeal"] * 3
    assert [(c.verdict.value, c.dealer) for c in verify_record(record)] == [
        ("verified", r.dealer) for r in results
    ]


def test_one_card_swapped_between_two_hands_fails_naming_the_seats_and_the_cards():
    record = seeded_record(3, deals=3, seed=5)
    hands = record["deals"][1]["hands"]
    a, b = hands[0][0], hands[2][3]
    check = verify_record(swap_cards(record, 1, (0, 0), (2, 3)))[1]
    assert (check.verdict, check.reason) == (
        Verdict.FAILED,
        f"the dealt cards differ from the seeds': seat 0's hand has {b} where the seeds deal {a}; "
        f"seat 2's hand has {a} where the seeds deal {b}",
    )


def test_a_card_swapped_with_the_talon_fails_naming_the_talon():
    record = seeded_record(2, deals=1, seed=6)
    tampered = copy.deepcopy(record)
    deal = tampered["deals"][0]
    deal["hands"][1][0], deal["talons"][1][1] = deal["talons"][1][1], deal["hands"][1][0]
    deal["actions"] = []
    assert {d.place for d in verify_record(tampered)[0].differences} == {"seat 1's hand", "talon 1"}


def test_deals_after_a_tampered_deal_that_no_longer_replays_are_not_checked():
    record = seeded_record(2, deals=4, seed=3)
    assert verdicts(swap_cards(record, 1, (0, 0), (1, 0))) == [
        "verified",
        "failed",
        "not_checked",
        "not_checked",
    ]


def test_wrong_server_seed_fails_the_commitment():
    record = seeded_record(3, deals=2, seed=7)
    record["deals"][1]["dealing"]["server_seed"] = "00" * 32
    check = verify_record(record)[1]
    assert (check.verdict, check.reason.startswith("SHA-256 of the server seed is ")) == (
        Verdict.FAILED,
        True,
    )


def test_changed_commitment_fails():
    record = seeded_record(3, deals=2, seed=7)
    record["deals"][0]["dealing"]["commitment"] = "ab" * 32
    assert verdicts(record) == ["failed", "verified"]


def test_commitment_in_upper_case_hex_still_verifies():
    record = seeded_record(3, deals=1, seed=7)
    dealing = record["deals"][0]["dealing"]
    dealing["commitment"] = dealing["commitment"].upper()
    assert verdicts(record) == ["verified"]


def test_changed_client_seed_fails_the_cards():
    record = seeded_record(3, deals=1, seed=8)
    record["deals"][0]["dealing"]["client_seeds"] = {"1": "not what seat 1 sent"}
    check = verify_record(record)[0]
    assert (check.verdict, bool(check.differences)) == (Verdict.FAILED, True)


def test_unfinished_last_deal_with_its_seed_secret_is_not_revealed_yet_and_no_failure():
    record = seeded_record(3, deals=2, seed=9, unfinished=True)
    checks = verify_record(record)
    assert [(c.verdict.value, c.ok, c.reason) for c in checks] == [
        ("verified", True, None),
        ("verified", True, None),
        ("not_revealed", None, "not revealed yet"),
    ]


def test_missing_server_seed_of_a_complete_deal_fails():
    record = seeded_record(3, deals=2, seed=9)
    del record["deals"][0]["dealing"]["server_seed"]
    assert verdicts(record) == ["failed", "verified"]


def test_deal_without_fair_dealing_data_fails():
    record = seeded_record(3, deals=2, seed=9)
    del record["deals"][1]["dealing"]
    assert (
        verify_record(record)[1].reason == "no fair-dealing data: the deal has no 'dealing' object"
    )


@pytest.mark.parametrize(
    ("dealing", "reason"),
    [
        ([], "'dealing' must be an object"),
        ({"server_seed": "00" * 32}, "'commitment' must be 64 hex digits"),
        ({"commitment": "zz" * 32}, "'commitment' must be 64 hex digits"),
        ({"commitment": "00" * 32, "server_seed": "00" * 31}, "'server_seed' must be 64 hex digits"),
        ({"commitment": "00" * 32, "server_seed": "00" * 32, "client_seeds": ["a"]}, "'client_seeds' must be an object"),
        ({"commitment": "00" * 32, "server_seed": "00" * 32, "client_seeds": {"3": "a"}}, "client seed key '3' is not a seat 0..2"),
        ({"commitment": "00" * 32, "server_seed": "00" * 32, "client_seeds": {"01": "a"}}, "client seed key '01' is not a seat 0..2"),
        ({"commitment": "00" * 32, "server_seed": "00" * 32, "client_seeds": {"1": ""}}, "seat 1's client seed: a client seed must be 1 to 128 characters long"),
    ],
)  # fmt: skip
def test_malformed_fair_dealing_data_fails_that_deal_with_a_reason(dealing, reason):
    record = seeded_record(3, deals=1, seed=10)
    record["deals"][0]["dealing"] = dealing
    assert verify_record(record)[0].reason == reason


def test_four_player_record_claiming_another_first_dealer_fails():
    record = seeded_record(4, deals=1, seed=11, first_dealer=0)
    record["first_dealer"] = 1
    record["deals"][0]["actions"] = []
    check = verify_record(record)[0]
    assert (check.verdict, check.dealer) == (Verdict.FAILED, 1)


def test_record_whose_actions_do_not_replay_though_its_seeds_verify_is_malformed():
    record = seeded_record(3, deals=2, seed=12)
    record["deals"][0]["actions"][0] = {"seat": 0, "type": "bid", "value": 3}
    with pytest.raises(RecordError):
        verify_record(record)


@pytest.mark.parametrize(
    "record",
    [
        [],
        {"format": "thousand/2", "deals": []},
        {"format": "thousand/1", "first_dealer": 0, "deals": [{"hands": "x"}]},
    ],
)
def test_unreadable_record_raises_record_error(record):
    with pytest.raises(RecordError):
        verify_record(record)
