"""The profile offers the device's own time zone; saved, the site speaks in it."""

import pytest

from tests.e2e.steps import sign_up

pytestmark = pytest.mark.timeout(300)


def test_a_player_takes_his_devices_time_zone_from_the_profile(pages):
    page = pages.new(timezone_id="America/Toronto")
    sign_up(page)
    page.goto("/accounts/profile/")

    page.click("text=Use this device’s time zone: America/Toronto")
    page.click("main form button[type=submit]")

    page.wait_for_selector(".messages")
    assert "Times on this site are given in America/Toronto." in page.inner_text("main")
