"""The challenge form: the lobby's table form (players, rules, options, clock, rated),
with the people invited and the bots' level instead of "private" (a challenge's
table is always private); the social settings' form of the Friends page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.pages.forms import BotForm, CreateTableForm
from social.models import SocialSettings


class ChallengeForm(CreateTableForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["private"]
        del self.fields["chat_off"]  # friends' table: its creator turns chat off on the table page
        self.fields["to1"] = forms.CharField(label=_("Invite (user name)"), max_length=150)
        self.fields["to2"] = forms.CharField(
            label=_("And (optional)"), max_length=150, required=False
        )
        self.fields["bot_level"] = BotForm.base_fields["level"]

    def usernames(self) -> list[str]:
        names = [self.cleaned_data.get("to1") or "", self.cleaned_data.get("to2") or ""]
        return [n.strip() for n in names if n.strip()]


class SocialSettingsForm(forms.Form):
    challenges = forms.ChoiceField(
        label=_("Take challenges from"),
        choices=SocialSettings.Challenges.choices,
        widget=forms.RadioSelect,
    )
    presence = forms.ChoiceField(
        label=_("Who may see that I am online and at which table"),
        choices=SocialSettings.Presence.choices,
        widget=forms.RadioSelect,
        help_text=_("A private table is shown only to people who may watch it."),
    )
