"""The fair-play bench screens every match with a seed no bot of that match was given, so
that no player's sampled worlds are the screening master's (docs/fair-play.md)."""

from __future__ import annotations

import pytest

import bench.fair_play as fp
from games.bots import Budget
from games.bots.strong import MasterBot


@pytest.mark.parametrize("kind", ["honest", *fp.KINDS])
def test_no_bot_of_a_match_shares_the_screenings_seed(kind, monkeypatch):
    given: list[int] = []
    make_bot = fp.make_bot

    def recording_make_bot(level: str, *, seed: int = 0, budget: Budget | None = None):  # type: ignore[no-untyped-def]
        given.append(seed)
        return make_bot(level, seed=seed, budget=budget)

    class RecordingMaster(MasterBot):
        def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
            given.append(seed)
            super().__init__(seed, budget or Budget(seconds=None, samples=1))

    monkeypatch.setattr(fp, "make_bot", recording_make_bot)
    monkeypatch.setattr(fp, "MasterBot", RecordingMaster)
    job = fp.Job(kind, ("strong", "strong", "strong"), seed=11, matches=3, deals=2, samples=1)
    screened = {fp.screen_seed(job, m) for m in range(job.matches)}
    for m in range(job.matches):
        fp._policies(job, m, [])

    assert len(given) >= 3 * job.matches
    assert screened.isdisjoint(given)


def test_outcomes_kept_before_the_seed_was_set_apart_pool_seat_0s_strong_bots_apart():
    old = fp.Outcome("honest", ("strong", "strong", "basic"))
    new = fp.Outcome("honest", ("strong", "strong", "basic"), screen_seed_apart=True)

    assert [fp._level_key(old, s) for s in range(3)] == ["strong@0", "strong", "basic"]
    assert [fp._level_key(new, s) for s in range(3)] == ["strong", "strong", "basic"]
