"""The strings of the analysis panel (static/js/analysis.js), translated here."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def panel_strings() -> dict[str, str]:
    return {
        "ask": _("Analyse this match"),
        "cancel": _("Cancel the analysis"),
        "queued": _("The analysis is waiting for a free worker…"),
        "running": _("Analysing: {done} of {total} decisions"),
        "stalled": _(
            "No decision has finished for a while: the worker seems to have stopped. The analysis starts over by itself within a few minutes; you may also cancel it and ask again."
        ),
        "done": _("Analysed: {total} decisions of the people at this table."),
        "failed": _("The analysis failed. You may ask for it again."),
        "cancelled": _("The analysis was cancelled."),
        "none": _("Nobody has asked for this match's analysis yet."),
        "sign_in": _("Sign in as one of the match's players to ask for its analysis."),
        "error": _("Could not reach the server; try again."),
        "label_good": pgettext("analysis label", "good"),
        "label_inaccuracy": pgettext("analysis label", "inaccuracy"),
        "label_mistake": pgettext("analysis label", "mistake"),
        "label_blunder": pgettext("analysis label", "blunder"),
        "mark_good": _("{name}: {label}. The master search agrees."),
        "mark_loss": _(
            "{name}: {label}. Master would {best} here: {gain} points more expected over the rest of the deal."
        ),
        "no_mark": _("No decision of an analysed player at this step."),
        "hindsight": _(
            "Hindsight: with every card known and best play on both sides, {name} takes {could} in this deal (took {took}, contract {contract})."
        ),
        "summary_title": _("Mean loss a decision"),
        "summary_row": _(
            "{name}: {mean} points ({n} decisions); bidding {bidding}, gives and contract {contract}, play {play}"
        ),
        "worst": _("Worst decisions:"),
        "worst_item": _("deal {deal}, {what} (−{loss})"),
        "next_mistake": _("Next mistake"),
        "previous_mistake": _("Previous mistake"),
        "no_more": _("No further mistakes."),
        "chart": _("Loss through the match"),
        "do_bid": _("bid {value}"),
        "do_pass": _("pass"),
        "do_redeal": _("ask for a redeal"),
        "do_dark": _("play dark"),
        "do_look": _("look at the cards"),
        "do_talon": _("take talon {n}"),
        "do_give": _("give {card} to {to}"),
        "do_contract": _("name {value}"),
        "do_write_off": _("write the deal off"),
        "do_play": _("play {card}"),
        "dash": "—",
    }


def hint_strings() -> dict[str, str]:
    return {
        "hint_ask": _("What would strong do?"),
        "hint_answer": _("Strong would {action}."),
        "hint_used": _("Hints used: {n}. The match record notes them."),
        "hint_reason": _(
            "Why: strong expects {value} points from it over the rest of the deal (the change in its standing in the match against the others)."
        ),
        "hint_reason_other": _(
            "Why: over the rest of the deal strong expects {gain} points more from it than to {other}, the next best it weighed."
        ),
        "hint_no_reason": _("Both talons lie face down: nothing tells them apart."),
    }
