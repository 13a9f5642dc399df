"""Cancelling and disqualifying as the organiser does it: a
cancel asks for a reason and tells the entrants; a disqualification after the event
finished is done (the standings follow); in a cancelled event it is refused before a
reason is asked for; a player put out mid-round reads why and has no Resign button."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from tests.tournaments.helpers import TournamentFactory, entered, play_round, running, settle
from tournaments import errors, selectors, services
from tournaments.models import Notification, Registration, Standing, Tournament

pytestmark = pytest.mark.django_db

S = Tournament.Status
R = Registration.Status


def admin_action(client: Client, model: str, action: str, pks: list[int], **extra: str) -> Any:
    return client.post(
        reverse(f"admin:tournaments_{model}_changelist"),
        {"action": action, "_selected_action": [str(pk) for pk in pks], **extra},
        follow=True,
    )


# ----------------------------------------------------------------------------- cancel


def test_a_cancel_without_a_reason_is_refused_and_changes_nothing() -> None:
    t = TournamentFactory()
    entered(t, 2)

    with pytest.raises(errors.Invalid, match="Say why"):
        services.tournament_cancel(tournament=t, reason="  ")

    t.refresh_from_db()
    assert t.status == S.REGISTRATION and not Notification.objects.exists()


def test_a_cancel_tells_every_entrant_why_in_his_notifications() -> None:
    t = TournamentFactory(name="Snow Cup")
    players = entered(t, 3)
    services.registration_withdraw(tournament=t, user=players[2])

    services.tournament_cancel(tournament=t, reason="The club is snowed in")

    told = Notification.objects.filter(kind=Notification.Kind.CANCELLED)
    assert sorted(told.values_list("user_id", flat=True)) == sorted(p.pk for p in players[:2])
    assert selectors.notification_text(told.first()) == (
        "Snow Cup is cancelled: The club is snowed in"
    )


def test_the_admin_cancel_asks_for_a_reason_before_it_acts(organiser: Client) -> None:
    t = TournamentFactory()
    entered(t, 2)

    asked = admin_action(organiser, "tournament", "cancel", [t.pk])
    t.refresh_from_db()
    assert t.status == S.REGISTRATION
    assert (
        'id="cancel-form"' in asked.content.decode() and 'name="reason"' in asked.content.decode()
    )

    admin_action(organiser, "tournament", "cancel", [t.pk], apply="1", reason="Snowed in")
    t.refresh_from_db()
    assert t.status == S.CANCELLED and t.cancel_reason == "Snowed in"


def test_a_cancelled_events_page_says_cancelled_with_the_reason_not_registered() -> None:
    t = TournamentFactory()
    player = entered(t, 2)[0]
    services.tournament_cancel(tournament=t, reason="The club is snowed in")
    client = Client()
    client.force_login(player)

    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()

    assert "The club is snowed in" in page and "cancelled with the tournament" in page
    assert "Your entry: registered" not in page


# ----------------------------------------------------------------------------- disqualify


def finished_swiss() -> tuple[Tournament, list[Any]]:
    t, users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    t.refresh_from_db()
    assert t.status == S.FINISHED
    return t, users


def test_a_player_disqualified_after_the_event_finished_loses_his_rank(
    organiser: Client,
) -> None:
    t, users = finished_swiss()
    reg = Registration.objects.get(tournament=t, user=users[0])

    page = admin_action(
        organiser, "registration", "disqualify", [reg.pk], apply="1", reason="Used a phone"
    ).content.decode()

    assert "That is not possible" not in page and "Disqualified: 1." in page
    out = Standing.objects.get(tournament=t, user=users[0])
    assert out.disqualified and out.rank is None
    ranks = sorted(
        Standing.objects.filter(tournament=t, rank__isnull=False).values_list("rank", flat=True)
    )
    assert ranks == [1, 2] or ranks == [1, 1]
    row = next(r for r in selectors.standings_rows(tournament=t) if r["disqualified"])
    assert row["reason"] == "Used a phone"


def test_disqualifying_in_a_cancelled_event_is_refused_before_a_reason_is_asked(
    organiser: Client,
) -> None:
    t = TournamentFactory()
    player = entered(t, 2)[0]
    services.tournament_cancel(tournament=t, reason="Snow")
    reg = Registration.objects.get(tournament=t, user=player)

    page = admin_action(organiser, "registration", "disqualify", [reg.pk]).content.decode()

    assert "cancelled tournament" in page and 'name="reason"' not in page
    reg.refresh_from_db()
    assert reg.status == R.REGISTERED


def test_a_player_disqualified_mid_round_reads_why_and_has_no_resign_button() -> None:
    t, users = running(3)
    reg = Registration.objects.get(tournament=t, user=users[0])
    table = Table.objects.get(seats__user=users[0], status=Table.Status.PLAYING)
    client = Client()
    client.force_login(users[0])
    assert 'class="resign"' in client.get(reverse("games:table", args=[table.pk])).content.decode()

    services.registration_disqualify(registration=reg, reason="Used a phone")

    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'class="resign"' not in page
    assert "disqualified you from this tournament: Used a phone" in page
