"""The game pages: lobby, create form, table page, replay, my matches, and what their
scripts need (strings, the card sprite, the page weight)."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape

from games.bots import make_bot
from games.engine import Match, Options, replay
from games.models import MatchResult, Seat, Table
from games.pages.options import OPTIONS, PRESET_HELP, differences
from games.pages.selectors import record_sheet, replay_deal
from games.pages.strings import table_strings
from tests.factories import UserFactory
from tests.games.helpers import committed, open_table, started_table

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
db = pytest.mark.django_db


@functools.cache
def short_match() -> Match:
    """A whole match of bots, short: no barrel and a target of 300."""
    match = Match.new(Options.preset("simple").replace(target=300), seed=3)
    bots = [make_bot("basic", seed=seat) for seat in range(3)]
    while match.winner is None:
        seat = match.to_act
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    return match


def finished_table() -> Table:
    """A finished table with its result, as the services leave one (written directly:
    playing a match through them takes seconds)."""
    match = short_match()
    user = UserFactory()
    table = Table.objects.create(
        created_by=user, players=3, preset="simple", options=match.options.to_dict(),
        status=Table.Status.FINISHED, first_dealer=match.first_dealer, version=1,
        started_at=timezone.now(), finished_at=timezone.now(),
    )  # fmt: skip
    Seat.objects.create(table=table, number=0, user=user)
    for number in (1, 2):
        Seat.objects.create(table=table, number=number, bot_level="basic")
    record = match.to_record()
    record["meta"] = {"seats": [{"number": 0, "name": user.get_display_name()}]}
    scores = list(match.scores)
    MatchResult.objects.create(
        table=table, finished_at=timezone.now(), final_scores=scores, winner_seat=match.winner,
        placements=[1 + sum(x > s for x in scores) for s in scores], deals=len(match.results),
        record=record,
    )  # fmt: skip
    return table


# -- the lobby ---------------------------------------------------------------------------


@db
def test_lobby_lists_an_open_table_with_the_options_that_differ_from_its_preset(client):
    open_table(humans=1, bots=0, players=3, preset="classic", options={"samosval": False})

    page = client.get(reverse("games:lobby")).content.decode()

    assert "Samosval (самосвал): off" in page


@db
def test_lobby_shows_seats_taken_and_free(client):
    _table, users = open_table(humans=1, bots=1, players=3)

    page = client.get(reverse("games:lobby")).content.decode()

    assert users[0].get_display_name() in page and "free seat" in page


@db
def test_lobby_hides_private_tables(client):
    table, _ = open_table(humans=1, bots=0, players=3, private=True)

    page = client.get(reverse("games:lobby_tables")).content.decode()

    assert f'data-table="{table.pk}"' not in page


@db
def test_create_form_explains_every_option_and_preset(client):
    client.force_login(UserFactory())

    page = client.get(reverse("games:lobby")).content.decode()

    texts = [escape(str(o.help)) for o in OPTIONS] + [escape(str(h)) for h in PRESET_HELP.values()]
    assert [t for t in texts if t not in page] == []


@db
@pytest.mark.parametrize(
    ("language", "words"), [("ru", "Играть с ботами сейчас"), ("uk", "Грати з ботами зараз")]
)
def test_lobby_speaks_russian_and_ukrainian(client, language, words):
    client.force_login(UserFactory())

    page = client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert words in page


@db
def test_create_form_opens_a_table_with_the_chosen_options(client):
    client.force_login(user := UserFactory())
    data = {"players": "4", "preset": "club", "move_seconds": "60", "opt_bolts": "always",
            "opt_red_threshold": "-200", "opt_golden": "on", "opt_dark": "on", "opt_barrel": "on",
            "opt_samosval": "on", "opt_barrel_bidding": "closed", "opt_target": "1000"}  # fmt: skip

    response = client.post(reverse("games:create"), data)

    table = Table.objects.get(created_by=user)
    assert response.url == reverse("games:table", args=[table.pk]) and (
        table.players,
        table.options["bolts"],
        table.options["red_threshold"],
        table.options["barrel_bidding"],
        table.options["ace_marriage"],
        table.move_seconds,
    ) == (4, "always", -200, "closed", False, 60)


@db
def test_a_rated_table_takes_its_preset_whatever_the_option_fields_say(client):
    client.force_login(user := UserFactory())

    client.post(reverse("games:create"), {"players": "3", "preset": "igrafan", "move_seconds": "30",
                                          "rated": "on", "opt_samosval": ""})  # fmt: skip

    table = Table.objects.get(created_by=user)
    assert table.rated and table.options == Options.preset("igrafan").to_dict()


@db
def test_create_form_refuses_bad_input_and_creates_nothing(client):
    client.force_login(UserFactory())

    response = client.post(
        reverse("games:create"), {"players": "5", "preset": "classic", "move_seconds": "30"}
    )

    assert response.status_code == 400 and not Table.objects.exists()


@db
def test_creating_a_table_needs_an_account(client):
    response = client.post(
        reverse("games:create"), {"players": "3", "preset": "classic", "move_seconds": "30"}
    )

    assert response.status_code == 302 and not Table.objects.exists()


@db
def test_play_against_bots_now_seats_you_with_two_bots_at_a_started_table(client):
    client.force_login(user := UserFactory())

    response = client.post(reverse("games:play_bots"), {"level": "random"})

    table = Table.objects.get(created_by=user)
    bots = sorted(s.bot_level for s in table.seats.all() if s.bot_level)
    assert response.url == reverse("games:table", args=[table.pk])
    assert (table.status, bots) == (Table.Status.PLAYING, ["random", "random"])


@db
def test_join_add_a_bot_and_start_from_the_pages(client):
    table, (creator,) = open_table(humans=1, bots=0, players=3)
    other = UserFactory()
    client.force_login(other)
    client.post(reverse("games:join", args=[table.pk]))
    client.force_login(creator)

    with committed():
        client.post(reverse("games:add_bot", args=[table.pk]), {"level": "basic"})
        client.post(reverse("games:start", args=[table.pk]))

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


@db
def test_a_refused_join_shows_the_reason_and_changes_nothing(client):
    table, _ = open_table(humans=1, bots=2, players=3)
    client.force_login(UserFactory())

    response = client.post(reverse("games:join", args=[table.pk]), follow=True)

    assert "no free seat" in response.content.decode() and table.seats.count() == 3


# -- the table page ----------------------------------------------------------------------


def page_json(page: str, element_id: str) -> dict:
    match = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', page, re.S
    )
    assert match, element_id
    return json.loads(match.group(1))


@db
def test_table_page_tells_the_script_its_websocket_and_seat(client):
    table, (user, *_) = started_table(humans=1, bots=2)
    client.force_login(user)

    config = page_json(
        client.get(reverse("games:table", args=[table.pk])).content.decode(), "table-config"
    )

    assert (config["ws_path"], config["seat"]) == (f"/ws/tables/{table.pk}/", 0)


@db
def test_table_page_sends_no_cards(client):
    """The page itself carries no view: cards come only over the seat's websocket."""
    table, (_user, *_) = started_table(humans=1, bots=2)
    client.force_login(UserFactory())

    config = page_json(
        client.get(reverse("games:table", args=[table.pk])).content.decode(), "table-config"
    )

    assert "view" not in config and "hand" not in json.dumps(config)


