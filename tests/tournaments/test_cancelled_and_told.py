"""A cancelled tournament is not cancelled twice nor talked in; its entrants are counted
as listed; a player disqualified late or whose result is amended finds it in his
notifications (the bell)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from social import errors as social_errors
from social import services as social_services
from tests.tournaments.helpers import TournamentFactory, entered, play_round, running, settle
from tests.tournaments.test_cancel_and_disqualify import admin_action
from tournaments import selectors, services
from tournaments.models import Assignment, Notification, Registration, Tournament

pytestmark = pytest.mark.django_db


def test_cancelling_a_cancelled_tournament_asks_nothing_and_counts_nothing(organiser: Client):
    t = TournamentFactory(name="Snow Cup")
    entered(t, 2)
    services.tournament_cancel(tournament=t, reason="Snowed in")

    page = admin_action(organiser, "tournament", "cancel", [t.pk]).content.decode()

    assert "Snow Cup is already cancelled." in page
    assert 'name="reason"' not in page and "Cancelled: 1." not in page


def test_nobody_writes_in_a_cancelled_tournaments_chat():
    t = TournamentFactory()
    player = entered(t, 2)[0]
    services.tournament_cancel(tournament=t, reason="Snowed in")

    with pytest.raises(social_errors.Forbidden, match="cancelled"):
        social_services.chat_say(user=player, tournament_id=t.pk, text="so sad")


def finished_swiss() -> tuple[Tournament, list]:
    t, users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    t.refresh_from_db()
    return t, users


def test_the_entrants_heading_counts_the_players_it_lists_after_a_disqualification():
    t, users = finished_swiss()
    reg = Registration.objects.get(tournament=t, user=users[0])
    services.registration_disqualify(registration=reg, reason="Used a phone")

    page = Client().get(reverse("tournaments:detail", args=[t.pk])).content.decode()

    assert f"({len(users)})</h2>" in page


def test_a_player_disqualified_after_the_event_finished_is_told_in_his_notifications():
    t, users = finished_swiss()
    reg = Registration.objects.get(tournament=t, user=users[0])

    services.registration_disqualify(registration=reg, reason="Used a phone")

    note = Notification.objects.get(user=users[0], kind=Notification.Kind.DISQUALIFIED)
    assert selectors.notification_text(note) == (
        f"{t.name}: the organiser disqualified you: Used a phone"
    )


def test_every_player_at_an_amended_table_is_told_in_his_notifications():
    t, users = finished_swiss()
    a = Assignment.objects.get(round__tournament=t)
    played = [s.place for s in a.seats.order_by("number")]

    services.assignment_amend(assignment=a, places=played[::-1], reason="Scores misread")

    told = Notification.objects.filter(kind=Notification.Kind.AMENDED)
    assert sorted(told.values_list("user_id", flat=True)) == sorted(u.pk for u in users)
    assert "amended the places at your table: Scores misread" in selectors.notification_text(
        told.first()
    )
