"""Concrete views: what each seat and a spectator may see (docs/spec.md §2.3, §2.4, §4, §5,
§6.1, §6.2, §9.11).

Unless a test says otherwise seat 0 deals, seat 1 sits on the forced 100 and seat 2
speaks first (three players).
"""

from __future__ import annotations

import json
import random
from typing import Any

from games.engine import Dark, Look, Match, parse_card
from games.engine.views import known_cards

# Three players. Seat 0: K+Q of spades; seat 1: K+Q of clubs; seat 2: K+Q of diamonds.
HANDS3 = [
    "AS TS KS QS JS 9S AC".split(),
    "TC KC QC JC 9C AD TD".split(),
    "KD QD JD 9D AH TH KH".split(),
]
TALON3 = "QH JH 9H".split()

# Four players, seat 0 deals and rests: the three hands above move one seat on.
HANDS4 = [[], *HANDS3]

# Two players: 10 cards each and two talons of 2.
HANDS2 = [
    "AS TS KS QS JS 9S AC TC KC QC".split(),
    "JC 9C AD TD KD QD JD 9D AH TH".split(),
]
TALONS2 = ["KH QH".split(), "JH 9H".split()]


def act(text: str) -> dict[str, Any]:
    """``"2 give 0 KH"`` -> the §8 action object."""
    seat, kind, *args = text.split()
    out: dict[str, Any] = {"seat": int(seat), "type": kind}
    if kind in ("bid", "contract"):
        out["value"] = int(args[0])
    elif kind == "choose_talon":
        out["index"] = int(args[0])
    elif kind == "give":
        out["to"], out["card"] = int(args[0]), args[1]
    elif kind == "play":
        out["card"] = args[0]
    return out


def match_of(actions: str, *, players: int = 3, **options: Any) -> Match:
    deal: dict[str, Any] = {"actions": [act(a) for a in actions.split(";") if a.strip()]}
    if players == 2:
        deal |= {"hands": HANDS2, "talons": TALONS2}
    else:
        deal |= {"hands": HANDS3 if players == 3 else HANDS4, "talon": TALON3}
    record = {
        "format": "thousand/1",
        "options": {"players": players, **options},
        "first_dealer": 0,
        "deals": [deal],
    }
    return Match.from_record(json.loads(json.dumps(record)))


def cards(view: Any) -> set[str]:
    """Every card a view shows."""
    return {str(c) for c in _all_cards() if known_cards(view) & c.mask}


def _all_cards() -> list[Any]:
    return [parse_card(r + s) for s in "SCDH" for r in "9JQKTA"]


def text(view: Any) -> str:
    return json.dumps(view.to_dict())


def shows(view: Any, card: str) -> bool:
    """The card appears in the view or in its JSON."""
    return card in cards(view) or f'"{card}"' in text(view)


def hand(view: Any) -> set[str] | None:
    return None if view.hand is None else {str(c) for c in view.hand}


# --------------------------------------------------------------------------- §2.4 gives

GIVEN = "2 bid 105; 0 pass; 1 pass; 2 give 0 KH; 2 give 1 9D; 2 contract 105"


def test_defender_sees_his_hand_and_the_card_given_to_him():
    view = match_of(GIVEN).view(0)
    assert view.phase == "play"
    assert hand(view) == set(HANDS3[0]) | {"KH"}
    assert str(view.given_to_me) == "KH"


def test_defender_does_not_see_the_card_given_to_the_other_defender():
    match = match_of(GIVEN)
    assert not shows(match.view(0), "9D")
    assert not shows(match.view(1), "KH")
    assert str(match.view(1).given_to_me) == "9D"


def test_only_the_declarer_sees_both_given_cards():
    match = match_of(GIVEN)
    assert {(to, str(c)) for to, c in match.view(2).given_by_me} == {(0, "KH"), (1, "9D")}
    assert match.view(0).given_by_me == () and match.view(1).given_by_me == ()
    assert match.view(2).given_to_me is None


def test_a_given_card_becomes_public_once_played():
    match = match_of(GIVEN + "; 2 play AH; 0 play KH")
    assert shows(match.view(1), "KH")
    assert not shows(match.view(0), "9D")


def test_seat_sees_no_other_seats_hand_during_play():
    match = match_of(GIVEN)
    deal = match.deal
    assert deal is not None
    for seat in range(3):
        view = match.view(seat)
        for other in range(3):
            if other != seat:
                others = {str(c) for c in _all_cards() if deal.hands[other] & c.mask}
                seen = {c for c in others if shows(view, c)}
                assert seen <= {str(c) for c in view.talon or ()} | {
                    str(c) for _, c in view.given_by_me
                }


# --------------------------------------------------------------------------- §2.3 talon


