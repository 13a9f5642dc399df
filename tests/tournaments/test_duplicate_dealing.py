"""A duplicate event's dealing (docs/duplicate.md, docs/fair-dealing.md "Duplicate rounds"):
each round's secret is committed before the round is seated, the entrants may add their
seeds until its tables start, and after the round the secret is revealed and verifies."""

from __future__ import annotations

import hashlib

import pytest

from games.engine.fair import Verdict, duplicate_server_seed, verify_record
from games.models import MatchResult
from tests.factories import UserFactory
from tests.games.helpers import current
from tests.tournaments.helpers import TournamentFactory, entered, play_round, settle, step
from tournaments import errors, services
from tournaments.models import Assignment, DuplicateDealing, EntrantSeed, Round, Tournament

pytestmark = pytest.mark.django_db


def duplicate_cup(**fields):
    """Two boards a round, classic rules: each table's match is its two deals."""
    return TournamentFactory(
        **{
            "format": Tournament.Format.DUPLICATE,
            "boards": 2,
            "preset": "classic",
            "match_target": None,
            **fields,
        }
    )


def test_round_one_is_committed_when_registration_opens_before_anybody_is_seated():
    t = duplicate_cup()
    entered(t, 3)
    dealing = DuplicateDealing.objects.get(tournament=t, round_number=1)
    assert not Round.objects.filter(tournament=t).exists()
    assert len(dealing.commitment) == 64 and dealing.revealed_at is None


def test_the_next_round_is_committed_when_a_round_is_seated():
    t = duplicate_cup()
    entered(t, 3)
    step(t, 0)  # round 1 seated
    assert Round.objects.filter(tournament=t, number=1).exists()
    assert not Round.objects.filter(tournament=t, number=2).exists()
    assert DuplicateDealing.objects.filter(tournament=t, round_number=2).exists()


def test_the_tables_play_the_round_as_a_match_of_its_boards():
    assert duplicate_cup(boards=6).table_options()["deals"] == 6


def test_entrants_add_seeds_once_before_the_round_starts_and_not_after():
    t = duplicate_cup()
    a, b, c = entered(t, 3)
    services.entrant_seed_give(tournament=t, user=a, seed="alice's own")
    with pytest.raises(errors.Invalid):
        services.entrant_seed_give(tournament=t, user=a, seed="again")
    with pytest.raises(errors.NotRegistered):
        services.entrant_seed_give(tournament=t, user=UserFactory(), seed="stranger")
    with pytest.raises(errors.Invalid):
        services.entrant_seed_give(tournament=t, user=b, seed="")
    step(t, 0)  # seated
    step(t, 0)  # the tables open: round 1's seeds are sealed
    assert DuplicateDealing.objects.get(tournament=t, round_number=1).sealed_at is not None
    # A seed given now goes to round 2, which is not sealed yet.
    given = services.entrant_seed_give(tournament=t, user=c, seed="for round two")
    assert given.dealing.round_number == 2


def test_two_tables_of_a_round_receive_the_same_hands_from_the_dealer():
    t = duplicate_cup()
    entered(t, 6)
    settle(t, 0)
    tables = [a.table for a in Assignment.objects.filter(round__tournament=t)]
    assert len(tables) == 2 and all(table.dealing_source for table in tables)
    hands = []
    for table in tables:
        match = current(table).match
        hands.append([match.deal.hands[(match.dealer + p) % 3] for p in range(3)])
    assert hands[0] == hands[1]


def test_the_round_seed_is_revealed_after_the_round_and_verifies():
    t = duplicate_cup()
    a, _b, _c = entered(t, 3)
    services.entrant_seed_give(tournament=t, user=a, seed="alice's own")
    dealing = DuplicateDealing.objects.get(tournament=t, round_number=1)
    published = dealing.commitment
    settle(t, 0)
    play_round(t)
    settle(t, 1)
    dealing.refresh_from_db()
    assert dealing.revealed_at is not None and dealing.commitment == published
    seed = bytes.fromhex(dealing.round_seed)
    assert hashlib.sha256(seed).hexdigest() == published
    assert services.dealing_server_seed(dealing, 3) == duplicate_server_seed(
        seed, {a.pk: "alice's own"}, 3
    )
    # Every table's record now carries its deals' seeds, and every deal verifies.
    for result in MatchResult.objects.filter(table__tournament_assignment__round__tournament=t):
        checks = verify_record(result.record)
        assert checks and all(c.verdict is Verdict.VERIFIED for c in checks)
        assert result.record["deals"][0]["dealing"]["duplicate"]["round_commitment"] == published


