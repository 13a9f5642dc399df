"""``{% load tournaments %}``: ``{{ t|tournament_status }}``, the state a player needs."""

from django import template

from tournaments import selectors
from tournaments.models import Tournament

register = template.Library()


@register.filter
def tournament_status(tournament: Tournament) -> str:
    return selectors.status_label(tournament)
