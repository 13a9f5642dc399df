"""Tournament pages, REST API and admin site, as a player and an organiser use them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.helpers import TournamentFactory, entered, running
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

S = Tournament.Status


def open_for_entries(**fields: Any) -> Tournament:
    """Registration open now (the tick would open it); starts tomorrow."""
    t = TournamentFactory(**fields)
    services.tournament_open_registration(tournament=t)
    t.refresh_from_db()
    return t


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ----------------------------------------------------------------------------- pages


def test_the_list_shows_upcoming_running_and_finished_but_not_drafts(client: Client) -> None:
    TournamentFactory(name="Spring Swiss")
    TournamentFactory(name="Secret draft", status=S.DRAFT)
    running(3, name="Live now")
    page = client.get(reverse("tournaments")).content.decode()
    assert "Spring Swiss" in page and "Live now" in page
    assert "Secret draft" not in page


def test_the_detail_tells_the_rules_in_plain_words(client: Client) -> None:
    t = TournamentFactory(rounds=5, round_minutes=40, placement_points=[3, 1, 0])
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Swiss: 5 rounds" in page
    assert "3, 1, 0" in page
    assert "40 minutes" in page


def test_a_draft_is_not_found(client: Client) -> None:
    t = TournamentFactory(status=S.DRAFT)
    assert client.get(reverse("tournaments:detail", args=[t.pk])).status_code == 404


def test_a_player_registers_and_withdraws_on_the_page() -> None:
    t = open_for_entries()
    user = UserFactory()
    client = signed_in(user)
    page = client.post(reverse("tournaments:register", args=[t.pk]), follow=True).content.decode()
    assert "You are registered." in page
    assert (
        Registration.objects.get(tournament=t, user=user).status == Registration.Status.REGISTERED
    )
    client.post(reverse("tournaments:withdraw", args=[t.pk]))
    assert Registration.objects.get(tournament=t, user=user).status == Registration.Status.WITHDRAWN


def test_a_player_checks_in_on_the_page() -> None:
    t = open_for_entries(check_in_minutes=30)
    [user] = entered(t, 1, checked_in=False)
    services.tournament_open_check_in(tournament=t)
    signed_in(user).post(reverse("tournaments:check_in", args=[t.pk]))
    assert (
        Registration.objects.get(tournament=t, user=user).status == Registration.Status.CHECKED_IN
    )


def test_a_player_sees_his_place_in_the_standings_on_the_page() -> None:
    t, users = running(3)
    page = signed_in(users[0]).get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Your place: 1 of 3." in page  # nobody has played yet: all share the first place


def test_withdrawing_from_a_running_tournament_asks_first() -> None:
    t, users = running(3)
    page = signed_in(users[0]).get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'data-confirm="Withdraw from the tournament? You will not be seated again."' in page


def test_registering_when_closed_says_why_and_changes_nothing() -> None:
    t = TournamentFactory()  # registration not open yet
    user = UserFactory()
    page = signed_in(user).post(reverse("tournaments:register", args=[t.pk]), follow=True)
    assert "Registration is not open." in page.content.decode()
    assert not Registration.objects.filter(tournament=t).exists()


def test_registering_needs_a_sign_in(client: Client) -> None:
    t = open_for_entries()
    response = client.post(reverse("tournaments:register", args=[t.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_running_tournament_shows_standings_and_links_to_its_live_tables(client: Client) -> None:
    t, users = running(3)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    table_id = t.round_set.get().assignments.get().table_id
    assert f"/tables/{table_id}/" in page
    assert users[0].get_display_name() in page


def test_the_live_part_of_the_page_comes_alone(client: Client) -> None:
    t, _users = running(3)
    part = client.get(reverse("tournaments:detail", args=[t.pk]) + "?part=live").content.decode()
    assert "<html" not in part and "Standings" in part


def test_the_live_parts_carry_the_players_entry_so_check_in_shows_without_a_reload() -> None:
    t = open_for_entries(check_in_minutes=30)
    [user] = entered(t, 1, checked_in=False)
    services.tournament_open_check_in(tournament=t)
    url = reverse("tournaments:detail", args=[t.pk]) + "?part=live"
    part = signed_in(user).get(url).content.decode()
    assert reverse("tournaments:check_in", args=[t.pk]) in part


def test_anyone_may_watch_a_tournament_table(client: Client) -> None:
    t, _users = running(3)
    table_id = t.round_set.get().assignments.get().table_id
    assert client.get(f"/tables/{table_id}/").status_code == 200


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", ["«Простая»", "«обычный»", "Бот (обычный)"]), ("uk", ["«Проста»", "«звичайний»"])],
)
def test_the_rules_name_the_preset_and_the_bots_in_the_pages_language(
    client: Client, language: str, words: list[str]
) -> None:
    t, _users = running(2)  # a table with a bot
    page = client.get(reverse("tournaments:detail", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode()
    assert [word for word in words if word not in text] == []


def test_rule_changes_are_told_in_words(client: Client) -> None:
    t = TournamentFactory(options={"dark": True})
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Rule changes: Dark game (тёмная): on." in page


def test_registration_closed_early_is_said_on_the_page_and_in_the_list(client: Client) -> None:
    t = open_for_entries(name="Closed Cup")
    services.tournament_close_registration(tournament=t)
    detail = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    listed = client.get(reverse("tournaments")).content.decode()
    assert "<strong>Registration closed</strong>" in detail
    assert "<td>Registration closed</td>" in listed


def test_a_cancelled_tournament_does_not_announce_when_its_seated_round_starts(
    client: Client,
) -> None:
    t = TournamentFactory(break_seconds=600)
    entered(t, 3)
    services.tournament_start(tournament=t, early=True)  # round 1 seated, opens in 10 min
    services.tournament_cancel(tournament=t, reason="Snow")
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "starts at" not in page


@pytest.mark.parametrize(("language", "word"), [("ru", "Правила"), ("uk", "Правила")])
def test_the_detail_page_is_translated(client: Client, language: str, word: str) -> None:
    t = TournamentFactory()
    page = client.get(reverse("tournaments:detail", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode()
    assert word in text and "Rules" not in text


# ----------------------------------------------------------------------------- API


def test_the_api_lists_tournaments_and_gives_one_with_its_rules() -> None:
    t = TournamentFactory(name="API Cup")
    api = APIClient()
    listed = api.get("/api/v1/tournaments/?status=upcoming").json()
    assert [row["name"] for row in listed] == ["API Cup"]
    detail = api.get(f"/api/v1/tournaments/{t.pk}/").json()
    assert detail["format"] == "swiss" and detail["rules"] and detail["me"]["status"] is None


def test_the_api_registers_a_player_and_says_why_it_cannot() -> None:
    t = open_for_entries(max_players=2)
    entered(t, 2)
    api = APIClient()
    api.force_authenticate(UserFactory())
    answer = api.post(f"/api/v1/tournaments/{t.pk}/register/")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "tournament_full"


def test_the_api_gives_standings_and_rounds() -> None:
    t, _users = running(3)
    api = APIClient()
    standings = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    rounds = api.get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
    assert len(standings) == 3
    assert rounds[0]["tables"][0]["table_id"] is not None


def test_the_tournament_api_is_in_the_openapi_schema(client: Client) -> None:
    schema = client.get(reverse("api-schema")).content.decode()
    assert "/api/v1/tournaments/{tournament_id}/register/" in schema


# ----------------------------------------------------------------------------- admin


@pytest.fixture
def organiser() -> Client:
    return signed_in(UserFactory(is_staff=True, is_superuser=True))


def test_the_admin_lists_tournaments_with_filters_and_search(organiser: Client) -> None:
    TournamentFactory(name="Autumn Knockout", format=Tournament.Format.KNOCKOUT, rounds=None)
    page = organiser.get(
        reverse("admin:tournaments_tournament_changelist") + "?q=Autumn&format__exact=knockout"
    )
    assert page.status_code == 200 and "Autumn Knockout" in page.content.decode()


def test_the_admin_starts_a_tournament_now(organiser: Client) -> None:
    t = open_for_entries()
    entered(t, 3)
    organiser.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "start_now", "_selected_action": [t.pk]},
    )
    t.refresh_from_db()
    assert t.status == S.RUNNING and t.round_set.count() == 1


def test_the_admin_schedules_a_draft(organiser: Client) -> None:
    t = TournamentFactory(status=S.DRAFT)
    organiser.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "schedule", "_selected_action": [t.pk]},
    )
    t.refresh_from_db()
    assert t.status == S.SCHEDULED


def test_the_admin_disqualifies_a_player_after_asking_for_a_reason(organiser: Client) -> None:
    t = open_for_entries()
    [user] = entered(t, 1)
    reg = Registration.objects.get(tournament=t, user=user)
    changelist = reverse("admin:tournaments_registration_changelist")
    asked = organiser.post(changelist, {"action": "disqualify", "_selected_action": [reg.pk]})
    reg.refresh_from_db()
    assert (
        reg.status == Registration.Status.REGISTERED and 'name="reason"' in asked.content.decode()
    )
    organiser.post(
        changelist,
        {"action": "disqualify", "_selected_action": [reg.pk], "apply": "1", "reason": "cheating"},
    )
    reg.refresh_from_db()
    assert reg.status == Registration.Status.DISQUALIFIED and reg.reason == "cheating"


def test_the_admin_pages_of_a_running_tournament_open(organiser: Client) -> None:
    t, _users = running(3)
    rnd = t.round_set.get()
    a = rnd.assignments.get()
    for url in (
        reverse("admin:tournaments_tournament_change", args=[t.pk]),
        reverse("admin:tournaments_round_change", args=[rnd.pk]),
        reverse("admin:tournaments_assignment_change", args=[a.pk]),
        reverse("admin:tournaments_registration_changelist"),
        reverse("admin:tournaments_standing_changelist"),
    ):
        assert organiser.get(url).status_code == 200, url


def test_the_rules_are_locked_once_scheduled(organiser: Client) -> None:
    t = TournamentFactory()
    page = organiser.get(
        reverse("admin:tournaments_tournament_change", args=[t.pk])
    ).content.decode()
    assert 'name="preset"' not in page


def test_the_admin_amends_a_finished_tables_result(organiser: Client) -> None:
    from tests.tournaments.helpers import play_round, settle
    from tournaments.models import Standing

    t, _users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    a = t.round_set.get().assignments.get()
    seats = list(a.seats.order_by("number"))
    places = ["1" if s.place == 3 else "3" if s.place == 1 else "2" for s in seats]
    if sorted(places) != ["1", "2", "3"]:  # shared places: make them plain
        places = ["1", "2", "3"]
    organiser.post(
        reverse("admin:tournaments_assignment_change", args=[a.pk]),
        {"places": ", ".join(places), "reason": "wrong scores", "seats-TOTAL_FORMS": "0",
         "seats-INITIAL_FORMS": "0", "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "0"},
    )  # fmt: skip
    a.refresh_from_db()
    top = Standing.objects.get(tournament=t, position=1)
    assert a.amended and top.user_id == seats[places.index("1")].user_id


def test_the_admin_deletes_a_draft_but_not_an_announced_tournament(organiser: Client) -> None:
    draft, announced = TournamentFactory(status=S.DRAFT), TournamentFactory()
    delete = "admin:tournaments_tournament_delete"
    assert organiser.get(reverse(delete, args=[draft.pk])).status_code == 200
    assert organiser.get(reverse(delete, args=[announced.pk])).status_code == 403
    changelist = organiser.get(reverse("admin:tournaments_tournament_changelist"))
    assert 'value="delete_selected"' not in changelist.content.decode()


def test_the_admin_deletes_no_round_table_registration_or_standing(organiser: Client) -> None:
    t, _users = running(3)
    rnd = t.round_set.get()
    urls = [
        reverse("admin:tournaments_round_delete", args=[rnd.pk]),
        reverse("admin:tournaments_assignment_delete", args=[rnd.assignments.get().pk]),
        reverse("admin:tournaments_registration_delete", args=[t.registrations.first().pk]),
        reverse("admin:tournaments_standing_delete", args=[t.standings.first().pk]),
    ]
    assert [organiser.get(url).status_code for url in urls] == [403] * 4