def test_talon_at_the_forced_100_is_seen_only_by_the_declarer():
    match = match_of("2 pass; 0 pass")
    assert match.view(1).declarer == 1 and match.view(1).bid == 100
    assert [str(c) for c in match.view(1).talon] == sorted(
        TALON3, key=lambda c: parse_card(c).index
    )
    for seat in (0, 2, None):
        view = match.view(seat)
        assert view.talon is None
        assert not any(shows(view, c) for c in TALON3)


def test_closed_talon_stays_closed_after_the_gives():
    match = match_of("2 pass; 0 pass; 1 give 0 QH; 1 give 2 AD; 1 contract 100")
    assert match.view(0).talon is None and str(match.view(0).given_to_me) == "QH"
    assert not shows(match.view(0), "JH") and not shows(match.view(0), "9H")
    assert not any(shows(match.view(2), c) for c in TALON3)


def test_show_talon_on_100_shows_the_talon_at_the_forced_100_to_everyone():
    match = match_of("2 pass; 0 pass", show_talon_on_100=True)
    for seat in (0, 1, 2, None):
        assert {str(c) for c in match.view(seat).talon} == set(TALON3)


def test_talon_is_shown_to_everyone_when_bidding_went_above_100():
    match = match_of("2 bid 105; 0 pass; 1 pass")
    for seat in (0, 1, 2, None):
        assert {str(c) for c in match.view(seat).talon} == set(TALON3)


def test_talon_is_shown_when_the_forced_bidder_himself_wins_above_100():
    match = match_of("2 bid 105; 0 pass; 1 bid 110; 2 pass")
    assert match.view(1).declarer == 1 and match.view(1).bid == 110
    for seat in (0, 2, None):
        assert {str(c) for c in match.view(seat).talon} == set(TALON3)


def test_talon_is_hidden_from_everyone_before_it_is_taken():
    match = match_of("2 bid 105")
    for seat in (0, 1, 2, None):
        view = match.view(seat)
        assert view.talon is None
        assert not any(shows(view, c) for c in TALON3)


# --------------------------------------------------------------------------- §4 two players


def play_out(match: Match, seed: int, check: Any) -> None:
    rng = random.Random(seed)
    check(match)
    while match.to_act is not None:
        match.apply(rng.choice(match.legal_actions()))
        check(match)


def test_two_player_unused_talon_never_appears_in_any_view():
    for actions, unused in (
        ("0 pass; 1 choose_talon 0", TALONS2[1]),
        ("0 bid 105; 1 pass; 0 choose_talon 1", TALONS2[0]),
    ):
        for seed in range(3):

            def check(match: Match, unused: list[str] = unused) -> None:
                for seat in (0, 1, None):
                    assert not any(shows(match.view(seat), c) for c in unused)

            play_out(match_of(actions, players=2, redeal=False), seed, check)


def test_two_player_chosen_talon_at_the_forced_100_is_closed_to_the_opponent():
    match = match_of("0 pass; 1 choose_talon 0", players=2)
    assert {str(c) for c in match.view(1).talon} == set(TALONS2[0])
    assert match.view(0).talon is None and match.view(None).talon is None
    assert not shows(match.view(0), "KH") and not shows(match.view(0), "QH")


def test_two_player_chosen_talon_above_100_is_shown_to_the_opponent():
    match = match_of("0 bid 105; 1 pass; 0 choose_talon 1", players=2)
    assert {str(c) for c in match.view(1).talon} == set(TALONS2[1])


# --------------------------------------------------------------------------- §5 four players


def test_four_player_resting_dealer_has_no_hand():
    match = match_of("", players=4)
    view = match.view(0)
    assert view.resting == 0 and view.hand is None and view.hand_sizes[0] == 0
    assert known_cards(view) == 0
    assert all(not shows(view, c) for h in HANDS3 for c in h)


def test_four_player_resting_dealer_sees_only_public_cards_through_the_deal():
    def check(match: Match) -> None:
        view = match.view(0)
        assert view.hand is None and view.given_to_me is None
        spectator = match.view(None)
        assert cards(view) == cards(spectator)

    for seed in range(3):
        play_out(match_of("2 bid 105; 3 pass; 1 pass", players=4), seed, check)
        play_out(match_of("2 pass; 3 pass", players=4), seed, check)


def test_four_player_resting_dealer_sees_a_talon_shown_to_everyone():
    match = match_of("2 bid 105; 3 pass; 1 pass", players=4)
    assert {str(c) for c in match.view(0).talon} == set(TALON3)
    assert match_of("2 pass; 3 pass", players=4).view(0).talon is None


# --------------------------------------------------------------------------- §6.1 dark


