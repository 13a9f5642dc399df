"""Marking as cheating closes the player's entries in events not over (disqualified
through the tournaments' service), once; unmarking gives back what can be given back."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from fairplay.errors import FairPlayError
from fairplay.models import EntryClosure, Flag
from fairplay.services import flag_review, flag_unmark
from tests.factories import UserFactory
from tests.games.conftest import _manual_scheduler  # noqa: F401  (autouse)
from tests.integration.conftest import postgres_url, redis_url  # noqa: F401
from tests.tournaments.helpers import TournamentFactory, at, entered, running
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def moderator():
    user = UserFactory(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="review_flag"))
    return user


def _flag(user, partner=None):
    return Flag.objects.create(
        kind=Flag.Kind.PAIR if partner else Flag.Kind.ENGINE, user=user, partner=partner,
        score=5.0, threshold=3.0, matches=12, evidence={"matches": []},
    )  # fmt: skip


def _open_event():
    """An event taking entries, two players entered."""
    t = TournamentFactory()
    entered(t, 2, checked_in=False)
    return t


def _enter(t, user):
    return services.registration_create(tournament=t, user=user, now=at(-60))


def test_marking_as_cheating_disqualifies_the_player_in_an_event_taking_entries():
    cheat, mod = UserFactory(), moderator()
    t = _open_event()
    reg = _enter(t, cheat)
    flag = _flag(cheat)

    flag_review(flag_id=flag.pk, user=mod, status="cheating")

    reg.refresh_from_db()
    assert reg.status == Registration.Status.DISQUALIFIED
    closure = EntryClosure.objects.get(flag=flag)
    assert closure.status_before == Registration.Status.REGISTERED and closure.undone_at is None


def test_both_players_of_a_pair_are_closed_out_and_others_are_not_touched():
    a, b, mod = UserFactory(), UserFactory(), moderator()
    t = _open_event()
    _enter(t, a)
    _enter(t, b)
    flag = _flag(a, b)

    flag_review(flag_id=flag.pk, user=mod, status="cheating")

    statuses = dict(t.registrations.values_list("user_id", "status"))
    assert statuses[a.pk] == statuses[b.pk] == Registration.Status.DISQUALIFIED
    others = [s for u, s in statuses.items() if u not in (a.pk, b.pk)]
    assert others == [Registration.Status.REGISTERED] * 2


def test_a_dismissed_or_warned_flag_closes_no_entry():
    cheat = UserFactory()
    t = _open_event()
    reg = _enter(t, cheat)

    flag_review(flag_id=_flag(cheat).pk, user=moderator(), status="warned")

    reg.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED
    assert not EntryClosure.objects.exists()


def test_a_finished_event_is_left_as_it_is():
    cheat = UserFactory()
    t = _open_event()
    reg = _enter(t, cheat)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)

    flag_review(flag_id=_flag(cheat).pk, user=moderator(), status="cheating")

    reg.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED
    assert not EntryClosure.objects.exists()


def test_entries_are_closed_once():
    from fairplay.entries import flag_entries_close

    cheat, mod = UserFactory(), moderator()
    t = _open_event()
    _enter(t, cheat)
    flag = _flag(cheat)
    flag_review(flag_id=flag.pk, user=mod, status="cheating")

    assert flag_entries_close(flag=flag, by=mod) == []
    assert EntryClosure.objects.count() == 1


def test_unmarking_reinstates_the_entry_and_reopens_the_flag():
    cheat, mod = UserFactory(), moderator()
    t = _open_event()
    reg = _enter(t, cheat)
    flag = _flag(cheat)
    flag_review(flag_id=flag.pk, user=mod, status="cheating")

    flag_unmark(flag_id=flag.pk, user=mod, note="his brother played")

    reg.refresh_from_db()
    flag.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED and reg.reason == ""
    assert flag.status == Flag.Status.OPEN and "his brother played" in flag.note
    closure = EntryClosure.objects.get()
    assert closure.undone_at is not None and closure.kept == ""


def test_an_entry_in_an_event_cancelled_meanwhile_stays_closed_and_says_why():
    cheat, mod = UserFactory(), moderator()
    t = _open_event()
    reg = _enter(t, cheat)
    flag = _flag(cheat)
    flag_review(flag_id=flag.pk, user=mod, status="cheating")
    services.tournament_cancel(tournament=t, reason="Rain")

    flag_unmark(flag_id=flag.pk, user=mod)

    reg.refresh_from_db()
    assert reg.status == Registration.Status.DISQUALIFIED
    assert "cancelled" in EntryClosure.objects.get().kept


def test_in_a_running_event_the_cheat_resigns_at_his_table_and_that_stays_on_unmark():
    from games.models import Table

    t, users = running(players=3)
    cheat, mod = users[0], moderator()
    table = Table.objects.get(seats__user=cheat, status=Table.Status.PLAYING)
    flag = _flag(cheat)

    flag_review(flag_id=flag.pk, user=mod, status="cheating")
    closure = EntryClosure.objects.get()
    assert closure.tables == [table.pk]
    assert closure.status_before == Registration.Status.CHECKED_IN

    flag_unmark(flag_id=flag.pk, user=mod)

    reg = Registration.objects.get(tournament=t, user=cheat)
    assert reg.status == Registration.Status.CHECKED_IN
    closure.refresh_from_db()
    assert "resigned" in closure.kept


def test_only_a_flag_marked_as_cheating_is_unmarked_and_only_by_a_moderator():
    cheat = UserFactory()
    flag = _flag(cheat)

    with pytest.raises(FairPlayError) as caught:
        flag_unmark(flag_id=flag.pk, user=moderator())
    assert caught.value.code == "not_cheating"
    flag_review(flag_id=flag.pk, user=moderator(), status="cheating")
    with pytest.raises(FairPlayError) as caught:
        flag_unmark(flag_id=flag.pk, user=UserFactory(is_staff=True))
    assert caught.value.code == "not_moderator"
    flag.refresh_from_db()
    assert flag.status == Flag.Status.CHEATING
