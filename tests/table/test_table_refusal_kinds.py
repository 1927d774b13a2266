"""A kind of refusal is a class with its facts: built like a dataclass (by position or keyword, every
fact given once), its English filled by them, each its own (two alike are not equal)."""
from decimal import Decimal

import pytest

from croupier.table import refusal as no


def test_a_kind_takes_its_facts_by_position_or_keyword_and_says_them_in_english():
    by_position, by_keyword = no.NoMoreBets("PT-A 20"), no.NoMoreBets(rule="PT-A 20")
    assert by_position.rule == by_keyword.rule == "PT-A 20"
    assert str(by_position) == "no more bets: none is placed or changed now (PT-A 20)"
    assert repr(by_position) == "NoMoreBets(rule='PT-A 20')" and by_position != by_keyword
    value = no.ColourValueNotOneOf("a colour chip is worth one of 5, 10, not 20 (RU 4.7)", Decimal(20), "RU 4.7",
                                   allowed=(Decimal(5), Decimal(10)))
    assert (value.problem, value.value, value.rule, value.allowed) == (str(value), 20, "RU 4.7", (5, 10))
    assert isinstance(value, no.ColourValueRefused) and isinstance(value, no.Refused)


@pytest.mark.parametrize("make, problem", [
    (lambda: no.NoMoreBets(), "missing rule"),
    (lambda: no.NoMoreBets("a", "b"), "takes 1 facts, not 2"),
    (lambda: no.NoMoreBets("a", rule="b"), "'rule' twice"),
    (lambda: no.NoMoreBets(rules="b"), "'rules' which is none of its facts"),
    (lambda: no.TableNotOpen("x"), "takes 0 facts"),
])
def test_a_kind_given_the_wrong_facts_is_a_type_error(make, problem):
    with pytest.raises(TypeError, match=problem):
        make()


def test_every_kind_is_listed_once():
    kinds = no.kinds()
    assert len(kinds) == len(set(kinds)) >= 25 and no.ColourValueRefused not in kinds
