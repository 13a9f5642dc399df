"""No formula in an exported CSV: a player's display name or an
event's name that a spreadsheet would run (``=``, ``+``, ``-``, ``@``, tab, carriage
return first) gets a leading apostrophe in every CSV the service exports (OWASP, "CSV
Injection"); numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import user_profile_update
from tests.factories import UserFactory
from tests.tournaments.helpers import play_round, running, settle
from tournaments import selectors
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FORMULAS = ["=HYPERLINK(1)", "+1+1", "-2+3", "@SUM(A1)", "\tx=1", "\rx=1"]


@pytest.mark.parametrize("name", FORMULAS)
def test_a_cell_a_spreadsheet_would_run_gets_an_apostrophe(name: str) -> None:
    text = selectors.csv_text(("player", "score"), [{"player": name, "score": -120}])

    row = next(csv.DictReader(io.StringIO(text)))

    assert row == {"player": "'" + name, "score": "-120"}


@pytest.mark.parametrize("name", ["Anna", "O'Neil", "Ann = Bob", "", None])
def test_other_cells_are_left_as_they_are(name: str | None) -> None:
    text = selectors.csv_text(("player",), [{"player": name}])

    assert next(csv.DictReader(io.StringIO(text)))["player"] == (name or "")


def finished_with_names(*names: str) -> Tournament:
    t, users = running(3, rounds=1)
    for user, name in zip(users, names, strict=False):
        user_profile_update(user=user, display_name=name, country="", preferred_language="")
    play_round(t)
    settle(t, 30)
    return t


@pytest.mark.parametrize("export", ["standings_csv", "results_csv"])
def test_the_public_csvs_carry_no_formula(client: Client, export: str) -> None:
    t = finished_with_names("=cmd|'/c calc'!A0", "@SUM(1+1)", "+4")

    body = client.get(reverse(f"tournaments:{export}", args=[t.pk])).content.decode()

    players = {row["player"] for row in csv.DictReader(io.StringIO(body))}
    assert {"'=cmd|'/c calc'!A0", "'@SUM(1+1)", "'+4"} <= players
    assert not any(p.startswith(("=", "+", "-", "@")) for p in players)


def test_the_admin_export_of_several_events_carries_no_formula_in_their_names() -> None:
    t = finished_with_names("-Mallory")
    Tournament.objects.filter(pk=t.pk).update(name="=1+1")
    other = finished_with_names("Anna")
    organiser = Client()
    organiser.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = organiser.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "export_standings", "_selected_action": [t.pk, other.pk]},
    )

    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {r["tournament"] for r in rows} == {"'=1+1", other.name}
    assert "'-Mallory" in {r["player"] for r in rows}