@db
def test_a_private_table_page_needs_its_invite_code(client):
    table, _ = open_table(humans=1, bots=0, players=3, private=True)
    client.force_login(UserFactory())

    hidden = client.get(reverse("games:table", args=[table.pk])).status_code
    shown = client.get(
        reverse("games:table", args=[table.pk]) + f"?invite={table.invite_code}"
    ).status_code

    assert (hidden, shown) == (404, 200)


@db
def test_an_unknown_table_is_not_found(client):
    assert client.get(reverse("games:table", args=[999_999])).status_code == 404


@db
@pytest.mark.parametrize(("language", "word"), [("ru", "Запись игры"), ("uk", "Запис гри")])
def test_table_page_strings_are_translated(client, language, word):
    table, (user, *_) = started_table(humans=1, bots=2)
    client.force_login(user)

    page = client.get(reverse("games:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language)

    assert page_json(page.content.decode(), "ui-strings")["score_sheet"] == word


# -- replays and my matches --------------------------------------------------------------


@db
def test_replay_page_of_a_running_match_is_not_found(client):
    table, _ = started_table(humans=1, bots=2)

    assert client.get(reverse("games:replay", args=[table.pk])).status_code == 404


@db
def test_replay_page_of_a_finished_match_has_its_sheet_and_every_deal(client):
    table = finished_table()

    config = page_json(
        client.get(reverse("games:replay", args=[table.pk])).content.decode(), "replay-config"
    )

    assert len(config["sheet"]) == table.result.deals == config["deals"]


@db
def test_replay_deal_frames_show_every_hand_from_the_deal_to_its_end(client):
    table = finished_table()

    data = client.get(reverse("games:replay_deal", args=[table.pk, 0])).json()

    first, last = data["frames"][0], data["frames"][-1]
    dealt = table.result.record["deals"][0]
    assert [sorted(h) for h in first["hands"]] == [sorted(h) for h in dealt["hands"]]
    assert len(data["frames"]) == len(dealt["actions"]) + 1 and last["phase"] == "complete"


@db
def test_my_matches_lists_a_finished_match_with_its_replay(client):
    table = finished_table()
    client.force_login(table.seats.get(number=0).user)

    page = client.get(reverse("games:matches")).content.decode()

    assert reverse("games:replay", args=[table.pk]) in page


# -- page selectors, pure ----------------------------------------------------------------


def test_record_sheet_agrees_with_the_engine_replay():
    match = Match.new(Options.preset("club"), seed=11)
    bot = make_bot("basic", seed=1)
    while len(match.results) < 6:
        match.apply(bot.decide(match.view(match.to_act)), seat=match.to_act)
    record = match.to_record()
    record["deals"] = record["deals"][:-1]

    rows = record_sheet(record)

    assert [r["scores"] for r in rows] == [d["scores"] for d in replay(record)["deals"]]


def test_replay_deal_of_a_missing_deal_is_an_index_error():
    record = Match.new(seed=2).to_record()

    with pytest.raises(IndexError):
        replay_deal(record, 5)


def test_differences_name_only_the_changed_options():
    options = Options.preset("simple").replace(samosval=True).to_dict()

    assert differences("simple", options) == ["Samosval (самосвал): on"]


# -- what the scripts need ---------------------------------------------------------------


def script_keys() -> set[str]:
    keys: set[str] = set()
    for path in (STATIC / "js").glob("*.js"):
        if path.name in ("analysis.js", "hint.js"):  # own strings: analysis.pages (tests/analysis)
            continue
        text = re.sub(r"^\s*//.*$", "", path.read_text(), flags=re.M)
        keys |= set(re.findall(r'\bt\(\s*"([a-z_0-9]+)"', text))
        # Keys built from a prefix: t(`rank_${…}`) and the like.
        for prefix in re.findall(r"\bt\(\s*`([a-z_]+)\$\{", text):
            keys.add(prefix + "*")
    return keys


def test_every_string_the_scripts_ask_for_exists():
    strings = table_strings()

    missing = [
        k
        for k in script_keys()
        if not (k.endswith("*") and any(s.startswith(k[:-1]) for s in strings)) and k not in strings
    ]

    assert missing == []


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_the_scripts_strings_are_translated(language):
    english = table_strings()
    with translation.override(language):
        translated = table_strings()

    same = [
        k for k, v in translated.items() if v == english[k] and re.search("[a-z]{3}", json.dumps(v))
    ]

    assert same == []


def test_the_card_sprite_is_what_make_cards_writes():
    result = subprocess.run(
        [sys.executable, "scripts/make_cards.py", "--check"], cwd=ROOT, capture_output=True
    )

    assert result.returncode == 0, result.stderr.decode()


def test_the_card_sprite_has_24_faces_and_a_back():
    sprite = (STATIC / "cards" / "cards.svg").read_text()

    faces = re.findall(r'<symbol id="([9TJQKA][SCDH]|back)"', sprite)

    assert len(set(faces)) == 25


@db
@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_russian_or_ukrainian_table_page_draws_the_queen_with_a_cyrillic_letter(client, language):
    table, (user, *_) = started_table(humans=1, bots=2)
    client.force_login(user)
    page = client.get(reverse("games:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language)
    sprite_url = json.loads(
        re.search(r'id="table-config"[^>]*>(.*?)</script>', page.content.decode(), re.S)[1]
    )["sprite_url"]

    sprite = (STATIC / sprite_url.removeprefix("/static/")).read_text(encoding="utf-8")

    assert re.search(r'<symbol id="QH".*?<text[^>]*>Д</text>', sprite)


def module_closure(entry: Path) -> set[Path]:
    """A module and everything it imports, statically or dynamically."""
    seen: set[Path] = set()
    todo = [entry]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in re.findall(r'from "\./([\w.]+)"|import\("\./([\w.]+)"\)', path.read_text()):
            todo.append(path.parent / (name[0] or name[1]))
    return seen


@db
def test_the_table_page_with_all_its_files_weighs_under_300_kb(client):
    """The bar of the issue: HTML, styles, scripts and card pictures, uncompressed,
    fonts included (the page uses system fonts, so none)."""
    table, (user, *_) = started_table(humans=1, bots=2)
    client.force_login(user)
    html = client.get(reverse("games:table", args=[table.pk])).content
    files = module_closure(STATIC / "js" / "table.js") | {
        STATIC / "css" / "site.css",
        STATIC / "js" / "site.js",
        STATIC / "css" / "games.css",
        STATIC / "cards" / "cards.svg",
        STATIC / "favicon.svg",
    }

    total = len(html) + sum(p.stat().st_size for p in files)

    assert total < 300_000, f"{total} bytes"


@db
def test_signed_in_navigation_links_to_my_matches_in_the_page_language(client):
    client.force_login(UserFactory())

    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert f'href="{reverse("games:matches")}">Мои партии</a>' in page


@db
def test_play_against_bots_now_offers_a_quick_match_of_six_deals(client):
    client.force_login(user := UserFactory())
    assert "a quick match: 6 deals" in client.get(reverse("games:lobby")).content.decode()

    client.post(reverse("games:play_bots"), {"level": "basic", "deals": "6"})

    table = Table.objects.get(created_by=user)
    assert table.options["deals"] == 6 and table.status == Table.Status.PLAYING


@db
def test_the_lobby_offers_the_match_lengths_in_the_page_language(client):
    client.force_login(UserFactory())

    page = client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert "быстрая партия: 6 раздач" in page


@db
def test_create_form_sets_the_match_length(client):
    client.force_login(user := UserFactory())
    data = {"players": "3", "preset": "classic", "move_seconds": "30", "opt_deals": "9"}

    client.post(reverse("games:create"), data)

    assert Table.objects.get(created_by=user).options["deals"] == 9


@db
def test_an_anonymous_visitor_is_not_taken_for_a_bot(client):
    """A bot's seat holds no user, nor does an anonymous visitor: that is not a match
    (``None == None``). The lobby offers him to watch the table, and its page does not
    call the bot's seat his."""
    table, _ = open_table(humans=1, bots=1, players=3)

    card = next(
        c for c in client.get(reverse("games:lobby")).context["tables"] if c["table"] == table
    )
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert card["mine"] is False and "(you)" not in page


@db
def test_create_form_plays_every_deal_from_zero_only_with_a_match_length(client):
    """docs/spec.md §3.8: the option needs `deals`; the table's rules then say it."""
    client.force_login(user := UserFactory())
    data = {"players": "3", "preset": "classic", "move_seconds": "30", "opt_deals": "6"}

    refused = client.post(
        reverse("games:create"), {**data, "opt_deals": "", "opt_boards_from_zero": "on"}
    )
    assert "boards_from_zero needs deals" in refused.content.decode()
    client.post(reverse("games:create"), {**data, "opt_boards_from_zero": "on"})

    table = Table.objects.get(created_by=user)
    assert table.options["boards_from_zero"] is True and table.options["deals"] == 6
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Every deal from 0:0:0: on" in page


@db
def test_the_lobby_refuses_a_target_the_barrel_makes_meaningless_and_says_why(client):
    client.force_login(user := UserFactory())
    data = {"players": "3", "preset": "classic", "move_seconds": "30", "opt_barrel": "on",
            "opt_target": "200"}  # fmt: skip

    response = client.post(reverse("games:create"), data)

    assert (response.status_code, Table.objects.filter(created_by=user).exists()) == (400, False)
    assert "a match is won only from the barrel, with 1000 or more" in response.content.decode()


@db
def test_a_private_tables_player_still_has_its_invite_link_once_the_match_has_begun(client):
    table, (user, *_) = started_table(humans=1, bots=2, private=True)
    client.force_login(user)

    page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert f"?invite={table.invite_code}" in page
