"""Celery tasks of the tournaments: load by id, call one service, nothing else.

``tournaments.tick`` runs every few seconds from Celery beat; it enqueues one
``tournaments.step`` per active tournament, which does whatever is due (open
registration, start, seat a round — the Swiss or knockout seating runs here — open its
live tables, enforce the time limit, close the round, finish). A step holds the
tournament's row lock, so two ticks that overlap do the work once; ``acks_late`` with
``reject_on_worker_lost`` gives a step whose worker died to another worker, and the
step is idempotent.
"""

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.tick", ignore_result=True)
def tournaments_tick() -> int:
    due = services.tournaments_due()
    for tournament_id in due:
        tournament_step.delay(tournament_id)
    return len(due)


@shared_task(
    name="tournaments.step", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def tournament_step(tournament_id: int) -> str:
    did = services.tournament_step(tournament_id=tournament_id)
    if did == services.Step.MORE:
        tournament_step.delay(tournament_id)
    return did


@shared_task(
    name="tournaments.record_result", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def record_result(result_id: int) -> bool:
    tournament_id = services.assignment_record_result(result_id=result_id)
    if tournament_id is None:
        return False
    # The round may be complete: step now rather than at the next tick.
    tournament_step.delay(tournament_id)
    return True
