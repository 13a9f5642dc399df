"""A player's own time zone: the IANA zones a player can choose, and the check on a name.

The site keeps its times in one zone (``TIME_ZONE``); a player who sets a zone in his
profile sees every date and time in that zone instead (accounts.middleware).
"""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# The regions of the IANA database a person lives in; the rest (Etc/GMT+3, US/Eastern,
# SystemV/…) are aliases or legacy names, still accepted from the API but not offered.
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)


@cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_choices() -> list[tuple[str, list[tuple[str, str]]] | tuple[str, str]]:
    """UTC, then the zones grouped by region ("Europe" → "Europe/Kyiv"). The names are
    the IANA ones, old spellings too (Europe/Kiev): a browser may still report those."""
    groups: dict[str, list[tuple[str, str]]] = {region: [] for region in REGIONS}
    for name in sorted(known_zones()):
        region, _slash, place = name.partition("/")
        if region in groups and place:
            groups[region].append((name, name.replace("_", " ")))
    return [("UTC", "UTC"), *((region, zones) for region, zones in groups.items() if zones)]


def validate_time_zone(value: str) -> None:
    if value and value not in known_zones():
        raise ValidationError(
            _("“%(value)s” is not a time zone. Use a name such as Europe/Kyiv."),
            code="invalid_time_zone",
            params={"value": value},
        )


def zone_of(user: object) -> zoneinfo.ZoneInfo | None:
    """The zone a person chose in his profile, or None for the site's (also for a name
    the zone database of this machine no longer knows: a page must not fail on it)."""
    name = getattr(user, "time_zone", "") or ""
    if not name:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
