"""An amended result as a player sees it, at 1280×800 and 390×844:
"My matches", the table page and the tournament page give the amended place, marked as
amended with the organiser's reason, and none of them says the places go by the scores."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.contrast import low_contrast
from tests.e2e.screens import SCREENS
from tests.e2e.steps import PASSWORD, sign_in

pytestmark = pytest.mark.timeout(300)

REASON = "Scores misread from the sheet"

# A Swiss table of 3 cut by the round's clock, its places turned round by the organiser
# (the unit tests' own builders, tests/tournaments): prints the player whose place
# changed, his new place, the table and the tournament.
AMENDED = """
from games.models import MatchResult, Table
from tests.factories import UserFactory
from tests.games.helpers import play_to_end
from tests.tournaments.helpers import step
from tests.tournaments.test_time_limit import long_round
from tournaments import services
UserFactory.reset_sequence({start})
t, a, limit = long_round()
step(t, limit)
play_to_end(Table.objects.get(pk=a.table_id))
step(t, limit + 1)
a.refresh_from_db()
played = MatchResult.objects.get(table_id=a.table_id).placements
places = list(range(len(played), 0, -1))
if places == played:
    places.reverse()
services.assignment_amend(assignment=a, places=places, reason="{reason}")
seat = next(s for s in a.seats.order_by("number") if places[s.number] != played[s.number])
seat.user.set_password("{password}")
seat.user.save()
print(seat.user.username, places[seat.number], a.table_id, t.pk)
"""


def amended_table(server: Any) -> tuple[str, int, int, int]:
    script = AMENDED.format(start=random.randrange(10**6, 10**9), reason=REASON, password=PASSWORD)
    printed = server.manage_output("shell", "-c", script).split()
    username, place, table_id, tournament_id = printed[-4:]  # the last line
    return username, int(place), int(table_id), int(tournament_id)


@SCREENS
def test_a_player_sees_his_amended_place_and_why_on_every_page(pages, e2e_server, screen):
    username, place, table_id, tournament_id = amended_table(e2e_server)
    page = pages.new(**screen)
    sign_in(page, username)

    page.goto("/matches/")
    row = page.locator(f"tr[data-table='{table_id}']")
    assert f"place {place}," in row.inner_text()
    assert f"The organiser amended the places: {REASON}" in row.inner_text()

    page.goto(f"/tables/{table_id}/")
    assert page.inner_text("#match-ending") == f"The organiser amended the places: {REASON}"
    assert f"You placed {place} at this table" in page.inner_text("#tournament-panel")

    page.goto(f"/tournaments/{tournament_id}/")
    first = page.locator(".round", has_text="Round 1")
    assert f"places amended by the organiser: {REASON}" in first.inner_text()
    assert "ranked by scores" not in first.inner_text()
    assert low_contrast(page, "section:has(#rounds)") == []
