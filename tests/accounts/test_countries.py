"""The country list is in the alphabetical order of the page's language."""

import pytest
from django.utils import translation

from accounts.countries import collation_key
from accounts.forms import ProfileForm

pytestmark = pytest.mark.django_db


def country_names(language: str) -> list[str]:
    with translation.override(language):
        return [str(label) for value, label in ProfileForm().fields["country"].choices if value]


def comes_in_order(names: list[str], *expected: str) -> bool:
    positions = [names.index(name) for name in expected]
    return positions == sorted(positions)


def test_russian_list_is_in_russian_alphabetical_order():
    names = country_names("ru")

    assert comes_in_order(names, "Аргентина", "Армения", "Аруба", "Афганистан", "Бахрейн")


def test_ukrainian_list_puts_armenia_under_v():
    names = country_names("uk")

    assert comes_in_order(names, "Аргентина", "Аруба", "Афганістан", "Вірменія")


def test_ukrainian_letters_sort_in_the_ukrainian_alphabet():
    # Code-point order would put Є and І before А: they are outside the main block.
    names = country_names("uk")

    assert comes_in_order(names, "Ефіопія", "Єгипет", "Замбія", "Зімбабве", "Ізраїль", "Йорданія")


def test_multi_word_names_sort_among_the_others():
    names = country_names("ru")

    assert comes_in_order(names, "Никарагуа", "Новая Зеландия", "Норвегия")
    assert names[-1] == "Япония"


def test_english_list_sorts_accented_letters_as_their_base_letter():
    names = country_names("en")

    assert comes_in_order(names, "Afghanistan", "Åland Islands", "Albania")


def test_nauru_has_its_english_name():
    names = country_names("en")

    assert "Nauru" in names
    assert "Naoero" not in names


def test_russian_yo_sorts_with_ye():
    assert collation_key("Ёлка", "ru") < collation_key("Ель", "ru") < collation_key("Жук", "ru")
