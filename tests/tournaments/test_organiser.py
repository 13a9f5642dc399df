"""The organiser's evening: walk-ins from the admin site (also after check-in opened,
and late into a running Swiss), manual seeds, disqualification with a reason shown in
the standings, the printable round sheet and standings, CSV and JSON exports,
announcements and the notification area, and the overlap warning."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import NoticeKind
from accounts.services import notices_choose
from tests.factories import UserFactory
from tests.games.helpers import committed
from tests.tournaments.helpers import (
    TournamentFactory,
    at,
    entered,
    play_round,
    running,
    settle,
    step,
)
from tournaments import errors, notices, selectors, services
from tournaments.models import AssignmentSeat, Notification, Registration, Tournament

pytestmark = pytest.mark.django_db

S = Tournament.Status
R = Registration.Status


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def walk_in(organiser: Client, t: Tournament, user: Any, **extra: Any) -> Any:
    return organiser.post(
        reverse("admin:tournaments_registration_add"),
        {"tournament": t.pk, "user": user.pk, "check_in": "on", **extra},
    )


# ----------------------------------------------------------------------------- walk-ins


def test_the_admin_enters_a_walk_in_after_check_in_opened_checked_in(organiser: Client) -> None:
    t = TournamentFactory(check_in_minutes=30)
    entered(t, 3)
    t.refresh_from_db()
    assert t.status == S.CHECK_IN
    newcomer = UserFactory()
    walk_in(organiser, t, newcomer)
    reg = Registration.objects.get(tournament=t, user=newcomer)
    assert reg.status == R.CHECKED_IN and reg.checked_in_at >= reg.registered_at


def test_the_admin_finds_a_player_by_name_for_a_walk_in(organiser: Client) -> None:
    UserFactory(username="vasya", display_name="Vasily Pupkin")
    found = organiser.get(
        reverse("admin:autocomplete"),
        {"term": "Pupkin", "app_label": "tournaments", "model_name": "registration",
         "field_name": "user"},
    )  # fmt: skip
    assert found.status_code == 200 and "Vasily Pupkin" in found.content.decode()


def test_a_walk_in_refused_by_the_service_says_why_and_enters_nobody(organiser: Client) -> None:
    t, _users = running(3, format=Tournament.Format.KNOCKOUT, rounds=None)
    newcomer = UserFactory()
    page = walk_in(organiser, t, newcomer)
    assert not Registration.objects.filter(tournament=t, user=newcomer).exists()
    assert page.status_code in (200, 302)


def test_a_walk_in_joins_a_running_swiss_from_its_next_round() -> None:
    t, _users = running(3, rounds=2)
    late = UserFactory()
    services.registration_add_walk_in(tournament=t, user=late)
    play_round(t)
    settle(t, 30)
    second = t.round_set.get(number=2)
    assert AssignmentSeat.objects.filter(assignment__round=second, user=late).exists()


def test_the_admin_checks_in_and_withdraws_players(organiser: Client) -> None:
    t = TournamentFactory(check_in_minutes=30)
    a, b = entered(t, 2, checked_in=False)
    regs = {r.user_id: r for r in Registration.objects.filter(tournament=t)}
    changelist = reverse("admin:tournaments_registration_changelist")
    organiser.post(changelist, {"action": "check_in", "_selected_action": [regs[a.pk].pk]})
    organiser.post(changelist, {"action": "withdraw", "_selected_action": [regs[b.pk].pk]})
    assert Registration.objects.get(pk=regs[a.pk].pk).status == R.CHECKED_IN
    assert Registration.objects.get(pk=regs[b.pk].pk).status == R.WITHDRAWN


# ----------------------------------------------------------------------------- seeding


def test_manual_seeds_come_before_ratings_in_a_knockouts_first_round() -> None:
    t = TournamentFactory(format=Tournament.Format.KNOCKOUT, rounds=None, players_per_table=2)
    users = entered(t, 4)
    Registration.objects.filter(tournament=t, user=users[3]).update(seed=1)
    assert selectors.entrants(t)[0].user_id == users[3].pk
    step(t, 0)
    first = t.round_set.get(number=1).assignments.get(number=1)
    assert users[3].pk in set(first.seats.values_list("user_id", flat=True))


def test_the_entrants_list_shows_the_seeds(client: Client) -> None:
    t = TournamentFactory()
    users = entered(t, 2)
    Registration.objects.filter(tournament=t, user=users[1]).update(seed=1)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'title="seed">1</span>' in page


# ----------------------------------------------------------------------------- disqualify


def test_a_disqualification_reason_shows_in_the_standings(client: Client) -> None:
    t, users = running(3)
    reg = Registration.objects.get(tournament=t, user=users[0])
    services.registration_disqualify(registration=reg, reason="Left the club early")
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Left the club early" in page
    row = next(r for r in selectors.standings_rows(tournament=t) if r["disqualified"])
    assert row["reason"] == "Left the club early"


# ----------------------------------------------------------------------------- sheets, exports


def finished_swiss() -> Tournament:
    t, _users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    t.refresh_from_db()
    assert t.status == S.FINISHED
    return t


def test_the_round_sheet_lists_every_table_seat_and_player_with_the_start(client: Client) -> None:
    t, _users = running(4, rounds=1)
    page = client.get(reverse("tournaments:round_sheet", args=[t.pk, 1])).content.decode()
    rnd = t.round_set.get()
    for seat in rnd.assignments.get(number=1).seats.exclude(user=None):
        assert seat.user.get_display_name() in page
    assert "Round 1" in page and "UTC" in page


def test_the_round_sheet_gives_the_start_as_the_pages_do_in_24_hours(client: Client) -> None:
    t, _users = running(3, rounds=1)
    rnd = t.round_set.get()
    rnd.starts_at = datetime(2026, 12, 3, 20, 11, tzinfo=UTC)
    rnd.save(update_fields=["starts_at"])

    page = client.get(reverse("tournaments:round_sheet", args=[t.pk, 1])).content.decode()

    assert "starts 3 December 2026, 20:11 UTC" in page


def test_a_round_that_does_not_exist_has_no_sheet(client: Client) -> None:
    t, _users = running(3, rounds=1)
    assert client.get(reverse("tournaments:round_sheet", args=[t.pk, 9])).status_code == 404


def test_the_final_standings_print_page(client: Client) -> None:
    t = finished_swiss()
    page = client.get(reverse("tournaments:standings_print", args=[t.pk])).content.decode()
    assert "Final standings" in page


def test_the_standings_csv_matches_the_standings(client: Client) -> None:
    t = finished_swiss()
    body = client.get(reverse("tournaments:standings_csv", args=[t.pk])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    expected = [
        (str(s.rank), s.user.get_display_name(), str(s.points))
        for s in selectors.standings(tournament=t)
    ]
    assert [(r["rank"], r["player"], r["points"]) for r in rows] == expected


def test_the_results_csv_has_every_seat_with_its_place_and_the_api_the_same(client: Client) -> None:
    t = finished_swiss()
    body = client.get(reverse("tournaments:results_csv", args=[t.pk])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    api = client.get(reverse("api-tournament-results", args=[t.pk])).json()
    assert len(rows) == len(api) == 3
    assert [r["place"] for r in rows] == [str(a["place"]) for a in api]
    assert {r["finished_by"] for r in rows} == {"won"}


def test_the_admin_exports_the_standings_as_csv(organiser: Client) -> None:
    t = finished_swiss()
    response = organiser.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "export_standings", "_selected_action": [t.pk]},
    )
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.decode().splitlines()[0].startswith("rank,player,points")


def test_the_admin_list_links_each_event_to_its_public_page(organiser: Client) -> None:
    t = TournamentFactory(name="Club night")
    page = organiser.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert reverse("tournaments:detail", args=[t.pk]) in page


# ----------------------------------------------------------------------------- announcements


def test_an_announcement_reaches_every_entrant_on_the_page_and_in_the_header() -> None:
    t = TournamentFactory()
    users = entered(t, 3)
    notices.announcement_create(tournament=t, text="Tea at the break!")
    player = signed_in(users[0])
    page = player.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Tea at the break!" in page
    area = player.get(reverse("tournaments:notifications")).content.decode()
    assert 'id="notifications-unread">1<' in area.replace("\n", "")


def test_an_empty_announcement_is_refused_and_sends_nothing() -> None:
    t = TournamentFactory()
    entered(t, 2)
    with pytest.raises(errors.Invalid):
        notices.announcement_create(tournament=t, text="   ")
    assert not Notification.objects.exists()


def test_reading_the_notifications_clears_the_unread_count() -> None:
    t = TournamentFactory()
    [user] = entered(t, 1)
    notices.announcement_create(tournament=t, text="Hello")
    player = signed_in(user)
    player.post(reverse("tournaments:notifications_read"), HTTP_X_REQUESTED_WITH="fetch")
    assert selectors.notification_area(user=user).unread == 0


def test_entrants_are_told_when_check_in_opens_and_when_their_table_is_ready() -> None:
    t = TournamentFactory(check_in_minutes=30)
    users = entered(t, 3)
    kinds = set(Notification.objects.filter(user=users[0]).values_list("kind", flat=True))
    assert Notification.Kind.CHECK_IN in kinds
    step(t, 0)
    step(t, 0)
    ready = Notification.objects.get(user=users[0], kind=Notification.Kind.TABLE_READY)
    assert ready.url.startswith("/tables/")


# ----------------------------------------------------------------------------- conflicts


def test_registering_for_an_overlapping_event_warns() -> None:
    user = UserFactory()
    first = TournamentFactory(name="Early cup", rounds=2, round_minutes=60)
    second = TournamentFactory(name="Late cup", starts_at=first.starts_at + timedelta(minutes=30))
    for t in (first, second):
        services.tournament_open_registration(tournament=t)
        services.registration_create(tournament=t, user=user, now=at(-60))
    assert "Early cup" in selectors.overlap_warning(tournament=second, user=user)


def test_events_far_apart_do_not_warn() -> None:
    user = UserFactory()
    first = TournamentFactory(rounds=2, round_minutes=60)
    second = TournamentFactory(starts_at=first.starts_at + timedelta(days=1))
    for t in (first, second):
        services.tournament_open_registration(tournament=t)
        services.registration_create(tournament=t, user=user, now=at(-60))
    assert selectors.overlap_warning(tournament=second, user=user) == ""


def test_the_admin_warns_of_an_overlap_when_entering_a_walk_in(organiser: Client) -> None:
    user = UserFactory()
    first = TournamentFactory(name="Early cup", rounds=2, round_minutes=60)
    services.tournament_open_registration(tournament=first)
    services.registration_create(tournament=first, user=user, now=at(-60))
    second = TournamentFactory(name="Late cup", starts_at=first.starts_at + timedelta(minutes=30))
    page = walk_in(organiser, second, user, _continue="1")
    followed = organiser.get(page["Location"]).content.decode()
    assert "overlapping times" in followed


def _confirmed(user: Any, email: str, *kinds: str) -> None:
    """A confirmed address (as the mailed link leaves it) and the notices chosen."""
    user.email = email
    user.save(update_fields=["email"])
    notices_choose(user=user, kinds=kinds)


def test_an_announcement_is_mailed_to_each_entrant_who_chose_tournament_notices(
    mailoutbox,
) -> None:
    t = TournamentFactory(name="Mail cup")
    users = entered(t, 3)
    _confirmed(users[0], "p0@example.com", NoticeKind.TOURNAMENT_REMINDER)
    _confirmed(users[1], "p1@example.com", NoticeKind.TOURNAMENT_REMINDER)
    _confirmed(users[2], "p2@example.com", NoticeKind.CHALLENGE)
    with committed():
        notices.announcement_create(tournament=t, text="Doors open at six")
    assert sorted(m.to[0] for m in mailoutbox) == ["p0@example.com", "p1@example.com"]
    assert "Doors open at six" in mailoutbox[0].body
    assert mailoutbox[0].subject == "Mail cup"
    assert mailoutbox[0].extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_no_notice_is_mailed_to_an_entrant_who_chose_none(mailoutbox) -> None:
    t = TournamentFactory()
    [user] = entered(t, 1)
    _confirmed(user, "p@example.com")
    with committed():
        notices.announcement_create(tournament=t, text="Hello")
    assert mailoutbox == []


def test_an_amended_result_is_mailed_to_the_players_who_chose_it(mailoutbox) -> None:
    t, users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    assignment = AssignmentSeat.objects.filter(assignment__round__tournament=t).first().assignment
    played = [s.place for s in assignment.seats.order_by("number")]
    for i, user in enumerate(users):
        _confirmed(user, f"a{i}@example.com", NoticeKind.RESULT_AMENDED)
    with committed():
        services.assignment_amend(assignment=assignment, places=played[::-1], reason="Wrong sheet")
    assert sorted(m.to[0] for m in mailoutbox) == [
        "a0@example.com",
        "a1@example.com",
        "a2@example.com",
    ]
    assert all("Wrong sheet" in m.body for m in mailoutbox)


def test_the_schedule_shows_its_times_with_the_sites_time_zone(client: Client) -> None:
    t = TournamentFactory()
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    schedule = page.split('data-live-part="schedule"')[1].split("</section>")[0]
    assert schedule.count(" UTC") >= 3


def test_the_round_sheet_gives_the_times_in_the_organisers_zone_whoever_prints_it(
    client: Client,
) -> None:
    t, _users = running(3, rounds=1)
    t.created_by = UserFactory(time_zone="Europe/Kyiv")
    t.save(update_fields=["created_by"])
    rnd = t.round_set.get()
    rnd.starts_at = datetime(2026, 12, 3, 18, 11, tzinfo=UTC)
    rnd.save(update_fields=["starts_at"])

    page = client.get(reverse("tournaments:round_sheet", args=[t.pk, 1])).content.decode()

    assert "starts 3 December 2026, 20:11 EET" in page
