"""Follow (one way), block and mute, through the services, the API and the pages."""

from __future__ import annotations

import pytest

from social import errors, presence, selectors, services
from social.models import Block, Follow
from tests.factories import UserFactory
from tests.games.helpers import started_table
from tests.social.helpers import signed_in_client

pytestmark = pytest.mark.django_db


def test_following_is_one_way() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.follow_create(user=ann, target=bob)
    assert [f.username for f in selectors.friends(user=ann)] == [bob.username]
    assert selectors.friends(user=bob) == []


def test_following_twice_changes_nothing() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.follow_create(user=ann, target=bob)
    services.follow_create(user=ann, target=bob)
    assert Follow.objects.count() == 1


def test_nobody_follows_or_blocks_himself() -> None:
    ann = UserFactory()
    with pytest.raises(errors.Invalid):
        services.follow_create(user=ann, target=ann)
    with pytest.raises(errors.Invalid):
        services.block_create(user=ann, target=ann)
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_a_blocked_player_cannot_follow_the_one_who_blocks_him() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.block_create(user=ann, target=bob)
    with pytest.raises(errors.Blocked):
        services.follow_create(user=bob, target=ann)
    with pytest.raises(errors.Blocked):
        services.follow_create(user=ann, target=bob)


def test_blocking_ends_following_both_ways() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.follow_create(user=ann, target=bob)
    services.follow_create(user=bob, target=ann)
    services.block_create(user=ann, target=bob)
    assert not Follow.objects.exists()


def test_the_friends_list_says_who_follows_back() -> None:
    ann, bob, cid = UserFactory(), UserFactory(), UserFactory()
    services.follow_create(user=ann, target=bob)
    services.follow_create(user=ann, target=cid)
    services.follow_create(user=bob, target=ann)
    back = {f.username: f.follows_you for f in selectors.friends(user=ann)}
    assert back == {bob.username: True, cid.username: False}


def test_whom_a_player_ignores_are_those_he_blocks_or_mutes_and_those_who_block_him() -> None:
    ann, bob, cid, dan = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    services.block_create(user=ann, target=bob)
    services.mute_create(user=ann, target=cid)
    services.block_create(user=dan, target=ann)
    assert selectors.ignored_ids(user_id=ann.pk) == {bob.pk, cid.pk, dan.pk}
    assert selectors.ignored_ids(user_id=bob.pk) == {ann.pk}


# -- the API ----------------------------------------------------------------------------


def test_api_follows_and_lists_friends() -> None:
    ann, bob = UserFactory(), UserFactory()
    client = signed_in_client(ann)
    answer = client.post("/api/v1/social/follows/", {"username": bob.username.upper()})
    assert answer.status_code == 201
    assert answer.json()["username"] == bob.username
    rows = client.get("/api/v1/social/friends/").json()
    assert [(r["username"], r["online"], r["table_id"]) for r in rows] == [
        (bob.username, False, None)
    ]
    assert client.delete(f"/api/v1/social/follows/{bob.username}/").status_code == 204
    assert client.get("/api/v1/social/friends/").json() == []


def test_api_answers_an_unknown_player_in_the_one_error_shape() -> None:
    client = signed_in_client(UserFactory())
    answer = client.post("/api/v1/social/follows/", {"username": "nobody-at-all"})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_api_refuses_to_follow_across_a_block() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.block_create(user=bob, target=ann)
    answer = signed_in_client(ann).post("/api/v1/social/follows/", {"username": bob.username})
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "blocked"
    assert not Follow.objects.exists()


def test_api_needs_a_signed_in_person() -> None:
    from django.test import Client

    answer = Client().get("/api/v1/social/friends/")
    assert answer.status_code in (401, 403)
    assert "error" in answer.json()


def test_api_blocks_list_and_unblock() -> None:
    ann, bob = UserFactory(), UserFactory()
    client = signed_in_client(ann)
    assert client.post("/api/v1/social/blocks/", {"username": bob.username}).status_code == 201
    assert [p["username"] for p in client.get("/api/v1/social/blocks/").json()] == [bob.username]
    assert client.delete(f"/api/v1/social/blocks/{bob.username}/").status_code == 204
    assert not Block.objects.exists()


# -- the pages --------------------------------------------------------------------------


