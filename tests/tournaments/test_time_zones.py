"""Every time of a tournament says its zone, in the viewer's zone: the
round heading on the tournament page, the admin's schedule fields and its "Finished"
columns (accounts/timezones.py: a profile's zone, else the site's)."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.helpers import TournamentFactory, entered, play_round, running, settle
from tournaments import services

pytestmark = pytest.mark.django_db

KYIV = "Europe/Kyiv"


def client_in(zone: str, **fields: object) -> Client:
    client = Client()
    client.force_login(UserFactory(time_zone=zone, **fields))
    return client


def test_the_seated_rounds_start_is_a_24_hour_time_in_the_players_zone_with_its_name() -> None:
    t = TournamentFactory(break_seconds=600)
    entered(t, 3)
    services.tournament_start(tournament=t, early=True)  # round 1 seated, starts in 10 min
    starts = t.round_set.get().starts_at.astimezone(ZoneInfo(KYIV))

    page = client_in(KYIV).get(reverse("tournaments:detail", args=[t.pk])).content.decode()

    heading = re.search(r"\(starts at (.*?)\)</span>", page)
    assert heading is not None, page
    assert f">{starts:%H:%M} {starts.tzname()}</time>" in heading.group(1)
    assert "p.m." not in heading.group(1) and "a.m." not in heading.group(1)


def test_the_admins_schedule_fields_say_which_zone_they_are_in() -> None:
    organiser = client_in(KYIV, is_staff=True, is_superuser=True)

    page = organiser.get(reverse("admin:tournaments_tournament_add")).content.decode()

    for field in ("registration_opens_at", "registration_closes_at", "starts_at"):
        help_text = re.search(rf'id="id_{field}_helptext">\s*<div>(.*?)</div>', page, re.S)
        assert help_text is not None, field
        assert "Times are in Europe/Kyiv" in help_text.group(1)


def test_the_admins_finished_columns_show_the_time_with_its_zone() -> None:
    t, _users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    rnd = t.round_set.get()
    finished = rnd.finished_at.astimezone(ZoneInfo(KYIV))
    organiser = client_in(KYIV, is_staff=True, is_superuser=True)

    rounds = organiser.get(reverse("admin:tournaments_round_changelist")).content.decode()
    tables = organiser.get(reverse("admin:tournaments_assignment_changelist")).content.decode()
    record = organiser.get(reverse("admin:tournaments_tournament_change", args=[t.pk]))

    assert f"{finished:%Y-%m-%d %H:%M} {finished.tzname()}" in rounds
    assert f" {finished.tzname()}</td>" in tables
    assert "Times are in Europe/Kyiv" in record.content.decode()
