"""Season tables: points by table place, by event place or by a custom list, the best N of
M, the documented tie-breaks (a hand-worked example of each scheme); read from the events'
standings and tables (an amended result shows at once, and amending it back gives the same
table); a duplicate event counts by its matchpoints; a closed season keeps its table; CSV
and API."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from clubs import errors, selectors, series, services, tasks
from clubs.models import EventResults, Season, SeasonTable
from clubs.seasons import SCHEMES, Result, table
from tests.clubs.helpers import club, founder_of, member
from tests.factories import UserFactory
from tests.tournaments.helpers import START, entered, play_round, running, settle
from tests.tournaments.test_duplicate_dealing import duplicate_cup
from tournaments import services as tournament_services
from tournaments.models import Assignment, AssignmentSeat, Standing, Tournament

POINTS = [10, 6, 4, 2]


def test_a_hand_worked_season() -> None:
    # Three events; Ann 1st, 2nd, 3rd; Bob 2nd, 1st, absent; Cid 3rd, 3rd, 1st; best 2 of 3.
    results = {
        1: [(1, 1), (2, 2), (3, 3)],
        2: [(2, 1), (1, 2), (3, 3)],
        3: [(3, 1), (1, 3)],
    }
    rows = table(results, points=POINTS, best=2)
    # Ann 10+6 (4 dropped) = 16; Bob 6+10 = 16; Cid 10+4 (4 dropped) = 14.
    # Ann and Bob: one first place each, one second each; Ann has a third too (countback).
    assert [(r.user_id, r.total, r.rank) for r in rows] == [(1, 16, 1), (2, 16, 2), (3, 14, 3)]
    # Cid's two thirds are worth 4 each: the earlier event is the one counted.
    assert rows[0].counted == {1, 2} and rows[2].counted == {1, 3}


def test_a_hand_worked_season_by_event_place() -> None:
    # Event 1: four ranked, two share second: 4, 3, 3, 1 (a shared place scores its first).
    # Event 2: Cid disqualified, three ranked: Bob 3, Ann 2, Dan 1, Cid nothing.
    results = {
        1: [(1, 1), (2, 2), (3, 2), (4, 4)],
        2: [(2, 1), (1, 2), (4, 3), (3, None)],
    }
    rows = table(results, scheme="event")
    assert {r.user_id: r.points for r in rows} == {
        1: {1: 4, 2: 2}, 2: {1: 3, 2: 3}, 3: {1: 3, 2: 0}, 4: {1: 1, 2: 1},
    }  # fmt: skip
    # Ann and Bob: 6 each, a first and a second each, two events each: the rank shared.
    assert [(r.user_id, r.total, r.rank) for r in rows] == [
        (1, 6, 1), (2, 6, 1), (3, 3, 3), (4, 2, 4),
    ]  # fmt: skip


def test_a_hand_worked_season_by_table_place() -> None:
    # What each player's tables earned him over an evening's rounds (3/1/0 at tables of
    # three), and his place in the evening. Best 1 of 2.
    results = {
        1: [Result(1, 1, 6), Result(2, 2, 2), Result(3, 3, 1)],
        2: [Result(2, 1, 4), Result(3, 2, 4), Result(1, 3, 1)],
    }
    rows = table(results, scheme="table", best=1)
    # Ann keeps her 6; Bob and Cid keep 4 each: Bob was first once, Cid never (countback by
    # event places, whatever the scheme).
    assert [(r.user_id, r.total, r.rank) for r in rows] == [(1, 6, 1), (2, 4, 2), (3, 4, 3)]
    assert [r.counted for r in rows] == [{1}, {2}, {2}]
    # Every result counted: 7, 6, 5.
    assert [r.total for r in table(results, scheme="table")] == [7, 6, 5]


def test_a_disqualified_player_scores_nothing_whatever_the_scheme() -> None:
    results = {1: [Result(1, None, 6), Result(2, 1, 3)]}
    for scheme in SCHEMES:
        rows = table(results, scheme=scheme, points=POINTS)
        assert {r.user_id: r.total for r in rows}[1] == 0, scheme


def test_players_equal_after_every_tie_break_share_the_rank() -> None:
    rows = table({1: [(1, 1), (2, 2)], 2: [(2, 1), (1, 2)]}, points=POINTS)
    assert [(r.user_id, r.rank) for r in rows] == [(1, 1), (2, 1)]


def test_a_disqualified_player_scores_nothing_in_that_event() -> None:
    rows = table({1: [(1, None), (2, 1)]}, points=POINTS)
    assert {r.user_id: r.total for r in rows} == {1: 0, 2: 10}


places = st.dictionaries(
    st.integers(1, 6),
    st.lists(
        st.tuples(st.integers(1, 8), st.one_of(st.none(), st.integers(1, 6)), st.integers(0, 12)),
        max_size=8,
    ).map(lambda rows: [Result(u, p, e) for u, (p, e) in {u: (p, e) for u, p, e in rows}.items()]),
    max_size=6,
)


@given(places, st.one_of(st.none(), st.integers(1, 4)), st.sampled_from(SCHEMES), st.data())
def test_amending_a_result_and_amending_it_back_gives_the_same_table(
    results: dict[int, list[Result]], best: int | None, scheme: str, data: st.DataObject
) -> None:
    def scored(r: dict[int, list[Result]]) -> list[object]:
        return table(r, points=POINTS, best=best, scheme=scheme)  # type: ignore[arg-type]

    before = scored(results)
    events_with_rows = [e for e, rows in results.items() if rows]
    if not events_with_rows:
        return
    event = data.draw(st.sampled_from(events_with_rows))
    i = data.draw(st.integers(0, len(results[event]) - 1))
    original = results[event][i]
    wrong = Result(original.user_id, data.draw(st.integers(1, 7)), data.draw(st.integers(0, 12)))
    amended = {**results, event: [*results[event][:i], wrong, *results[event][i + 1 :]]}
    scored(amended)
    again = {**amended, event: [*amended[event][:i], original, *amended[event][i + 1 :]]}
    assert scored(again) == before


@given(places, st.one_of(st.none(), st.integers(1, 4)), st.sampled_from(SCHEMES))
def test_a_players_total_is_at_most_the_sum_of_his_best_n(
    results: dict[int, list[Result]], best: int | None, scheme: str
) -> None:
    for row in table(results, points=POINTS, best=best, scheme=scheme):  # type: ignore[arg-type]
        assert row.total == sum(sorted(row.points.values(), reverse=True)[:best])


@pytest.mark.django_db
def test_a_finished_club_event_scores_and_an_amended_standing_shows_at_once(client) -> None:  # type: ignore[no-untyped-def]
    c = club()
    boss = UserFactory(is_superuser=True, is_staff=True)
    t, _users = running(3, rounds=1, name="Season night")
    services.club_event_attach(user=boss, club=c, tournament=t)
    play_round(t)
    settle(t, 60)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    day = START.date()
    season = series.season_create(
        user=founder_of(c), club=c, name="Spring", starts_on=day - timedelta(days=1),
        ends_on=day + timedelta(days=1), points=POINTS,
    )  # fmt: skip
    rows = selectors.season_rows(season=season)["rows"]
    assert sorted(r["total"] for r in rows) == sorted(
        POINTS[s.rank - 1] for s in Standing.objects.filter(tournament=t)
    )
    winner = Standing.objects.get(tournament=t, rank=1)
    # As an amendment writes it, then the task its standings' signal enqueues.
    Standing.objects.filter(pk=winner.pk).update(disqualified=True)
    tasks.event_seasons_refresh.delay(t.pk)
    assert selectors.season_rows(season=season)["rows"][0]["username"] != winner.user.username
    Standing.objects.filter(pk=winner.pk).update(disqualified=False)
    tasks.event_seasons_refresh.delay(t.pk)
    assert selectors.season_rows(season=season)["rows"] == rows
    csv = client.get(reverse("clubs:season_csv", args=[c.slug, season.pk])).content.decode()
    assert csv.splitlines()[0] == "rank,player,total,Season night"
    assert client.get(reverse("clubs:season", args=[c.slug, season.pk])).status_code == 200


@pytest.mark.django_db
def test_a_closed_season_keeps_its_table() -> None:
    c = club()
    season = series.season_create(
        user=founder_of(c), club=c, name="Winter", starts_on=date(2027, 1, 1),
        ends_on=date(2027, 2, 28), points=POINTS,
    )  # fmt: skip
    series.season_close(user=founder_of(c), season=season)
    season.refresh_from_db()
    assert season.final == {"scheme": "list", "events": [], "rows": []}


@pytest.mark.django_db
def test_only_the_events_right_starts_or_closes_a_season() -> None:
    c = club()
    api = APIClient()
    api.force_authenticate(member(c, rights={"settings"}))
    body = {"name": "S", "starts_on": "2027-01-01", "ends_on": "2027-02-01", "points": POINTS}
    assert api.post(f"/api/v1/clubs/{c.slug}/seasons/", body, format="json").status_code == 403
    assert not Season.objects.exists()
    api.force_authenticate(member(c, rights={"events"}))
    made = api.post(f"/api/v1/clubs/{c.slug}/seasons/", body, format="json")
    assert made.status_code == 201
    table_ = api.get(f"/api/v1/clubs/{c.slug}/seasons/{made.json()['id']}/").json()
    assert table_ == {"scheme": "list", "events": [], "rows": []}


@pytest.mark.django_db
def test_a_season_that_ends_before_it_starts_is_refused() -> None:
    c = club()
    with pytest.raises(errors.Invalid):
        series.season_create(
            user=founder_of(c), club=c, name="x", starts_on=date(2027, 2, 1),
            ends_on=date(2027, 1, 1), points=POINTS,
        )  # fmt: skip


def _finished_club_event(c: object, t: Tournament) -> Tournament:
    boss = UserFactory(is_superuser=True, is_staff=True)
    services.club_event_attach(user=boss, club=c, tournament=t)  # type: ignore[arg-type]
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def _season(c: object, **fields: object) -> Season:
    day = START.date()
    return series.season_create(
        user=founder_of(c), club=c, name="Autumn", starts_on=day - timedelta(days=1),  # type: ignore[arg-type]
        ends_on=day + timedelta(days=1), **fields,  # type: ignore[arg-type]
    )  # fmt: skip


def _totals(season: Season) -> dict[str, int]:
    return {r["username"]: r["total"] for r in selectors.season_rows(season=season)["rows"]}


@pytest.mark.django_db
def test_by_table_place_a_player_scores_his_tables_placement_points_and_follows_an_amendment() -> (
    None
):
    c = club()
    t, _users = running(3, rounds=1, name="Table night")
    play_round(t)
    settle(t, 60)
    _finished_club_event(c, t)
    season = _season(c, scheme=Season.Scheme.TABLE)
    seats = AssignmentSeat.objects.filter(assignment__round__tournament=t).order_by("number")
    assert _totals(season) == {s.user.username: s.points for s in seats}
    before = selectors.season_rows(season=season)
    table_ = Assignment.objects.get(round__tournament=t)
    places = [s.place for s in seats]
    tournament_services.assignment_amend(assignment=table_, places=[3, 2, 1], reason="swap")
    assert _totals(season) == {
        s.user.username: t.points_for(p) for s, p in zip(seats, [3, 2, 1], strict=True)
    }
    tournament_services.assignment_amend(assignment=table_, places=places, reason="back")
    assert selectors.season_rows(season=season) == before


@pytest.mark.django_db
def test_a_duplicate_event_counts_by_its_matchpoints() -> None:
    c = club()
    t = duplicate_cup(rounds=1, name="Duplicate night")
    entered(t, 3)
    settle(t, 0)
    play_round(t)
    settle(t, 60)
    _finished_club_event(c, t)
    season = _season(c, scheme=Season.Scheme.TABLE)
    matchpoints = {s.user.username: s.game_score for s in Standing.objects.filter(tournament=t)}
    assert _totals(season) == matchpoints
    assert selectors.season_rows(season=season)["events"][0]["duplicate"] is True
    # By event place, its places are its standings' (ranked by the matchpoint percentages).
    by_place = _season(c, scheme=Season.Scheme.EVENT)
    ranked = {s.user.username: 3 - s.rank + 1 for s in Standing.objects.filter(tournament=t)}
    assert _totals(by_place) == ranked


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("scheme", "points", "message"),
    [
        ("list", [], "A custom list needs"),
        ("table", [3, 1], "only with a custom list"),
        ("event", [-1], "whole numbers"),
        ("place", [], "Unknown scoring scheme"),
    ],
)
def test_a_season_with_a_wrong_scoring_is_refused(
    scheme: str, points: list[int], message: str
) -> None:
    c = club()
    with pytest.raises(errors.Invalid, match=message):
        _season(c, scheme=scheme, points=points)
    assert not Season.objects.exists()


@pytest.mark.django_db
def test_the_api_starts_a_season_by_event_place_and_gives_its_events_links() -> None:
    c = club()
    api = APIClient()
    api.force_authenticate(founder_of(c))
    body = {"name": "S", "starts_on": "2027-01-01", "ends_on": "2027-02-01", "scheme": "event"}
    made = api.post(f"/api/v1/clubs/{c.slug}/seasons/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["scheme"] == "event" and made.json()["points"] == []
    wrong = api.post(f"/api/v1/clubs/{c.slug}/seasons/", {**body, "points": [1]}, format="json")
    assert wrong.status_code == 400 and Season.objects.count() == 1


def _stored(season: Season) -> list[object]:
    return SeasonTable.objects.get(season=season).rows  # type: ignore[no-any-return]


@pytest.mark.django_db
@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_stored_table_moves_with_a_real_amendment_and_comes_back_when_amended_back(
    scheme: str, django_capture_on_commit_callbacks: Any
) -> None:
    c = club()
    t, _users = running(3, rounds=1, name="Stored night")
    play_round(t)
    settle(t, 60)
    _finished_club_event(c, t)
    with django_capture_on_commit_callbacks(execute=True):
        season = _season(c, scheme=scheme, points=POINTS if scheme == "list" else [])
    before, shown = _stored(season), selectors.season_rows(season=season)
    table_ = Assignment.objects.get(round__tournament=t)
    places = [s.place for s in table_.seats.order_by("number")]
    stored_results = EventResults.objects.get(event__tournament=t).rows  # with the table
    with django_capture_on_commit_callbacks(execute=True):
        # Places unlike those played (which may hold a tie), so the amendment changes them.
        swapped = [3, 2, 1] if places == [1, 2, 3] else [1, 2, 3]
        tournament_services.assignment_amend(assignment=table_, places=swapped, reason="swap")
    # The standings' signal stored the event's results and the season's table again.
    assert EventResults.objects.get(event__tournament=t).rows != stored_results
    moved = _stored(season)
    assert moved != before
    events_ = selectors.season_events(season=season)
    assert moved == selectors.season_lines(
        season=season, events_=events_, results=selectors.events_results(events_=events_)
    )  # counted exactly once: what a fresh count from the standings gives
    assert selectors.season_rows(season=season) != shown
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.assignment_amend(assignment=table_, places=places, reason="back")
    assert _stored(season) == before
    assert selectors.season_rows(season=season) == shown


@pytest.mark.django_db
def test_a_stored_table_is_not_served_once_the_scoring_changed() -> None:
    c = club()
    t, _users = running(3, rounds=1, name="Rescored night")
    play_round(t)
    settle(t, 60)
    _finished_club_event(c, t)
    season = _season(c, scheme=Season.Scheme.EVENT)
    by_event = {r["username"]: r["total"] for r in selectors.season_rows(season=season)["rows"]}
    # Changed without the save that stores the table again: the read computes it.
    Season.objects.filter(pk=season.pk).update(scheme=Season.Scheme.LIST, points=[50])
    season.refresh_from_db()
    totals = {r["username"]: r["total"] for r in selectors.season_rows(season=season)["rows"]}
    assert sorted(totals.values()) == [0, 0, 50] != sorted(by_event.values())
    series.season_close(user=founder_of(c), season=season)
    assert tasks.season_table_store.delay(season.pk).get() is False  # a closed one is final
    assert series.event_seasons_refresh(tournament_id=running(3, rounds=1)[0].pk) == 0
