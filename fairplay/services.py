"""Screening rated matches, accumulating the signals, raising and reviewing flags
(docs/fair-play.md). Only :func:`flag_review` acts on a moderator's word; nothing here
punishes anybody by itself, and nothing here is shown to players."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone

from accounts.types import User
from fairplay import screen as sc
from fairplay.errors import FairPlayError
from fairplay.models import Flag, MatchScreen, PairSignal, PlayerSignal
from fairplay.scoring import Directed, directed, engine_z, pair_score
from games.models import MatchResult, Seat, Table

# A player's level: players rated within this many points of him in the same pool.
LEVEL_BAND = 150.0
# Decisions the players of a level must have had checked before their agreement says
# what the level explains.
LEVEL_MIN_CHECKED = 100
# A decided flag is raised again only after this many more matches.
REFLAG_MATCHES = 20


def match_screen(*, result_id: int) -> MatchScreen | None:
    """Screen a finished rated match and add it to its players' and pairs' signals, then
    raise the flags their scores call for. ``None`` when there is nothing to do (not
    rated, no person, or screened already)."""
    result = MatchResult.objects.select_related("table").filter(pk=result_id).first()
    if (
        result is None
        or not result.table.rated
        or MatchScreen.objects.filter(result=result).exists()
    ):
        return None
    if result.table.status != Table.Status.FINISHED:
        return None  # a match still in play is never screened
    seats = dict(
        Seat.objects.filter(table=result.table, user__isnull=False).values_list("number", "user_id")
    )
    if not seats:
        return None
    started = time.process_time()
    screening = sc.screen(
        result.record, sorted(seats), seed=result.table_id,
        decisions=settings.FAIRPLAY_SCREEN_DECISIONS,
    )  # fmt: skip
    cpu = time.process_time() - started
    people = [seats.get(s) for s in range(result.table.players)]
    with transaction.atomic():
        row, created = MatchScreen.objects.get_or_create(
            result=result,
            defaults={"people": people, "data": screening.to_dict(), "cpu_seconds": cpu},
        )
        if not created:
            return None
        for seat, user_id in seats.items():
            _add_player(user_id, screening.seats[seat])
            for other, other_id in seats.items():
                if other != seat:
                    _add_pair(user_id, other_id, directed(screening, seat, other))
        for user_id in seats.values():
            _judge_engine(user_id, players=result.table.players)
            for other_id in seats.values():
                if other_id > user_id:
                    _judge_pair(user_id, other_id)
    return row


def _add_player(user_id: int, counts: sc.SeatCounts) -> None:
    PlayerSignal.objects.get_or_create(user_id=user_id)
    PlayerSignal.objects.filter(user_id=user_id).update(
        matches=F("matches") + 1,
        checked=F("checked") + counts.checked,
        agreed=F("agreed") + counts.agreed,
    )


def _add_pair(user_id: int, other_id: int, d: Directed) -> None:
    PairSignal.objects.get_or_create(user_id=user_id, other_id=other_id)
    PairSignal.objects.filter(user_id=user_id, other_id=other_id).update(
        matches=F("matches") + d.matches,
        chances=F("chances") + d.chances,
        stood=F("stood") + d.stood,
        chances_rest=F("chances_rest") + d.chances_rest,
        stood_rest=F("stood_rest") + d.stood_rest,
        fed=F("fed") + d.fed,
        fed_rest=F("fed_rest") + d.fed_rest,
        diff_sq=F("diff_sq") + d.diff_sq,
    )


def _directed(row: PairSignal | None) -> Directed:
    if row is None:
        return Directed()
    return Directed(
        matches=row.matches, chances=row.chances, stood=row.stood,
        chances_rest=row.chances_rest, stood_rest=row.stood_rest, fed=row.fed,
        fed_rest=row.fed_rest, diff_sq=row.diff_sq,
    )  # fmt: skip


def _shared_screens(*user_ids: int) -> list[MatchScreen]:
    return list(
        MatchScreen.objects.filter(people__contains=list(user_ids))
        .select_related("result")
        .order_by("-result__finished_at")[:20]
    )


def _decisions(screens: list[MatchScreen], givers: dict[int, int], to: set[int]) -> list[Any]:
    """The decisions of ``givers`` (user id → anyone) in ``screens`` that fed the most
    points to the seats of ``to`` (user ids; empty: to anybody)."""
    found = []
    for row in screens:
        people = row.people
        for seat_text, counts in row.data["seats"].items():
            giver = people[int(seat_text)]
            if giver not in givers:
                continue
            for deal, action, other, points in counts["largest"]:
                receiver = people[other]
                if to and receiver not in to:
                    continue
                found.append(
                    {
                        "table": row.result.table_id, "deal": deal, "action": action,
                        "from": giver, "to": receiver, "seat_to": other, "points": points,
                    }
                )  # fmt: skip
    found.sort(key=lambda x: -x["points"])
    found = found[:10]
    names = dict(
        get_user_model()
        .objects.filter(pk__in={x["from"] for x in found} | {x["to"] for x in found})
        .values_list("pk", "username")
    )
    for x in found:
        x["from"], x["to"] = names.get(x["from"], x["from"]), names.get(x["to"], x["to"])
    return found


def _judge_pair(a: int, b: int) -> None:
    rows = {
        (r.user_id, r.other_id): r
        for r in PairSignal.objects.filter(user_id__in=[a, b], other_id__in=[a, b])
    }
    ab, ba = _directed(rows.get((a, b))), _directed(rows.get((b, a)))
    if ab.matches < settings.FAIRPLAY_MIN_MATCHES:
        return
    score, parts = pair_score(ab, ba)
    threshold = settings.FAIRPLAY_PAIR_THRESHOLD
    if score < threshold:
        return
    screens = _shared_screens(a, b)
    evidence = {
        "parts": {k: round(v, 2) for k, v in parts.items()},
        "counts": {
            "ab": {"stood": ab.stood, "chances": ab.chances, "stood_rest": ab.stood_rest,
                   "chances_rest": ab.chances_rest, "fed": ab.fed, "fed_rest": ab.fed_rest},
            "ba": {"stood": ba.stood, "chances": ba.chances, "stood_rest": ba.stood_rest,
                   "chances_rest": ba.chances_rest, "fed": ba.fed, "fed_rest": ba.fed_rest},
        },
        "matches": [row.result.table_id for row in screens],
        "decisions": _decisions(screens, {a: a, b: b}, {a, b}),
    }  # fmt: skip
    _raise(Flag.Kind.PAIR, a, b, score, threshold, ab.matches, evidence)


def _expected_agreement(user_id: int, players: int) -> float | None:
    """The agreement with master of the other players of ``user_id``'s level (rated within
    :data:`LEVEL_BAND` of him in the pool of ``players``), or of everybody screened when his
    level has too few; ``None`` when nobody else has enough."""
    from ratings.models import Rating

    others = PlayerSignal.objects.exclude(user_id=user_id)
    mine = Rating.objects.filter(players=players, competitor__user_id=user_id).first()
    pools = [others]
    if mine is not None:
        near = Rating.objects.filter(
            players=players, rating__range=(mine.rating - LEVEL_BAND, mine.rating + LEVEL_BAND)
        ).values("competitor__user_id")
        pools.insert(0, others.filter(user_id__in=near))
    for pool in pools:
        sums = pool.aggregate(checked=Sum("checked"), agreed=Sum("agreed"))
        if (sums["checked"] or 0) >= LEVEL_MIN_CHECKED:
            return float(sums["agreed"]) / float(sums["checked"])
    return None


def _judge_engine(user_id: int, *, players: int) -> None:
    signal = PlayerSignal.objects.get(user_id=user_id)
    if signal.matches < settings.FAIRPLAY_MIN_MATCHES:
        return
    expected = _expected_agreement(user_id, players)
    if expected is None:
        return
    score = engine_z(signal.checked, signal.agreed, expected)
    threshold = settings.FAIRPLAY_ENGINE_THRESHOLD
    if score < threshold:
        return
    screens = _shared_screens(user_id)
    evidence = {
        "parts": {"agreement_z": round(score, 2)},
        "counts": {
            "checked": signal.checked, "agreed": signal.agreed,
            "agreement": round(signal.agreed / signal.checked, 3),
            "expected": round(expected, 3),
        },
        "matches": [row.result.table_id for row in screens],
        "decisions": [],
    }  # fmt: skip
    _raise(Flag.Kind.ENGINE, user_id, None, score, threshold, signal.matches, evidence)


def _raise(
    kind: str, user_id: int, partner_id: int | None, score: float, threshold: float,
    matches: int, evidence: dict[str, Any],
) -> None:  # fmt: skip
    flags = Flag.objects.select_for_update().filter(
        kind=kind, user_id=user_id, partner_id=partner_id
    )
    open_flag = flags.filter(status=Flag.Status.OPEN).first()
    if open_flag is not None:
        open_flag.score, open_flag.matches, open_flag.evidence = score, matches, evidence
        open_flag.save(update_fields=["score", "matches", "evidence", "updated_at"])
        return
    last = flags.order_by("-matches").first()
    if last is not None and matches < last.matches + REFLAG_MATCHES:
        return
    Flag.objects.create(
        kind=kind, user_id=user_id, partner_id=partner_id, score=score, threshold=threshold,
        matches=matches, evidence=evidence,
    )  # fmt: skip


_DECIDED = {Flag.Status.DISMISSED, Flag.Status.WARNED, Flag.Status.CHEATING}


@transaction.atomic
def flag_review(*, flag_id: int, user: User, status: str, note: str = "") -> Flag:
    """A moderator's verdict on an open flag: dismissed, warned or cheating. Only
    moderators (``fairplay.review_flag``) may give one; a decided flag stays decided."""
    if not user.has_perm("fairplay.review_flag"):
        raise FairPlayError("not_moderator")
    if status not in _DECIDED:
        raise FairPlayError("bad_status")
    flag = Flag.objects.select_for_update().filter(pk=flag_id).first()
    if flag is None:
        raise FairPlayError("no_flag")
    if flag.status != Flag.Status.OPEN:
        raise FairPlayError("decided")
    flag.status = status
    flag.reviewed_by = user
    flag.reviewed_at = timezone.now()
    flag.note = note
    flag.save(update_fields=["status", "reviewed_by", "reviewed_at", "note", "updated_at"])
    return flag
