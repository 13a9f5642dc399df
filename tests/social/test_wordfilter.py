"""The chat's word filter (social/wordfilter.py): every match becomes asterisks of its own
length, so what is stored is exactly as long as what was written; a lone letter is never
a match."""

from __future__ import annotations

import pytest
from better_profanity.utils import get_complete_path_of_file, read_wordlist
from hypothesis import given
from hypothesis import strategies as st

from social import services, wordfilter
from social.models import ChatMessage
from tests.games.helpers import started_table

ENGLISH = sorted(read_wordlist(get_complete_path_of_file("profanity_wordlist.txt")))


def test_an_english_match_becomes_as_many_asterisks_as_it_has_letters() -> None:
    assert wordfilter.censor("you motherfucker!") == "you ************!"


def test_a_match_spelt_with_digits_and_separators_is_masked_whole() -> None:
    assert wordfilter.censor("sh1t, s-h-i-t and hand job") == "****, ******* and ********"


def test_lone_letters_are_never_masked() -> None:
    assert wordfilter.censor("x x x, a b c") == "x x x, a b c"


def test_ordinary_words_that_hold_a_listed_one_are_left_alone() -> None:
    assert wordfilter.censor("a classic assassin") == "a classic assassin"


def test_russian_and_ukrainian_words_are_masked_with_their_own_length() -> None:
    assert wordfilter.censor("ну ты блядь, пиздець") == "ну ты *****, *******"


@pytest.mark.django_db
def test_a_message_at_the_length_limit_is_stored_as_long_as_it_was_written(settings) -> None:
    table, (ann, _bob) = started_table(humans=2, bots=1)
    text = ("x " * settings.SOCIAL_CHAT_MAX_LENGTH)[: settings.SOCIAL_CHAT_MAX_LENGTH - 1]

    services.chat_say(user=ann, table_id=table.pk, text=text)

    assert ChatMessage.objects.get().text == text


TEXT = st.lists(
    st.one_of(
        st.sampled_from(ENGLISH),
        st.sampled_from(["блядь", "Пиздец", "x", "X", "a", "sh1t", "fvck", "s.o.b."]),
        st.text(max_size=6),
        st.sampled_from([" ", "  ", "-", ".", "_", "+", "!", "'", '"', "*", "\n"]),
    ),
    max_size=60,
).map("".join)


@given(TEXT)
def test_the_filtered_text_is_always_as_long_as_the_text(text: str) -> None:
    assert len(wordfilter.censor(text)) == len(text)