def test_forced_bidder_does_not_see_his_hand_during_the_dark_decision():
    match = match_of("", dark=True)
    view = match.view(1)
    assert view.phase == "dark_decision" and view.to_act == 1
    assert view.hand is None
    assert set(view.legal) == {Dark(), Look()}
    assert not any(shows(view, c) for c in HANDS3[1])
    assert hand(match.view(2)) == set(HANDS3[2]), "the others see their cards"


def test_forced_bidder_does_not_see_his_hand_while_his_blind_120_stands():
    for actions in ("1 dark", "1 dark; 2 pass"):
        view = match_of(actions, dark=True).view(1)
        assert view.phase == "bidding" and view.hand is None
        assert not any(shows(view, c) for c in HANDS3[1])


def test_forced_bidder_sees_his_hand_once_his_blind_120_is_outbid():
    match = match_of("1 dark; 2 bid 125", dark=True)
    assert hand(match.view(1)) == set(HANDS3[1])
    assert match.view(1).dark is False


def test_forced_bidder_sees_his_hand_after_saying_look():
    match = match_of("1 look", dark=True)
    assert hand(match.view(1)) == set(HANDS3[1])


def test_dark_talon_is_seen_by_the_dark_declarer_only():
    match = match_of("1 dark; 2 pass; 0 pass", dark=True)
    declarer = match.view(1)
    assert declarer.declarer == 1 and declarer.dark
    assert hand(declarer) == set(HANDS3[1]) | set(TALON3), "he sees his cards to give"
    assert {str(c) for c in declarer.talon} == set(TALON3)
    for seat in (0, 2, None):
        view = match.view(seat)
        assert view.talon is None
        assert not any(shows(view, c) for c in TALON3)


def test_dark_talon_stays_hidden_even_with_show_talon_on_100():
    match = match_of("1 dark; 2 pass; 0 pass", dark=True, show_talon_on_100=True)
    assert match.view(0).talon is None and match.view(None).talon is None


def test_golden_deal_talon_is_not_shown_to_the_others():
    match = match_of("", golden=True)
    assert match.view(1).declarer == 1 and match.view(1).golden
    assert {str(c) for c in match.view(1).talon} == set(TALON3)
    for seat in (0, 2, None):
        assert match.view(seat).talon is None
        assert not any(shows(match.view(seat), c) for c in TALON3)


def test_look_in_a_dark_table_is_a_normal_deal_with_an_open_talon_above_100():
    match = match_of("1 look; 2 bid 105; 0 pass; 1 pass", dark=True)
    assert {str(c) for c in match.view(0).talon} == set(TALON3)
    assert match.view(0).dark is False


# --------------------------------------------------------------------------- spectators


def test_spectator_sees_no_hand_and_no_given_card_at_any_point():
    def check(match: Match) -> None:
        view = match.view(None)
        assert view.seat is None and view.hand is None
        assert view.given_to_me is None and view.given_by_me == ()
        assert view.legal == ()
        deal = match.deal
        assert deal is not None
        public = deal.played | (0 if view.talon is None else sum(c.mask for c in view.talon))
        assert known_cards(view) & ~public == 0

    for players, actions in (
        (3, GIVEN),
        (3, "2 pass; 0 pass"),
        (4, "2 pass; 3 pass"),
        (2, "0 pass; 1 choose_talon 0"),
    ):
        for seed in range(2):
            play_out(match_of(actions, players=players, redeal=False), seed, check)


def test_spectator_view_json_holds_no_card_of_any_hand():
    match = match_of(GIVEN)
    body = text(match.view(None))
    assert not any(f'"{c}"' in body for h in HANDS3 for c in h)


def test_legal_actions_are_shown_only_to_the_seat_to_act():
    match = match_of("2 bid 105")
    assert match.view(0).legal == tuple(match.legal_actions())
    assert match.view(1).legal == () and match.view(2).legal == ()


def test_looking_at_a_seat_that_does_not_exist_is_an_error():
    match = match_of("")
    for seat in (-1, 3):
        try:
            match.view(seat)
        except ValueError:
            continue
        raise AssertionError(f"view({seat}) was allowed")


def test_blind_forced_bidder_view_json_holds_none_of_his_cards():
    for actions in ("", "1 dark", "1 dark; 2 pass"):
        body = text(match_of(actions, dark=True).view(1))
        assert not any(f'"{c}"' in body for c in HANDS3[1])


def test_look_action_object_is_offered_in_the_dark_decision():
    assert Look() in match_of("", dark=True).legal_actions()


def test_a_view_survives_the_trip_through_json() -> None:
    import json
    import random

    from games.engine import Match
    from games.engine.views import View

    rng = random.Random(4)
    match = Match.new(seed=4)
    for _ in range(120):
        for seat in (*range(match.players), None):
            view = match.view(seat)
            assert View.from_dict(json.loads(json.dumps(view.to_dict()))) == view
        match.apply(rng.choice(match.legal_actions()))
