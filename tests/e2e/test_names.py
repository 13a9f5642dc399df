"""A name of combining marks only (drawn 0 px wide) is refused on the sign-up page, and
the reason is shown under the field, in the visitor's language."""

import os

import pytest

from tests.e2e.steps import PASSWORD

pytestmark = pytest.mark.timeout(300)

REASONS = {
    "ru-RU": "В имени должна быть хотя бы одна буква, цифра или символ.",
    "uk-UA": "В імені має бути хоча б одна літера, цифра або символ.",
}


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
@pytest.mark.parametrize("locale", sorted(REASONS))
def test_the_sign_up_page_says_why_a_name_of_combining_marks_only_is_refused(
    pages, locale, width, height
):
    page = pages.new(locale=locale, width=width, height=height)
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", f"marks{os.getpid()}{width}{locale[:2]}")
    page.fill("input[name=display_name]", "\u0301" * 6)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")

    reason = page.locator(".field.has-errors .errors", has_text=REASONS[locale])
    reason.wait_for()
    # The refused form is answered 400, which the browser logs as a console error.
    pages.errors[:] = [e for e in pages.errors if "status of 400" not in e]
    assert reason.is_visible() and reason.bounding_box()["width"] > 0