def test_the_friends_page_lists_followed_players_with_escaped_names() -> None:
    ann = UserFactory()
    bob = UserFactory(display_name="<script>alert(1)</script>")
    services.follow_create(user=ann, target=bob)
    page = signed_in_client(ann).get("/social/friends/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page


def test_following_from_a_players_page_goes_back_to_it() -> None:
    ann, bob = UserFactory(), UserFactory()
    client = signed_in_client(ann)
    page = f"/players/{bob.username}/"
    assert "social-actions" in client.get(page).content.decode()
    answer = client.post("/social/players/follow/", {"username": bob.username, "next": page})
    assert answer.status_code == 302 and answer["Location"] == page
    assert Follow.objects.filter(follower=ann, followed=bob).exists()


def test_a_refused_follow_from_the_page_changes_nothing_and_says_why() -> None:
    ann = UserFactory()
    client = signed_in_client(ann)
    answer = client.post("/social/players/follow/", {"username": ann.username}, follow=True)
    assert "That is you." in answer.content.decode()
    assert not Follow.objects.exists()


def test_a_blocked_player_cannot_take_a_seat_at_a_table_where_his_blocker_sits() -> None:
    from games import errors as table_errors
    from games import services as table_services
    from games.models import Seat

    ann, bob, cid = UserFactory(), UserFactory(), UserFactory()
    services.block_create(user=ann, target=bob)
    table = table_services.table_create(user=ann, players=3)
    with pytest.raises(table_errors.Forbidden):
        table_services.table_join(table=table, user=bob)
    table_services.table_join(table=table, user=cid)  # anyone else sits down
    assert set(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == {
        ann.pk,
        cid.pk,
    }


def test_the_blocker_may_still_sit_at_the_blocked_players_table() -> None:
    from games import services as table_services

    ann, bob = UserFactory(), UserFactory()
    services.block_create(user=ann, target=bob)
    table = table_services.table_create(user=bob, players=3)
    table_services.table_join(table=table, user=ann)


def test_api_the_tables_creator_turns_its_chat_off_and_nobody_else() -> None:
    from games import services as table_services

    ann, bob = UserFactory(), UserFactory()
    table = table_services.table_create(user=ann, players=3)
    url = f"/api/v1/social/tables/{table.pk}/chat/"
    refused = signed_in_client(bob).post(url, {"off": True}, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    answer = signed_in_client(ann).post(url, {"off": True}, content_type="application/json")
    assert answer.status_code == 200 and answer.json() == {"off": True}
    with pytest.raises(errors.ChatOff):
        services.chat_say(user=ann, table_id=table.pk, text="hello")


@pytest.mark.parametrize(("private", "link"), [(True, False), (False, True)])
def test_the_friends_list_links_a_friends_table_only_where_the_reader_may_watch(
    private: bool, link: bool
) -> None:
    table, (bob,) = started_table(humans=1, bots=2, private=private)
    ann = UserFactory()
    services.follow_create(user=ann, target=bob)
    channel = f"friends-test-{table.pk}"
    presence.enter(channel=channel, user_id=bob.pk, table_id=table.pk)
    try:
        page = signed_in_client(ann).get("/social/friends/").content.decode()
    finally:
        presence.leave(channel=channel)
    assert (f'href="/tables/{table.pk}/"' in page, "private-table" in page) == (link, not link)


def test_the_friends_list_offers_to_watch_a_friend_playing_at_a_public_table() -> None:
    table, (bob,) = started_table(humans=1, bots=2)
    ann = UserFactory()
    services.follow_create(user=ann, target=bob)
    channel = f"friends-watch-{table.pk}"
    presence.enter(channel=channel, user_id=bob.pk, table_id=table.pk)
    try:
        page = signed_in_client(ann).get("/social/friends/").content.decode()
    finally:
        presence.leave(channel=channel)
    assert f'<a class="button watch" href="/tables/{table.pk}/">Watch</a>' in page


def test_the_friends_page_finds_a_player_by_part_of_his_display_name() -> None:
    ann = UserFactory()
    olena = UserFactory(username="olena_k", display_name="Олена Коваль")

    page = signed_in_client(ann).get("/social/friends/", {"q": "коваль"}).content.decode()

    assert f'name="username" value="{olena.username}"' in page


def test_the_player_search_leaves_out_people_across_a_block() -> None:
    ann, bob = UserFactory(username="ann_search"), UserFactory(username="bob_search")
    services.block_create(user=bob, target=ann)

    rows = signed_in_client(ann).get("/api/v1/social/players/", {"q": "_search"}).json()

    assert rows == []


def test_blocking_from_a_players_page_says_what_the_block_does() -> None:
    ann, bob = UserFactory(), UserFactory(display_name="Bob")
    client = signed_in_client(ann)

    page = client.post("/social/players/block/", {"username": bob.username}, follow=True)

    assert "You blocked Bob: neither of you sees the other" in page.content.decode()
