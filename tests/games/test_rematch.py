"""Play again: a finished match opens the same kind of table with the same people and bots,
through the normal services (so the caps on tables of bots apply)."""

from __future__ import annotations

import pytest

from games import errors, services
from games.models import Table
from tests.factories import UserFactory
from tests.games.helpers import committed, open_table, started_table
from tests.ratings.helpers import finished_match
from tests.tournaments.helpers import play_round, running

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.9"


def ended_against_bots(user, **kwargs):
    """A quick match of the person against two bots, ended by his resignation."""
    table = services.table_play_bots(user=user, address=ADDRESS, **kwargs)
    with committed():
        services.table_resign(table=table, user=user)
    table.refresh_from_db()
    return table


def test_play_again_against_bots_starts_the_same_kind_of_match_at_once():
    user = UserFactory()
    old = ended_against_bots(user, level="strong", deals=4)

    with committed():
        new = services.table_rematch(table=old, user=user, address=ADDRESS)

    seats = sorted(new.seats.all(), key=lambda s: s.number)
    assert (new.status, new.options, new.preset, new.move_seconds, new.rated) == (
        Table.Status.PLAYING, old.options, old.preset, old.move_seconds, old.rated,
    )  # fmt: skip
    assert [(s.user_id, s.bot_level) for s in seats] == [
        (user.pk, ""), (None, "strong"), (None, "strong"),
    ]  # fmt: skip


def test_play_again_is_refused_past_the_cap_on_tables_of_bots(settings):
    settings.GAMES_BOT_TABLES_PER_USER = 1
    user = UserFactory()
    old = ended_against_bots(user)
    services.table_play_bots(user=user, address=ADDRESS)  # the one table of bots he may have

    with pytest.raises(errors.TooManyBotTables):
        services.table_rematch(table=old, user=user, address=ADDRESS)


def test_the_other_person_of_the_match_joins_the_same_rematch():
    old, users = started_table(humans=2, bots=1)
    with committed():
        for user in users:
            services.table_resign(table=old, user=user)
    old.refresh_from_db()

    first = services.table_rematch(table=old, user=users[1], address=ADDRESS)
    second = services.table_rematch(table=old, user=users[0], address=ADDRESS)

    assert second.pk == first.pk
    assert {s.user_id for s in first.seats.all()} == {users[0].pk, users[1].pk, None}
    assert first.status == Table.Status.OPEN  # its creator starts it, as any table


def test_a_match_still_being_played_has_no_rematch():
    table, users = started_table()

    with pytest.raises(errors.Illegal):
        services.table_rematch(table=table, user=users[0], address=ADDRESS)


def test_only_a_player_of_the_match_may_play_it_again():
    old = ended_against_bots(UserFactory())

    with pytest.raises(errors.NotSeated):
        services.table_rematch(table=old, user=UserFactory(), address=ADDRESS)


def test_a_tournaments_table_is_not_played_again():
    tournament, _users = running(players=3)
    play_round(tournament)
    table = Table.objects.get(tournament_assignment__round__tournament=tournament)
    user = next(s.user for s in table.seats.all() if s.user is not None)

    assert table.status == Table.Status.FINISHED
    with pytest.raises(errors.Forbidden):
        services.table_rematch(table=table, user=user, address=ADDRESS)


def test_an_open_table_is_not_played_again():
    table, users = open_table()

    with pytest.raises(errors.Illegal):
        services.table_rematch(table=table, user=users[0], address=ADDRESS)


def test_a_finished_match_record_table_offers_play_again_to_its_players():
    user = UserFactory()
    table = finished_match([user, "basic", "basic"], rated=False).table

    services.table_rematch(table=table, user=user, address=ADDRESS)

    table.refresh_from_db()
    assert table.rematch is not None and table.rematch.status == Table.Status.PLAYING
