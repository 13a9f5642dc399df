"""The full analysis of a flagged player's or pair's matches (docs/fair-play.md): the
analysis app's master valuation of each of their decisions, from each seat's own view
(``analysis.core.analyse``), run only for flags, on the ``analysis`` queue. Its result is
kept on the flag (``Flag.analysis``) for the moderators; nothing here is shown to
players, and no ``analysis.Analysis`` row is written (a player would see his match
"analysed" without having asked). A match still being played is never analysed."""

from __future__ import annotations

import statistics
import time
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

from analysis import core
from analysis.models import Analysis, PlayerAnalysis
from fairplay.models import Flag
from games.models import Seat, Table

TASK = "fairplay.analyse_flag"
"""The Celery task that runs :func:`flag_analyse` (``fairplay.tasks``)."""


def flag_analysis_queue(*, flag_id: int) -> None:
    """Mark the flag's full analysis queued and send it to the queue after the commit."""
    Flag.objects.filter(pk=flag_id).update(analysis={"status": "queued"})
    transaction.on_commit(lambda: current_app.tasks[TASK].delay(flag_id))


def _decisions(table: Table, seats: list[int]) -> tuple[list[core.Judged], bool]:
    """The judged decisions of ``seats`` at a finished ``table``: those of an analysis a
    player asked for already when it covers them (no search twice), else a new one."""
    done = Analysis.objects.filter(table=table, status=Analysis.Status.DONE).first()
    if done is not None and done.result and set(seats) <= set(done.result.get("seats", [])):
        judged = [
            _judged_from(d) for d in done.result["decisions"] if d["seat"] in seats
        ]  # fmt: skip
        return judged, True
    result = core.analyse(
        table.result.record, seats, samples=settings.FAIRPLAY_ANALYSIS_SAMPLES, seed=table.pk
    )
    return result.decisions, False


def _judged_from(d: dict[str, Any]) -> core.Judged:
    from games.engine.actions import action_from_dict

    return core.Judged(
        deal=d["deal"], action=d["action"], seat=d["seat"], phase=d["phase"],
        taken=action_from_dict(d["taken"]), best=action_from_dict(d["best"]),
        value_taken=d["value_taken"], value_best=d["value_best"], loss=d["loss"],
        label=core.Label(d["label"]),
    )  # fmt: skip


def _population(user_ids: list[int]) -> list[float]:
    """The mean loss a decision of every other analysed seat: honest play's spread, as
    far as the site knows it."""
    return list(
        PlayerAnalysis.objects.exclude(user_id__in=user_ids)
        .filter(decisions__gt=0)
        .values_list("mean_loss", flat=True)[:5000]
    )


def flag_analyse(*, flag_id: int) -> bool:
    """Run the full analysis of the flag's player (both players of a pair) over his
    latest screened matches (``FAIRPLAY_ANALYSIS_MATCHES``) and keep it on the flag.
    ``False`` when there is no such flag."""
    flag = Flag.objects.select_related("user", "partner").filter(pk=flag_id).first()
    if flag is None:
        return False
    Flag.objects.filter(pk=flag_id).update(analysis={"status": "running"})
    people = {flag.user_id: flag.user.username}
    if flag.partner_id is not None and flag.partner is not None:
        people[flag.partner_id] = flag.partner.username
    wanted = list(flag.evidence.get("matches", []))[: settings.FAIRPLAY_ANALYSIS_MATCHES]
    # Only finished matches with a result: a match in play is never analysed.
    tables = Table.objects.filter(
        pk__in=wanted, status=Table.Status.FINISHED, result__isnull=False
    ).select_related("result")
    started = time.process_time()
    rows: list[dict[str, Any]] = []
    losses: dict[int, list[float]] = {uid: [] for uid in people}
    agreed = {uid: [0, 0] for uid in people}
    largest: list[dict[str, Any]] = []
    for table in sorted(tables, key=lambda t: wanted.index(t.pk)):
        seats = dict(
            Seat.objects.filter(table=table, user_id__in=list(people)).values_list(
                "number", "user_id"
            )
        )
        if not seats:
            continue
        judged, reused = _decisions(table, sorted(seats))
        for seat, user_id in sorted(seats.items()):
            mine = [j for j in judged if j.seat == seat]
            same = sum(j.taken == j.best for j in mine)
            loss = sum(j.loss for j in mine) / len(mine) if mine else 0.0
            losses[user_id].extend(j.loss for j in mine)
            agreed[user_id][0] += same
            agreed[user_id][1] += len(mine)
            rows.append({
                "table": table.pk, "player": people[user_id], "seat": seat,
                "decisions": len(mine), "agreement": round(same / len(mine), 3) if mine else None,
                "mean_loss": round(loss, 2), "reused": reused,
            })  # fmt: skip
            for j in mine:
                if j.loss > 0:
                    largest.append({
                        "table": table.pk, "deal": j.deal, "action": j.action,
                        "player": people[user_id], "loss": round(j.loss, 1),
                    })  # fmt: skip
    population = _population(list(people))
    players = {}
    for user_id, name in people.items():
        lost = losses[user_id]
        mean = sum(lost) / len(lost) if lost else None
        below = (
            round(sum(p < mean for p in population) / len(population), 3)
            if population and mean is not None
            else None
        )
        players[name] = {
            "decisions": len(lost),
            "agreement": round(agreed[user_id][0] / agreed[user_id][1], 3)
            if agreed[user_id][1]
            else None,
            "mean_loss": None if mean is None else round(mean, 2),
            # Of the other analysed seats, the share that lost less a decision than he.
            "others_better": below,
        }
    largest.sort(key=lambda x: -x["loss"])
    result = {
        "status": "done",
        "samples": settings.FAIRPLAY_ANALYSIS_SAMPLES,
        "matches": rows,
        "players": players,
        "honest": {
            "seats": len(population),
            "median_mean_loss": round(statistics.median(population), 2) if population else None,
        },
        "largest_losses": largest[:10],
        "cpu_seconds": round(time.process_time() - started, 1),
    }
    Flag.objects.filter(pk=flag_id).update(analysis=result)
    return True


def flag_analysis_fail(*, flag_id: int, error: str) -> None:
    Flag.objects.filter(pk=flag_id).update(analysis={"status": "failed", "error": error[:500]})
