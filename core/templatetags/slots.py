"""``{% load slots %}{% slot "name" arg… %}``: a place a higher app fills (core/slots.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from core import slots

register = template.Library()


@register.simple_tag(takes_context=True)
def slot(context: Any, name: str, *args: Any) -> SafeString:
    return slots.render(name, context, *args)
