"""Founding a club, joining and leaving, requests, invitations and rights."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import errors, selectors, services
from clubs.models import RIGHTS, Club, Invitation, JoinRequest, Membership
from tests.clubs.helpers import club, founder_of, member, rights_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_founder_is_the_first_member_with_every_right() -> None:
    c = club()
    assert rights_of(c, founder_of(c)) == RIGHTS


def test_a_name_that_looks_like_another_clubs_is_refused() -> None:
    club(name="Kyiv Thursday")
    with pytest.raises(errors.Invalid):
        club(name="KYIV THURSDАY")  # a Cyrillic А, other case


def test_a_slug_that_looks_like_another_clubs_is_refused() -> None:
    club(slug="modern")
    with pytest.raises(errors.Invalid):
        club(slug="rnodern")  # "rn" reads as "m"


@pytest.mark.parametrize("slug", ["ab", "Клуб", "-club", "with space", "admin", "new"])
def test_a_malformed_or_reserved_slug_is_refused(slug: str) -> None:
    with pytest.raises(errors.Invalid):
        club(slug=slug)
    assert not Club.objects.exists()


def test_a_name_with_invisible_characters_is_refused() -> None:
    with pytest.raises(errors.Invalid):
        club(name="Club\u200b")


def test_an_unknown_time_zone_or_language_is_refused() -> None:
    with pytest.raises(errors.Invalid):
        club(time_zone="Mars/Olympus")
    with pytest.raises(errors.Invalid):
        club(languages=["xx"])


def test_a_person_founds_at_most_three_clubs_a_day() -> None:
    someone = UserFactory()
    for _ in range(services.CLUBS_PER_DAY):
        club(founder=someone)
    with pytest.raises(errors.TooMany):
        club(founder=someone)
    assert Club.objects.filter(created_by=someone).count() == services.CLUBS_PER_DAY


def test_anyone_joins_a_public_club_at_once() -> None:
    c, someone = club(), UserFactory()
    assert isinstance(services.club_join(user=someone, club=c), Membership)
    assert rights_of(c, someone) == ()


def test_joining_a_club_that_asks_makes_a_request_the_members_right_answers() -> None:
    c = club(access=Club.Access.ASK)
    someone, manager = UserFactory(), member(c, rights={"members"})
    pending = services.club_join(user=someone, club=c, message="hi")
    assert isinstance(pending, JoinRequest)
    assert selectors.membership_of(user=someone, club=c) is None
    services.join_request_answer(user=manager, join_request=pending, accept=True)
    assert selectors.membership_of(user=someone, club=c) is not None


def test_a_member_without_the_members_right_cannot_answer_a_request() -> None:
    c = club(access=Club.Access.PRIVATE)
    pending = services.club_join(user=UserFactory(), club=c)
    with pytest.raises(errors.Forbidden):
        services.join_request_answer(
            user=member(c, rights={"events"}), join_request=pending, accept=True
        )
    pending.refresh_from_db()
    assert pending.status == JoinRequest.Status.PENDING


def test_an_invitation_link_lets_its_holder_join_a_private_club() -> None:
    c = club(access=Club.Access.PRIVATE)
    link = services.invitation_create(user=founder_of(c), club=c)
    someone = UserFactory()
    services.invitation_accept(user=someone, token=link.token)
    assert selectors.membership_of(user=someone, club=c) is not None


def test_a_revoked_invitation_link_no_longer_works() -> None:
    c = club(access=Club.Access.PRIVATE)
    link = services.invitation_create(user=founder_of(c), club=c)
    services.invitation_revoke(user=founder_of(c), invitation=link)
    with pytest.raises(errors.NotFound):
        services.invitation_accept(user=UserFactory(), token=link.token)
    assert Membership.objects.filter(club=c).count() == 1


def test_an_expired_invitation_link_no_longer_works() -> None:
    c = club(access=Club.Access.PRIVATE)
    link = services.invitation_create(user=founder_of(c), club=c, days=1)
    Invitation.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(errors.NotFound):
        services.invitation_accept(user=UserFactory(), token=link.token)


def test_the_last_manager_of_roles_cannot_leave_while_others_remain() -> None:
    c = club()
    member(c)
    with pytest.raises(errors.WrongState):
        services.club_leave(user=founder_of(c), club=c)
    assert selectors.membership_of(user=founder_of(c), club=c) is not None


def test_a_removed_organiser_loses_his_rights_at_once() -> None:
    c = club()
    organiser = member(c, rights={"events"})
    assert selectors.can(user=organiser, club=c, right="events")
    services.member_remove(user=founder_of(c), club=c, member=organiser)
    assert not selectors.can(user=organiser, club=c, right="events")


def test_a_members_manager_cannot_remove_a_manager_of_roles() -> None:
    c = club()
    with pytest.raises(errors.Forbidden):
        services.member_remove(user=member(c, rights={"members"}), club=c, member=founder_of(c))


def test_rights_are_given_exactly_and_only_by_a_manager_of_roles() -> None:
    c = club()
    someone = member(c, rights={"events", "messages"})
    assert rights_of(c, someone) == ("events", "messages")
    with pytest.raises(errors.Forbidden):
        services.member_set_rights(user=someone, club=c, member=someone, rights=set(RIGHTS))
    assert rights_of(c, someone) == ("events", "messages")


def test_a_superuser_holds_every_right_in_every_club() -> None:
    c = club()
    boss = UserFactory(is_superuser=True, is_staff=True)
    assert all(selectors.can(user=boss, club=c, right=r) for r in RIGHTS)


def test_nobody_joins_an_archived_club() -> None:
    c = club()
    services.club_archive(user=founder_of(c), club=c)
    with pytest.raises(errors.WrongState):
        services.club_join(user=UserFactory(), club=c)


def test_the_settings_right_changes_the_club_and_others_cannot() -> None:
    c = club()
    services.club_update(user=member(c, rights={"settings"}), club=c, description="Thursdays")
    with pytest.raises(errors.Forbidden):
        services.club_update(user=member(c, rights={"events"}), club=c, description="x")
    c.refresh_from_db()
    assert c.description == "Thursdays"
