"""No message to a seat or a spectator ever holds a card it may not know.

Hundreds of whole matches (2, 3 and 4 players, random options) are played through the
service path; every message the service sends through the channel layer is captured
from each seat's and the spectators' group and checked against the true deal (the
engine's own state): another player's cards, a talon not shown, the unused two-player
talon, or the server seed of a dealing not yet ended must never appear. The action log
of every finished match replays to its stored result, and every deal of the finished
matches verifies against its fair-dealing commitment.
"""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import realtime, scheduler, services
from games import state as table_state
from games.bots import make_bot
from games.engine import CARDS, Match
from games.engine.fair import verify_record
from games.models import Dealing, MatchResult, Table
from tests.games.helpers import committed, open_table

# Real commits: thousands of updates of one row inside a single test transaction slow
# PostgreSQL down more and more (every version of the row stays until the end).
pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = int(os.environ.get("LEAK_TEST_MATCHES", "200"))
CARD = re.compile(r'"([9TJQKA][SCDH])"')


@pytest.fixture(autouse=True)
def _capturing_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 100_000, "expiry": 3600},
        }
    }


def random_options(rng: random.Random) -> dict[str, Any]:
    """Short matches (the barrel off, a low target: about 50 actions each) over the
    options that change what a seat may see: the talon shown at 100, dark and golden
    deals (closed talons, blind bidders), redeals, write-offs; 2, 3 and 4 players."""
    return {
        "players": rng.choice((2, 3, 3, 4)),
        "options": {
            "show_talon_on_100": rng.random() < 0.5,
            "dark": rng.random() < 0.3,
            "golden": rng.random() < 0.2,
            "redeal": rng.random() < 0.7,
            "write_off": rng.random() < 0.7,
            "barrel": False,
            "target": rng.choice((100, 100, 150)),
        },
    }


def names(mask: int) -> set[str]:
    return {str(c) for c in CARDS if mask >> c.index & 1}


def hidden_from(match: Match, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not know now, from the true deal."""
    deal = match.deal
    if deal is None:
        return set()
    hidden: set[str] = set()
    for other, hand in enumerate(deal.hands):
        if other != seat:
            hidden |= names(hand)
    for index, talon in enumerate(deal.talons):
        if index != deal.talon_index:
            hidden |= names(talon)  # an untaken talon, or the unused two-player one
    if deal.talon_index >= 0:
        taken = names(deal.talons[deal.talon_index])
        if deal.talon_open or (seat is not None and seat == deal.declarer):
            hidden -= taken
    if seat is not None and seat == deal.declarer:
        for card in deal.given:
            if card >= 0:
                hidden.discard(str(CARDS[card]))
    return hidden


class Listener:
    """A channel in every group of one table, in the real (in-memory) channel layer."""

    def __init__(self, table: Table) -> None:
        self.layer = get_channel_layer()
        self.channels: dict[int | None, str] = {}
        for seat in (*range(table.players), None):
            channel = async_to_sync(self.layer.new_channel)()
            async_to_sync(self.layer.group_add)(realtime.seat_group(table.pk, seat), channel)
            self.channels[seat] = channel

    def drain(self) -> list[tuple[int | None, str]]:
        out = []
        for seat, channel in self.channels.items():
            queue = self.layer.channels.get(channel)
            while queue is not None and not queue.empty():
                out.append((seat, queue.get_nowait()[1]["text"]))
        return out


def check(table: Table, messages: list[tuple[int | None, str]], secrets_now: set[str]) -> int:
    state = table_state.acquire(table)
    try:
        match = state.match
        for seat, text in messages:
            message = json.loads(text)
            if message["type"] != "update":
                continue  # a refresh: no cards
            assert message["version"] == table.version  # checked after every single action
            view_cards = set(CARD.findall(json.dumps(message["view"])))
            leaked = view_cards & hidden_from(match, seat)
            assert not leaked, f"seat {seat} was sent {leaked} at version {table.version}"
            for event in message["events"]:
                if event["type"] == "talon_taken" and event["cards"] is not None:
                    # Events go to everyone: a talon's cards only when shown to all.
                    assert match.deal is not None and match.deal.talon_open
            assert not any(seed in text for seed in secrets_now), "a dealing's secret seed was sent"
        return len(messages)
    finally:
        state.lock.release()


def assert_log_replays_to_the_result(table: Table) -> None:
    """The action log (with the dealings' seeds) and the record both replay, with a
    fresh engine, to the stored result."""
    result = MatchResult.objects.get(table=table)
    table_state.forget(table.pk)
    state = table_state.acquire(table)
    try:
        from_log = (list(state.match.scores), state.match.winner)
    finally:
        state.lock.release()
    from_record = Match.from_record(result.record)
    stored = (result.final_scores, result.winner_seat)
    assert from_log == stored == (list(from_record.scores), from_record.winner)


def play_match(rng: random.Random) -> tuple[Table, int]:
    params = random_options(rng)
    players = params["players"]
    bots = rng.choice((0, 0, 1))  # a random bot's seat goes through the bots' own path
    table, _ = open_table(humans=players - bots, bots=bots, level="random", **params)
    listener = Listener(table)
    with committed():
        services.table_start(table=table, user=table.created_by)
    table.refresh_from_db()
    checked = 0
    # The people play as basic bots: random play alone can go on for thousands of deals.
    chooser = make_bot("basic", seed=rng.randrange(1 << 30))
    secrets_now: set[str] = set()
    for _ in range(50_000):
        table.refresh_from_db(fields=["version", "status", "seats_version"])
        messages = listener.drain()
        if any('"revealed":[{' in text for _, text in messages) or not secrets_now:
            secrets_now = set(
                Dealing.objects.filter(table=table, revealed=False).values_list(
                    "server_seed", flat=True
                )
            )
        checked += check(table, messages, secrets_now)
        if table.status != Table.Status.PLAYING:
            assert_log_replays_to_the_result(table)
            return table, checked
        with committed():
            if scheduler.run_pending(limit=1):
                continue
            state = table_state.acquire(table)
            try:
                seat = state.match.to_act
                assert seat is not None
                action = chooser.decide(state.match.view(seat))
            finally:
                state.lock.release()
            services.action_submit(
                table_id=table.pk, seat=seat, action=action, expected_version=table.version
            )
    raise AssertionError("the match did not end")


SHARDS = 4  # the matches in four tests of their own, so that a parallel run spreads them


@pytest.mark.slow(seconds=12)
@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_message_to_any_seat_or_spectator_holds_a_hidden_card(shard: int) -> None:
    rng = random.Random(2026 + shard)
    matches = MATCHES // SHARDS
    finished = 0
    messages = 0
    for _ in range(matches):
        table, checked = play_match(rng)
        finished += table.status == Table.Status.FINISHED
        messages += checked
    assert finished == matches and messages > matches * 100


def test_every_deal_of_the_random_matches_verifies_against_its_commitment() -> None:
    rng = random.Random(7)
    for _ in range(20):
        table, _ = play_match(rng)
        checks = verify_record(MatchResult.objects.get(table=table).record)
        assert all(check.ok for check in checks), [c.to_dict() for c in checks if not c.ok]


def test_a_record_with_one_card_changed_fails_the_check() -> None:
    table, _ = play_match(random.Random(11))
    record = MatchResult.objects.get(table=table).record
    hands = record["deals"][0]["hands"]
    a, b = [seat for seat, hand in enumerate(hands) if hand][:2]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    assert verify_record(record)[0].ok is False
