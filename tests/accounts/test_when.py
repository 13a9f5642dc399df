"""Dates on the pages: one format per language, with the time zone."""

from datetime import UTC, datetime, timedelta

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from accounts.templatetags.when import when_text

MOMENT = datetime(2026, 12, 1, 13, 58, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "1 December 2026, 13:58 UTC"),
        ("ru", "1 декабря 2026, 13:58 UTC"),
        ("uk", "1 грудня 2026, 13:58 UTC"),
    ],
)
def test_a_moment_reads_the_same_way_in_each_language_with_its_time_zone(language, text):
    with translation.override(language):
        assert when_text(MOMENT) == text


def test_the_filter_gives_a_time_element_with_the_exact_moment():
    html = Template("{% load when %}{{ at|when }}").render(Context({"at": MOMENT}))

    assert html == '<time datetime="2026-12-01T13:58:00+00:00">1 December 2026, 13:58 UTC</time>'


def test_a_moment_to_wait_for_reads_in_minutes_with_the_date_in_its_title():
    soon = timezone.now() + timedelta(minutes=5, seconds=30)
    html = Template("{% load when %}{{ at|when_relative }}").render(Context({"at": soon}))

    assert ">in 5\xa0minutes</time>" in html and "UTC" in html.split('title="', 1)[1]
