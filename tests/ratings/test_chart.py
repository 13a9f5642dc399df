"""The profile's rating chart: an inline SVG drawn on the server."""

from datetime import UTC, datetime, timedelta

from ratings.chart import Series, rating_chart_svg

T = datetime(2026, 11, 1, tzinfo=UTC)


def test_one_line_per_table_size() -> None:
    svg = rating_chart_svg(
        [Series(3, "3 players", [(T, 1500), (T + timedelta(days=1), 1520)]), Series(2, "2", [(T, 1500), (T, 1490)])],
        title="Rating",
        empty_text="none",
    )
    assert svg.count("<polyline") == 2


def test_no_matches_says_so() -> None:
    assert "nothing yet" in rating_chart_svg([], title="Rating", empty_text="nothing yet")


def test_text_is_escaped() -> None:
    assert "<script>" not in rating_chart_svg([], title="<script>", empty_text="x")
