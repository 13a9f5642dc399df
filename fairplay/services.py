"""Screening rated matches, accumulating the signals, raising and reviewing flags
(docs/fair-play.md). Only :func:`flag_review` acts on a moderator's word; nothing here
punishes anybody by itself, and nothing here is shown to players."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Sum
from django.urls import reverse
from django.utils import timezone

from accounts.types import User
from fairplay import screen as sc
from fairplay.entries import flag_entries_close, flag_entries_reopen
from fairplay.errors import FairPlayError
from fairplay.full_analysis import flag_analysis_queue
from fairplay.models import Flag, MatchScreen, PairSignal, PlayerSignal
from fairplay.scoring import (
    ClockCounts,
    Directed,
    clock_counts,
    clock_z,
    directed,
    engine_llr,
    engine_z,
    level_spread,
    pair_score,
)
from games.models import MatchResult, Seat, Table, TableAction
from tournaments.models import Notification
from tournaments.notices import notifications_create

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
    high = _high_level_seats(seats, players=result.table.players)
    started = time.process_time()
    screening = sc.screen(
        result.record, sorted(seats), seed=result.table_id,
        decisions=settings.FAIRPLAY_SCREEN_DECISIONS,
        seat_samples=dict.fromkeys(high, settings.FAIRPLAY_HIGH_LEVEL_SAMPLES),
    )  # fmt: skip
    cpu = time.process_time() - started
    clocks = _clocks(result.table_id, screening, set(seats))
    people = [seats.get(s) for s in range(result.table.players)]
    data = screening.to_dict()
    data["clock"] = {str(s): c.to_dict() for s, c in sorted(clocks.items())}
    with transaction.atomic():
        row, created = MatchScreen.objects.get_or_create(
            result=result, defaults={"people": people, "data": data, "cpu_seconds": cpu}
        )
        if not created:
            return None
        for seat, user_id in seats.items():
            _add_player(
                user_id, screening.seats[seat], clocks.get(seat, ClockCounts()), high=seat in high
            )
            for other, other_id in seats.items():
                if other != seat:
                    _add_pair(user_id, other_id, directed(screening, seat, other))
        for user_id in seats.values():
            _judge_engine(user_id, players=result.table.players)
            _judge_clock(user_id)
            for other_id in seats.values():
                if other_id > user_id:
                    _judge_pair(user_id, other_id)
    return row


def _clocks(table_id: int, screening: sc.Screening, seats: set[int]) -> dict[int, ClockCounts]:
    """The clock's counts of each person's seat, from the action log's times: the think
    time of an action is the time since the action before it in the same dealing (the
    first of a dealing has none); only a person's own actions with a choice count (not a
    timeout's nor a bot's). The log row and the record's action must agree on the seat,
    or the row is skipped. An archived log gives nothing."""
    rows = TableAction.objects.filter(table_id=table_id).order_by("version")
    moves: dict[int, list[tuple[float, int]]] = {s: [] for s in seats}
    previous: tuple[int, datetime] | None = None
    for k, (seat, dealing, source, at) in enumerate(
        rows.values_list("seat", "dealing", "source", "created_at")
    ):
        if k >= len(screening.choices):
            break
        expected_seat, choices = screening.choices[k]
        if (
            previous is not None
            and previous[0] == dealing
            and seat == expected_seat
            and seat in moves
            and source == TableAction.Source.HUMAN
            and choices > 1
        ):
            moves[seat].append(((at - previous[1]).total_seconds(), choices))
        previous = (dealing, at)
    return {s: clock_counts(m) for s, m in moves.items()}


def _high_level_seats(seats: dict[int, int], *, players: int) -> set[int]:
    """The seats (of ``seats``: seat → user id) whose players are of a high level: rated
    at least ``FAIRPLAY_HIGH_LEVEL_RATING`` in the pool of ``players``, screened at the
    larger budget. None while the setting is off."""
    from ratings.models import Rating

    floor = settings.FAIRPLAY_HIGH_LEVEL_RATING
    if floor is None:
        return set()
    high = set(
        Rating.objects.filter(
            players=players, rating__gte=floor, competitor__user_id__in=seats.values()
        ).values_list("competitor__user_id", flat=True)
    )
    return {seat for seat, user_id in seats.items() if user_id in high}


def _add_player(
    user_id: int, counts: sc.SeatCounts, clock: ClockCounts, *, high: bool = False
) -> None:
    """Add one match's counts to the player's signal: his agreement with master to the
    high level's counts when ``high`` (screened at its larger budget), else to the usual."""
    prefix = "high_" if high else ""
    agreement = {
        f"{prefix}{name}": F(f"{prefix}{name}") + getattr(counts, name)
        for name in ("checked", "agreed", "split", "split_agreed")
    }
    PlayerSignal.objects.get_or_create(user_id=user_id)
    PlayerSignal.objects.filter(user_id=user_id).update(
        matches=F("matches") + 1,
        **agreement,
        timed=F("timed") + clock.timed,
        steady=F("steady") + clock.steady,
        hard=F("hard") + clock.hard,
        hard_seconds=F("hard_seconds") + clock.hard_seconds,
        easy=F("easy") + clock.easy,
        easy_seconds=F("easy_seconds") + clock.easy_seconds,
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
        contest=F("contest") + d.contest,
        yielded=F("yielded") + d.yielded,
        contest_rest=F("contest_rest") + d.contest_rest,
        yielded_rest=F("yielded_rest") + d.yielded_rest,
    )


