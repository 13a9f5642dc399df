"""The dates of a recurring evening: pure date arithmetic (the standard library only).

"Every Thursday 19:00 Europe/Kyiv" is a wall-clock time in a zone: each occurrence is that
date and time read in the zone (``zoneinfo``), so the evening stays at 19:00 local across a
daylight-saving change and its UTC instant moves by the hour instead. A wall time that does
not exist on the spring-forward day (02:30 in the gap) is read with the offset before the
change, i.e. an hour later by the new clock; an ambiguous one in the autumn (the repeated
hour) is its first occurrence.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def occurrences(
    *,
    weekday: int,
    at: time,
    zone: str,
    start: datetime,
    end: datetime,
    skipped: Collection[str] = (),
) -> list[tuple[date, datetime]]:
    """Each local date with ``weekday`` (Monday 0) whose evening at ``at`` in ``zone`` falls
    in ``[start, end]``, with that moment in UTC; the ISO dates in ``skipped`` left out."""
    tz = ZoneInfo(zone)
    first = start.astimezone(tz).date()
    last = end.astimezone(tz).date()
    day = first + timedelta(days=(weekday - first.weekday()) % 7)
    found = []
    while day <= last:
        moment = datetime.combine(day, at, tzinfo=tz).astimezone(UTC)
        if start <= moment <= end and day.isoformat() not in skipped:
            found.append((day, moment))
        day += timedelta(days=7)
    return found
