"""A kind of refusal is a class with its facts: built like a dataclass (by position or keyword, every
fact given once), its English filled by them, each its own (two alike are not equal)."""
from decimal import Decimal
from string import Formatter

import pytest

from croupier.table import refusal as no


def test_a_kind_takes_its_facts_by_position_or_keyword_and_says_them_in_english():
    by_position, by_keyword = no.NoMoreBets("PT-A 20"), no.NoMoreBets(rule="PT-A 20")
    assert by_position.rule == by_keyword.rule == "PT-A 20"
    assert str(by_position) == "no more bets: no bet is placed or changed now (PT-A 20)"
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


def test_each_kind_is_said_from_its_own_facts():
    """Every English template names only facts of its kind, and a kind with more than one template
    says the one its facts call for."""
    for kind in no.kinds():
        for template in kind.templates():
            named = {field for _text, field, _spec, _conversion in Formatter().parse(template) if field}
            assert named <= set(kind.fields), (kind.__name__, named - set(kind.fields))
    assert str(no.PinDelayed("Ana", None)) == "wrong PINs for Ana: the next is checked later; this attempt is recorded"
    assert str(no.PinLocked("Ana", 5)).startswith("the PIN of Ana is locked for 5 min more")
    assert no.PinLocked("Ana", 5).facts == {"name": "Ana", "minutes": 5}
