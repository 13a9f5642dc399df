"""The full analysis of a flagged player's or pair's matches: queued when the flag is
raised, kept on the flag, never of a match in play, never shown to players."""

from __future__ import annotations

import pytest

from analysis import core
from analysis.models import Analysis
from fairplay.full_analysis import flag_analyse
from fairplay.models import Flag
from fairplay.services import match_screen
from games.models import Table
from tests.factories import UserFactory
from tests.fairplay.helpers import rated_table, record_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small(settings):
    settings.FAIRPLAY_SCREEN_DECISIONS = 1
    settings.FAIRPLAY_MIN_MATCHES = 6
    settings.FAIRPLAY_ANALYSIS_SAMPLES = 2
    settings.FAIRPLAY_ANALYSIS_MATCHES = 1


def test_a_raised_flag_gets_the_full_analysis_of_its_pairs_latest_matches(
    django_capture_on_commit_callbacks,
):
    a, b = UserFactory(username="giver"), UserFactory(username="taker")

    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(1, 7):
            match_screen(
                result_id=rated_table(record_of("feeder", seed=seed, deals=8), [a, b]).result.pk
            )

    flag = Flag.objects.get()
    assert flag.analysis["status"] == "done"
    assert set(flag.analysis["players"]) == {"giver", "taker"}
    assert all(p["decisions"] > 0 for p in flag.analysis["players"].values())
    assert {m["table"] for m in flag.analysis["matches"]} == set(flag.evidence["matches"][:1])
    assert not Analysis.objects.exists()  # no player sees his match "analysed"


def _flag(user, tables):
    return Flag.objects.create(
        kind=Flag.Kind.ENGINE, user=user, score=4.0, threshold=3.0, matches=10,
        evidence={"matches": [t.pk for t in tables]},
    )  # fmt: skip


def test_a_match_still_being_played_is_never_analysed():
    user = UserFactory()
    table = rated_table(record_of("honest", seed=2, deals=2), [user])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    flag = _flag(user, [table])

    flag_analyse(flag_id=flag.pk)

    flag.refresh_from_db()
    assert flag.analysis["status"] == "done" and flag.analysis["matches"] == []


def test_an_analysis_a_player_asked_for_already_is_used_not_run_again():
    user = UserFactory()
    record = record_of("honest", seed=3, deals=2)
    table = rated_table(record, [user])
    result = core.analyse(record, [0], samples=2, seed=1)
    Analysis.objects.create(
        table=table, status=Analysis.Status.DONE, seats=[0], samples=2, seed=1,
        result=result.to_dict(),
    )  # fmt: skip
    flag = _flag(user, [table])

    flag_analyse(flag_id=flag.pk)

    flag.refresh_from_db()
    row = flag.analysis["matches"][0]
    assert row["reused"] and row["decisions"] == len(result.decisions)


def test_the_analysis_compares_the_player_with_the_other_analysed_seats():
    from analysis.models import PlayerAnalysis

    user, other = UserFactory(), UserFactory()
    table = rated_table(record_of("honest", seed=4, deals=2), [user, other])
    done = Analysis.objects.create(
        table=rated_table(record_of("honest", seed=5, deals=1), [other]),
        status=Analysis.Status.DONE, seats=[0], samples=2, seed=1, result={"seats": [0]},
    )  # fmt: skip
    PlayerAnalysis.objects.create(
        analysis=done, user=other, seat=0, decisions=10, mean_loss=1000.0,
        finished_at=table.finished_at,
    )  # fmt: skip
    flag = _flag(user, [table])

    flag_analyse(flag_id=flag.pk)

    flag.refresh_from_db()
    assert flag.analysis["honest"]["seats"] == 1
    assert flag.analysis["players"][user.username]["others_better"] == 0.0
