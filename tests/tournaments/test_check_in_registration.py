"""A registration during check-in is registered before it is checked in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import UserFactory
from tests.tournaments.helpers import TournamentFactory, entered
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_registering_during_check_in_registers_before_it_checks_in() -> None:
    t = TournamentFactory(check_in_minutes=30)
    entered(t, 2)  # opens registration and check-in
    t.refresh_from_db()
    assert t.status == Tournament.Status.CHECK_IN
    moment = timezone.now() - timedelta(minutes=1)
    reg = services.registration_create(tournament=t, user=UserFactory(), now=moment)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    assert reg.registered_at == moment and reg.checked_in_at is not None
    assert reg.checked_in_at >= reg.registered_at
