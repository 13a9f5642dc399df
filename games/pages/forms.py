"""The lobby's forms. They only read and check what a person typed; the views hand the
cleaned values to ``games.services``, which decides whether a table may be created."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS
from games.pages.options import (
    BOT_LEVEL_LABELS,
    DEALS_CHOICES,
    MOVE_SECONDS_CHOICES,
    OPTIONS,
    PRESET_HELP,
    PRESET_LABELS,
    PRESET_ORDER,
)

PLAYER_CHOICES = (
    (3, _("3 players — the classic game")),
    (2, _("2 players — two talons, IgraFan style")),
    (4, _("4 players — the dealer sits out and scores the talon")),
)


def _choice_key(value: Any) -> str:
    return "" if value is None else str(value)


class CreateTableForm(forms.Form):
    """A table's заявка: player count, preset, every option, time control, rated, private."""

    players = forms.TypedChoiceField(
        label=_("Players"), choices=PLAYER_CHOICES, coerce=int, initial=3, widget=forms.RadioSelect
    )
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(p, PRESET_LABELS[p]) for p in PRESET_ORDER],
        initial="classic",
        widget=forms.RadioSelect,
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Time control"),
        choices=MOVE_SECONDS_CHOICES,
        coerce=int,
        initial=30,
        help_text=_("The clock for every action; when it runs out, a bot plays the move for you."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("The result counts for the ratings; a rated table plays its preset unchanged."),
    )
    private = forms.BooleanField(
        label=_("Private"),
        required=False,
        help_text=_("Not listed in the lobby: players join with the invite link you share."),
    )
    chat_off = forms.BooleanField(
        label=_("Table chat off"),
        required=False,
        help_text=_("Nobody writes in this table's chat; you can turn it on on the table page."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        defaults = PRESETS["classic"].to_dict()
        for info in OPTIONS:
            field: forms.Field
            if info.choices:
                field = forms.ChoiceField(
                    choices=[(_choice_key(key), label) for key, label in info.choices],
                    required=False,
                    initial=_choice_key(defaults[info.name]),
                )
            elif info.name == "target":
                field = forms.IntegerField(
                    min_value=100, max_value=10000, initial=defaults["target"], required=False
                )
            else:
                field = forms.BooleanField(required=False, initial=defaults[info.name])
            field.label = info.label
            field.help_text = info.help
            self.fields[f"opt_{info.name}"] = field

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{info.name}"] for info in OPTIONS]

    def preset_help(self) -> list[tuple[str, Any, Any]]:
        return [(p, PRESET_LABELS[p], PRESET_HELP[p]) for p in PRESET_ORDER]

    def options(self) -> dict[str, Any] | None:
        """The options as the engine names them, or None for a rated table (its preset).
        A choice left empty keeps the preset's value (the service starts from the preset)."""
        data = self.cleaned_data
        if data.get("rated"):
            return None
        out: dict[str, Any] = {}
        for info in OPTIONS:
            value = data.get(f"opt_{info.name}")
            if info.name in ("red_threshold", "deals"):  # an empty choice means None here
                value = None if value in ("", None) else int(value)
            elif value in ("", None):
                continue
            out[info.name] = value
        return out


class BotForm(forms.Form):
    level = forms.ChoiceField(
        label=_("Bot level"), choices=list(BOT_LEVEL_LABELS.items()), initial="basic"
    )


class PracticeForm(BotForm):
    """ "Play against bots now": the bots' level and the match's length (docs/spec.md §3.7)."""

    deals = forms.TypedChoiceField(
        label=_("Match length"),
        choices=[(_choice_key(key), label) for key, label in DEALS_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
    )


def presets_json() -> dict[str, dict[str, Any]]:
    """Each preset's options keyed like the form's fields, for the form's script."""
    out: dict[str, dict[str, Any]] = {}
    for name in PRESET_ORDER:
        values = PRESETS[name].to_dict()
        out[name] = {
            f"opt_{info.name}": (
                _choice_key(values[info.name]) if info.choices else values[info.name]
            )
            for info in OPTIONS
        }
    return out
