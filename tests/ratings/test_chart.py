"""The profile's rating chart: an inline SVG drawn on the server."""

from datetime import UTC, datetime, timedelta

from ratings.chart import Series, rating_chart_svg

T = datetime(2026, 11, 1, tzinfo=UTC)


def test_one_line_per_table_size() -> None:
    svg = rating_chart_svg(
        [
            Series(3, "3 players", [(T + timedelta(days=d), 1500 + d) for d in range(5)]),
            Series(2, "2", [(T + timedelta(days=d), 1500 - d) for d in range(4)]),
        ],
        title="Rating",
        empty_text="none",
    )
    assert svg.count("<polyline") == 2


def test_no_matches_says_so() -> None:
    assert "nothing yet" in rating_chart_svg([], title="Rating", empty_text="nothing yet")


def test_text_is_escaped() -> None:
    assert "<script>" not in rating_chart_svg([], title="<script>", empty_text="x")


def test_a_single_match_is_two_points_labelled_by_match_number_not_a_vertical_line() -> None:
    svg = rating_chart_svg(
        [Series(3, "3 players", [(T, 1500), (T, 1540)])], title="Rating", empty_text="x"
    )

    assert "<polyline" not in svg
    assert svg.count('class="rating-point"') == 2
    assert "match 1: 1540" in svg
    assert "2026-11-01" not in svg  # no time axis whose two ends are the same date


def test_two_matches_are_three_points_with_their_match_numbers() -> None:
    points = [(T, 1500), (T, 1540), (T + timedelta(hours=1), 1520)]
    svg = rating_chart_svg([Series(3, "3", points)], title="R", empty_text="x", match_label="#{n}")

    assert svg.count('class="rating-point"') == 3
    assert "#1: 1540" in svg and "#2: 1520" in svg


def test_a_time_axis_within_one_day_names_that_date_once() -> None:
    points = [(T + timedelta(minutes=m), 1500 + m) for m in range(6)]
    svg = rating_chart_svg([Series(3, "3", points)], title="R", empty_text="x")

    assert svg.count("2026-11-01") == 1
