"""The strings the table and replay pages' JavaScript shows, translated on the server.

The page gets them as JSON (``json_script``) and ``static/js/i18n.js`` fills the
``{name}`` placeholders; a plural string becomes ``{one, few, many, other}`` for the
browser's ``Intl.PluralRules``. Keeping them here puts them in the games app's own
catalogue (``games/locale``), with every other string of the game pages.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.pages.cards import rank_letters


def _plural(forms: Callable[[int], str]) -> dict[str, str]:
    """``forms(n)`` is an ngettext call; Intl.PluralRules' categories for en, ru and uk
    are those of 1 (one), 2 (few), 5 (many); "other" is for fractions, never shown."""
    return {"one": forms(1), "few": forms(2), "many": forms(5), "other": forms(5)}


def table_strings() -> dict[str, object]:
    """Every string of static/js/{render,sheet,table,replay,cards}.js, in the active language."""
    return {
        # cards
        "card_name": _("{rank} of {suit}"),
        "rank_9": _("Nine"),
        "rank_T": _("Ten"),
        "rank_J": _("Jack"),
        "rank_Q": _("Queen"),
        "rank_K": _("King"),
        "rank_A": _("Ace"),
        "suit_S": pgettext("suit in a card name (Queen of …)", "spades"),
        "suit_C": pgettext("suit in a card name (Queen of …)", "clubs"),
        "suit_D": pgettext("suit in a card name (Queen of …)", "diamonds"),
        "suit_H": pgettext("suit in a card name (Queen of …)", "hearts"),
        # the rank as a card's corner writes it: "Q" in "Q♥"
        **{f"rank_letter_{rank}": letter for rank, letter in rank_letters().items()},
        # the table
        "table": _("Table"),
        "your_hand": _("Your hand"),
        "seat_n": _("Seat {n}"),
        "you": _("you"),
        "deal_n": _("Deal {n}"),
        "deal_n_of": _("Deal {n} of {of}"),
        "golden": _("Golden round"),
        "dark": _("Dark"),
        "contract_by": _("Contract {value} · {name}"),
        "bid_by": _("Bid {value} · {name}"),
        "current_bid": _("Bid {value}"),
        "trump": _("Trump"),
        "no_trump": _("No trump yet"),
        "winner_is": _("{name} wins the match"),
        "dealer": _("Dealer"),
        "dealer_short": pgettext("dealer, one letter", "D"),
        "resting": _("rests"),
        "bot_n": _("Bot {n}"),
        "level_random": pgettext("bot level", "random"),
        "level_basic": pgettext("bot level", "basic"),
        "level_strong": pgettext("bot level", "strong"),
        "bot_random": _("Bot: random"),
        "bot_basic": _("Bot: basic"),
        "bot_strong": _("Bot: strong"),
        "away": _("away"),
        "resigned": _("resigned"),
        "offline_short": _("offline"),
        "thinking": _("thinking…"),
        "score": _("Score"),
        "bolts_n": _plural(lambda n: ngettext("{n} bolt", "{n} bolts", n)),
        "on_barrel": _("On the barrel"),
        "barrel_attempts": _("On the barrel: attempt {n} of {of}"),
        "deciding_dark": _("dark or look?"),
        "pass": _("Pass"),
        "tricks_taken": _("Tricks taken"),
        "tricks_n": _plural(lambda n: ngettext("{n} trick", "{n} tricks", n)),
        "marriages": _("Marriages declared"),
        "marriages_points": _("marriages +{n}"),
        "cards_n": _plural(lambda n: ngettext("{n} card", "{n} cards", n)),
        "talon": _("Talon"),
        "talon_n": _("Talon {n}"),
        "take_talon_n": _("Take talon {n}"),
        "talon_of": _("Talon, taken by {name}"),
        "talon_closed": _("{name} took the talon closed"),
        "gave_to": _("{card} given to {name}"),
        "given_by": _("given to you by {name}"),
        "waiting_dark": _("{name} decides: dark or look"),
        "trick": _("Trick"),
        "last_trick": _("Last trick"),
        "took_trick": _("{name} took the trick"),
        "summary_redeal": _("Redeal: the same dealer deals again."),
        "summary_written_off": _("{name} wrote off the deal at {value}."),
        "summary_made": _("{name} made the contract of {value}."),
        "summary_failed": _("{name} failed the contract of {value}."),
        "summary_made_took": _("{name} made the contract of {value}: took {took} of {value}."),
        "summary_failed_took": _("{name} failed the contract of {value}: took {took} of {value}."),
        "bidding": _("Bidding"),
        "match_over": _("The match is over"),
        "watch_replay": _("Watch the replay"),
        "table_rules": _("Rules of this table"),
        # prompts and actions
        "sending": _("Sending…"),
        "waiting_deal": _("Waiting for the next deal…"),
        "waiting_for": _("Waiting for {name}…"),
        "your_turn": _("Your turn"),
        "prompt_dark": _("Your turn: play dark (a blind 120) or look at your cards?"),
        "prompt_bid": _("Your turn to bid: raise or pass."),
        "prompt_pass_only": _("Your turn to bid: only Pass is open to you."),
        "prompt_pass_only_marriage": _(
            "Your turn to bid: only Pass is open to you — raising past 120 needs a marriage in your hand."
        ),
        "prompt_talon": _("Choose one of the two talons."),
        "prompt_give": _("Give one card to each opponent: pick a card, then whom to give it to."),
        "prompt_give_one": _("Give one card to {name}: pick a card."),
        "prompt_contract": _("Name your contract, or write the deal off."),
        "prompt_lead": _("Your lead: play any card."),
        "prompt_follow": _("Your turn: play a card."),
        "bid": _("Bid"),
        "contract": _("Contract"),
        "bid_value": _("Bid {value}"),
        "contract_value": _("Contract {value}"),
        "other_bid": _("Another bid"),
        "other_contract": _("Another contract"),
        "play_dark": _("Play dark"),
        "look": _("Look at my cards"),
        "write_off": _("Write off"),
        "write_off_help": _(
            "Concede the deal: you lose the contract, each opponent gets half of it."
        ),
        "ask_redeal": _("Ask for a redeal"),
        "redeal_help": _("Your cards are weak enough for a redeal: the same dealer deals again."),
        "give_to": _("Give {card} to {name}"),
        "playing_blind": _("You play dark: your cards stay hidden until the bidding is over."),
        "marriage_declared": _("{name} declares a marriage {suit}: +{value}"),
        "ace_marriage_declared": _("{name} declares the ace marriage: +{value}"),
        "away_note": _("Your time ran out twice, so a bot is playing for you."),
        "back_to_play": _("I'm back: let me play"),
        "cards_unseen": _("Your cards lie face down until you decide."),
        "declares_marriage": _("leading it declares a marriage: +{n}"),
        "marriage_hint": _("A card marked +N declares its marriage when you lead it."),
        # the score sheet
        "score_sheet": _("Score sheet"),
        "sheet_empty": _("No deals played yet."),
        "deal_short": pgettext("score sheet column: deal number", "#"),
        "contract_short": pgettext("score sheet column", "Contract"),
        "sheet_details": _("Deal {n}: show the count"),
        "outcome_made": _("made"),
        "outcome_failed": _("failed"),
        "outcome_written_off": _("written off"),
        "outcome_redeal": _("redeal"),
        "bolt": _("bolt"),
        "samosval": _("samosval"),
        "sheet_not_counted": _("on the barrel: attempt {n} of {of}, not counted"),
        "sheet_fell": _("fell off {delta}"),
        "sheet_fell_help": _("Fell off the barrel: {score}."),
        "line_dealer": _("Dealer: {name}."),
        "line_bid": _("{name} won the bidding at {bid}."),
        "line_redeal": _("Redeal asked for a weak hand; nothing is scored."),
        "line_redeal_talon": _("{name} asked for a redeal for a weak talon; nothing is scored."),
        "line_declarer_made": _("{name}: cards {points} ≥ {contract}: made, {delta}."),
        "line_declarer_failed": _("{name}: cards {points} < {contract}: failed, {delta}."),
        "line_declarer_made_marriages": _(
            "{name}: cards {points} + marriages {marriages} = {total} ≥ {contract}: made, {delta}."
        ),
        "line_declarer_failed_marriages": _(
            "{name}: cards {points} + marriages {marriages} = {total} < {contract}: failed, {delta}."
        ),
        "line_defender": _("{name}: cards {points} → {rounded}: {delta}."),
        "line_defender_marriages": _(
            "{name}: cards {points} → {rounded} + marriages {marriages}: {delta}."
        ),
        "line_no_tricks": _("{name}: no tricks."),
        "line_written_off": _("{name} wrote the deal off: {delta}."),
        "line_written_off_defender": _("{name}: half the bid, {delta}."),
        "line_resting": _("{name} rests: talon {points} → {delta}."),
        "line_resting_marriages": _(
            "{name} rests: talon {points} + marriage {marriages}: {delta}."
        ),
        "line_bolt": _("Bolt."),
        "line_bolts": _("{n} bolts (doubled)."),
        "note_barrel_attempt": _("{name} on the barrel: attempt {n} of 3 used."),
        "note_barrel_arrived": _("{name} is on the barrel: 880."),
        "note_barrel_fell_attempts": _(
            "{name} falls off the barrel after three attempts: {score}."
        ),
        "note_barrel_fell_bolts": _("{name} falls off the barrel with three bolts: {score}."),
        "note_barrel_fell_displaced": _("{name} is pushed off the barrel: {score}."),
        "note_barrel_fell_simultaneous": _(
            "{name} reached 880 together with another player: {score}."
        ),
        "note_bolt_penalty": _("{name}: three bolts, −120: {score}."),
        "note_samosval": _("Samosval: {name} had exactly {was}, now 0."),
        "note_golden_reset": _("Nobody made a golden contract: all scores and bolts go back to 0."),
        "note_match_won": _("{name} wins the match with {score}."),
        "note_match_finished": _(
            "The match ends after its {n} deals: {name} has the highest score."
        ),
        "note_match_finished_shared": _(
            "The match ends after its {n} deals: the highest score is shared."
        ),
        # connection (table.js)
        "offline": _("Offline — reconnecting…"),
        "reconnected": _("Connected again."),
        "error": _("The server refused that: {message}"),
        "stale": _("The table moved on; here is the latest state."),
        # replay (replay.js)
        "replay_start": _("Start"),
        "replay_back": _("Back"),
        "replay_forward": _("Forward"),
        "replay_end": _("End"),
        "replay_prev_deal": _("Previous deal"),
        "replay_next_deal": _("Next deal"),
        "replay_step": _("Deal {deal}, step {step} of {steps}"),
        "replay_deal_start": _("The cards are dealt."),
        "action_bid": _("{name} bids {value}"),
        "action_pass": _("{name} passes"),
        "action_redeal": _("{name} asks for a redeal"),
        "action_dark": _("{name} plays dark"),
        "action_look": _("{name} looks at the cards"),
        "action_choose_talon": _("{name} takes talon {n}"),
        "action_give": _("{name} gives {card} to {to}"),
        "action_contract": _("{name} names the contract {value}"),
        "action_write_off": _("{name} writes the deal off"),
        "action_play": _("{name} plays {card}"),
        "fair_checking": _("Checking…"),
        "fair_ok": _("Fair: the cards match the commitment and the seeds."),
        "fair_failed": _("Check failed: {reason}"),
        "fair_unavailable": _("The check is not available in this version."),
        "fair_all_ok": _plural(
            lambda n: ngettext(
                "The {n} deal checks out: its cards follow from the commitment and the seeds.",
                "All {n} deals check out: their cards follow from the commitments and the seeds.",
                n,
            )
        ),
        "fair_some_failed": _("{failed} of {n} deals failed the check."),
        "fair_no_data": _("No fair-dealing data for this deal."),
    }
