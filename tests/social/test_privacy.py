"""Who sees a person online and at which table: his setting (everybody, the people he
follows, nobody), never across a block, and never a private table's id to someone who
cannot watch it; the setting through the API, the Friends page and the admin."""

from __future__ import annotations

import pytest
import yaml
from django.test import Client
from django.urls import reverse

from social import presence, selectors, services
from social.models import SocialSettings
from tests.factories import UserFactory
from tests.games.helpers import open_table
from tests.social.helpers import signed_in_client
from tests.tournaments.helpers import TournamentFactory, entered

pytestmark = pytest.mark.django_db

P = SocialSettings.Presence


def online(user, table_id=None) -> None:
    presence.enter(channel=f"socket-{user.pk}", user_id=user.pk, table_id=table_id)


def seen_by(viewer, person) -> tuple[bool, int | None]:
    """What ``viewer``'s Friends list says of ``person`` (whom he follows)."""
    row = next(f for f in selectors.friends(user=viewer) if f.user_id == person.pk)
    return row.online, row.table_id


def test_by_default_a_follower_sees_a_person_online_at_a_public_table() -> None:
    table, (bob,) = open_table(humans=1, bots=1)
    ann = UserFactory()
    services.follow_create(user=ann, target=bob)
    online(bob, table.pk)

    assert seen_by(ann, bob) == (True, table.pk)


def test_a_private_tables_id_is_never_shown_to_a_follower_who_cannot_watch_it() -> None:
    table, (bob,) = open_table(humans=1, bots=1, private=True)
    ann = UserFactory()
    services.follow_create(user=ann, target=bob)
    online(bob, table.pk)

    assert seen_by(ann, bob) == (True, None)


def test_a_private_tables_id_is_shown_to_a_follower_seated_at_it() -> None:
    table, (bob, ann) = open_table(humans=2, bots=1, private=True)
    services.follow_create(user=ann, target=bob)
    online(bob, table.pk)

    assert seen_by(ann, bob) == (True, table.pk)


def test_a_person_seen_by_nobody_is_offline_to_his_followers() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.follow_create(user=ann, target=bob)
    services.social_settings_update(user=bob, presence=P.NOBODY)
    online(bob)

    assert seen_by(ann, bob) == (False, None)


def test_a_person_seen_by_the_people_he_follows_is_offline_to_other_followers() -> None:
    ann, bob, cid = UserFactory(), UserFactory(), UserFactory()
    for follower in (ann, cid):
        services.follow_create(user=follower, target=bob)
    services.follow_create(user=bob, target=cid)
    services.social_settings_update(user=bob, presence=P.FOLLOWED)
    online(bob)

    assert [seen_by(ann, bob)[0], seen_by(cid, bob)[0]] == [False, True]


def test_nobody_sees_across_a_block_even_with_a_follow_left_over() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.block_create(user=bob, target=ann)
    online(bob)

    assert selectors.presence_seen(viewer=ann, user_ids=[bob.pk])[bob.pk] == presence.OFFLINE


def test_a_tournaments_dots_leave_out_who_hides_from_the_visitor() -> None:
    t = TournamentFactory()
    ann, bob = entered(t, 2, checked_in=False)
    services.social_settings_update(user=bob, presence=P.FOLLOWED)
    online(ann)
    online(bob)

    answer = Client().get(f"/api/v1/social/tournaments/{t.pk}/online/")

    assert answer.json() == {"online": [ann.pk]}


def test_a_tournaments_page_draws_no_dot_for_who_hides_from_the_visitor() -> None:
    t = TournamentFactory()
    (bob,) = entered(t, 1, checked_in=False)
    services.social_settings_update(user=bob, presence=P.NOBODY)
    online(bob)

    page = Client().get(f"/tournaments/{t.pk}/").content.decode()

    assert "online-dot" not in page


def test_the_friends_api_hides_a_private_tables_id() -> None:
    table, (bob,) = open_table(humans=1, bots=1, private=True)
    ann = UserFactory()
    services.follow_create(user=ann, target=bob)
    online(bob, table.pk)

    rows = signed_in_client(ann).get("/api/v1/social/friends/").json()

    assert [(r["online"], r["table_id"]) for r in rows] == [(True, None)]


# ------------------------------------------------------------------ the setting


def test_the_settings_api_reads_the_defaults() -> None:
    answer = signed_in_client(UserFactory()).get("/api/v1/social/settings/")

    assert answer.json() == {"challenges": "everybody", "presence": "everybody"}


def test_the_settings_api_changes_what_is_sent_only() -> None:
    ann = UserFactory()
    client = signed_in_client(ann)
    client.patch(
        "/api/v1/social/settings/", {"presence": "nobody"}, content_type="application/json"
    )

    answer = client.patch(
        "/api/v1/social/settings/", {"challenges": "followed"}, content_type="application/json"
    )

    assert answer.json() == {"challenges": "followed", "presence": "nobody"}


def test_the_settings_api_refuses_an_unknown_choice_in_its_error_shape() -> None:
    answer = signed_in_client(UserFactory()).patch(
        "/api/v1/social/settings/", {"presence": "friends"}, content_type="application/json"
    )

    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "malformed")


def test_the_settings_api_needs_a_signed_in_person() -> None:
    assert Client().get("/api/v1/social/settings/").status_code in (401, 403)


def test_the_friends_page_form_saves_the_settings() -> None:
    ann = UserFactory()
    client = signed_in_client(ann)
    assert 'name="presence"' in client.get("/social/friends/").content.decode()

    client.post("/social/settings/", {"challenges": "followed", "presence": "followed"})

    mine = selectors.social_settings(user=ann)
    assert (mine.challenges, mine.presence) == ("followed", "followed")


def test_the_admin_lists_the_settings() -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    hider = UserFactory()
    services.social_settings_update(user=hider, presence=P.NOBODY)

    page = signed_in_client(admin).get("/admin/social/socialsettings/?presence__exact=nobody")

    assert [row.user_id for row in page.context["cl"].result_list] == [hider.pk]


def test_the_settings_are_in_the_openapi_schema() -> None:
    schema = yaml.safe_load(Client().get(reverse("api-schema")).content)

    assert set(schema["paths"]["/api/v1/social/settings/"]) >= {"get", "patch"}