def _directed(row: PairSignal | None) -> Directed:
    if row is None:
        return Directed()
    return Directed(
        matches=row.matches, chances=row.chances, stood=row.stood,
        chances_rest=row.chances_rest, stood_rest=row.stood_rest, fed=row.fed,
        fed_rest=row.fed_rest, diff_sq=row.diff_sq, contest=row.contest, yielded=row.yielded,
        contest_rest=row.contest_rest, yielded_rest=row.yielded_rest,
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
    _, parts = pair_score(ab, ba)
    # Each signal against its own threshold: honest pairs' feeding scores run higher than
    # their soft-play scores (docs/fair-play.md), so one threshold for both would hide
    # soft play. The flag's score is the signal that passed by the larger margin.
    passed = [
        (score / threshold, score, threshold)
        for score, threshold in (
            (parts["soft_play"], settings.FAIRPLAY_SOFT_PLAY_THRESHOLD),
            (max(parts["feeding_ab"], parts["feeding_ba"]), settings.FAIRPLAY_PAIR_THRESHOLD),
        )
        if score >= threshold
    ]
    if not passed:
        return
    _, score, threshold = max(passed)
    screens = _shared_screens(a, b)
    evidence = {
        "parts": {k: round(v, 2) for k, v in parts.items()},
        "counts": {
            "ab": {"stood": ab.stood, "chances": ab.chances, "stood_rest": ab.stood_rest,
                   "chances_rest": ab.chances_rest, "fed": ab.fed, "fed_rest": ab.fed_rest,
                   "contest": ab.contest, "yielded": ab.yielded,
                   "contest_rest": ab.contest_rest, "yielded_rest": ab.yielded_rest},
            "ba": {"stood": ba.stood, "chances": ba.chances, "stood_rest": ba.stood_rest,
                   "chances_rest": ba.chances_rest, "fed": ba.fed, "fed_rest": ba.fed_rest,
                   "contest": ba.contest, "yielded": ba.yielded,
                   "contest_rest": ba.contest_rest, "yielded_rest": ba.yielded_rest},
        },
        "matches": [row.result.table_id for row in screens],
        "decisions": _decisions(screens, {a: a, b: b}, {a, b}),
    }  # fmt: skip
    _raise(Flag.Kind.PAIR, a, b, score, threshold, ab.matches, evidence)


def _expected_agreement(user_id: int, players: int, *, split: bool = False) -> float | None:
    """The agreement with master of the other players of ``user_id``'s level (rated within
    :data:`LEVEL_BAND` of him in the pool of ``players``), or of everybody screened when his
    level has too few; ``None`` when nobody else has enough. ``split``: on the decisions
    where master's choice differs from the reference bot's."""
    level = _level(user_id, players, split=split)
    return None if level is None else level[0]


def _level(
    user_id: int, players: int, *, split: bool = False, high: bool = False
) -> tuple[float, list[tuple[int, int]]] | None:
    """:func:`_expected_agreement`, and each of those players' own (agreed, checked);
    ``high``: their counts at the high level's budget."""
    from ratings.models import Rating

    others = PlayerSignal.objects.exclude(user_id=user_id)
    mine = Rating.objects.filter(players=players, competitor__user_id=user_id).first()
    pools = [others]
    if mine is not None:
        near = Rating.objects.filter(
            players=players, rating__range=(mine.rating - LEVEL_BAND, mine.rating + LEVEL_BAND)
        ).values("competitor__user_id")
        pools.insert(0, others.filter(user_id__in=near))
    checked, agreed = ("split", "split_agreed") if split else ("checked", "agreed")
    if high:
        checked, agreed = f"high_{checked}", f"high_{agreed}"
    for pool in pools:
        sums = pool.aggregate(checked=Sum(checked), agreed=Sum(agreed))
        if (sums["checked"] or 0) >= LEVEL_MIN_CHECKED:
            rates = list(pool.filter(**{f"{checked}__gt": 0}).values_list(agreed, checked))
            return float(sums["agreed"]) / float(sums["checked"]), rates
    return None


def _judge_engine(user_id: int, *, players: int) -> None:
    signal = PlayerSignal.objects.get(user_id=user_id)
    if signal.matches < settings.FAIRPLAY_MIN_MATCHES:
        return
    # His agreement at the usual budget and, apart, at the high level's, each weighed
    # against his level's at the same budget. The two ratios rest on different decisions:
    # their product is again a ratio that honest play keeps a martingale, so one threshold
    # still bounds the honest players ever flagged.
    judged = {}
    for at_high, split, agreed in (
        (False, signal.split, signal.split_agreed),
        (True, signal.high_split, signal.high_split_agreed),
    ):
        level = _level(user_id, players, split=True, high=at_high) if split or not at_high else None
        if level is not None:
            expected, rates = level
            spread = level_spread(rates, expected)
            judged[at_high] = (engine_llr(split, agreed, expected, spread=spread), expected, spread)
    if not judged:
        return
    score = sum(llr for llr, _, _ in judged.values())
    threshold = settings.FAIRPLAY_ENGINE_THRESHOLD
    if score < threshold:
        return
    overall = _expected_agreement(user_id, players)
    screens = _shared_screens(user_id)
    usual, high = judged.get(False), judged.get(True)
    counts: dict[str, Any] = {
        "checked": signal.checked, "agreed": signal.agreed,
        "agreement": round(signal.agreed / signal.checked, 3) if signal.checked else None,
        "expected": round(overall, 3) if overall is not None else None,
        "split": signal.split, "split_agreed": signal.split_agreed,
        "split_agreement": round(signal.split_agreed / signal.split, 3) if signal.split else None,
        "split_expected": round(usual[1], 3) if usual else None,
        "split_spread": round(usual[2], 3) if usual else None,
    }  # fmt: skip
    if high is not None:
        counts.update({
            "high_checked": signal.high_checked, "high_agreed": signal.high_agreed,
            "high_split": signal.high_split, "high_split_agreed": signal.high_split_agreed,
            "high_split_agreement": round(signal.high_split_agreed / signal.high_split, 3),
            "high_split_expected": round(high[1], 3), "high_split_spread": round(high[2], 3),
        })  # fmt: skip
    evidence = {
        "parts": {
            "likelihood_ratio_log": round(score, 2),
            "agreement_z": round(engine_z(signal.checked, signal.agreed, overall), 2)
            if overall is not None
            else None,
            **({"likelihood_ratio_log_high": round(high[0], 2)} if high else {}),
        },
        "counts": counts,
        "matches": [row.result.table_id for row in screens],
        "decisions": [],
    }  # fmt: skip
    _raise(Flag.Kind.ENGINE, user_id, None, score, threshold, signal.matches, evidence)


def _judge_clock(user_id: int) -> None:
    """A player who decides in near the same time whatever the decision, far more often
    than the other players timed: no clock's pressure shows in his play."""
    signal = PlayerSignal.objects.get(user_id=user_id)
    if signal.matches < settings.FAIRPLAY_MIN_MATCHES or signal.timed == 0:
        return
    others = PlayerSignal.objects.exclude(user_id=user_id).aggregate(
        timed=Sum("timed"), steady=Sum("steady")
    )
    if (others["timed"] or 0) < LEVEL_MIN_CHECKED:
        return
    expected = float(others["steady"]) / float(others["timed"])
    score = clock_z(signal.timed, signal.steady, expected)
    threshold = settings.FAIRPLAY_CLOCK_THRESHOLD
    if score < threshold:
        return
    screens = _shared_screens(user_id)
    evidence = {
        "parts": {"steady_z": round(score, 2)},
        "counts": {
            "timed": signal.timed, "steady": signal.steady,
            "steady_share": round(signal.steady / signal.timed, 3),
            "expected": round(expected, 3),
            "seconds_hard": round(signal.hard_seconds / signal.hard, 1) if signal.hard else None,
            "seconds_easy": round(signal.easy_seconds / signal.easy, 1) if signal.easy else None,
        },
        "matches": [row.result.table_id for row in screens],
        "decisions": [],
    }  # fmt: skip
    _raise(Flag.Kind.CLOCK, user_id, None, score, threshold, signal.matches, evidence)


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
    flag = Flag.objects.create(
        kind=kind, user_id=user_id, partner_id=partner_id, score=score, threshold=threshold,
        matches=matches, evidence=evidence,
    )  # fmt: skip
    flag_analysis_queue(flag_id=flag.pk)


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
    if status == Flag.Status.CHEATING:
        flag_entries_close(flag=flag, by=user)
    elif status == Flag.Status.WARNED:
        _warn(flag)
    return flag


def _warn(flag: Flag) -> None:
    """Tell the warned player (both players of a pair) in his notifications: the same
    general reminder for everybody, in his language when he reads it, linked to the
    fair-play rules. It never names the flag, its evidence, its kind, the partner or the
    matches. Not mailed: no e-mail notice a player can choose fits it
    (``accounts.models.NoticeKind``)."""
    told = [flag.user_id] + ([flag.partner_id] if flag.partner_id is not None else [])
    notifications_create(
        tournament=None,
        user_ids=told,
        kind=Notification.Kind.FAIR_PLAY,
        url=reverse("fairplay:rules"),
    )


@transaction.atomic
def flag_unmark(*, flag_id: int, user: User, note: str = "") -> Flag:
    """Withdraw a flag's "cheating" verdict: the voiding in force is undone (every rating
    as it was), the entries it closed are reinstated where the event allows, and the
    flag is open again for review (dismissed, if the same player or pair has been
    flagged again meanwhile)."""
    from fairplay.voiding import voiding_undo

    if not user.has_perm("fairplay.review_flag"):
        raise FairPlayError("not_moderator")
    flag = Flag.objects.select_for_update().filter(pk=flag_id).first()
    if flag is None:
        raise FairPlayError("no_flag")
    if flag.status != Flag.Status.CHEATING:
        raise FairPlayError("not_cheating")
    voiding = flag.voidings.filter(undone_at__isnull=True).first()
    if voiding is not None:
        voiding_undo(voiding_id=voiding.pk, user=user)
    flag_entries_reopen(flag=flag)
    again = Flag.objects.filter(
        kind=flag.kind, user_id=flag.user_id, partner_id=flag.partner_id, status=Flag.Status.OPEN
    ).exists()
    flag.status = Flag.Status.DISMISSED if again else Flag.Status.OPEN
    flag.reviewed_by = user
    flag.reviewed_at = timezone.now()
    flag.note = "\n".join(x for x in (flag.note, note) if x)
    flag.save(update_fields=["status", "reviewed_by", "reviewed_at", "note", "updated_at"])
    return flag
