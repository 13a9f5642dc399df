"""Season tables: points per event place, the best N of M, the documented tie-breaks; read
from the events' standings (an amended result shows at once, and amending it back gives the
same table); a closed season keeps its table; CSV and API."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from clubs import errors, selectors, series, services
from clubs.models import Season
from clubs.seasons import table
from tests.clubs.helpers import club, founder_of, member
from tests.factories import UserFactory
from tests.tournaments.helpers import START, play_round, running, settle
from tournaments.models import Standing, Tournament

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


def test_players_equal_after_every_tie_break_share_the_rank() -> None:
    rows = table({1: [(1, 1), (2, 2)], 2: [(2, 1), (1, 2)]}, points=POINTS)
    assert [(r.user_id, r.rank) for r in rows] == [(1, 1), (2, 1)]


def test_a_disqualified_player_scores_nothing_in_that_event() -> None:
    rows = table({1: [(1, None), (2, 1)]}, points=POINTS)
    assert {r.user_id: r.total for r in rows} == {1: 0, 2: 10}


places = st.dictionaries(
    st.integers(1, 6),
    st.lists(st.tuples(st.integers(1, 8), st.one_of(st.none(), st.integers(1, 6))), max_size=8).map(
        lambda pairs: list(dict(pairs).items())
    ),
    max_size=6,
)


@given(places, st.one_of(st.none(), st.integers(1, 4)), st.data())
def test_amending_a_result_and_amending_it_back_gives_the_same_table(
    results: dict[int, list[tuple[int, int | None]]], best: int | None, data: st.DataObject
) -> None:
    before = table(results, points=POINTS, best=best)
    events_with_rows = [e for e, rows in results.items() if rows]
    if not events_with_rows:
        return
    event = data.draw(st.sampled_from(events_with_rows))
    i = data.draw(st.integers(0, len(results[event]) - 1))
    user, place = results[event][i]
    amended = {**results, event: [*results[event][:i], (user, 7), *results[event][i + 1 :]]}
    table(amended, points=POINTS, best=best)
    again = {**amended, event: [*amended[event][:i], (user, place), *amended[event][i + 1 :]]}
    assert table(again, points=POINTS, best=best) == before


@given(places, st.one_of(st.none(), st.integers(1, 4)))
def test_a_players_total_is_at_most_the_sum_of_his_best_n(
    results: dict[int, list[tuple[int, int | None]]], best: int | None
) -> None:
    for row in table(results, points=POINTS, best=best):
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
    Standing.objects.filter(pk=winner.pk).update(disqualified=True)  # as an amendment writes it
    assert selectors.season_rows(season=season)["rows"][0]["username"] != winner.user.username
    Standing.objects.filter(pk=winner.pk).update(disqualified=False)
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
    assert season.final == {"events": [], "rows": []}


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
    assert table_ == {"events": [], "rows": []}


@pytest.mark.django_db
def test_a_season_that_ends_before_it_starts_is_refused() -> None:
    c = club()
    with pytest.raises(errors.Invalid):
        series.season_create(
            user=founder_of(c), club=c, name="x", starts_on=date(2027, 2, 1),
            ends_on=date(2027, 1, 1), points=POINTS,
        )  # fmt: skip
