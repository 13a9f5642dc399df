"""A moderator's review in the browser at 1280×800 and 390×844: the fair-play queue in
the admin, a flag with its evidence and its full analysis, the verdict "mark as
cheating" with a note. ``E2E_SHOTS=dir`` keeps the screenshots (docs/screenshots/
fair-play-review-*.png come from here)."""

from __future__ import annotations

import os
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.screens import SCREENS
from tests.e2e.steps import PASSWORD, sign_in

pytestmark = pytest.mark.timeout(900)

SHOTS = Path(os.environ["E2E_SHOTS"]) if os.environ.get("E2E_SHOTS") else None
_n = count(1)

# A feeder's pair screened over six rated matches (a flag raised), and its full analysis
# run at a small budget; then a moderator (staff with the site's fair-play right).
FLAGGED = """
from django.conf import settings
from django.contrib.auth.models import Permission
from fairplay.full_analysis import flag_analyse
from fairplay.models import Flag
from fairplay.services import match_screen
from tests.factories import UserFactory
from tests.fairplay.helpers import rated_table, record_of
settings.FAIRPLAY_SCREEN_DECISIONS = 1
settings.FAIRPLAY_MIN_MATCHES = 6
settings.FAIRPLAY_PAIR_THRESHOLD = 1.5
settings.FAIRPLAY_ANALYSIS_SAMPLES = 2
settings.FAIRPLAY_ANALYSIS_MATCHES = 1
a = UserFactory(username="{giver}")
b = UserFactory(username="{taker}")
for seed in range(1, 7):
    match_screen(result_id=rated_table(record_of("feeder", seed=seed, deals=5), [a, b]).result.pk)
flag = Flag.objects.get(user__in=[a, b])
flag_analyse(flag_id=flag.pk)
mod = UserFactory(username="{moderator}", is_staff=True)
mod.set_password("{password}")
mod.save()
mod.user_permissions.add(Permission.objects.get(codename="review_flag"))
print(flag.pk)
"""


def _shot(page: Any, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name), full_page=True)


@SCREENS
def test_a_moderator_reviews_a_flag_and_marks_it_as_cheating(e2e_server, pages, screen):
    n = f"{os.getpid()}x{next(_n)}"
    names = {"giver": f"giver{n}", "taker": f"taker{n}", "moderator": f"mod{n}"}
    flag_id = int(
        e2e_server.manage_output("shell", "-c", FLAGGED.format(password=PASSWORD, **names)).split()[
            -1
        ]
    )
    size = "desktop" if screen["width"] > 600 else "phone"
    page = pages.new(**screen)
    sign_in(page, names["moderator"])

    page.goto("/admin/")
    page.get_by_role("link", name="Fair-play flags").first.click()
    queue = page.inner_text("#result_list")
    assert "pair: " in queue and "collusion (a pair)" in queue and "open" in queue

    page.goto(f"/admin/fairplay/flag/{flag_id}/change/")
    content = page.inner_text("#content")
    assert "feeding_ab" in content
    assert "Every decision valued by the master search" in content
    assert names["giver"] in content and "mean loss a decision" in content
    _shot(page, f"fair-play-review-{size}.png")

    page.select_option("select[name=verdict]", "cheating")
    page.fill("textarea[name=review_note]", "Fed every ten to his friend")
    page.click("input[name=_save]")
    assert "1 flag reviewed." in page.inner_text(".messagelist")
    row = page.locator(f"#result_list tr:has(a[href$='/fairplay/flag/{flag_id}/change/'])")
    assert "cheating" in row.inner_text()
