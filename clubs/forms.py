"""The form that founds a club (its checks are the service's)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.timezones import zone_choices
from clubs.models import Club


class ClubForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=80)
    slug = forms.CharField(
        label=_("address"),
        max_length=40,
        help_text=_(
            "3 to 40 Latin letters, digits and hyphens: the club's page is /clubs/<address>/."
        ),
    )
    description = forms.CharField(
        label=_("description"), max_length=4000, required=False, widget=forms.Textarea
    )
    languages = forms.MultipleChoiceField(
        label=_("languages"),
        choices=settings.LANGUAGES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    time_zone = forms.ChoiceField(label=_("time zone"), choices=zone_choices, initial="UTC")
    access = forms.ChoiceField(label=_("who may join"), choices=Club.Access.choices)
