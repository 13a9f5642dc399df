"""One account stalled bot play for everyone: the tables with bots a
person has playing at once are capped, per person, for master bots, and per address;
only tables still playing count. Every door that starts a table with bots goes through
the one check in ``table_start`` (the challenges' door: tests/social/test_challenge_rules.py);
only a tournament's tables pass ``uncapped=True``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games import errors, services
from games.models import Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def play(user, level="basic", address="198.51.100.7"):
    return services.table_play_bots(user=user, level=level, address=address)


def test_a_person_may_play_only_a_few_tables_of_bots_at_once(settings):
    user = UserFactory()
    for _ in range(settings.GAMES_BOT_TABLES_PER_USER):
        play(user)

    with pytest.raises(errors.TooManyBotTables):
        play(user)
    assert Table.objects.filter(created_by=user).count() == settings.GAMES_BOT_TABLES_PER_USER


def test_only_one_table_of_master_bots_at_a_time(settings):
    assert settings.GAMES_MASTER_TABLES_PER_USER == 1
    user = UserFactory()
    play(user, "master")

    with pytest.raises(errors.TooManyBotTables, match="Master bots"):
        play(user, "master")
    assert play(user, "strong").status == Table.Status.PLAYING


def test_a_finished_or_abandoned_table_frees_its_slot(settings):
    user = UserFactory()
    tables = [play(user) for _ in range(settings.GAMES_BOT_TABLES_PER_USER)]

    services.table_resign(table=tables[0], user=user)  # the only person: the match ends
    services.table_abandon(table=tables[1])  # an organiser: it ends with a result

    ended = Table.objects.filter(pk__in=[tables[0].pk, tables[1].pk])
    assert {t.status for t in ended} == {Table.Status.FINISHED}
    assert [play(user).status, play(user).status] == [Table.Status.PLAYING] * 2
    with pytest.raises(errors.TooManyBotTables):
        play(user)


def test_one_address_may_play_only_so_many_tables_of_bots(settings):
    settings.GAMES_BOT_TABLES_PER_ADDRESS = 4
    for _ in range(2):
        user = UserFactory()
        play(user)
        play(user)

    with pytest.raises(errors.TooManyBotTables, match="your address"):
        play(UserFactory())
    assert play(UserFactory(), address="203.0.113.9").status == Table.Status.PLAYING
    assert "198.51.100.7" not in Table.objects.values_list("started_from", flat=True)


def at_his_cap_with_another_table(settings, level):
    """A person with as many tables of bots playing as he may, and one more table of two
    bots of ``level``, not started."""
    user = UserFactory()
    for _ in range(settings.GAMES_BOT_TABLES_PER_USER):
        play(user)
    table = services.table_open(user=user, players=3)
    for _ in range(2):
        services.seat_fill_with_bot(table=table, level=level, by=user)
    return user, table


def test_a_lobby_table_with_bots_started_by_its_player_counts_too(settings):
    user, table = at_his_cap_with_another_table(settings, "basic")

    with pytest.raises(errors.TooManyBotTables):
        services.table_start(table=table, user=user, address="198.51.100.7")
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_a_table_with_bots_started_without_an_address_counts_too(settings):
    """Any door that knows no address (a rematch, a challenge sent before the address
    was kept) still meets the person's own caps."""
    user, table = at_his_cap_with_another_table(settings, "basic")

    with pytest.raises(errors.TooManyBotTables):
        services.table_start(table=table, user=user)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_the_lobby_page_refuses_to_start_a_table_past_the_caps(settings, client):
    user, table = at_his_cap_with_another_table(settings, "basic")
    client.force_login(user)

    client.post(reverse("games:start", args=[table.pk]))

    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_the_api_refuses_to_start_a_table_past_the_caps(settings):
    user, table = at_his_cap_with_another_table(settings, "basic")
    api = APIClient(REMOTE_ADDR="198.51.100.9")
    api.force_authenticate(user)

    response = api.post(reverse("api-table-start", args=[table.pk]))

    assert response.json()["error"]["code"] == "too_many_bot_tables"


def test_a_tournament_table_is_not_held_back_by_the_caps(settings):
    """A tournament's services start its tables uncapped: a player at his cap must still
    be seated for his round."""
    user, table = at_his_cap_with_another_table(settings, "master")

    started = services.table_start(table=table, user=user, uncapped=True)

    assert started.status == Table.Status.PLAYING


def _uncapped_starts(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and any(
            k.arg == "uncapped" and not (isinstance(k.value, ast.Constant) and not k.value.value)
            for k in node.keywords
        )
    ]


def test_only_the_tournaments_start_tables_past_the_caps():
    root = Path(django_settings.BASE_DIR)
    packages = [
        p for p in root.iterdir() if p.is_dir() and p.name != "tests" and not p.name.startswith(".")
    ]
    callers = {
        str(path.relative_to(root))
        for package in packages
        for path in package.rglob("*.py")
        if _uncapped_starts(path)
    }

    assert callers == {"tournaments/live.py"}


def test_the_api_refuses_in_its_error_shape_with_a_translated_message(settings):
    api = APIClient(REMOTE_ADDR="198.51.100.8")
    api.force_authenticate(UserFactory())
    assert (
        api.post("/api/v1/tables/play-bots/", {"level": "master"}, format="json").status_code == 201
    )

    response = api.post("/api/v1/tables/play-bots/", {"level": "master"}, format="json")
    in_russian = api.post(
        "/api/v1/tables/play-bots/", {"level": "master"}, format="json", HTTP_ACCEPT_LANGUAGE="ru"
    )

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_many_bot_tables"
    assert response.json()["error"]["message"].startswith("Master bots think long")
    assert in_russian.json()["error"]["message"] != response.json()["error"]["message"]


def test_the_lobby_form_shows_the_refusal(client, settings):
    user = UserFactory()
    client.force_login(user)
    for _ in range(settings.GAMES_BOT_TABLES_PER_USER):
        assert client.post("/play/bots/", {"level": "basic"}).status_code == 302

    page = client.post("/play/bots/", {"level": "basic"}, follow=True)

    assert page.redirect_chain[-1][0].endswith("/play/")
    assert "tables against bots playing" in page.content.decode()
    assert Table.objects.filter(created_by=user).count() == settings.GAMES_BOT_TABLES_PER_USER


def test_the_messages_are_translated():
    for language in ("ru", "uk"):
        with translation.override(language):
            assert str(errors.TooManyBotTables().message) != (
                "You already have as many tables against bots playing as you may: finish or "
                "resign one first."
            )