def test_the_sequence_is_not_given_out_before_the_seeds_are_final():
    t = duplicate_cup()
    entered(t, 3)
    dealing = DuplicateDealing.objects.get(tournament=t, round_number=1)
    with pytest.raises(errors.WrongState):
        services.dealing_server_seed(dealing, 0)


def test_the_boards_page_shows_every_tables_result_side_by_side_after_the_round(client):
    from django.urls import reverse

    from tournaments.duplicate import board_scores
    from tournaments.selectors.duplicate import round_board_results

    t = duplicate_cup()
    entered(t, 6)
    settle(t, 0)
    url = reverse("tournaments:round_boards", args=[t.pk, 1])
    assert client.get(url).status_code == 404  # secret while the round is played
    play_round(t)
    settle(t, 1)

    page = client.get(url).content.decode()

    results, _names = round_board_results(Round.objects.get(tournament=t, number=1))
    assert {r.table for r in results} == {1, 2} and {r.board for r in results} == {0, 1}
    scores = board_scores(results)
    assert page.count('class="board-row"') == len(scores) == 12
    assert "Board 2" in page and "the room averaged" in page
    detail = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert url in detail  # the event's page links each finished round's boards
    for s in scores:
        assert f"{s.percent:.0f}%" in page


def test_the_standings_go_by_the_board_percentages_once_the_round_is_over():
    from tournaments.duplicate import board_scores
    from tournaments.duplicate import standings as duplicate_standings
    from tournaments.models import Standing
    from tournaments.selectors.duplicate import round_board_results

    t = duplicate_cup()
    entered(t, 6)
    settle(t, 0)
    play_round(t)
    settle(t, 1)

    results, _ = round_board_results(Round.objects.get(tournament=t, number=1))
    want = duplicate_standings(board_scores(results))
    rows = list(Standing.objects.filter(tournament=t).order_by("position"))
    assert [(s.user_id, s.rank, s.points, s.matches) for s in rows] == [
        (r.entrant, r.rank, round(r.total), r.boards) for r in want
    ]
    assert len(rows) == 6 and all(s.matches == 2 for s in rows)


def test_the_admin_schedules_and_starts_a_duplicate_evening_as_any_other():
    from django.urls import reverse

    from tests.tournaments.test_pages import signed_in

    organiser = signed_in(UserFactory(is_staff=True, is_superuser=True))
    add = organiser.get(reverse("admin:tournaments_tournament_add")).content.decode()
    assert 'name="boards"' in add and 'name="movement"' in add and 'name="duplicate_bots"' in add
    t = duplicate_cup(status=Tournament.Status.DRAFT)
    changelist = reverse("admin:tournaments_tournament_changelist")
    organiser.post(changelist, {"action": "schedule", "_selected_action": [t.pk]})
    organiser.post(changelist, {"action": "open_registration", "_selected_action": [t.pk]})
    entered(t, 3)
    organiser.post(changelist, {"action": "start_now", "_selected_action": [t.pk]})
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.round_set.count() == 1
    assert DuplicateDealing.objects.filter(tournament=t, round_number__in=(1, 2)).count() == 2


def test_an_entrant_adds_his_seed_on_the_events_page_under_the_published_commitment():
    from django.urls import reverse

    from tests.tournaments.test_pages import signed_in

    t = duplicate_cup()
    [player] = entered(t, 1)
    commitment = DuplicateDealing.objects.get(tournament=t, round_number=1).commitment
    page = signed_in(player)
    detail = reverse("tournaments:detail", args=[t.pk])
    before = page.get(detail).content.decode()
    assert commitment in before and 'name="seed"' in before

    page.post(reverse("tournaments:give_seed", args=[t.pk]), {"seed": "my lucky words"})

    after = page.get(detail).content.decode()
    assert "my lucky words" in after and 'name="seed"' not in after
    assert EntrantSeed.objects.get(user=player).seed == "my lucky words"
