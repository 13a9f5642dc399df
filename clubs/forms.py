"""The forms that found a club and write to its members (their checks are the services')."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.timezones import zone_choices
from clubs.models import Club
from clubs.services import MESSAGE_MAX, SUBJECT_MAX


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


class ClubMessageForm(forms.Form):
    subject = forms.CharField(
        label=_("subject"),
        max_length=SUBJECT_MAX,
        widget=forms.TextInput(attrs={"style": "width:100%;max-width:40em"}),
    )
    text = forms.CharField(
        label=_("message"),
        max_length=MESSAGE_MAX,
        widget=forms.Textarea(attrs={"rows": 6, "style": "width:100%;max-width:40em"}),
        help_text=_("It reaches every member who has not turned the club's messages off."),
    )
