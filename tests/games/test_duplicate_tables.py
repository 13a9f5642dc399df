"""Tables of a duplicate round (docs/duplicate.md, docs/fair-dealing.md "Duplicate rounds"):
they deal from the round's one sequence, so the same position from the dealer gets the
same cards at every table; a redeal moves only its own table to the next dealing; the
seeds stay secret until the round reveals them, and the records then verify."""

from __future__ import annotations

import pytest

from games import errors, selectors, services
from games.engine import Redeal
from games.engine.fair import (
    Verdict,
    commitment,
    duplicate_deal,
    duplicate_server_seed,
    verify_record,
)
from games.models import Dealing, MatchResult
from tests.factories import UserFactory
from tests.games.helpers import committed, current, human_turn

pytestmark = pytest.mark.django_db

ENTRANTS = {"11": "alice's seed"}


def source(round_seed: bytes) -> dict:
    return {
        "round_seed": round_seed.hex(),
        "round_commitment": commitment(round_seed),
        "entrant_seeds": dict(ENTRANTS),
    }


def duplicate_table(round_seed: bytes, first_dealer: int, *, deals: int = 1):
    users = [UserFactory() for _ in range(3)]
    table = services.table_create(
        user=users[0], players=3, options={"deals": deals}, dealing_source=source(round_seed)
    )
    for user in users[1:]:
        services.table_join(table=table, user=user, invite_code=table.invite_code)
    with committed():
        services.table_start(table=table, user=users[0], first_dealer=first_dealer)
    table.refresh_from_db()
    return table


def by_position(table) -> list[int]:
    """The hands of the deal in play, from the dealer round the table."""
    match = current(table).match
    n = match.players
    return [match.deal.hands[(match.dealer + p) % n] for p in range(n)]


def sequence(round_seed: bytes, index: int) -> bytes:
    return duplicate_server_seed(round_seed, {int(k): v for k, v in ENTRANTS.items()}, index)


def redeal_seed() -> bytes:
    """A round seed whose dealing 0 lets the first speaker ask for a redeal (§2.9)."""
    for k in range(500):
        seed = k.to_bytes(32, "big")
        hands, _ = duplicate_deal(sequence(seed, 0), 3, 0)
        speaker = hands[2]  # dealer 0: seat 1 is forced, seat 2 speaks first
        points = sum((0, 2, 3, 4, 10, 11)[c % 6] for c in range(24) if speaker >> c & 1)
        nines = sum(1 for c in range(24) if speaker >> c & 1 and c % 6 == 0)
        jacks = sum(1 for c in range(24) if speaker >> c & 1 and c % 6 == 1)
        if points <= 13 or nines >= 3 or jacks == 4:
            return seed
    raise AssertionError("no round seed with a redeal in 500")


def test_every_table_of_the_round_gives_each_position_the_same_cards():
    seed = bytes(range(32))
    a, b = duplicate_table(seed, 0), duplicate_table(seed, 2)
    assert by_position(a) == by_position(b)
    dealt = duplicate_deal(sequence(seed, 0), 3, 0)[0]
    assert by_position(a) == dealt


def test_a_redeal_moves_only_its_own_table_to_the_next_dealing():
    seed = redeal_seed()
    a, b = duplicate_table(seed, 0), duplicate_table(seed, 0)
    before = by_position(b)
    with committed():
        services.action_submit(table_id=a.pk, seat=2, action=Redeal(), expected_version=a.version)
    a.refresh_from_db()
    # Table A deals its board 0 again from dealing 1, by the same dealer (§2.9) ...
    assert current(a).match.dealer == 0
    assert by_position(a) == duplicate_deal(sequence(seed, 1), 3, 0)[0] != before
    # ... while table B's board 0 is still dealing 0.
    assert by_position(b) == before
    assert sorted(Dealing.objects.filter(table=b).values_list("number", flat=True)) == [0, 1]


def test_a_duplicate_dealing_takes_no_seed_at_the_table():
    table = duplicate_table(bytes(range(32)), 0)
    seated = table.seats.get(number=0).user
    with pytest.raises(errors.InvalidSeed, match="duplicate"):
        services.dealing_add_seed(table_id=table.pk, user=seated, dealing=1, seed="mine")


def play_out(table) -> MatchResult:
    for _ in range(500):
        if not human_turn(table):
            break
    return MatchResult.objects.get(table=table)


def test_the_seeds_stay_secret_until_the_round_reveals_them_then_the_record_verifies():
    seed = bytes(range(32))
    table = duplicate_table(seed, 1)
    result = play_out(table)
    assert result.finished_by == "deals"
    assert not Dealing.objects.filter(table=table, revealed=True).exists()
    assert all("dealing" not in deal for deal in result.record["deals"])

    services.table_dealings_reveal(table=table)

    result.refresh_from_db()
    checks = verify_record(result.record)
    assert checks and all(c.verdict is Verdict.VERIFIED for c in checks)
    first = result.record["deals"][0]["dealing"]["duplicate"]
    assert (first["index"], first["round_commitment"]) == (0, commitment(seed))


def test_nobody_but_its_players_watches_a_duplicate_table_or_its_record_before_the_reveal():
    table = duplicate_table(bytes(range(32)), 0)
    seated = table.seats.get(number=0).user
    stranger = UserFactory()
    assert selectors.may_watch(table=table, user=seated, invite_code=None)
    assert not selectors.may_watch(table=table, user=stranger, invite_code=None)
    play_out(table)
    with pytest.raises(errors.NotFinished, match="secret"):
        selectors.match_record_export(table_id=table.pk)

    services.table_dealings_reveal(table=table)

    assert selectors.may_watch(table=table, user=stranger, invite_code=None)
    assert selectors.match_record_export(table_id=table.pk)["deals"]


def test_the_admin_never_shows_a_duplicate_rounds_seed(client):
    from django.urls import reverse

    table = duplicate_table(bytes(range(32)), 0)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:games_table_change", args=[table.pk])).content.decode()
    assert page.count("form") and bytes(range(32)).hex() not in page
