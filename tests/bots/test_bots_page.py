"""The Bots page (``/bots/``) and ``manage.py bots_report``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.bots_report import REPORT_PATH, build_report, pool_runs, ratings, wilson

pytestmark = pytest.mark.django_db


def _run(players: int, rows: list[tuple[str, float, float]], seed: int = 5) -> dict[str, object]:
    """An arena ``--json`` run with deal rows (pairing, mean, group win rate)."""
    return {
        "machine": "test", "preset": "classic", "players": players, "seed": seed, "budgets": {},
        "yardstick_before": "", "yardstick_after": "",
        "deals": [{"pairing": p, "groups": 10, "deals": 30, "seatings": "rotate", "mean": m, "half_width": 4.0,
                   "win_rate": w, "win_half_width": 0.1} for p, m, w in rows],
        "matches": [{"pairing": "strong vs basic", "matches": 12, "finished": 12, "win_rate": 0.5, "low": 0.25,
                     "high": 0.75, "deals_per_match": 30.0}],
        "timing": {"strong": {"decisions": 100, "median_ms": 120.0, "p99_ms": 310.0, "max_ms": 400.0},
                   "strong-v1": {"decisions": 100, "median_ms": 90.0, "p99_ms": 290.0, "max_ms": 300.0}},
    }  # fmt: skip


def test_ratings_are_anchored_at_basic_and_chained_through_pairings() -> None:
    found = ratings([
        {"pairing": "strong vs basic", "win_rate": 0.75, "groups": 40},
        {"pairing": "basic vs random", "win_rate": 0.9, "groups": 40},
        {"pairing": "master vs strong", "win_rate": 0.5, "groups": 20},
    ])  # fmt: skip
    assert found["basic"] == 1500
    assert found["strong"] == 1500 + 191  # 400 · log10(3)
    assert found["master"] == found["strong"]
    assert found["random"] < 1500


def test_a_pairing_of_few_layouts_gives_no_rating() -> None:
    found = ratings([{"pairing": "strong vs basic", "win_rate": 1.0, "groups": 3}])
    assert found == {"basic": 1500}


def test_the_bench_only_strong_v1_stays_off_the_page() -> None:
    report = build_report(
        [_run(3, [("strong vs strong-v1", 9.0, 0.6), ("strong vs basic", 40.0, 0.7)])]
    )
    size = report["sizes"]["3"]
    assert [r["pairing"] for r in size["deals"]] == ["strong vs basic"]
    assert "strong-v1" not in size["timing"]


def test_bots_report_writes_the_pages_figures(tmp_path: Path) -> None:
    source = tmp_path / "arena.json"
    source.write_text(json.dumps(_run(4, [("strong vs basic", 47.5, 0.71)], seed=808)))
    output = tmp_path / "report.json"
    call_command("bots_report", str(source), "--output", str(output))
    report = json.loads(output.read_text())
    assert report["sizes"]["4"]["deals"][0]["mean"] == 47.5
    assert report["sizes"]["4"]["deals"][0]["seed"] == 808


def _measured(seed: int, per_layout: list[float], won: int, finished: int) -> dict[str, object]:
    """A run of master against strong on ``per_layout`` and ``finished`` whole matches."""
    run = _run(3, [("master vs strong", 0.0, 0.0)], seed=seed)
    run["per_layout"] = {"master vs strong": per_layout}
    run["deals"][0]["deals"] = 3 * len(per_layout)  # type: ignore[index]
    run["matches"] = [{"pairing": "master vs strong", "matches": finished, "finished": finished,
                       "win_rate": won / finished, "low": 0.0, "high": 1.0, "deals_per_match": 30.0}]  # fmt: skip
    return run


def test_pooled_runs_are_one_measurement_over_all_their_layouts_and_matches() -> None:
    pooled = pool_runs([_measured(1, [10.0, -4.0], 4, 6), _measured(2, [0.0, 6.0, 8.0], 5, 12)])
    row = pooled["deals"][0]
    assert (row["groups"], row["deals"], row["mean"], row["win_rate"]) == (5, 15, 4.0, 0.7)
    assert (pooled["matches"][0]["finished"], pooled["matches"][0]["win_rate"]) == (18, 0.5)
    assert (pooled["matches"][0]["low"], pooled["matches"][0]["high"]) == wilson(9, 18)
    assert pooled["seed"] == "1+2"


def test_runs_of_other_budgets_are_not_pooled() -> None:
    other = _measured(2, [1.0, 2.0], 1, 2)
    other["budgets"] = {"strong": [0.1, 400]}
    with pytest.raises(ValueError, match="budgets"):
        pool_runs([_measured(1, [1.0, 2.0], 1, 2), other])


def test_a_run_without_its_layouts_is_not_pooled() -> None:
    with pytest.raises(ValueError, match="per_layout"):
        pool_runs([_measured(1, [1.0], 1, 2), _run(3, [("master vs strong", 5.0, 0.5)], seed=2)])


def test_bots_report_pools_files_joined_by_a_plus(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps(_measured(7301, [6.0, 2.0], 1, 3)))
    second.write_text(json.dumps(_measured(7302, [-2.0, 2.0], 2, 3)))
    output = tmp_path / "report.json"
    call_command("bots_report", f"{first}+{second}", "--output", str(output))
    row = json.loads(output.read_text())["sizes"]["3"]["deals"][0]
    assert (row["mean"], row["groups"], row["seed"]) == (2.0, 4, "7301+7302")


def test_bots_report_refuses_a_file_that_is_not_arena_output(tmp_path: Path) -> None:
    source = tmp_path / "other.json"
    source.write_text(json.dumps({"hello": 1}))
    output = tmp_path / "report.json"
    with pytest.raises(CommandError, match="not an arena JSON file"):
        call_command("bots_report", str(source), "--output", str(output))
    assert not output.exists()


@pytest.mark.parametrize(
    ("language", "title", "master"),
    [("en", "Bots", "master"), ("ru", "Боты", "мастер"), ("uk", "Боти", "майстер")],
)
def test_the_bots_page_describes_every_level_in_the_visitors_language(
    client: object, language: str, title: str, master: str
) -> None:
    response = client.get(reverse("bots"), HTTP_ACCEPT_LANGUAGE=language)  # type: ignore[attr-defined]
    page = response.content.decode()
    assert response.status_code == 200
    assert f"<h1>{title}</h1>" in page
    assert f'<dt id="level-master">{master}</dt>' in page
    for level in ("random", "basic", "strong", "master"):
        assert f'id="level-{level}"' in page
    if language != "en":  # every sentence of the page is translated, "95%" ones included
        assert "Measured bot against bot" not in page
        assert "95% interval" not in page


def test_the_bots_page_shows_the_committed_figures(client: object) -> None:
    report = json.loads(REPORT_PATH.read_text())
    size = next(iter(report["sizes"].values()))
    row = size["deals"][0]
    page = client.get(reverse("bots")).content.decode()  # type: ignore[attr-defined]
    assert f"{row['mean']:+.1f}" in page


def test_the_lobbys_bot_choice_links_to_the_bots_page(
    client: object, django_user_model: object
) -> None:
    user = django_user_model.objects.create_user(username="ann", password="pw-123456789")  # type: ignore[attr-defined]
    client.force_login(user)  # type: ignore[attr-defined]
    page = client.get(reverse("games:lobby")).content.decode()  # type: ignore[attr-defined]
    assert f'<a href="{reverse("bots")}">How the bots play</a>' in page
